"""Held streams (wordsvc/server/streams.py) from outside: the real server, tests/server_app.py's channel, raw sockets.

A channel of tests/server_app.py is a file of lines, message n its n-th line;
``/publish`` appends and tells the worker's streams. One worker, so the
worker that holds the streams is the one told. Nothing here waits on time
but the heartbeat's own period; every wait is for something to happen.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import PATIENCE, Server, get, metric_lines, rejected, wait_for

#: A channel name per test, so the module's server serves each test afresh.
_names = iter(range(1_000_000))


class StreamClient:
    """One stream on a raw socket: its head, then its chunked body parsed into messages as they come."""

    def __init__(self, port: int, channel: str, after: int | None = None, version: str = "1.1", key: str | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
        query = f"channel={channel}" + ("" if after is None else f"&after={after}") + ("" if key is None else f"&key={key}")
        self.sock.sendall(f"GET /stream?{query} HTTP/{version}\r\nHost: t\r\n\r\n".encode())
        self.raw = b""
        self.status, self.headers = self._head()
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self.body = b""  # the body so far, chunks joined
        self.ended = False  # the last chunk (or, unchunked, the end of the connection) has come

    def _read(self) -> bool:
        data = self.sock.recv(65536)
        self.raw += data
        return bool(data)

    def _head(self) -> tuple[int, dict[str, str]]:
        while b"\r\n\r\n" not in self.raw:
            assert self._read(), "closed before the head"
        head, self.raw = self.raw.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        return int(lines[0].split()[1]), {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}

    def _parse(self) -> None:
        if not self.chunked:
            self.body, self.raw = self.body + self.raw, b""
            return
        while b"\r\n" in self.raw:
            size_line, rest = self.raw.split(b"\r\n", 1)
            size = int(size_line, 16)
            if len(rest) < size + 2:
                return
            assert rest[size : size + 2] == b"\r\n", "a chunk not followed by CRLF"
            if size == 0:
                self.ended = True
            self.body += rest[:size]
            self.raw = rest[size + 2 :]

    def until(self, condition: Callable[[StreamClient], bool], what: str) -> None:
        """Read until ``condition(self)`` holds; fail naming ``what`` if the stream ends first."""
        self._parse()
        while not condition(self):
            assert not self.ended, f"the stream ended before {what}"
            if not self._read():
                self.ended = True
                assert condition(self), f"the connection closed before {what}"
                return
            self._parse()

    def ids(self) -> list[int]:
        return [int(line[4:]) for line in self.body.decode().splitlines() if line.startswith("id: ")]

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def streaming(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One worker with two pool threads, a stream cap of 60 (30 a client) and an hour between heartbeats."""
    srv = Server(tmp_path_factory.mktemp("streams") / "server.log", workers=1, threads=2, max_streams=60, max_client_streams=30, stream_heartbeat=3600)
    yield srv
    assert srv.stop() == 0


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """A server of one worker with the options given, for one test; stopped afterwards."""
    started: list[Server] = []

    def make(**options: Any) -> Server:
        started.append(Server(tmp_path / f"server{len(started)}.log", workers=1, **options))
        return started[-1]

    yield make
    for srv in started:
        srv.stop()


def channel() -> str:
    return f"c{next(_names)}"


def test_every_stream_gets_every_message_once_and_in_order_while_the_pool_stays_free(streaming: Server) -> None:
    name = channel()
    clients = [StreamClient(streaming.port, name) for _ in range(25)]
    try:
        assert {client.status for client in clients} == {200}
        assert {client.headers["content-type"] for client in clients} == {"text/event-stream"}
        assert "content-length" not in clients[0].headers
        # 25 streams held by a worker with 2 pool threads: a plain request is still answered at once
        assert get(streaming.port, "/pid")[0] == 200
        for i in range(10):
            assert get(streaming.port, f"/publish?channel={name}&text=m{i}")[0] == 200
        for client in clients:
            client.until(lambda c: len(c.ids()) >= 10, "ten messages")
            assert client.ids() == list(range(1, 11))
            assert [line for line in client.body.decode().splitlines() if line.startswith("data: ")] == [f"data: m{i}" for i in range(10)]
    finally:
        for client in clients:
            client.close()


def test_a_stream_that_resumes_gets_what_it_missed_and_nothing_twice(streaming: Server) -> None:
    name = channel()
    get(streaming.port, f"/publish?channel={name}&n=5")
    first = StreamClient(streaming.port, name, after=2)
    first.until(lambda c: c.ids() == [3, 4, 5], "messages 3 to 5")
    get(streaming.port, f"/publish?channel={name}&n=2")
    first.until(lambda c: len(c.ids()) >= 5, "messages 6 and 7")
    assert first.ids() == [3, 4, 5, 6, 7]
    first.close()


def test_a_stream_opened_while_a_fetch_runs_gets_every_message_from_its_own_cursor(streaming: Server) -> None:
    name = channel()
    channels = streaming.channels
    ahead = StreamClient(streaming.port, name)
    get(streaming.port, f"/publish?channel={name}&text=one")
    ahead.until(lambda c: c.ids() == [1], "message 1")
    (channels / f"{name}.hold").touch()
    get(streaming.port, f"/publish?channel={name}&text=two")  # its fetch starts from 1 and waits
    wait_for(lambda: (channels / f"{name}.fetching").exists(), "the fetch to start")
    behind = StreamClient(streaming.port, name, after=0)  # opened from 0 while the fetch from 1 runs
    (channels / f"{name}.hold").unlink()
    ahead.until(lambda c: len(c.ids()) >= 2, "message 2")
    behind.until(lambda c: len(c.ids()) >= 2, "messages 1 and 2")
    assert (ahead.ids(), behind.ids()) == ([1, 2], [1, 2])
    ahead.close()
    behind.close()


def test_streams_past_the_cap_get_503_and_held_streams_leave_the_connection_count(streaming: Server, tmp_path: Any) -> None:
    name = channel()
    before = rejected(streaming.port)
    clients = [StreamClient(streaming.port, name) for _ in range(30)]
    try:
        refused = StreamClient(streaming.port, name)
        assert refused.status == 503
        assert refused.headers["retry-after"] == "1"
        refused.until(lambda c: b"as many streams as the server gives one client" in c.body, "the problem's detail")
        refused.close()
        assert rejected(streaming.port).get("too_many_client_streams", 0) == before.get("too_many_client_streams", 0) + 1
        assert [line for line in metric_lines(streaming.port) if line.startswith("wordsvc_server_streams ")] == ["wordsvc_server_streams 30.0"]
    finally:
        for client in clients:
            client.close()
    wait_for(lambda: "wordsvc_server_streams 0.0" in metric_lines(streaming.port), "the closed streams to be forgotten")


def test_an_http_1_0_stream_is_not_chunked_and_ends_with_the_connection(streaming: Server) -> None:
    name = channel()
    client = StreamClient(streaming.port, name, version="1.0")
    assert client.status == 200 and not client.chunked and client.headers.get("connection") == "close"
    get(streaming.port, f"/publish?channel={name}&text=plain")
    client.until(lambda c: b"data: plain" in c.body, "the message")
    client.close()


def test_an_idle_stream_gets_a_keep_alive_comment_every_heartbeat(start: Callable[..., Server]) -> None:
    srv = start(stream_heartbeat=0.2)
    client = StreamClient(srv.port, "beat")
    client.until(lambda c: c.body.count(b": keep-alive\n\n") >= 2, "two heartbeats")
    client.close()


def silent_stream(port: int, query: str) -> socket.socket:
    """A stream whose client never reads (its receive buffer as small as the kernel allows), open once the worker holds it."""
    silent = socket.socket()
    silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting, so the window stays small
    silent.connect(("127.0.0.1", port))
    silent.sendall(f"GET /stream?{query} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    return silent


def streams_open(port: int) -> float:
    return float(next(line for line in metric_lines(port) if line.startswith("wordsvc_server_streams ")).split()[1])


def test_a_client_that_does_not_read_is_cut_and_others_go_on(start: Callable[..., Server]) -> None:
    srv = start(stream_buffer=4096)
    silent = silent_stream(srv.port, "channel=slow")
    reader = StreamClient(srv.port, "slow")
    wait_for(lambda: streams_open(srv.port) == 2, "both streams held")
    for i in range(40):  # 40 x 256 KiB: more than any socket buffer holds; the reader takes each whole
        get(srv.port, "/publish?channel=slow&size=262144")
        reader.until(lambda c, i=i: c.body.count(b"data: ") > i and c.body.endswith(b"\n\n"), f"message {i + 1}")
    assert reader.ids() == list(range(1, 41))
    wait_for(lambda: rejected(srv.port).get("stream_slow", 0) >= 1, "the silent client to be cut")
    silent.close()
    reader.close()


def test_a_caught_up_client_that_stops_reading_is_cut_once_its_unsent_bytes_pass_the_bound(start: Callable[..., Server]) -> None:
    """Counted in bytes: 1 KiB messages, each read by another stream before the next, so every one has been written to both."""
    srv = start(stream_buffer=65536)
    silent = silent_stream(srv.port, "channel=bound")
    reader = StreamClient(srv.port, "bound")
    wait_for(lambda: streams_open(srv.port) == 2, "both streams held")
    written = 0
    for i in range(200):
        get(srv.port, "/publish?channel=bound&size=1000")
        reader.until(lambda c, i=i: len(c.ids()) > i, f"message {i + 1}")
        written += len(b"id: %d\ndata: " % (i + 1)) + 1000 + 2 + len(b"%x\r\n\r\n" % 1000)  # the message, chunked
        cut = rejected(srv.port).get("stream_slow", 0) >= 1
        if written <= 65536:
            assert not cut, f"cut after {written} bytes, within the bound"
        elif cut:
            break
    # the client's own receive buffer (a few KiB) holds what its kernel acknowledged; the server's count is past the bound
    assert cut and written <= 65536 + 16384, f"not cut after {written} bytes"
    assert reader.ids() == list(range(1, i + 2))
    silent.close()
    reader.close()


def test_a_draining_worker_ends_its_streams_with_the_last_chunk_and_exits_at_once(start: Callable[..., Server]) -> None:
    srv = start(drain_seconds=60)
    clients = [StreamClient(srv.port, "drain") for _ in range(5)]
    srv.proc.send_signal(signal.SIGTERM)
    for client in clients:
        client.until(lambda c: c.ended, "the last chunk")
        assert client.raw == b""  # nothing after it
        client.close()
    assert srv.proc.wait(PATIENCE / 2) == 0  # long before drain_seconds: a stream does not hold the drain


def test_the_streams_of_a_key_the_app_ends_get_the_last_chunk_and_the_others_go_on(streaming: Server) -> None:
    name = channel()
    ended, other, anonymous = StreamClient(streaming.port, name, key="a"), StreamClient(streaming.port, name, key="b"), StreamClient(streaming.port, name)
    get(streaming.port, f"/publish?channel={name}&text=before")
    for client in (ended, other, anonymous):
        client.until(lambda c: c.ids() == [1], "message 1")
    get(streaming.port, f"/revoke?channel={name}&key=a")
    ended.until(lambda c: c.ended, "the last chunk")
    assert ended.raw == b"" and ended.ids() == [1]
    get(streaming.port, f"/publish?channel={name}&text=after")
    for client in (other, anonymous):
        client.until(lambda c: c.ids() == [1, 2], "message 2")
        client.close()
    ended.close()


def test_head_on_a_stream_answers_its_head_without_a_length_and_holds_nothing(streaming: Server) -> None:
    with socket.create_connection(("127.0.0.1", streaming.port), timeout=PATIENCE) as sock:
        sock.sendall(b"HEAD /stream?channel=head HTTP/1.1\r\nHost: t\r\n\r\nGET /pid HTTP/1.1\r\nHost: t\r\n\r\n")
        raw = b""
        while raw.count(b"HTTP/1.1 200") < 2 or not raw.endswith(b"}"):
            data = sock.recv(65536)
            assert data, f"closed: {raw!r}"
            raw += data
    head, _, rest = raw.partition(b"\r\n\r\n")
    assert b"content-type: text/event-stream" in head.lower()
    assert b"content-length" not in head.lower() and b"transfer-encoding" not in head.lower()
    assert rest.startswith(b"HTTP/1.1 200")  # no body after the head, and not held: the next answer on the connection follows it


def test_at_a_hard_descriptor_limit_of_1024_a_worker_holds_hundreds_of_streams_and_says_so(start: Callable[..., Server]) -> None:
    srv = start(nofile=1024)  # soft and hard: the soft limit cannot be raised
    (found,) = srv.events("descriptors")
    assert (found["soft"], found["hard"], found["max_streams"], found["max_connections"]) == (1024, 1024, 448, 448)
    name = channel()
    clients = [StreamClient(srv.port, name) for _ in range(12)]  # a projector and consoles, and more
    try:
        assert [client.status for client in clients] == [200] * 12
        assert get(srv.port, "/pid")[0] == 200  # and requests are still answered beside them
    finally:
        for client in clients:
            client.close()

"""The HTTP server (wordsvc.server) from outside: a real master and workers on a loopback port, raw sockets.

Each test starts ``python -m wordsvc.server`` with the tiny app of
tests/server_app.py and small timeouts (the defaults ship; these keep the
run short), then does what a slow, silent, malformed or greedy client does
and checks that the server cuts it off in the one error shape while
``/health`` keeps answering.

No test passes or fails by how long something took. A cut-off is observed as
the close itself (and counted in ``wordsvc_server_rejected_total``), whenever
it comes; "/health answers while slow clients are held" is checked on a server
that holds them for an hour, so they are provably still held after every probe;
requests held in the app let go when the test says so (tests/server_app.py
``hold``), not after a sleep. Waits poll for what must happen, for at most
:data:`PATIENCE`. The latencies themselves are figures of bench/resilience.py.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote
from weakref import WeakKeyDictionary

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
#: Seconds a test waits for what must happen (an answer, a close, a log line) before it gives up: a safety net
#: against a hang, never a measure. Nothing here normally takes a hundredth of it.
PATIENCE = 60.0
#: An hour: the timeouts of the ``patient`` server, so what a slow client holds stays held while a test looks.
HOUR = 3600

T = TypeVar("T")


def wait_for(condition: Callable[[], T], what: str) -> T:
    """Poll ``condition`` until it returns something true, and return that; fail naming ``what`` after :data:`PATIENCE` seconds."""
    give_up = time.monotonic() + PATIENCE
    while not (found := condition()):
        assert time.monotonic() < give_up, f"gave up waiting for {what}"
        time.sleep(0.02)
    return found


def held(path: str, **params: object) -> str:
    """``path`` with the query of a held request (tests/server_app.py ``hold``): ``mark``, ``until`` (files), ``drain``, ``s``."""
    return path + "?" + "&".join(f"{name}={quote(str(value))}" for name, value in params.items())


# -- the server under test ---------------------------------------------------------------------------


def complete_lines(text: str) -> list[str]:
    """The lines a writer has finished: a log read while a worker writes may end halfway through one."""
    return text.split("\n")[:-1]


class Server:
    """``python -m wordsvc.server`` on port 0 (the kernel picks), its stderr in a file we can read."""

    def __init__(self, log_path: Path, nofile: int | None = None, **options: Any):
        """``options`` are the server's command-line options; ``nofile`` limits the descriptors it may open (RLIMIT_NOFILE)."""
        args = [sys.executable, "-m", "wordsvc.server", "--app", "server_app:create_app", "--port", "0"]
        for name, value in options.items():
            if name == "inline_paths":
                args += [arg for path in sorted(value) for arg in ("--inline-path", path)]
            else:
                args += ["--" + name.replace("_", "-"), str(value)]
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
        env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT)])
        self.received = log_path.with_name(log_path.stem + ".received")  # tests/server_app.py notes every request it is given
        env["SERVER_APP_RECEIVED"] = str(self.received)
        self.channels = log_path.with_name(log_path.stem + ".channels")  # the streams' messages (tests/server_app.py /stream)
        self.channels.mkdir(exist_ok=True)
        env["SERVER_APP_CHANNELS"] = str(self.channels)
        self.log_path = log_path
        self._log = open(log_path, "wb")
        limit = None if nofile is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
        self.proc = subprocess.Popen(args, cwd=TESTS, env=env, stdout=subprocess.DEVNULL, stderr=self._log, preexec_fn=limit, start_new_session=True)
        self.port = self._wait_listening()
        self.workers = options.get("workers", 2)
        self._wait_serving()

    def events(self, name: str | None = None) -> list[dict[str, Any]]:
        """The JSON log lines (all, or those of one event)."""
        out = []
        for line in complete_lines(self.log_path.read_text(errors="replace")):
            if line.startswith("{"):
                event = json.loads(line)
                if name is None or event.get("event") == name:
                    out.append(event)
        return out

    def worker_pids(self) -> set[int]:
        started = {e["worker"] for e in self.events("worker_started")}
        gone = {e["worker"] for e in self.events("worker_exited")}
        return started - gone

    def _wait_listening(self) -> int:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("server exited: " + self.log_path.read_text())
            found = re.search(r'"event": "listening".*?"port": (\d+)|INFO listening .*?port=(\d+)', self.log_path.read_text(errors="replace"))
            if found:
                return int(found.group(1) or found.group(2))
            time.sleep(0.05)
        raise AssertionError("server did not listen: " + self.log_path.read_text())

    def _wait_serving(self) -> None:
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            if self.log_path.read_text(errors="replace").count("worker_ready") >= self.workers:  # the master hands them connections
                try:
                    if get(self.port, "/health")[0] == 200:
                        return
                except OSError:
                    pass
            time.sleep(0.05)
        raise AssertionError("server did not serve: " + self.log_path.read_text())

    def stop(self, timeout: float = PATIENCE) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self._log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the attacks and framing cases: 2 workers, short timeouts, a 4 KiB body limit."""
    srv = Server(
        tmp_path_factory.mktemp("server") / "server.log",
        workers=2,
        threads=4,
        header_timeout=3,
        body_timeout=2,
        keepalive_timeout=2,
        write_timeout=2,
        max_body=4096,
        max_header_bytes=8192,
    )
    yield srv
    assert srv.stop() == 0


@pytest.fixture(scope="module")
def patient(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that gives slow clients an hour: what they hold stays held while a test probes /health beside them.

    One worker, so the worker that holds them is the one that answers the probes.
    """
    srv = Server(
        tmp_path_factory.mktemp("patient") / "server.log",
        workers=1,
        threads=4,
        header_timeout=HOUR,
        body_timeout=HOUR,
        keepalive_timeout=HOUR,
        write_timeout=HOUR,
        max_body=4096,
    )
    yield srv
    assert srv.stop() == 0


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start a server with its own options for one test; stopped (if still running) afterwards."""
    started: list[Server] = []

    def make(**options: Any) -> Server:
        srv = Server(tmp_path / f"server{len(started)}.log", **options)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


# -- a small client ----------------------------------------------------------------------------------


_unread: WeakKeyDictionary[socket.socket, bytes] = WeakKeyDictionary()


def read_response(sock: socket.socket, head_only: bool = False) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 response from ``sock`` (Content-Length framed, as every answer of this server is).

    Bytes read past it (a pipelined next response) are kept for the next call on the same socket.
    """
    data = _unread.pop(sock, b"")
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a response head: {data!r}")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = 0 if head_only else int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed inside a response body")
        rest += chunk
    if rest[length:]:
        _unread[sock] = rest[length:]
    return status, headers, rest[:length]


def exchange(port: int, raw: bytes, timeout: float = PATIENCE) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(raw)
        return read_response(sock)


def get(port: int, path: str, timeout: float = PATIENCE, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    return exchange(port, f"{method} {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode(), timeout)


def get_json(port: int, path: str, timeout: float = PATIENCE) -> Any:
    status, _, body = get(port, path, timeout)
    assert status == 200, body
    return json.loads(body)


def assert_problem(response: tuple[int, dict[str, str], bytes], status: int, slug: str) -> dict[str, Any]:
    got, headers, body = response
    assert got == status, body
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    problem = json.loads(body)
    assert problem["type"] == f"/docs#problem-{slug}"
    assert problem["status"] == status
    assert problem["errors"]["request"] and problem["detail"]
    assert problem["request_id"] == headers["x-request-id"] and len(problem["request_id"]) == 32
    return problem


# -- what the server counts, read from /metrics ------------------------------------------------------


def metric_lines(port: int) -> list[str]:
    return get(port, "/metrics")[2].decode().splitlines()


def rejected(port: int) -> dict[str, float]:
    """``wordsvc_server_rejected_total`` by reason, summed over the workers: what the server refused or cut itself (reasons at 0 left out)."""
    counts = {}
    for line in metric_lines(port):
        if line.startswith("wordsvc_server_rejected_total{") and float(line.rsplit(" ", 1)[1]):
            counts[line.split('reason="')[1].split('"')[0]] = float(line.rsplit(" ", 1)[1])
    return counts


def rejected_since(port: int, before: dict[str, float]) -> dict[str, float]:
    """What :func:`rejected` counted since ``before`` (only the reasons that moved)."""
    return {reason: count - before.get(reason, 0.0) for reason, count in rejected(port).items() if count != before.get(reason, 0.0)}


def connections(port: int) -> float:
    """``wordsvc_server_connections``: the connections the workers hold now, the one asking among them."""
    (gauge,) = (float(line.split()[1]) for line in metric_lines(port) if line.startswith("wordsvc_server_connections "))
    return gauge


def refused_in_log(srv: Server, since: int, reason: str) -> list[int]:
    """The statuses the server wrote (its access log, from line ``since`` of its ``request`` events) to requests refused for ``reason``."""
    return [e["status"] for e in srv.events("request")[since:] if e.get("reason") == reason]


# -- slow clients ------------------------------------------------------------------------------------


def connect(port: int, n: int) -> list[socket.socket]:
    return [socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) for _ in range(n)]


@contextmanager
def holding(port: int, n: int) -> Iterator[list[socket.socket]]:
    """``n`` new connections to ``port``, closed when the block ends."""
    socks = connect(port, n)
    try:
        yield socks
    finally:
        for s in socks:
            s.close()


def drive(socks: list[socket.socket], every: float = 0.0, send: Callable[[int], bytes] | None = None) -> list[tuple[bytes, str]]:
    """Hold ``socks`` until the server has ended every one, sending ``send(n)`` on each every ``every`` s; what each got and how it ended.

    Gives up after :data:`PATIENCE` seconds, leaving what is still open as ``"open"``.
    """
    got = {s: b"" for s in socks}
    ended: dict[socket.socket, str] = {}
    with selectors.DefaultSelector() as sel:
        for s in socks:
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
        start = time.monotonic()
        end, next_send, n = start + PATIENCE, start + every if every else float("inf"), 1
        while (now := time.monotonic()) < end and len(ended) < len(socks):
            for key, _ in sel.select(max(0.0, min(end, next_send) - now)):
                s = key.fileobj  # type: ignore[assignment]
                try:
                    data = s.recv(65536)
                except ConnectionResetError:
                    data, ended[s] = b"", "reset"
                if not data:
                    ended.setdefault(s, "closed")
                    sel.unregister(s)
                else:
                    got[s] += data
            if time.monotonic() >= next_send and send is not None:
                for s in socks:
                    if s not in ended:
                        try:
                            s.sendall(send(n))
                        except OSError:
                            pass
                next_send, n = next_send + every, n + 1
    return [(got[s], ended.get(s, "open")) for s in socks]


def assert_cut_off(outcomes: list[tuple[bytes, str]], status: int | None) -> None:
    """Every slow client was closed; any that got an answer got ``status`` as problem+json, never a 500."""
    for data, how in outcomes:
        assert how in ("closed", "reset"), f"still open: {data!r}"
        if data:
            head, _, body = data.partition(b"\r\n\r\n")
            assert status is not None and head.startswith(f"HTTP/1.1 {status} ".encode()), data
            assert b"application/problem+json" in head
            assert json.loads(body)["status"] == status


def unclosed(sock: socket.socket) -> bool:
    """Whether ``sock``'s server still holds it: it has neither closed nor reset it (bytes waiting are peeked at, not read)."""
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        return sock.recv(1, socket.MSG_PEEK) != b""
    except BlockingIOError:
        return True  # nothing to read, and no end: open
    except ConnectionResetError:
        return False
    finally:
        sock.settimeout(timeout)


def settled(srv: Server) -> None:
    """Wait until ``srv`` holds no connection but the one asking (those of an earlier test are gone)."""
    wait_for(lambda: connections(srv.port) == 1, "the server to let go of earlier connections")


def assert_health_answers_while_held(srv: Server, socks: list[socket.socket], between: Callable[[], None] = lambda: None, probes: int = 20) -> None:
    """/health answers ``probes`` times (each on a new connection, ``between()`` after each) while ``srv`` holds every one of ``socks``.

    The order of events is the proof, not the probes' speed: ``srv`` (the patient server, after :func:`settled`) counts
    every one of ``socks`` among its connections before the first probe, and has closed none of them after the last.
    """
    wait_for(lambda: connections(srv.port) == len(socks) + 1, f"the server to hold all {len(socks)} connections")
    for _ in range(probes):
        assert get(srv.port, "/health")[0] == 200
        between()
    closed = [s for s in socks if not unclosed(s)]
    assert not closed, f"{len(closed)} of {len(socks)} connections were closed while /health was probed"


@contextmanager
def unread_big_response(port: int) -> Iterator[socket.socket]:
    """A connection that asked for 32 MiB and reads none of it, once the answer has begun to arrive; closed when the block ends."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(PATIENCE)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"GET /big?mb=32 HTTP/1.1\r\nHost: t\r\n\r\n")
        assert sock.recv(1, socket.MSG_PEEK)  # the answer has begun: left unread
        yield sock


SLOW_HEAD = b"GET /health HTTP/1.1\r\nHost: t\r\n"  # no end of the head: more header lines follow, slowly
SLOW_BODY_HEAD = b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n"


def header_lines(socks: list[socket.socket]) -> Callable[[], None]:
    """Each call sends one more header line on every one of ``socks``: a slowloris keeping its heads open."""
    numbers = itertools.count(1)

    def send() -> None:
        line = f"X-Slow-{next(numbers)}: y\r\n".encode()
        for s in socks:
            s.sendall(line)

    return send


# -- 1. slow, silent and greedy clients --------------------------------------------------------------


def test_silent_connections_are_closed_after_the_header_timeout_while_health_answers(server: Server, patient: Server) -> None:
    settled(patient)
    with holding(patient.port, 2) as socks:
        assert_health_answers_while_held(patient, socks)
    before = rejected(server.port)
    with holding(server.port, 2) as socks:
        outcomes = drive(socks)
    assert_cut_off(outcomes, None)
    assert [data for data, _ in outcomes] == [b"", b""]  # nothing was asked, so nothing is answered: just closed
    assert rejected_since(server.port, before) == {"timeout_headers": 2}


def test_slowloris_gets_408_at_the_header_timeout_while_health_answers(server: Server, patient: Server) -> None:
    settled(patient)
    with holding(patient.port, 50) as socks:
        for s in socks:
            s.sendall(SLOW_HEAD)
        assert_health_answers_while_held(patient, socks, between=header_lines(socks))
    before, logged = rejected(server.port), len(server.events("request"))
    with holding(server.port, 50) as socks:
        for s in socks:
            s.sendall(SLOW_HEAD)
        outcomes = drive(socks, every=2.0, send=lambda n: f"X-Slow-{n}: y\r\n".encode())
    assert_cut_off(outcomes, 408)
    assert rejected_since(server.port, before) == {"timeout_headers": 50}
    assert refused_in_log(server, logged, "timeout_headers") == [408] * 50  # each answered 408, not merely dropped


def test_idle_keepalive_connections_are_closed_after_the_keepalive_timeout_while_health_answers(server: Server, patient: Server) -> None:
    def kept_alive(socks: list[socket.socket]) -> None:
        for s in socks:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert read_response(s)[0] == 200

    settled(patient)
    with holding(patient.port, 300) as socks:
        kept_alive(socks)
        assert_health_answers_while_held(patient, socks)
    with holding(server.port, 300) as socks:
        kept_alive(socks)
        outcomes = drive(socks)
    assert_cut_off(outcomes, None)
    assert not any(data for data, _ in outcomes)


def test_slow_bodies_get_408_at_the_body_timeout_while_health_answers(server: Server, patient: Server) -> None:
    settled(patient)
    with holding(patient.port, 20) as socks:
        for s in socks:
            s.sendall(SLOW_BODY_HEAD)

        def one_more_byte() -> None:
            for s in socks:
                s.sendall(b"x")

        assert_health_answers_while_held(patient, socks, between=one_more_byte)  # 20 of the 1,000 bytes: still short
    before, logged = rejected(server.port), len(server.events("request"))
    with holding(server.port, 20) as socks:
        for s in socks:
            s.sendall(SLOW_BODY_HEAD)
        outcomes = drive(socks, every=1.0, send=lambda n: b"x")
    assert_cut_off(outcomes, 408)
    assert rejected_since(server.port, before) == {"timeout_body": 20}
    assert refused_in_log(server, logged, "timeout_body") == [408] * 20


CLIENT_HELLO = (
    bytes.fromhex("16030100f8010000f40303") + os.urandom(32) + bytes.fromhex("20") + os.urandom(32) + b"\x00\x08\x13\x02\x13\x03\x13\x01\x00\xff\x01\x00"
)


def test_tls_bytes_on_the_plain_port_get_400_at_once(server: Server) -> None:
    before = rejected(server.port)
    with holding(server.port, 5) as socks:
        for s in socks:
            s.sendall(CLIENT_HELLO)
        outcomes = drive(socks)
    assert_cut_off(outcomes, 400)  # a 400 from the first bytes, not a 408 at the header timeout
    assert all(b"plain HTTP, not TLS" in data for data, _ in outcomes)
    assert rejected_since(server.port, before) == {"tls_on_plain_port": 5}
    assert get(server.port, "/health")[0] == 200


# -- 2. framing errors are the client's ---------------------------------------------------------------

CHUNKED = b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
FRAMING_ERRORS = {
    "chunk size zz": (CHUNKED + b"zz\r\nab\r\n0\r\n\r\n", 400, "bad-request"),
    "chunk size -2": (CHUNKED + b"-2\r\nab\r\n0\r\n\r\n", 400, "bad-request"),
    "chunk size 0x2": (CHUNKED + b"0x2\r\nab\r\n0\r\n\r\n", 400, "bad-request"),
    "chunk size ffffffffffffffff": (CHUNKED + b"ffffffffffffffff\r\nab\r\n0\r\n\r\n", 413, "payload-too-large"),
    "absurd chunk size": (CHUNKED + b"f" * 40 + b"\r\nab\r\n", 400, "bad-request"),
    "no CRLF after chunk data": (CHUNKED + b"2\r\nabXY\r\n0\r\n\r\n", 400, "bad-request"),
    "bad trailer line": (CHUNKED + b"2\r\nab\r\n0\r\nnot a header line\r\n\r\n", 400, "bad-request"),
    "LF-only line ends in a chunked body": (CHUNKED + b"2\nab\n0\n\n", 400, "bad-request"),
    "unknown transfer coding": (b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: xchunked\r\n\r\n2\r\nab\r\n0\r\n\r\n", 501, "not-implemented"),
    "Content-Length and Transfer-Encoding": (
        b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
        400,
        "bad-request",
    ),
    "differing Content-Lengths": (b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", 400, "bad-request"),
    "not HTTP at all": (b"\x00\x01hello there\r\n\r\n", 400, "bad-request"),
    "an HTTP/2 preface": (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "bad-request"),
    "a head past max_header_bytes": (b"GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 10000 + b"\r\n\r\n", 431, "header-fields-too-large"),
}


@pytest.mark.parametrize("case", list(FRAMING_ERRORS))
def test_a_framing_error_is_answered_in_problem_json_at_once(server: Server, case: str) -> None:
    """Answered from the bytes sent, with nothing more sent: its own status, never the 408 a wait for more would end in."""
    raw, status, slug = FRAMING_ERRORS[case]
    workers = server.worker_pids()
    assert_problem(exchange(server.port, raw), status, slug)
    assert get(server.port, "/health")[0] == 200
    assert server.worker_pids() == workers  # the worker that refused it is still the one serving


def test_framing_errors_log_no_traceback(server: Server) -> None:
    before = len(server.log_path.read_text())
    for raw, _, _ in FRAMING_ERRORS.values():
        exchange(server.port, raw)

    def refusals() -> list[dict[str, Any]]:  # each line is written just after its answer: wait for all of them
        logged = server.log_path.read_text()[before:]
        return [json.loads(line) for line in complete_lines(logged) if '"event": "request"' in line]

    refused = wait_for(lambda: len(found := refusals()) >= len(FRAMING_ERRORS) and found, "a log line for every refusal")
    logged = server.log_path.read_text()[before:]
    assert "Traceback" not in logged and '"level": "error"' not in logged
    assert len(refused) == len(FRAMING_ERRORS)
    assert {e["reason"] for e in refused} == {"bad_framing", "bad_request", "too_large", "not_implemented", "headers_too_large"}


def test_a_good_chunked_body_with_extensions_and_a_trailer_reaches_the_app_whole(server: Server) -> None:
    raw = CHUNKED + b"5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: yes\r\n\r\n"
    status, _, body = exchange(server.port, raw)
    assert status == 200
    assert json.loads(body) == {"length": 11, "content_length": "11", "head": "hello world"}


# -- 3. bodies over max_body -------------------------------------------------------------------------


def test_a_content_length_over_max_body_gets_413_before_the_body_is_sent(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:  # waiting for the body would end in a 408
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n")  # and not one byte of it
        problem = assert_problem(read_response(sock), 413, "payload-too-large")
    assert "4096" in problem["detail"]


def test_a_chunked_body_gets_413_as_soon_as_its_chunks_pass_max_body(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(CHUNKED)
        for _ in range(3):
            sock.sendall(b"500\r\n" + b"x" * 0x500 + b"\r\n")  # 3.75 KiB in all, under the 4 KiB limit
        sock.sendall(b"500\r\n")  # the chunk that would pass it: answered at once, with no end of body sent
        assert_problem(read_response(sock), 413, "payload-too-large")


def test_expect_100_continue_gets_100_then_the_answer(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        assert read_response(sock, head_only=True)[0] == 100
        sock.sendall(b"hello")
        status, _, body = read_response(sock)
    assert status == 200 and json.loads(body)["length"] == 5


def test_expect_100_continue_over_max_body_gets_413_instead(server: Server) -> None:
    response = exchange(server.port, b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
    assert_problem(response, 413, "payload-too-large")


def test_a_client_that_does_not_read_its_response_is_cut_off_after_the_write_timeout(server: Server, patient: Server) -> None:
    settled(patient)
    with unread_big_response(patient.port) as sock:
        assert_health_answers_while_held(patient, [sock])  # the worker waiting on the client still answers
    before = rejected(server.port)
    with unread_big_response(server.port) as sock:
        wait_for(lambda: rejected_since(server.port, before), "the write timeout to cut the connection")  # nothing read meanwhile
        received, how = drive([sock])[0]
    assert how in ("closed", "reset") and len(received) < 16 * 1024 * 1024  # what the kernel held, then the end
    assert rejected_since(server.port, before) == {"timeout_write": 1}


# -- what the app is handed, and what it answers -----------------------------------------------------


def test_the_environ_follows_pep_3333(server: Server) -> None:
    raw = b"POST /environ/caf%C3%A9%20x?a=1&b=%C3%A9 HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nX-One: 1\r\nX_Two: 2\r\nContent-Length: 3\r\n\r\nabc"
    status, _, body = exchange(server.port, raw)
    env = json.loads(body)
    assert status == 200
    assert env["PATH_INFO"] == "/environ/café x".encode().decode("latin-1")  # bytes as latin-1 text
    assert env["QUERY_STRING"] == "a=1&b=%C3%A9"
    assert (env["REQUEST_METHOD"], env["SCRIPT_NAME"], env["SERVER_PROTOCOL"]) == ("POST", "", "HTTP/1.1")
    assert (env["CONTENT_TYPE"], env["CONTENT_LENGTH"]) == ("text/plain", "3")
    assert (env["SERVER_NAME"], env["SERVER_PORT"], env["REMOTE_ADDR"]) == ("127.0.0.1", str(server.port), "127.0.0.1")
    assert env["headers"] == {"HTTP_HOST": "t", "HTTP_X_ONE": "1"}  # X_Two dropped: it could pass for X-Two
    assert env["wsgi"] == ["http", True, True, False]


def test_head_gets_the_headers_of_get_and_no_body(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"HEAD /health HTTP/1.1\r\nHost: t\r\n\r\nGET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, _ = read_response(sock, head_only=True)
        assert status == 200 and int(headers["content-length"]) > 0
        status, _, body = read_response(sock)  # the next response starts right after the head: no body sent
    assert status == 200 and json.loads(body)["status"] == "ok"


def test_pipelined_requests_are_answered_in_order_on_one_connection(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /sleep?s=0.1 HTTP/1.1\r\nHost: t\r\n\r\nGET /health HTTP/1.1\r\nHost: t\r\n\r\nGET /environ?n=3 HTTP/1.1\r\nHost: t\r\n\r\n")
        first, second, third = (json.loads(read_response(sock)[2]) for _ in range(3))
    assert "draining" in first and second["status"] == "ok" and third["QUERY_STRING"] == "n=3"


def test_an_http_1_0_request_is_answered_and_closed(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /health HTTP/1.0\r\n\r\n")
        status, headers, _ = read_response(sock)
        assert (status, headers["connection"]) == (200, "close")
        assert sock.recv(1) == b""


def test_an_app_that_raises_gets_a_500_problem_and_the_connection_stays_usable(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /boom HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, body = read_response(sock)
        assert status == 500 and headers["content-type"] == "application/problem+json"
        assert json.loads(body)["type"] == "/docs#problem-internal-error"
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(sock)[0] == 200


def test_each_request_is_one_json_access_log_line(server: Server) -> None:
    _, headers, _ = get(server.port, "/health?probe=log")
    # the line is written just after the response
    lines = wait_for(lambda: [e for e in server.events("request") if e["path"] == "/health?probe=log"], "the request's log line")
    assert len(lines) == 1
    line = lines[0]
    assert set(line) >= {"ts", "level", "event", "method", "path", "status", "duration_ms", "bytes", "request_id", "remote", "worker"}
    assert (line["method"], line["status"], line["request_id"], line["remote"]) == ("GET", 200, headers["x-request-id"], "127.0.0.1")
    assert line["worker"] in server.worker_pids()


# -- 8. small per-request overhead -------------------------------------------------------------------


def test_keepalive_requests_reuse_one_connection_and_the_pools_threads(server: Server) -> None:
    threads, pids = set(), set()
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        for _ in range(300):
            sock.sendall(b"GET /thread HTTP/1.1\r\nHost: t\r\n\r\n")
            status, _, body = read_response(sock)
            assert status == 200
            answer = json.loads(body)
            threads.add(answer["thread"])
            pids.add(answer["pid"])
    assert len(pids) == 1  # all 300 on the one kept-alive connection
    assert len(threads) <= 4  # the pool's threads, reused: none made per request (bench/http_load.py measures the speed)


# -- what the server counts ------------------------------------------------------------------------


def test_the_server_counts_what_it_refused_in_prometheus_summed_over_workers(start: Callable[..., Server]) -> None:
    srv = start(workers=2, header_timeout=0.5, body_timeout=0.5, max_body=100)
    with holding(srv.port, 4) as socks:  # silent, a slow head, a slow body, and TLS
        socks[1].sendall(b"GET /health HTTP/1.1\r\n")
        socks[2].sendall(b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 50\r\n\r\nab")
        socks[3].sendall(CLIENT_HELLO)
        outcomes = drive(socks)
    assert_cut_off(outcomes[:1], None)
    assert [data.split(b" ", 2)[1] for data, _ in outcomes[1:]] == [b"408", b"408", b"400"]
    for raw in (b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 101\r\n\r\n", FRAMING_ERRORS["chunk size zz"][0]):
        for _ in range(3):  # likely to reach both workers
            exchange(srv.port, raw)
    assert rejected(srv.port) == {"timeout_headers": 2, "timeout_body": 1, "tls_on_plain_port": 1, "too_large": 3, "bad_framing": 3}
    # Every connection above is closed: once the workers have seen each close, the count is the /metrics request's own.
    wait_for(lambda: connections(srv.port) == 1, "the connection gauge to count only the request reading it")


def test_the_workers_garbage_collections_are_timed_in_prometheus(start: Callable[..., Server]) -> None:
    srv = start(workers=1)

    def full_collections() -> tuple[float, float]:
        found = {}
        for line in metric_lines(srv.port):
            if line.startswith(("wordsvc_server_gc_pause_seconds_count{", "wordsvc_server_gc_pause_seconds_sum{")) and 'generation="2"' in line:
                found[line.split("{")[0].rsplit("_", 1)[1]] = float(line.rsplit(" ", 1)[1])
        return found.get("count", 0.0), found.get("sum", 0.0)

    count, seconds = full_collections()
    assert get_json(srv.port, "/collect?cycles=200000")["collected"] >= 399_000
    # The worker counts the collections it noted once a second: wait for the count to move, not for a second.
    after_count, after_seconds = wait_for(lambda: (found := full_collections())[0] > count and found, "the full collection to be counted")
    assert after_count >= count + 1
    assert after_seconds > seconds  # its CPU time was measured and added (how much is the machine's business)


# -- 4. graceful drain -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "paths",
    [["/sleep?s=0.05"], ["/thread", "/thread?pool=1", "/sleep?s=0.02"]],
    ids=["in the pool", "on the event loop, handed over, in the pool"],
)
def test_sigterm_drains_every_accepted_request_and_exits_0(start: Callable[..., Server], paths: list[str], tmp_path: Path) -> None:
    # An idle keep-alive connection would otherwise wait an hour for its next request, and the drain has a minute:
    # if either is what ends a connection, the drain_finished events below say so.
    srv = start(workers=2, threads=8, drain_seconds=PATIENCE, keepalive_timeout=HOUR, inline_paths={"/health", "/ready", "/thread"})
    stop = threading.Event()
    results: list[str] = []

    def client(index: int) -> None:
        for n in itertools.count(index):
            path = paths[n % len(paths)]
            path += f"{'&' if '?' in path else '?'}client={index}-{n}"  # named, to find it in the access log
            try:
                sock = socket.create_connection(("127.0.0.1", srv.port), timeout=PATIENCE)
            except (ConnectionRefusedError, ConnectionResetError):
                results.append("refused")  # the listener is closed (or closing: the kernel resets the handshake): the client stops, no failure
                return
            try:
                with sock:
                    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode())
                    status = read_response(sock)[0]
                results.append("ok" if status == 200 else f"status {status}")
            except OSError as err:
                results.append(f"failed: {err!r} {path}")  # reset or no answer: accepted by the server, or only by the kernel?
            if stop.is_set():
                return

    idle = socket.create_connection(("127.0.0.1", srv.port), timeout=PATIENCE)
    idle.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
    assert read_response(idle)[0] == 200
    # A request in the app at SIGTERM: it is answered once it sees draining() turn True.
    entered = tmp_path / "entered"
    in_app = socket.create_connection(("127.0.0.1", srv.port), timeout=PATIENCE)
    in_app.sendall(f"GET {held('/sleep', mark=entered, drain=1)} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    wait_for(entered.exists, "the held request to reach the app")
    threads = [threading.Thread(target=client, args=(index,)) for index in range(8)]
    for t in threads:
        t.start()
    wait_for(lambda: results.count("ok") > 50, "the clients to be answered 50 times")
    srv.proc.send_signal(signal.SIGTERM)
    with in_app:
        status, headers, body = read_response(in_app)
    assert (status, headers["connection"], json.loads(body)["draining"]) == (200, "close", True)
    with idle:
        assert idle.recv(1) == b""  # closed by the drain (a FIN, not the reset of a connection cut at the drain's end)
    code = srv.proc.wait(PATIENCE)
    stop.set()
    for t in threads:
        t.join(PATIENCE)
    # A connection the kernel queued in the instant between the last worker's last accept and the listener's close is
    # reset by the kernel (TCP has no way to close a listener and keep its queue): the app never saw it. Such a reset
    # is the client's "refused"; a request the app was given and the client got no answer to is a failure.
    given = set(srv.received.read_text().splitlines()) if srv.received.exists() else set()
    failures = [r for r in results if r not in ("ok", "refused") and r.rsplit(" ", 1)[-1] in given]
    assert sum(r.startswith("failed") for r in results) <= 2, results  # the race is an instant wide: a flood of resets is not it
    assert failures == []
    assert code == 0
    workers = {e["worker"] for e in srv.events("worker_started")}
    assert {e["worker"] for e in srv.events("drain_begun") if "worker" in e} == workers
    finished = [e for e in srv.events("drain_finished") if "worker" in e]
    assert {e["worker"] for e in finished} == workers and not [e for e in finished if "cut" in e]  # drained whole: nothing left to cut


def test_connections_waiting_in_the_listen_backlog_when_a_worker_drains_are_answered(start: Callable[..., Server], tmp_path: Path) -> None:
    """A worker told to drain (SIGTERM, as its master sends at shutdown or to recycle it) first takes what waits in its backlog."""
    srv = start(workers=1, inline_paths={"/health", "/block"}, drain_seconds=PATIENCE)
    (worker,) = srv.worker_pids()
    entered, release = tmp_path / "entered", tmp_path / "release"
    with ThreadPoolExecutor(8) as pool:
        # Held on the event loop: the worker accepts nothing until the test lets it go.
        blocker = pool.submit(get, srv.port, held("/block", mark=entered, until=release))
        wait_for(entered.exists, "the blocking request to reach the app")
        waiting = connect(srv.port, 6)  # the kernel completes these handshakes; they sit in the backlog
        for s in waiting:
            s.sendall(b"GET /ready HTTP/1.1\r\nHost: t\r\n\r\n")
        os.kill(worker, signal.SIGTERM)  # queued for the worker before it is let go: its loop sees it before any of these requests
        release.touch()
        answers = [pool.submit(read_response, s) for s in waiting]
        assert blocker.result()[0] == 200
        statuses = [a.result(timeout=PATIENCE)[0] for a in answers]
    for s in waiting:
        s.close()
    assert statuses == [503] * 6  # answered, by a worker whose /ready already says it is draining
    assert [e["why"] for e in srv.events("drain_begun") if e.get("worker") == worker] == ["SIGTERM"]
    assert srv.stop() == 0  # the master, which replaced the worker, stops cleanly


@pytest.mark.parametrize(("path", "code"), [("/sleep", 0), ("/block", 1)])
def test_what_outlasts_drain_seconds_is_cut_and_the_master_exits_without_it(start: Callable[..., Server], path: str, code: int, tmp_path: Path) -> None:
    """A pool request past the grace is cut by its worker (exit 0); a worker stuck on its event loop is killed (exit 1).

    The request would take an hour: that the master exits at all is the proof it was cut.
    """
    srv = start(workers=1, drain_seconds=2, inline_paths={"/health", "/block"})
    entered = tmp_path / "entered"
    with socket.create_connection(("127.0.0.1", srv.port), timeout=PATIENCE) as sock:
        sock.sendall(f"GET {held(path, mark=entered, s=HOUR)} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        wait_for(entered.exists, "the request to reach the app")
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(PATIENCE) == code
        with pytest.raises(ConnectionError):
            read_response(sock)
    if code == 0:
        assert [e["cut"] >= 1 for e in srv.events("drain_finished") if "worker" in e] == [True]  # the worker cut the connection
    else:
        assert [e["killed"] for e in srv.events("drain_finished") if "master" in e] == [1]  # the master killed its one worker


def test_the_metrics_folder_the_master_made_is_removed_at_exit(start: Callable[..., Server]) -> None:
    srv = start(workers=1)
    (listening,) = srv.events("listening")
    folder = Path(listening["metrics_dir"])
    assert folder.is_dir() and any(folder.iterdir())
    assert srv.stop() == 0
    assert not folder.exists()


def test_workers_whose_master_was_killed_drain_and_exit(start: Callable[..., Server]) -> None:
    srv = start(workers=2)
    workers = srv.worker_pids()
    srv.proc.kill()
    srv.proc.wait(PATIENCE)
    wait_for(lambda: not [pid for pid in workers if Path(f"/proc/{pid}").exists()], "the orphaned workers to exit")  # they look once a second
    assert {e["why"] for e in srv.events("drain_begun")} == {"master_gone"}


# -- 5. and 6. recycling and restarts ----------------------------------------------------------------


def test_workers_are_recycled_after_max_requests_without_a_failed_request(start: Callable[..., Server]) -> None:
    # Six clients keep connections arriving while workers drain every few requests: a connection
    # accepted in the same loop pass as the worker's SIGTERM must still be answered, not reset
    # (asyncio's own server dropped it, a few in every thousand requests).
    srv = start(workers=2, max_requests=10, max_requests_jitter=2)

    def pid(_: int) -> int:
        return int(get_json(srv.port, "/pid")["pid"])  # get_json asserts each is a 200

    # A worker serves on after asking to be recycled until its replacement is ready, so how many requests
    # 40 recyclings take depends on how fast replacements start: the clients go on until there are 40.
    pids: list[int] = []
    with ThreadPoolExecutor(6) as pool:
        while len(srv.events("worker_recycled")) < 40:
            assert len(pids) < 30_000, f"{len(pids)} requests and only {len(srv.events('worker_recycled'))} recyclings"
            pids += pool.map(pid, range(300))
    recycled = srv.events("worker_recycled")
    assert len(recycled) >= 40 and {e["reason"] for e in recycled} == {"max_requests"}
    assert len(set(pids)) >= 40  # each recycled worker answered its requests first
    stopped = {e["worker"]: e["requests"] for e in srv.events("worker_stopped")}
    assert all(stopped[e["worker"]] >= 10 for e in recycled if e["worker"] in stopped)  # none recycled before max_requests
    assert not srv.events("accept_failed")
    assert srv.stop() == 0


def test_a_worker_over_max_worker_rss_mb_is_recycled(start: Callable[..., Server]) -> None:
    srv = start(workers=1, max_worker_rss_mb=150)
    (old,) = srv.worker_pids()
    with socket.create_connection(("127.0.0.1", srv.port), timeout=PATIENCE) as sock:
        sock.sendall(b"GET /grow?mb=200 HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(sock)[0] == 200
    wait_for(lambda: old not in srv.worker_pids(), "the master to replace the worker")  # it reads the workers' memory every tick
    assert [e["reason"] for e in srv.events("worker_recycled")] == ["max_worker_rss_mb"]
    assert get_json(srv.port, "/pid")["pid"] != old


def test_a_crashed_worker_is_restarted_and_the_service_answers_again(start: Callable[..., Server]) -> None:
    srv = start(workers=1)
    old = get_json(srv.port, "/pid")["pid"]
    with pytest.raises(ConnectionError):
        get(srv.port, "/crash")  # os._exit in the app: the connection dies with the worker

    def answer() -> int | None:
        try:
            return int(get_json(srv.port, "/pid")["pid"])  # waits in the listen backlog for the new worker
        except OSError:
            return None  # taken by the dying worker

    new = wait_for(answer, "a new worker to answer")
    assert new != old
    assert [e["code"] for e in srv.events("worker_exited")] == [3]
    assert srv.stop() == 0


# -- 7. inline paths ---------------------------------------------------------------------------------


def test_inline_paths_answer_while_every_pool_thread_is_busy(start: Callable[..., Server], tmp_path: Path) -> None:
    srv = start(workers=1, threads=2)
    release = tmp_path / "release"
    marks = [tmp_path / f"entered-{n}" for n in range(2)]
    with ThreadPoolExecutor(4) as pool:
        busy = [pool.submit(get, srv.port, held("/sleep", mark=mark, until=release)) for mark in marks]
        wait_for(lambda: all(mark.exists() for mark in marks), "both pool threads to be held in the app")
        assert get(srv.port, "/health")[0] == 200  # answered with both threads held: on the event loop
        queued = pool.submit(get_json, srv.port, "/thread")  # the pool's path: it needs a thread
        release.touch()
        assert all(f.result()[0] == 200 for f in busy)
        assert queued.result()["released"] >= 1  # it ran on a thread a held request had let go


def test_an_inline_path_answers_gets_on_the_event_loop_and_hands_over_what_the_app_sends_to_the_pool(start: Callable[..., Server]) -> None:
    srv = start(workers=1, inline_paths={"/health", "/thread"})
    on_loop = get_json(srv.port, "/thread")
    assert on_loop["thread"] == "MainThread" and on_loop["handed_over"] == 0
    status, _, body = exchange(srv.port, b"POST /thread HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
    posted = json.loads(body)
    assert status == 200 and posted["thread"].startswith("wsgi") and posted["method"] == "POST"  # only GET and HEAD run inline
    handed = get_json(srv.port, "/thread?pool=1")
    assert handed["thread"].startswith("wsgi") and handed["handed_over"] == 1  # called once on the loop, answered from the pool
    assert "Traceback" not in srv.log_path.read_text()


# -- the connection limit ----------------------------------------------------------------------------


def test_past_max_connections_the_oldest_idle_connection_makes_room(start: Callable[..., Server]) -> None:
    srv = start(workers=1, max_connections=4)
    idle = connect(srv.port, 4)
    try:
        for s in idle:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert read_response(s)[0] == 200
        assert get(srv.port, "/health")[0] == 200  # a fifth is served ...
        assert idle[0].recv(1) == b""  # ... because the oldest idle one was closed
        for s in idle[1:]:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert read_response(s)[0] == 200  # the others still serve
    finally:
        for s in idle:
            s.close()


def watched(pid: int) -> set[int]:
    """The descriptors the epoll instances of process ``pid`` wait on (``/proc/PID/fdinfo``): what its event loop listens to."""
    fds: set[int] = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) == "anon_inode:[eventpoll]":
                info = (Path(f"/proc/{pid}/fdinfo") / fd.name).read_text()
                fds |= {int(line.split()[1]) for line in info.splitlines() if line.startswith("tfd:")}
        except OSError:
            continue  # closed meanwhile
    return fds


def test_out_of_file_descriptors_a_worker_pauses_accepting_and_serves_again_when_they_are_freed(start: Callable[..., Server]) -> None:
    """Connections alone cannot exhaust a worker's descriptors (its caps are fitted to the limit), so a leak does it here."""
    srv = start(workers=1, nofile=512)
    (worker,) = srv.worker_pids()
    (listener,) = (e["accepts_from"] for e in srv.events("worker_started") if e["worker"] == worker)  # its channel from the master
    assert listener in watched(worker)  # accepting: its event loop waits on the channel
    (kept,) = connect(srv.port, 1)
    kept.sendall(b"GET /leak HTTP/1.1\r\nHost: t\r\n\r\n")  # every descriptor the worker may still open, taken
    assert read_response(kept)[0] == 200
    conns = connect(srv.port, 20)  # the master hands them over; they wait in the worker's channel: it cannot take them
    try:
        paused = wait_for(lambda: srv.events("accept_paused"), "the worker to run out of descriptors")
        assert paused[0]["error"] == "Too many open files"
        # Paused, not spinning: its event loop stops waiting on a channel it cannot take a connection from (it looks
        # again once a second, and stops again while the descriptors are still taken). Spinning, it would never stop.
        wait_for(lambda: listener not in watched(worker), "the worker to stop watching its channel")
        kept.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(kept)[0] == 200  # a connection it had accepted is served meanwhile
        kept.sendall(b"GET /unleak HTTP/1.1\r\nHost: t\r\n\r\n")
        assert read_response(kept)[0] == 200
        for s in conns:  # once the descriptors are freed, the connections that waited are accepted and answered
            s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert read_response(s)[0] == 200
    finally:
        for s in [kept, *conns]:
            s.close()
    assert listener in watched(worker)
    assert srv.proc.poll() is None and srv.worker_pids() == {worker}  # the same worker, not a replacement
    assert "Traceback" not in srv.log_path.read_text()


def test_past_max_connections_with_none_waiting_a_new_connection_gets_503(start: Callable[..., Server], tmp_path: Path) -> None:
    """Every connection busy with a request in the app: none silent or idle to close for room, so a new one is refused."""
    srv = start(workers=1, threads=4, max_connections=4)
    busy = connect(srv.port, 4)
    go = tmp_path / "go"
    try:
        for i, s in enumerate(busy):
            s.sendall(f"GET {held('/block', mark=tmp_path / f'in{i}', until=go, s=60)} HTTP/1.1\r\nHost: t\r\n\r\n".encode())
        wait_for(lambda: all((tmp_path / f"in{i}").exists() for i in range(4)), "the four requests to be in the app")
        response = exchange(srv.port, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        assert_problem(response, 503, "not-ready")
        assert response[1]["retry-after"] == "1"
        go.touch()
        assert all(read_response(s)[0] == 200 for s in busy)  # the four were kept and answered
    finally:
        go.touch()
        for s in busy:
            s.close()


def test_plain_log_format_gives_readable_lines(start: Callable[..., Server]) -> None:
    srv = start(workers=1, log_format="plain")
    get(srv.port, "/health?probe=plain")
    srv.stop()
    lines = [line for line in srv.log_path.read_text().splitlines() if "/health?probe=plain" in line]
    assert len(lines) == 1
    assert " INFO request method=GET path=/health?probe=plain status=200 " in lines[0]


# -- room for everyone -------------------------------------------------------------------------------


def test_a_full_worker_closes_its_longest_silent_connection_to_answer_a_new_one(start: Callable[..., Server]) -> None:
    srv = start(workers=1, max_connections=8, max_client_connections=8)
    silent = connect(srv.port, 9)  # one more than the worker takes, none of them sending anything
    try:
        wait_for(lambda: not unclosed(silent[0]), "the first to come to be the first to go")
        assert all(unclosed(s) for s in silent[1:])
        assert get(srv.port, "/health")[0] == 200  # not 503: the longest-silent connection made room again
        wait_for(lambda: not unclosed(silent[1]), "the next longest-silent to go")
        assert rejected(srv.port).get("evicted_silent", 0) >= 2
    finally:
        for s in silent:
            s.close()


def test_one_client_past_its_share_gives_up_its_own_longest_waiting_connection(start: Callable[..., Server]) -> None:
    srv = start(workers=1, max_connections=100, max_client_connections=4)
    idle = connect(srv.port, 4)
    try:
        for s in idle:  # each has been answered once: idle keep-alive connections
            s.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            assert read_response(s)[0] == 200
        assert get(srv.port, "/health")[0] == 200  # a fifth from the same address: room made from its own
        wait_for(lambda: not unclosed(idle[0]), "its longest-idle connection to be closed")
        assert unclosed(idle[3])
    finally:
        for s in idle:
            s.close()


def test_sighup_reloads_the_workers_and_a_request_in_flight_is_answered(start: Callable[..., Server], tmp_path: Path) -> None:
    srv = start(workers=2, drain_seconds=30)
    old = srv.worker_pids()
    mark, until = tmp_path / "in", tmp_path / "go"
    result: list[tuple[int, dict[str, str], bytes]] = []
    request = threading.Thread(target=lambda: result.append(get(srv.port, held("/block", mark=mark, until=until, s=60))))
    request.start()
    wait_for(mark.exists, "the request to be in the app")
    os.killpg(srv.proc.pid, signal.SIGHUP)  # a closed terminal hangs up the whole process group
    wait_for(lambda: srv.events("reload"), "the master to reload")
    wait_for(lambda: len(srv.worker_pids() - old) == 2, "two fresh workers")
    assert get(srv.port, "/health")[0] == 200  # the service answers all along
    until.touch()
    request.join(PATIENCE)
    assert result and result[0][0] == 200  # the old worker drained: its request was answered, not reset
    wait_for(lambda: not (srv.worker_pids() & old), "the old workers to exit")
    assert srv.proc.poll() is None and "Traceback" not in srv.log_path.read_text()

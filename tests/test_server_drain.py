"""A drain (SIGTERM) as the clients of idle keep-alive connections see it: never a reset of a request they sent.

A request on a kept-alive connection may cross the server's close on the
wire; HTTP/1.1 has no way to prevent it. What the server owes such a client
is an answer (with ``Connection: close``), or a clean end of the connection
(a FIN, the request unread and unanswered, which RFC 9112 §9.3.1 lets it
retry), never a reset, after which it cannot know what became of its request.

The tests order events by what happened (the server's close seen by the
client, the master's exit), never by how long they waited.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import HOUR, PATIENCE, Server, connect, read_response, wait_for

HEALTH = b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n"


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


def kept_alive(srv: Server, n: int) -> list[socket.socket]:
    """``n`` connections, each answered once and kept alive: idle, waiting for their next request."""
    socks = connect(srv.port, n)
    for s in socks:
        s.sendall(HEALTH)
        status, headers, _ = read_response(s)
        assert status == 200 and "connection" not in headers
    return socks


def outcome(sock: socket.socket) -> str:
    """How a request sent on ``sock`` ended, once the client has said it is done (``shutdown``): ``answered`` (a whole
    response, ``Connection: close``), ``clean`` (a FIN, no byte of an answer) or ``reset``."""
    try:
        sock.shutdown(socket.SHUT_WR)
        first = sock.recv(65536, socket.MSG_PEEK)
        if not first:
            return "clean"
        status, headers, _ = read_response(sock)
        assert status == 200 and headers["connection"] == "close", headers
        return "answered"
    except OSError as err:  # a reset, or ENOTCONN from shutdown when the reset came first
        return f"reset ({err!r})"


def test_a_request_sent_on_a_keepalive_connection_the_drain_closed_meets_a_clean_end(start: Callable[..., Server]) -> None:
    """Each connection is closed by the drain (its FIN read) before its request is sent: the request crossed the close.

    The server half-closes an idle connection and reads on until the client closes, so the request is read and
    dropped, and the client sees the end it already saw; before, the socket was closed outright, and the kernel
    answered the request with a reset.
    """
    srv = start(workers=2, keepalive_timeout=HOUR, drain_seconds=PATIENCE)
    socks = kept_alive(srv, 12)
    srv.proc.send_signal(signal.SIGTERM)
    for s in socks:
        assert s.recv(1) == b""  # the drain closed it: a FIN, after nothing more
        s.sendall(HEALTH)  # a request that crossed the close
    outcomes = [outcome(s) for s in socks]
    assert srv.proc.wait(PATIENCE) == 0
    for s in socks:
        s.close()
    assert outcomes == ["clean"] * len(socks)


def test_requests_sent_on_keepalive_connections_just_after_sigterm_are_answered_or_meet_a_clean_end(start: Callable[..., Server]) -> None:
    """Sent at once after the workers began draining, each request is in the server before or after its connection's close:
    either way, no reset."""
    srv = start(workers=2, keepalive_timeout=HOUR, drain_seconds=PATIENCE)
    socks = kept_alive(srv, 16)
    srv.proc.send_signal(signal.SIGTERM)
    wait_for(lambda: len([e for e in srv.events("drain_begun") if "worker" in e]) == 2, "both workers to begin draining")
    for s in socks:
        try:
            s.sendall(HEALTH)
        except OSError:
            pass  # its outcome says what happened
    outcomes = [outcome(s) for s in socks]
    assert srv.proc.wait(PATIENCE) == 0
    for s in socks:
        s.close()
    assert set(outcomes) <= {"answered", "clean"}, outcomes

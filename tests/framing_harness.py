"""A worker's connection protocol in-process: bytes in, bytes out, no socket, no clock, no threads.

:func:`serve_stream` feeds a stream of request bytes, split into the reads
given, to one :class:`~wordsvc.server.protocol.Connection` on a private
event loop, with a tiny WSGI app (inline for ``GET /health``, through a pool
that runs at once for the rest) and a transport that records what is
written and whether the connection was closed. It also counts the Python
function calls made while the bytes are taken in (``sys.setprofile``): the
server's work, counted rather than timed.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field
from typing import Any

from wordsvc.server.options import ServerOptions
from wordsvc.server.protocol import WRITING, Connection, Hub

#: Code whose calls count as the server's work: the server's own modules and h11 (not asyncio's loop, the app or this harness).
_SERVER_CODE = re.compile(r"[/\\](wordsvc[/\\]server|h11)[/\\]")
OPTIONS = ServerOptions(max_body=4096, max_header_bytes=8192, inline_paths=frozenset({"/health"}))


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    """``/health`` answers ``ok``; anything else echoes the length of the body it was given."""
    body = b"ok" if environ["PATH_INFO"] == "/health" else b"%d" % len(environ["wsgi.input"].read())
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


class AtOnce(Executor):
    """An executor that runs what it is given before ``submit`` returns."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as err:  # the server's own call_app catches the app's errors; this is its safety net
            future.set_exception(err)
        return future


@dataclass
class Transport(asyncio.Transport):
    written: list[bytes] = field(default_factory=list)
    closed: bool = False
    aborted: bool = False
    eof: bool = False
    reading: bool = True
    protocol: Connection | None = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(name, default)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof = True

    def get_write_buffer_size(self) -> int:
        return 0

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


@dataclass
class Outcome:
    output: bytes
    closed: bool  # the server closed (or half-closed) the connection
    aborted: bool
    calls: int  # Python function calls made in the server's code and h11 (each call, and each builtin it calls) while the stream was served


def serve_stream(reads: Sequence[bytes], options: ServerOptions = OPTIONS, end: bool = True, wsgi: Callable[..., Any] = app) -> Outcome:
    """Feed ``reads`` to a fresh connection (and the end of the stream, if ``end``); what it wrote, and the work it did."""
    loop = asyncio.new_event_loop()
    try:
        hub = Hub(wsgi, options, loop, AtOnce(), lambda: None)
        conn = hub.connection()
        transport = Transport(protocol=conn)
        calls = [0]

        def count(frame: Any, event: str, _arg: Any) -> None:
            if event in ("call", "c_call") and _SERVER_CODE.search(frame.f_code.co_filename):
                calls[0] += 1

        def settle() -> None:
            for _ in range(4):  # the next request of a pipeline runs a loop pass later; a pooled answer one more
                loop.run_until_complete(asyncio.sleep(0))

        conn.connection_made(transport)
        sys.setprofile(count)
        try:
            for data in reads:
                if transport.closed or transport.eof:
                    break
                conn.data_received(data)
                settle()
                while conn.state == WRITING and not conn.paused:  # a pipeline going on, one request a pass
                    settle()
            if end and not (transport.closed or transport.eof):
                conn.eof_received()
                settle()
        finally:
            sys.setprofile(None)
        return Outcome(b"".join(transport.written), transport.closed or transport.eof, transport.aborted, calls[0])
    finally:
        loop.close()


def responses(output: bytes) -> list[tuple[int, dict[str, str], bytes]]:
    """The responses in ``output``, each ``(status, headers, body)``; raises ValueError on anything malformed."""
    out = []
    rest = output
    while rest:
        head, sep, rest = rest.partition(b"\r\n\r\n")
        if not sep:
            raise ValueError(f"a response head without its end: {head[:80]!r}")
        lines = head.split(b"\r\n")
        version, status, _reason = lines[0].split(b" ", 2)
        if version != b"HTTP/1.1" or not status.isdigit():
            raise ValueError(f"a malformed status line: {lines[0]!r}")
        headers = {}
        for line in lines[1:]:
            name, colon, value = line.partition(b":")
            if not colon:
                raise ValueError(f"a malformed header line: {line!r}")
            headers[name.decode().lower()] = value.decode().strip()
        length = int(headers["content-length"])
        if len(rest) < length:
            raise ValueError("a body shorter than its Content-Length")
        out.append((int(status), headers, rest[:length]))
        rest = rest[length:]
    return out

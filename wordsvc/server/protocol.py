"""One client connection: read a whole request under deadlines, run the app, write the whole response.

A :class:`Connection` is an asyncio protocol driven by callbacks, with h11
parsing. Its life is a small state machine, and each state has one deadline
and one way to end when the deadline passes:

======== =================================== ======================================
state    waiting for                         when the deadline passes
======== =================================== ======================================
new      the first byte (``header_timeout``) closed, silently
idle     the next request (``keepalive``)    closed, silently
head     the rest of the headers             408, then closed
body     the rest of the body                408, then closed
app      the app (no deadline: the app's)    -
stream   nothing: held open by :mod:`.streams` -
writing  the client to take a large reply    cut off
closing  the client to close (after an error, cut off (a lingering close)
         a last answer, or a drain)
======== =================================== ======================================

A slow client therefore holds a connection, never a thread: the app is
called only with the request whole and buffered, in the pool, or on the
loop for a GET of one of ``inline_paths`` (unless the app hands it over). A response the app asks
to hold open (:meth:`.hosting.Hosting.hold`) leaves the connection's state machine for
:class:`~.streams.Streams`, which writes it from then on. Limits are checked as the
bytes arrive: a declared ``Content-Length`` past ``max_body`` is answered 413
before any of the body is read.
"""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future
from email.utils import formatdate
from typing import Any

import h11

from .framing import ChunkedDecoder, check_framing_headers, check_head, head_end, head_prefix_problem, skip_empty_lines
from .hosting import hosting_of, to_pool
from .logs import log_event
from .metrics import connection_closed, connection_opened, rejected
from .options import ServerOptions
from .problems import Problem, echo_headers, problem_bytes
from .streams import Streams, frame
from .wsgi import Reply, WSGIApp, build_environ, call_app, internal_error

__all__ = ["STREAM", "WRITING", "Connection", "Hub"]

NEW, IDLE, HEAD, BODY, APP, STREAM, WRITING, CLOSING, CLOSED = range(9)

#: After an error reply the server stops writing and keeps reading (discarding) for this long, so the
#: client reads the reply instead of a reset from unread bytes. Apache's lingering close waits 2 s a read.
LINGER_SECONDS = 2.0
#: A connection refused for want of room lingers this long only: it is not counted against max_connections.
_REFUSED_LINGER = 0.5
#: A client pipelining requests may get this far ahead of the app before the server stops reading.
_MAX_AHEAD = 256 * 1024
#: The first bytes of a request line are checked as they come (a method token, a space, a target): garbage is refused at once.
_CHECKED_PREFIX = 64
_TLS_RECORD = b"\x16\x03"  # a TLS handshake record: content type 22, protocol version 3.x

_date = [0, b""]


def _http_date() -> bytes:
    now = int(time.time())
    if now != _date[0]:
        _date[0], _date[1] = now, formatdate(now, usegmt=True).encode()
    return _date[1]


class Hub:
    """What one worker's connections share: app, options, pool, the open, the silent and the idle connections.

    ``idle`` keeps the keep-alive connections waiting for a next request in
    the order they went idle, and ``fresh`` the new ones that have sent
    nothing yet, in the order they came: when the worker is full, the one of
    them that has waited longest is closed to make room (the oldest idle one
    also when it drains), and a client past its own share of the worker's
    connections gives up its own longest-waiting one.
    """

    def __init__(self, app: WSGIApp, options: ServerOptions, loop: asyncio.AbstractEventLoop, executor: Executor, on_request: Callable[[], None]):
        self.app, self.options, self.loop, self.executor = app, options, loop, executor
        self.on_request = on_request
        self.connections: set[Connection] = set()
        self.idle: dict[Connection, None] = {}
        self.fresh: dict[Connection, None] = {}
        self.clients: dict[str, int] = {}  # open connections by client address
        self.draining = False
        self.in_pool = 0  # requests handed to the pool and not yet back: a drain waits for them too
        self.worker = 0
        self.streams = Streams(loop, options)

    def is_draining(self) -> bool:
        return self.draining

    def connection(self) -> Connection:
        return Connection(self)

    def close_idle(self) -> None:
        for conn in list(self.idle):
            conn.close_idle()

    def longest_waiting(self, client: str | None = None) -> Connection | None:
        """The silent or idle connection (of ``client``, if given) that has waited longest for a request: the one to close for room."""
        found: Connection | None = None
        for waiting in (self.fresh, self.idle):
            for conn in waiting:
                if client is None or conn.remote[0] == client:
                    if found is None or conn.since < found.since:
                        found = conn
                    break  # each dict is in waiting order: its first match is its longest-waiting one
        return found


class Connection(asyncio.Protocol):
    """One client connection (see the module docstring for its states and deadlines)."""

    def __init__(self, hub: Hub):
        self.hub, self.options = hub, hub.options
        self.loop = hub.loop
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=hub.options.max_header_bytes)
        self.transport: asyncio.Transport | None = None
        self.state = NEW
        self.deadline: float | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.request: h11.Request | None = None
        self.headers: list[tuple[bytes, bytes]] = []
        self.body: list[bytes] = []
        self.body_size = 0
        self.max_body = hub.options.max_body  # this request's limit: options.body_limits may raise it for its path
        self.chunked: ChunkedDecoder | None = None
        self.ahead = 0  # bytes of later requests taken in while this one is with the app (counted, not measured: no copy)
        self.started = 0.0
        #: the head of the next request, held until whole (framing.check_head), then given to h11; None once it has been
        self.held: bytearray | None = bytearray()
        self.refusal: Problem | None = None  # what check_head found wrong with a held head: answered when that request's turn comes
        self.paused = False  # the transport's write buffer is over its high-water mark
        self.reading = True
        self.server: tuple[str, int] = ("", 0)
        self.remote: tuple[str, int] = ("", 0)
        self.registered = False
        self.closing = False  # the client asked to close after this request, or speaks HTTP/1.0
        self.since = 0.0  # when the connection began waiting for its next request (loop time)
        self.prefix = b""  # the first bytes of a request line, until it ends or _CHECKED_PREFIX of them are checked

    # -- asyncio callbacks -------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sockname = transport.get_extra_info("sockname") or ("", 0)
        peername = transport.get_extra_info("peername") or ("", 0)
        self.server, self.remote = (str(sockname[0]), int(sockname[1])), (str(peername[0]), int(peername[1]))
        hub, client = self.hub, self.remote[0]
        if hub.clients.get(client, 0) >= self.options.max_client_connections and not self._make_room(client):
            self._refuse_room("This client holds as many connections as the server gives one client; reuse them.", "too_many_client_connections")
            return
        if len(hub.connections) >= self.options.max_connections and not self._make_room(None):
            self._refuse_room("The server holds as many connections as it takes; try again shortly.", "too_many_connections")
            return
        hub.connections.add(self)
        hub.clients[client] = hub.clients.get(client, 0) + 1
        self.registered = True
        connection_opened()
        self.since = self.loop.time()
        hub.fresh[self] = None
        self._set_deadline(self.since + self.options.header_timeout)

    def _make_room(self, client: str | None) -> bool:
        """Close the longest-waiting silent or idle connection (of ``client``); False when every one is busy."""
        victim = self.hub.longest_waiting(client)
        if victim is None:
            return False
        rejected("evicted_silent" if victim.state == NEW else "evicted_idle")
        victim._close()
        return True

    def _refuse_room(self, detail: str, reason: str) -> None:
        self._refuse(Problem(503, detail, reason), retry_after=1)
        self._set_deadline(self.loop.time() + _REFUSED_LINGER)  # not counted, so held only briefly

    def data_received(self, data: bytes) -> None:
        state = self.state
        if state >= APP:
            if state == CLOSING or state == CLOSED or state == STREAM:
                return  # lingering after an error, or a stream's client talking: the rest is discarded
            self.ahead += len(data)
            self._take(data)  # a pipelined next request, parsed once this one is answered
            if self.ahead > _MAX_AHEAD:
                self._pause_reading()
            return
        if state <= IDLE:
            data = skip_empty_lines(data)  # RFC 9112 §2.2: empty lines before a request line are ignored
            if not data:
                return
            if state == IDLE:
                self.hub.idle.pop(self, None)
                self._set_deadline(self.loop.time() + self.options.header_timeout)
            else:
                self.hub.fresh.pop(self, None)
            self.started = time.perf_counter()
            self.state = HEAD
            self.prefix = b""
            if data.startswith(_TLS_RECORD):
                self._refuse(Problem(400, "This port speaks plain HTTP, not TLS.", "tls_on_plain_port"))
                return
        elif state == BODY and self.chunked is not None:
            self._feed_chunked(data)
            return
        if self.state == HEAD and len(self.prefix) < _CHECKED_PREFIX:
            self.prefix += data[: _CHECKED_PREFIX - len(self.prefix)]
            problem = head_prefix_problem(self.prefix)
            if problem is not None:
                self._refuse(problem)
                return
        self._take(data)
        self._advance()

    def eof_received(self) -> bool:
        if self.state == STREAM:
            self.end_stream()  # the client is done listening
            return False
        if self.state in (APP, WRITING):
            self.h11.receive_data(b"")
            return True  # the client may half-close after its request; it still gets the answer
        self._close()  # idle, or a request cut short by its sender: nothing to answer
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self.state == STREAM or self.state == CLOSING:
            self.hub.streams.closed(self)
        self.state = CLOSED
        self.deadline = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self._forget()
        self.transport = None

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self.state == WRITING:
            self._next_request()
        elif self.state == STREAM:
            self.hub.streams.drained(self)  # its client took everything written: the stream's next page, if it is behind

    # -- reading -----------------------------------------------------------------------------------

    def _take(self, data: bytes) -> None:
        """Bytes for h11: a request's head is held until it is whole and checked (:func:`.framing.check_head`), then given
        to h11 with what follows it (rewritten, for a target typed with accents); a fault is kept for :meth:`_advance`.

        Only a head is held (at most ``max_header_bytes``, else 431): a body, and everything once its head has passed,
        goes to h11 as it comes. The held bytes grow in place, so a head sent a byte at a time costs no copy per byte.
        """
        held = self.held
        if held is None:
            self.h11.receive_data(data)
            return
        if self.refusal is not None:
            return  # refused: nothing after it will be read
        if held:
            start = len(held) - 2  # the empty line may have begun in the bytes held
            held += data
            whole: bytes | bytearray = held
            end = head_end(held, max(0, start))
        else:
            whole = data
            end = head_end(data)
        limit = self.options.max_header_bytes
        if end < 0:
            if not held:
                self.held = bytearray(data)
            if len(whole) > limit:
                self.refusal = Problem(431, "The request line and headers are larger than the server takes.", "headers_too_large")
            return
        self.held = None
        if end > limit:
            self.refusal = Problem(431, "The request line and headers are larger than the server takes.", "headers_too_large")
            return
        try:
            head = check_head(bytes(whole[:end]))
        except Problem as problem:
            self.refusal = problem
            return
        self.h11.receive_data(bytes(whole) if head is None else head + whole[end:])

    def _fresh_h11(self, pending: bytes) -> None:
        """Parse the next request with a new h11, fed the bytes already received past the one just read (``pending``)."""
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=self.options.max_header_bytes)
        self.held = bytearray()
        pending = skip_empty_lines(pending)
        self.ahead = len(pending)  # what is held past this request is at most one read: counted from here on
        if pending:
            self._take(pending)

    def _pending(self) -> bytes:
        """What has been received of the next request and not parsed yet: its head, held, or bytes h11 holds past a request."""
        return bytes(self.held) if self.held else self.h11.trailing_data[0]

    def _advance(self) -> None:
        """Take h11's events until it needs more bytes, a request is complete, or the client erred."""
        if self.refusal is not None:
            self._refuse(self.refusal)
            return
        conn = self.h11
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as err:
                self._refuse(_problem_of(err, self.state))
                return
            kind = type(event)
            if kind is h11.Data:
                self.body.append(event.data)  # type: ignore[union-attr]
                self.body_size += len(event.data)  # type: ignore[union-attr]
                if self.body_size > self.max_body:
                    self._refuse(Problem(413, f"The body is larger than {self.max_body} bytes.", "too_large"))
                    return
            elif kind is h11.Request:
                try:
                    self._on_request(event)  # type: ignore[arg-type]
                except Problem as problem:
                    self._refuse(problem)
                    return
                if self.chunked is not None:  # its body is decoded here, not by h11
                    self._feed_chunked(conn.trailing_data[0])
                    return
            elif kind is h11.EndOfMessage:
                self._dispatch()
                return
            elif kind is h11.ConnectionClosed:
                self._close()
                return
            else:  # NEED_DATA, or PAUSED (a pipelined request waits for this one's answer)
                return

    def _feed_chunked(self, data: bytes) -> None:
        """Body bytes of a chunked request; once its last line has passed, what follows starts a fresh h11 and the app runs."""
        decoder = self.chunked
        assert decoder is not None
        try:
            after = decoder.feed(data)
        except Problem as problem:
            self._refuse(problem)
            return
        if after is None:
            return
        self.body, self.body_size = [decoder.body()], 0
        self._fresh_h11(after)  # what follows is a pipelined next request: parsed once this one is answered
        self._dispatch()

    def _on_request(self, request: h11.Request) -> None:
        self.request = request
        if not request.http_version.startswith(b"1."):  # h11 passes "HTTP/2.0" and "HTTP/0.9" along
            raise Problem(400, f"This server speaks HTTP/1.1, not HTTP/{request.http_version.decode('latin-1')}.", "bad_request")
        self.closing = request.http_version == b"1.0"  # HTTP/1.0 keep-alive is not offered
        self.headers = headers = list(request.headers)  # h11's Headers iterates slowly; once is enough
        check_framing_headers(headers, request.http_version)
        length = 0
        for name, value in headers:
            if name == b"content-length":
                length = int(value)  # h11 has checked it is digits, and one value
            elif name == b"transfer-encoding":
                length = -1  # h11 takes only "chunked" and answers 501 for any other coding
            elif name == b"connection" and b"close" in value.lower().replace(b" ", b"").split(b","):
                self.closing = True
        limits = self.options.body_limits
        self.max_body = limits.get(request.target.partition(b"?")[0].decode("latin-1"), self.options.max_body) if limits else self.options.max_body
        if length > self.max_body:
            raise Problem(413, f"The body is larger than {self.max_body} bytes.", "too_large")
        if length == 0:
            return
        if length < 0:
            self.chunked = ChunkedDecoder(self.max_body, self.options.max_header_bytes)  # fed by _advance, then by data_received
        self.state = BODY
        self._set_deadline(self.loop.time() + self.options.body_timeout)
        if self.h11.they_are_waiting_for_100_continue and self.transport is not None:
            self.transport.write(self.h11.send(h11.InformationalResponse(status_code=100, headers=[])) or b"")

    def _dispatch(self) -> None:
        """The request is whole: run the app inline (a GET of an inline path, unless the app asks for the pool) or in the pool."""
        request = self.request
        assert request is not None
        self.state = APP
        self.deadline = None
        if self.chunked is None:
            self.ahead = 0  # what h11 holds past this request is at most one read: counted from here on
        body = b"".join(self.body) if len(self.body) != 1 else self.body[0]
        self.body, self.body_size, self.chunked = [], 0, None
        hub = self.hub
        if request.target == b"*" and request.method == b"OPTIONS":  # RFC 9110 §9.3.7: a question about the server, not a resource
            request_id = uuid.uuid4().hex
            self._respond(Reply(204, b"No Content", b"Allow: %s\r\nX-Request-ID: %s\r\n" % (self.options.allow.encode(), request_id.encode()), b"", request_id, False))
            return

        def new_environ() -> dict[str, Any]:
            return build_environ(request.method, request.target, request.http_version, self.headers, body, self.server, self.remote, hub.is_draining, hub.streams.changed)

        environ = new_environ()
        if environ["PATH_INFO"] in self.options.inline_paths and request.method in (b"GET", b"HEAD"):
            hosting = hosting_of(environ)
            assert hosting is not None
            hosting.to_pool = to_pool
            reply = call_app(hub.app, environ)
            if reply is not None:
                self._respond(reply)
                return
            environ = new_environ()  # afresh for the pool: the inline call may have read or changed it
        hub.in_pool += 1
        future = hub.executor.submit(call_app, hub.app, environ)
        future.add_done_callback(self._from_pool)

    def _from_pool(self, future: Future[Reply | None]) -> None:
        try:
            self.loop.call_soon_threadsafe(self._respond, future)
        except RuntimeError:
            pass  # the loop is closed: the worker gave up draining, and nobody waits for this answer

    # -- writing -----------------------------------------------------------------------------------

    def _respond(self, reply: Reply | Future[Reply | None]) -> None:
        """Write the whole response at once; then the next request, or a graceful close.

        The response is written directly rather than through h11 (whose
        checks of every header cost more than the rest of the write, and
        which :func:`call_app` has done already); the connection's h11 state
        then starts afresh with the bytes the client sent past this request.
        """
        if isinstance(reply, Future):
            self.hub.in_pool -= 1
            reply = (None if reply.exception() is not None else reply.result()) or internal_error()
        transport, request = self.transport, self.request
        if self.state != APP or transport is None or request is None:
            return  # the client went away while the app ran
        if reply.stream is not None:
            self._hold(reply)
            return
        close = self.closing or reply.close or self.hub.draining
        out = b"HTTP/1.1 %d %s\r\n%sDate: %s\r\n%s\r\n" % (
            reply.status,
            reply.reason,
            reply.head,
            _http_date(),
            b"Connection: close\r\n" if close and not reply.close else b"",
        )
        transport.write(out + reply.body if len(reply.body) < 65536 else out)
        if len(reply.body) >= 65536:
            transport.write(reply.body)  # large: no copy
        self._log(request, reply)
        self.hub.on_request()
        if close:
            self._linger()  # asked by the client or the app, HTTP/1.0, or the worker is draining
            return
        closed = self.h11.trailing_data[1]
        self._fresh_h11(self._pending())
        if closed:
            self.h11.receive_data(b"")
        self.state = WRITING
        if self.paused:  # resume_writing goes on once the client takes the answer
            self._set_deadline(self.loop.time() + self.options.write_timeout)
            return
        # The next request in a later pass of the loop, not from inside this call: a pipeline of thousands of
        # requests answered inline would otherwise nest a call per request, and other connections wait meanwhile.
        self.loop.call_soon(self._next_request)

    def _hold(self, reply: Reply) -> None:
        """Answer with the head and the start of a stream, then hand the connection to the worker's streams."""
        transport, request, hub, held = self.transport, self.request, self.hub, reply.stream
        assert transport is not None and request is not None and held is not None
        refusal = hub.streams.refusal(self.remote[0])
        if refusal is not None:
            self._refuse(Problem(503, *refusal), retry_after=1)
            return
        chunked = request.http_version != b"1.0"  # an HTTP/1.0 stream ends when the connection does
        out = b"HTTP/1.1 %d %s\r\n%sDate: %s\r\n%s\r\n" % (
            reply.status,
            reply.reason,
            reply.head,
            _http_date(),
            b"Transfer-Encoding: chunked\r\n" if chunked else b"Connection: close\r\n",
        )
        transport.write(out + frame(reply.body, chunked) if reply.body else out)
        self._log(request, reply)
        hub.on_request()
        self._forget()  # no longer a connection the caps count (or may evict): a stream, counted by the streams
        self.state = STREAM
        self.deadline = None
        if hub.draining:  # the start only: the client reconnects to a worker that stays
            self.end_stream(chunked)
            return
        hub.streams.open(self, held, chunked, self.remote[0])

    def end_stream(self, chunked: bool = False) -> None:
        """Close a held stream gently (``chunked``: after the body's last chunk)."""
        if self.transport is not None and self.state == STREAM:
            if chunked:
                self.transport.write(b"0\r\n\r\n")
            self.state = CLOSING
            self.transport.close()
            if self.transport.get_write_buffer_size():  # a client that does not take the rest is cut, as any slow reader
                self._set_deadline(self.loop.time() + self.options.write_timeout)
        self.hub.streams.closed(self)

    def cut(self) -> None:
        """Cut a held stream at once (its client does not read)."""
        if self.transport is not None:
            self.state = CLOSING
            self.transport.abort()
        self.hub.streams.closed(self)

    def _next_request(self) -> None:
        if self.state != WRITING or self.paused or self.transport is None:
            return  # closed meanwhile, already going on, or resume_writing will go on
        self.request = None
        pending, closed = self._pending(), self.h11.trailing_data[1]
        if not self.reading:
            self.reading = True
            if self.transport is not None:
                self.transport.resume_reading()
        if pending or self.refusal is not None:
            self.state = HEAD
            self.started = time.perf_counter()
            self._set_deadline(self.loop.time() + self.options.header_timeout)
            self._advance()
            return
        if closed:
            self._close()
            return
        if self.hub.draining:  # answered just before the drain began, so without Connection: close
            self.state = IDLE
            self.close_idle()
            return
        self.state = IDLE
        self.since = self.loop.time()
        self.hub.idle[self] = None
        self._set_deadline(self.since + self.options.keepalive_timeout)

    def _log(self, request: h11.Request, reply: Reply) -> None:
        log_event(
            "request",
            method=request.method.decode("latin-1"),
            path=request.target.decode("latin-1"),
            status=reply.status,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 2),
            bytes=len(reply.body),
            request_id=reply.request_id,
            remote=self.remote[0],
            worker=self.hub.worker,
        )

    # -- refusing and closing ----------------------------------------------------------------------

    def _refuse(self, problem: Problem, retry_after: int | None = None) -> None:
        """Answer a client fault (or a full worker) with a problem+json reply and close: a line, no traceback."""
        rejected(problem.reason)
        if self.transport is None or self.state in (CLOSING, CLOSED):
            return
        request = self.request
        sent_id, extra = echo_headers(self.headers, self.options.cors_origins) if request is not None and self.headers else (None, [])
        raw, request_id = problem_bytes(problem.status, problem.detail, problem.code, retry_after, sent_id, extra)
        self.transport.write(raw)
        log_event(
            "request",
            method=request.method.decode("latin-1") if request else "-",
            path=request.target.decode("latin-1") if request else "-",
            status=problem.status,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 2) if self.started else 0.0,
            bytes=len(raw),
            request_id=request_id,
            remote=self.remote[0],
            worker=self.hub.worker,
            reason=problem.reason,
        )
        self._linger()

    def _linger(self, wait: float = LINGER_SECONDS) -> None:
        """Stop writing, keep reading (and discarding) until the client closes or ``wait`` seconds pass."""
        transport = self.transport
        self.state = CLOSING
        self.hub.idle.pop(self, None)
        if transport is None:
            return
        if not self.reading:
            self.reading = True
            transport.resume_reading()
        wait = max(wait, self.options.write_timeout if transport.get_write_buffer_size() else 0.0)
        self._set_deadline(self.loop.time() + wait)
        if transport.can_write_eof():
            transport.write_eof()
        else:
            transport.close()

    def close_idle(self) -> None:
        """Close a keep-alive connection waiting for its next request, as the worker drains.

        Half-closed, then read (and discarded) until the client closes, or for the keep-alive timeout it was
        promised: a request it sent before it saw the close meets a clean end, which RFC 9112 §9.3.1 lets it send
        again elsewhere, where a socket closed outright would have the kernel answer it with a reset.
        """
        if self.state == IDLE:
            self._linger(self.options.keepalive_timeout)

    def _close(self) -> None:
        self.hub.idle.pop(self, None)
        self.hub.fresh.pop(self, None)
        self._forget()
        if self.transport is not None and self.state != CLOSED:
            self.state = CLOSING
            self.transport.close()
            if self.transport.get_write_buffer_size():
                self._set_deadline(self.loop.time() + self.options.write_timeout)

    def _forget(self) -> None:
        hub = self.hub
        hub.fresh.pop(self, None)
        if self.registered:
            self.registered = False
            hub.connections.discard(self)
            hub.idle.pop(self, None)
            client = self.remote[0]
            left = hub.clients.get(client, 1) - 1
            if left > 0:
                hub.clients[client] = left
            else:
                hub.clients.pop(client, None)
            connection_closed()

    def _pause_reading(self) -> None:
        if self.reading and self.transport is not None:
            self.reading = False
            self.transport.pause_reading()

    # -- deadlines ---------------------------------------------------------------------------------

    def _set_deadline(self, when: float) -> None:
        """One timer per connection, moved only when the deadline comes sooner (most requests move it later)."""
        self.deadline = when
        timer = self.timer
        if timer is None or timer.when() > when:
            if timer is not None:
                timer.cancel()
            self.timer = self.loop.call_at(when, self._on_timer)

    def _on_timer(self) -> None:
        self.timer = None
        deadline = self.deadline
        if deadline is None or self.state == CLOSED:
            return
        if self.loop.time() < deadline:
            self.timer = self.loop.call_at(deadline, self._on_timer)
            return
        state = self.state
        if state == NEW:
            rejected("timeout_headers")
            self._close()
        elif state == IDLE:
            self._close()
        elif state == HEAD:
            self._refuse(Problem(408, f"The request's headers did not arrive within {self.options.header_timeout:g} s.", "timeout_headers"))
        elif state == BODY:
            self._refuse(Problem(408, f"The request's body did not arrive within {self.options.body_timeout:g} s.", "timeout_body"))
        elif self.transport is not None:  # writing, or closing: the client takes nothing
            if state == WRITING:
                rejected("timeout_write")
            self.transport.abort()


#: Where h11's message goes on to repeat the bytes at fault (``illegal header line: bytearray(b'...')``): never echoed.
_H11_ECHO = re.compile(r":? (?:bytearray\()?b['\"]")


def _problem_of(err: h11.RemoteProtocolError, state: int) -> Problem:
    status = err.error_status_hint
    if status == 431:
        return Problem(431, "The request line and headers are larger than the server takes.", "headers_too_large")
    if status == 501:
        return Problem(501, f"{err}; this server takes only Transfer-Encoding: chunked.", "not_implemented")
    text = _H11_ECHO.split(str(err), 1)[0][:200]  # other hints (h11 knows 505 too) are still the client's malformed request: 400
    framing = state == BODY or "Content-Length" in text or "Transfer-Encoding" in text
    return Problem(400, f"The request is not valid HTTP/1.1: {text}.", "bad_framing" if framing else "bad_request")

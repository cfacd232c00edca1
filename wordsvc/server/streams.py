"""Long-lived responses held on the event loop: channels of Server-Sent Events, fanned out to every open stream.

The app answers a stream's first request like any other (in the pool), and
before it returns calls ``environ["wordsvc.server.stream"](channel, cursor,
fetch)``: the body it returns is what the client gets first, and the
connection then stays open, held by :class:`Streams` on the event loop. A
held stream costs no thread.

A channel is a name the app chooses (the ledger's: an event id). Its
messages are numbered by the app; each stream remembers the last number it
was sent (its *cursor*). When the channel may have changed, the app (from
any thread, any process that can reach it: it is told by its database) calls
``environ["wordsvc.server.changed"](channel)``, and the server calls the
channel's ``fetch(after) -> (messages, cursor, more)`` on a thread of its
own: once for all the channel's streams, from the lowest cursor among them.
``messages`` are ``(number, bytes)`` pairs, each ``bytes`` a whole message;
``cursor`` is the last number the fetch looked at (past messages it skipped);
``more`` asks for another fetch at once. Each stream is written the messages
past its own cursor, so a stream never gets a message twice. A change that
comes while a fetch runs is coalesced into one more fetch.

What bounds it: ``max_streams`` per worker and ``max_client_streams`` per
client address (past them the request is answered 503); a stream whose
client does not read (``stream_buffer`` bytes waiting) is cut, to reconnect
and resume; a comment every ``stream_heartbeat`` seconds, so proxies keep
an idle stream and a gone client is noticed. :meth:`Streams.drain` ends
every stream with the chunked body's last chunk.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple, Protocol

from .logs import log_event
from .metrics import rejected, stream_closed, stream_opened
from .options import ServerOptions

__all__ = ["Held", "Streams", "frame"]

#: ``fetch(after) -> (messages, cursor, more)``: see the module docstring.
Fetch = Callable[[int], tuple[Sequence[tuple[int, bytes]], int, bool]]
#: A fetch that failed (the database is away) is tried again after this long.
_RETRY_SECONDS = 1.0
_HEARTBEAT = b": keep-alive\n\n"
#: Streams written in one pass of the event loop: a channel of thousands is written over several passes, and a request
#: answered on the loop (``/health``) waits for one slice at most, not for the whole channel.
_SLICE = 100

log = logging.getLogger("wordsvc.server")


class Connection(Protocol):
    """What a stream needs of its connection (:class:`~.protocol.Connection`, which imports this module)."""

    transport: asyncio.Transport | None

    def end_stream(self, chunked: bool = False) -> None: ...

    def cut(self) -> None: ...


class Held(NamedTuple):
    """What the app asked for with ``environ["wordsvc.server.stream"]``: hold the response open on ``channel``."""

    channel: str
    cursor: int
    fetch: Fetch


def frame(data: bytes, chunked: bool) -> bytes:
    """``data`` as one chunk of a chunked body (RFC 9112 §7.1), or as it is (an HTTP/1.0 body that ends with the connection)."""
    return b"%x\r\n%s\r\n" % (len(data), data) if chunked else data


class _Fetched(NamedTuple):
    after: int
    messages: Sequence[tuple[int, bytes]]
    cursor: int
    more: bool


class _Stream:
    __slots__ = ("channel", "chunked", "client", "conn", "cursor")

    def __init__(self, conn: Connection, channel: str, cursor: int, chunked: bool, client: str):
        self.conn, self.channel, self.cursor, self.chunked, self.client = conn, channel, cursor, chunked, client


class _Channel:
    __slots__ = ("again", "fetch", "fetching", "streams")

    def __init__(self, fetch: Fetch):
        self.streams: dict[Connection, _Stream] = {}
        self.fetch = fetch
        self.fetching = False
        self.again = False


class Streams:
    """One worker's open streams, by channel (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, options: ServerOptions):
        self.loop, self.options = loop, options
        self.channels: dict[str, _Channel] = {}
        self.by_conn: dict[Connection, _Stream] = {}
        self.clients: dict[str, int] = {}  # open streams by client address
        self.executor: ThreadPoolExecutor | None = None  # the fetching thread, made with the first stream
        self.heartbeat: asyncio.TimerHandle | None = None
        self.draining = False
        self.worker = 0

    def __len__(self) -> int:
        return len(self.by_conn)

    # -- from any thread -----------------------------------------------------------------------------

    def changed(self, channel: str | None = None) -> None:
        """``channel`` (``None``: every channel) may have new messages. Safe from any thread; a no-op once the loop is gone."""
        try:
            self.loop.call_soon_threadsafe(self._changed, channel)
        except RuntimeError:
            pass  # the worker's loop is closed: nobody is listening any more

    # -- on the loop ---------------------------------------------------------------------------------

    def refusal(self, client: str) -> tuple[str, str] | None:
        """Why a new stream from ``client`` cannot be held now (detail, reason), else ``None``."""
        if len(self.by_conn) >= self.options.max_streams:
            return "The server holds as many streams as it takes; try again shortly.", "too_many_streams"
        if self.clients.get(client, 0) >= self.options.max_client_streams:
            return "This client holds as many streams as the server gives one client; close some.", "too_many_client_streams"
        return None

    def open(self, conn: Connection, held: Held, chunked: bool, client: str) -> None:
        """Hold ``conn`` (whose head and first body are written) on ``held.channel`` from ``held.cursor`` on."""
        channel = self.channels.get(held.channel)
        if channel is None:
            channel = self.channels[held.channel] = _Channel(held.fetch)
        else:
            channel.fetch = held.fetch  # the newest: every stream of a channel reads the same messages
        stream = _Stream(conn, held.channel, held.cursor, chunked, client)
        channel.streams[conn] = stream
        self.by_conn[conn] = stream
        self.clients[client] = self.clients.get(client, 0) + 1
        stream_opened()
        if self.executor is None:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="streams")
        if self.heartbeat is None:
            self.heartbeat = self.loop.call_later(self.options.stream_heartbeat, self._beat)
        self._fetch(held.channel, channel)  # what changed between the app's read and now is not lost

    def closed(self, conn: Connection) -> None:
        """``conn`` is gone (or cut): forget its stream."""
        stream = self.by_conn.pop(conn, None)
        if stream is None:
            return
        stream_closed()
        left = self.clients.get(stream.client, 1) - 1
        if left > 0:
            self.clients[stream.client] = left
        else:
            self.clients.pop(stream.client, None)
        channel = self.channels.get(stream.channel)
        if channel is not None:
            channel.streams.pop(conn, None)
            if not channel.streams and not channel.fetching:
                del self.channels[stream.channel]

    def drain(self) -> None:
        """End every stream (the worker is stopping): the last chunk, then close; clients reconnect elsewhere."""
        self.draining = True
        for conn, stream in list(self.by_conn.items()):
            conn.end_stream(stream.chunked)
        if self.heartbeat is not None:
            self.heartbeat.cancel()
            self.heartbeat = None
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)

    def _changed(self, channel: str | None) -> None:
        if channel is None:
            for name, held in list(self.channels.items()):
                self._fetch(name, held)
        elif (held := self.channels.get(channel)) is not None:
            self._fetch(channel, held)

    def _fetch(self, name: str, channel: _Channel) -> None:
        if self.draining or self.executor is None:
            return
        if channel.fetching:
            channel.again = True
            return
        if not channel.streams:
            self.channels.pop(name, None)
            return
        channel.fetching, channel.again = True, False
        after = min(stream.cursor for stream in channel.streams.values())
        future = self.executor.submit(channel.fetch, after)
        future.add_done_callback(lambda done: self._from_thread(name, channel, after, done))

    def _from_thread(self, name: str, channel: _Channel, after: int, done: Future[Any]) -> None:
        try:
            self.loop.call_soon_threadsafe(self._fetched, name, channel, after, done)
        except RuntimeError:
            pass  # the loop is closed

    def _fetched(self, name: str, channel: _Channel, after: int, done: Future[Any]) -> None:
        if done.cancelled() or self.draining:
            channel.fetching = False
            return
        error = done.exception()
        if error is not None:
            channel.fetching = False
            log_event("stream_fetch_failed", logging.WARNING, worker=self.worker, channel=name, error=repr(error)[:200])
            self.loop.call_later(_RETRY_SECONDS, self._changed, name)
            return
        messages, cursor, more = done.result()
        self._deliver(name, channel, _Fetched(after, messages, cursor, more), list(channel.streams.values()), {}, 0)

    def _deliver(self, name: str, channel: _Channel, got: _Fetched, streams: list[_Stream], framed: dict[tuple[int, bool], bytes], start: int) -> None:
        """Write what a fetch got to ``streams[start:]``, :data:`_SLICE` of them a pass of the loop; then fetch again if asked."""
        if self.draining:
            channel.fetching = False
            return
        for stream in streams[start : start + _SLICE]:
            if stream.cursor < got.after or channel.streams.get(stream.conn) is not stream:
                continue  # opened while the fetch ran, from before it (the next fetch starts from it), or closed meanwhile
            key = (stream.cursor, stream.chunked)
            data = framed.get(key)
            if data is None:  # what to write, by cursor and framing: most streams share one
                pending = b"".join(data for number, data in got.messages if number > stream.cursor)
                data = framed[key] = frame(pending, stream.chunked) if pending else b""
            stream.cursor = max(stream.cursor, got.cursor)
            if data:
                self._write(stream, data)
        if start + _SLICE < len(streams):
            self.loop.call_soon(self._deliver, name, channel, got, streams, framed, start + _SLICE)  # the loop serves others between
            return
        channel.fetching = False
        if self.channels.get(name) is not channel:
            return  # every stream closed meanwhile, and a new channel of that name may have begun
        if got.more or channel.again:
            self._fetch(name, channel)
        elif not channel.streams:
            del self.channels[name]

    def _write(self, stream: _Stream, data: bytes) -> None:
        """Write ``data``, framed already, to the stream's client; cut a client that has stopped reading."""
        transport = stream.conn.transport
        if transport is None or transport.is_closing():
            self.closed(stream.conn)
            return
        transport.write(data)
        if transport.get_write_buffer_size() > self.options.stream_buffer:
            rejected("stream_slow")  # the client reads slower than the channel writes: it reconnects and resumes
            stream.conn.cut()

    def _beat(self) -> None:
        self.heartbeat = None
        if self.draining or not self.by_conn:
            return
        beat = {True: frame(_HEARTBEAT, True), False: _HEARTBEAT}
        for stream in list(self.by_conn.values()):
            self._write(stream, beat[stream.chunked])
        self.heartbeat = self.loop.call_later(self.options.stream_heartbeat, self._beat)

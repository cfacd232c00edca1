"""Long-lived responses held on the event loop: channels of Server-Sent Events, fanned out to every open stream.

The app answers a stream's first request like any other (in the pool), and
before it returns calls its :class:`~.hosting.Hosting`'s ``hold(channel, cursor,
fetch, key)``: the body it returns is what the client gets first, and the
connection then stays open, held by :class:`Streams` on the event loop. A
held stream costs no thread.

A channel is a name the app chooses (the ledger's: an event id; a hosted
table's view for one viewer is ``"<event> <table> <viewer>"``). A name with a
space belongs to the *family* of the part before it: ``changed("e1")``
reaches channel ``e1`` and every channel ``e1 ...``. Its
messages are numbered by the app; each stream remembers the last number it
was sent (its *cursor*). When the channel may have changed, the app (from
any thread, any process that can reach it: it is told by its database) calls
its ``Hosting``'s ``changed(channel)``, and the server calls the
channel's ``fetch(after, keys) -> (messages, cursor, more, ended)`` on a
thread of its own: once for all the channel's streams, from the lowest
cursor among those that can take messages now. ``messages`` are ``(number,
bytes)`` pairs, each ``bytes`` a whole message; ``cursor`` is the last number
the fetch looked at (past messages it skipped); ``more`` says the fetch
stopped at a page's end. ``keys`` are the keys the channel's streams were
held with (the app's name for who opened each, never a secret), and
``ended`` those of them whose streams must end now: they get the chunked
body's last chunk, and nothing of this fetch. Each stream is written the
messages past its own cursor, so a stream never gets a message twice. A
change that comes while a fetch runs is coalesced into one more fetch.

What one stream may cost, in bytes (``stream_buffer``, 64 KiB by default;
its *page* is a quarter of it):

- a stream is written only when the client has taken what it was written
  before (the event loop's buffer for it is empty), and then at most a page
  of messages (one message at least); its socket's kernel send buffer is set
  to a page too. So a client far behind (a resume from 0 on a long event)
  gets its history a page at a time, as fast as it reads, and one that does
  not read holds a page and a kernel buffer, never the history;
- a stream that has had everything (caught up) is written new messages (a
  page of them at most at once) even while its client has not taken the last
  ones, and is cut once more than
  ``stream_buffer`` bytes are unsent (the event loop's buffer and the
  kernel's send queue: written and not acknowledged);
- at each heartbeat (``stream_heartbeat``), a stream whose client has taken
  nothing since the previous one while bytes waited for it is cut.

A cut client reconnects and resumes from its last id, losing nothing. Also
bounded: ``max_streams`` per worker and ``max_client_streams`` per client
address (past them the request is answered 503); a comment every
``stream_heartbeat`` seconds, so proxies keep an idle stream and a gone
client is noticed. :meth:`Streams.drain` ends every stream with the chunked
body's last chunk.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import struct
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple, Protocol

from .hosting import Fetch, Held
from .logs import log_event
from .metrics import rejected, stream_closed, stream_opened
from .options import ServerOptions

try:  # Linux (and most Unixes): how many bytes a socket's kernel send queue holds, written and not yet acknowledged
    import fcntl
    import termios

    _OUTQ: int | None = termios.TIOCOUTQ
except (ImportError, AttributeError):  # pragma: no cover - elsewhere the event loop's own buffer is what is counted
    _OUTQ = None

__all__ = ["Held", "Streams", "frame"]

#: A fetch that failed (the database is away) is tried again after this long.
_RETRY_SECONDS = 1.0
_HEARTBEAT = b": keep-alive\n\n"
#: Streams written in one pass of the event loop: a channel of thousands is written over several passes, and a request
#: answered on the loop (``/health``) waits for one slice at most, not for the whole channel.
_SLICE = 100
#: What :meth:`Streams._feed` leaves to do for a stream: nothing, another page of the same fetch, a fetch further on.
_DONE, _AGAIN, _FURTHER = range(3)

log = logging.getLogger("wordsvc.server")


class Connection(Protocol):
    """What a stream needs of its connection (:class:`~.protocol.Connection`, which imports this module)."""

    transport: asyncio.Transport | None

    def end_stream(self, chunked: bool = False) -> None: ...

    def cut(self) -> None: ...


def frame(data: bytes, chunked: bool) -> bytes:
    """``data`` as one chunk of a chunked body (RFC 9112 §7.1), or as it is (an HTTP/1.0 body that ends with the connection)."""
    return b"%x\r\n%s\r\n" % (len(data), data) if chunked else data


class _Page(NamedTuple):
    """What one fetch found: the messages past ``after``, up to ``cursor``."""

    after: int
    messages: Sequence[tuple[int, bytes]]
    cursor: int
    more: bool
    ended: frozenset[str]


class _Stream:
    __slots__ = ("caught_up", "channel", "chunked", "client", "conn", "cursor", "key", "stalled")

    def __init__(self, conn: Connection, held: Held, chunked: bool, client: str):
        self.conn, self.channel, self.cursor, self.key, self.chunked, self.client = conn, held.channel, held.cursor, held.key, chunked, client
        self.caught_up = False  # it has been written every message the channel's last fetch saw, and that fetch reached the end
        self.stalled = False  # bytes waited for its client at the last heartbeat, and it has taken none since


class _Channel:
    __slots__ = ("again", "fetch", "fetching", "last", "streams")

    def __init__(self, fetch: Fetch):
        self.streams: dict[Connection, _Stream] = {}
        self.fetch = fetch
        self.fetching = False
        self.again = False
        self.last: _Page | None = None  # the page fetched last: a stream taking its history a page at a time reads on from it


class Streams:
    """One worker's open streams, by channel (see the module docstring)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, options: ServerOptions):
        self.loop, self.options = loop, options
        self.page = max(1, options.stream_buffer // 4)  # the most written to a stream at once (whole messages, one at least)
        self.channels: dict[str, _Channel] = {}
        self.families: dict[str, set[str]] = {}  # a family (the part of a name before a space) -> its channels with a space
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
            family, space, _ = held.channel.partition(" ")
            if space:
                self.families.setdefault(family, set()).add(held.channel)
        else:
            channel.fetch = held.fetch  # the newest: every stream of a channel reads the same messages
        stream = _Stream(conn, held, chunked, client)
        channel.streams[conn] = stream
        self.by_conn[conn] = stream
        self.clients[client] = self.clients.get(client, 0) + 1
        stream_opened()
        if conn.transport is not None:
            self._tune(conn.transport)
        if self.executor is None:
            self.executor = ThreadPoolExecutor(1, thread_name_prefix="streams")
        if self.heartbeat is None:
            self.heartbeat = self.loop.call_later(self.options.stream_heartbeat, self._beat)
        self._fetch(held.channel, channel)  # what changed between the app's read and now is not lost

    def drained(self, conn: Connection) -> None:
        """``conn``'s client has taken everything it was written (the transport's buffer is empty): its next page, if it is behind."""
        stream = self.by_conn.get(conn)
        if stream is None or self.draining:
            return
        stream.stalled = False
        if stream.caught_up:
            return
        channel = self.channels.get(stream.channel)
        if channel is None:
            return
        last = channel.last
        if last is not None and last.after <= stream.cursor < last.cursor:  # its next page is in the last fetch: no read
            left = self._feed(stream, last, {})
            if left == _AGAIN:
                self.loop.call_soon(self.drained, conn)  # the kernel took the page at once: the next in a later pass
            if left != _FURTHER:
                return
        self._fetch(stream.channel, channel)

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
                self._forget(stream.channel)

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

    def _forget(self, name: str) -> None:
        """Channel ``name`` has no stream left."""
        self.channels.pop(name, None)
        family, space, _ = name.partition(" ")
        if space and (members := self.families.get(family)) is not None:
            members.discard(name)
            if not members:
                del self.families[family]

    # -- fetching ------------------------------------------------------------------------------------

    def _changed(self, channel: str | None) -> None:
        if channel is None:
            for name, held in list(self.channels.items()):
                self._fetch(name, held)
            return
        if (held := self.channels.get(channel)) is not None:
            self._fetch(channel, held)
        for name in list(self.families.get(channel, ())):
            if (held := self.channels.get(name)) is not None:
                self._fetch(name, held)

    def _fetch(self, name: str, channel: _Channel) -> None:
        """Fetch from the lowest cursor of the streams that can take messages now (caught up, or with nothing unsent)."""
        if self.draining or self.executor is None:
            return
        if channel.fetching:
            channel.again = True
            return
        if not channel.streams:
            self._forget(name)
            return
        channel.fetching, channel.again = True, False
        streams = channel.streams.values()
        takers = [stream.cursor for stream in streams if stream.caught_up or _unwritten(stream.conn) == 0]
        if takers:
            after = min(takers)
        else:  # every stream waits for its client: read what is new, for the keys that end (the rest waits for drains)
            after = channel.last.cursor if channel.last is not None else min(stream.cursor for stream in streams)
        keys = frozenset(stream.key for stream in streams if stream.key is not None)
        future = self.executor.submit(channel.fetch, after, keys)
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
        messages, cursor, more, ended = done.result()
        page = channel.last = _Page(after, messages, cursor, more, frozenset(ended))
        self._deliver(name, channel, page, list(channel.streams.values()), {}, 0, False, False)

    # -- writing -------------------------------------------------------------------------------------

    def _deliver(
        self, name: str, channel: _Channel, page: _Page, streams: list[_Stream], framed: dict[tuple[int, bool], tuple[bytes, int, bool]],
        start: int, again: bool, further: bool,
    ) -> None:  # fmt: skip
        """Write what a fetch got to ``streams[start:]``, :data:`_SLICE` of them a pass of the loop; then a next page or fetch if asked."""
        if self.draining:
            channel.fetching = False
            return
        for stream in streams[start : start + _SLICE]:
            if channel.streams.get(stream.conn) is not stream:
                continue  # closed meanwhile
            left = self._feed(stream, page, framed)
            again, further = again or left == _AGAIN, further or left == _FURTHER
        if start + _SLICE < len(streams):
            self.loop.call_soon(self._deliver, name, channel, page, streams, framed, start + _SLICE, again, further)  # the loop serves others between
            return
        channel.fetching = False
        if self.channels.get(name) is not channel:
            return  # every stream closed meanwhile, and a new channel of that name may have begun
        if again:  # some streams took a page at once and want the next one of the same fetch: a later pass, no read
            channel.fetching = True
            self.loop.call_soon(self._deliver, name, channel, page, list(channel.streams.values()), framed, 0, False, further)
        elif further or channel.again:
            self._fetch(name, channel)
        elif not channel.streams:
            self._forget(name)

    def _feed(self, stream: _Stream, page: _Page, framed: dict[tuple[int, bool], tuple[bytes, int, bool]]) -> int:
        """Write ``stream`` what it may take of ``page`` now; what is left to do for it (:data:`_DONE`, :data:`_AGAIN`, :data:`_FURTHER`)."""
        conn = stream.conn
        if stream.key is not None and stream.key in page.ended:
            conn.end_stream(stream.chunked)  # its key may no longer read the channel: nothing of this fetch, the last chunk
            return _DONE
        transport = conn.transport
        if transport is None or transport.is_closing():
            self.closed(conn)
            return _DONE
        if stream.cursor < page.after:
            return _DONE  # opened or paused while the fetch ran, from before it: the next fetch starts from it
        taking = transport.get_write_buffer_size() == 0
        if not taking and not stream.caught_up:
            return _DONE  # behind, and its client has not taken the last page: the next one goes when it has (drained)
        key = (stream.cursor, stream.chunked)
        found = framed.get(key)
        if found is None:  # what to write, by cursor and framing: most streams share one
            found = framed[key] = self._next_page(page, stream.cursor, stream.chunked)
        data, cursor, whole = found
        stream.cursor = max(stream.cursor, cursor)
        stream.caught_up = whole and not page.more
        if data:
            transport.write(data)
        if not taking and _unsent(transport) > self.options.stream_buffer:
            rejected("stream_slow")  # caught up, and its client leaves more than stream_buffer unread: it reconnects and resumes
            conn.cut()
            return _DONE
        if stream.caught_up or transport.get_write_buffer_size():
            return _DONE
        return _AGAIN if stream.cursor < page.cursor else _FURTHER

    def _next_page(self, page: _Page, cursor: int, chunked: bool) -> tuple[bytes, int, bool]:
        """The messages of ``page`` past ``cursor``, :attr:`page` bytes at most (one message at least), framed; the new cursor; all of them?"""
        parts: list[bytes] = []
        size = 0
        last = cursor
        for number, data in page.messages:
            if number <= cursor:
                continue
            if parts and size + len(data) > self.page:
                return frame(b"".join(parts), chunked), last, False
            parts.append(data)
            size += len(data)
            last = number
        return (frame(b"".join(parts), chunked) if parts else b""), max(cursor, page.cursor), True

    def _tune(self, transport: asyncio.Transport) -> None:
        """A held stream's transport says when its buffer empties (``resume_writing``), and its kernel buffer holds a page."""
        transport.set_write_buffer_limits(high=0)  # paused by any byte left unsent, resumed when all are taken
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.page)
            except OSError:
                pass  # not a TCP socket (a test's pipe): the event loop's buffer alone is counted

    def _beat(self) -> None:
        """Write each stream its keep-alive comment; cut one whose client has taken nothing since the last heartbeat."""
        self.heartbeat = None
        if self.draining or not self.by_conn:
            return
        beat = {True: frame(_HEARTBEAT, True), False: _HEARTBEAT}
        for stream in list(self.by_conn.values()):
            transport = stream.conn.transport
            if transport is None or transport.is_closing():
                self.closed(stream.conn)
            elif transport.get_write_buffer_size():
                if stream.stalled:
                    rejected("stream_slow")  # a whole heartbeat without taking a byte of what waits: it reconnects and resumes
                    stream.conn.cut()
                else:
                    stream.stalled = True
            else:
                stream.stalled = False
                transport.write(beat[stream.chunked])
        self.heartbeat = self.loop.call_later(self.options.stream_heartbeat, self._beat)


def _unwritten(conn: Connection) -> int:
    """Bytes the event loop holds for ``conn`` (0 for a closed one, which the next write forgets)."""
    transport = conn.transport
    return transport.get_write_buffer_size() if transport is not None else 0


def _unsent(transport: asyncio.Transport) -> int:
    """Bytes written to a stream and not acknowledged by its client: the event loop's buffer and the kernel's send queue."""
    unsent = transport.get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    if _OUTQ is not None and sock is not None:
        try:
            unsent += struct.unpack("i", fcntl.ioctl(sock.fileno(), _OUTQ, b"\0\0\0\0"))[0]
        except OSError:
            pass  # not a socket the kernel counts so
    return unsent

"""What a held stream may cost, counted in bytes (wordsvc/server/streams.py): history a page at a time, a bound on what is unsent.

In process, on a real event loop, with connections whose transports count
what they are written and whose clients take it only when the test says so
(``take``). Nothing waits on time but the heartbeat test, which waits for a
cut that a client taking nothing must get; every other wait is for the
worker's streams to be idle (no fetch or delivery under way).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from wordsvc.server.options import ServerOptions
from wordsvc.server.streams import Held, Streams

PATIENCE = 60.0
BOUND = 4096  # stream_buffer: a page is a quarter of it
PAGE = BOUND // 4
_ID = re.compile(rb"^id: (\d+)$", re.M)


class Transport:
    """An asyncio transport's write side: what was written, what the client has taken (the rest is unsent)."""

    def __init__(self) -> None:
        self.sent = bytearray()
        self.writes: list[int] = []
        self.taken = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.sent += data
        self.writes.append(len(data))

    def get_write_buffer_size(self) -> int:
        return len(self.sent) - self.taken

    def is_closing(self) -> bool:
        return self.closing

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default  # no socket: the event loop's buffer is all that is unsent

    def close(self) -> None:
        self.closing = True

    abort = close


class Conn:
    """A held connection (:class:`~wordsvc.server.protocol.Connection` as the streams see it), HTTP/1.0: unchunked."""

    def __init__(self, streams: Streams):
        self.streams = streams
        self.transport: Transport | None = Transport()
        self.ended = self.was_cut = False

    def end_stream(self, chunked: bool = False) -> None:
        self.ended = True
        self.transport.close()  # type: ignore[union-attr]
        self.streams.closed(self)

    def cut(self) -> None:
        self.was_cut = True
        self.transport.close()  # type: ignore[union-attr]
        self.streams.closed(self)

    def take(self) -> None:
        """The client reads everything it was written: the transport's buffer empties (asyncio's ``resume_writing``)."""
        transport = self.transport
        assert transport is not None
        transport.taken = len(transport.sent)
        self.streams.drained(self)

    def ids(self) -> list[int]:
        return [int(n) for n in _ID.findall(bytes(self.transport.sent))]  # type: ignore[union-attr]


class Channel:
    """The app's side: numbered messages of ``size`` bytes each, a fetch that returns all past a cursor, keys to end."""

    def __init__(self, count: int = 0, size: int = 100):
        self.messages: list[bytes] = []
        self.ended: set[str] = set()
        self.publish(count, size)

    def publish(self, count: int = 1, size: int = 100) -> None:
        for _ in range(count):
            number = len(self.messages) + 1
            head = b"id: %d\ndata: " % number
            self.messages.append(head + b"x" * (size - len(head) - 2) + b"\n\n")

    def fetch(self, after: int, keys: frozenset[str]) -> tuple[list[tuple[int, bytes]], int, bool, set[str]]:
        found = [(n, data) for n, data in enumerate(self.messages, start=1) if n > after]
        return found, max(after, len(self.messages)), False, keys & self.ended


@pytest.fixture
def worker() -> Iterator[tuple[asyncio.AbstractEventLoop, Streams]]:
    loop = asyncio.new_event_loop()
    streams = Streams(loop, ServerOptions(stream_buffer=BOUND, stream_heartbeat=3600))
    yield loop, streams
    streams.drain()
    loop.close()


def settle(loop: asyncio.AbstractEventLoop, streams: Streams, until: Callable[[], bool] = lambda: True) -> None:
    """Run the loop until ``until()`` holds and no channel is fetching or being written (a later pass would change nothing)."""

    async def idle() -> None:
        give_up = time.monotonic() + PATIENCE
        quiet = 0
        while quiet < 3:  # three passes in a row with nothing under way: nothing is scheduled either
            await asyncio.sleep(0.001)
            busy = any(channel.fetching for channel in streams.channels.values()) or not until()
            quiet = 0 if busy else quiet + 1
            assert time.monotonic() < give_up, "the streams did not settle"

    loop.run_until_complete(idle())


def hold(streams: Streams, channel: Channel, cursor: int, key: str | None = None) -> Conn:
    conn = Conn(streams)
    streams.open(conn, Held("c", cursor, channel.fetch, key), chunked=False, client="127.0.0.1")  # type: ignore[arg-type]
    return conn


def test_a_resume_from_0_sends_a_page_and_waits_for_the_client_to_take_it(worker: Any) -> None:
    loop, streams = worker
    channel = Channel(3000)  # 300,000 bytes of history
    conn = hold(streams, channel, 0)
    settle(loop, streams)
    transport = conn.transport
    assert transport is not None and transport.writes == [PAGE // 100 * 100]  # a page of whole messages, nothing more while it is unread
    assert conn.ids() == list(range(1, PAGE // 100 + 1))
    assert not conn.was_cut


def test_a_resume_from_0_that_reads_gets_every_message_once_in_order_a_page_at_a_time(worker: Any) -> None:
    loop, streams = worker
    channel = Channel(3000)
    conn = hold(streams, channel, 0)
    settle(loop, streams)
    for _ in range(400):
        conn.take()
        channel.publish(1)  # new rounds come while it catches up
        streams.changed("c")
        settle(loop, streams)
        if conn.ids() and conn.ids()[-1] == len(channel.messages):
            break
    assert conn.ids() == list(range(1, len(channel.messages) + 1))
    assert max(conn.transport.writes) <= PAGE  # type: ignore[union-attr]


def test_a_caught_up_client_that_takes_nothing_is_cut_when_its_unsent_bytes_pass_the_bound(worker: Any) -> None:
    loop, streams = worker
    channel = Channel(0)
    conn = hold(streams, channel, 0)
    reader = hold(streams, channel, 0)
    settle(loop, streams)
    for _ in range(100):
        channel.publish(1, size=100)
        streams.changed("c")
        settle(loop, streams, lambda: reader.ids()[-1:] == [len(channel.messages)])
        reader.take()
        transport = conn.transport
        assert transport is not None
        if transport.get_write_buffer_size() <= BOUND:
            assert not conn.was_cut  # every byte of it written, none taken: within the bound
        else:
            assert conn.was_cut  # the write that passed the bound cut it
            break
    assert conn.was_cut and len(conn.transport.sent) == (BOUND // 100 + 1) * 100  # type: ignore[union-attr]  # the first message past it
    assert reader.ids() == list(range(1, len(channel.messages) + 1)) and not reader.was_cut


def test_a_single_message_larger_than_the_bound_reaches_a_client_that_has_taken_the_rest(worker: Any) -> None:
    loop, streams = worker
    channel = Channel(0)
    conn = hold(streams, channel, 0)
    settle(loop, streams)
    channel.publish(1, size=3 * BOUND)
    streams.changed("c")
    settle(loop, streams)
    assert conn.ids() == [1] and not conn.was_cut


def test_a_client_that_takes_nothing_for_a_whole_heartbeat_is_cut(worker: Any) -> None:
    loop, _ = worker
    streams = Streams(loop, ServerOptions(stream_buffer=65536, stream_heartbeat=0.01))  # keep-alive comments alone would take hours to fill it
    channel = Channel(30)  # 3,000 bytes of history, within the bound: only the heartbeat can find it silent
    silent = hold(streams, channel, 0)
    idle = hold(streams, channel, 30)  # caught up, nothing unsent: it gets keep-alive comments and stays
    settle(loop, streams, lambda: silent.was_cut)
    assert not idle.was_cut and bytes(idle.transport.sent).count(b": keep-alive\n\n") >= 1  # type: ignore[union-attr]
    streams.drain()


def test_a_fetch_that_ends_a_key_ends_its_streams_before_anything_of_that_fetch(worker: Any) -> None:
    loop, streams = worker
    channel = Channel(2)
    revoked, other, anonymous = hold(streams, channel, 2, "t1"), hold(streams, channel, 2, "t2"), hold(streams, channel, 2)
    settle(loop, streams)
    channel.ended.add("t1")
    channel.publish(1)  # written after the end: never sent to t1's stream
    streams.changed("c")
    settle(loop, streams)
    assert revoked.ended and revoked.ids() == []
    assert other.ids() == [3] and anonymous.ids() == [3] and not other.ended and not anonymous.ended
    assert len(streams) == 2

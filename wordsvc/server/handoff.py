"""Connections accepted by the master and handed to the workers in turn, over a Unix socket per worker (SCM_RIGHTS).

Why the master accepts: workers accepting from one shared socket take
connections as they wake, and the first to wake took a whole burst (a load
generator's 16 keep-alive connections on one worker, the other idle, in 12
of 20 slices); a socket a worker under ``SO_REUSEPORT`` spreads them by a
hash of their addresses, which puts all of a few connections (a proxy's
pool of 4) on one worker one time in eight. Handed in turn, n connections
give each of w workers n/w of them, rounded, whatever their number.

- :class:`Channel`: a ``socketpair`` made by the master before it forks a
  worker; the master keeps one end, the worker the other;
- :class:`Dealer`: the master's side. It hands each accepted connection to
  the next worker in turn that takes it, a byte and a descriptor a message,
  and closes its own copy; a worker whose channel is full (more than a few
  hundred connections it has not taken yet) is passed over, and a
  connection no worker takes waits in the master until one does. The turn
  does not look at how busy a worker is: one whose event loop is held (a
  long answer on the loop, a full collection) is handed its share
  meanwhile, and takes it when its loop runs again;
- :class:`Inbox`: a worker's side, shaped like a listening socket
  (``fileno``, ``accept``, ``close``), so the worker's accept loop takes from
  it as it took from one. It keeps a descriptor in reserve and takes a
  connection only into the room that reserve frees: out of descriptors, a
  worker's ``accept`` fails with ``EMFILE`` before a connection is taken
  (it then pauses, as it did on a listening socket), never with a
  connection's descriptor dropped by the kernel in transit.

A stream socket, not a datagram or sequenced-packet one: those queue at most
``net.unix.max_dgram_qlen`` messages (10 by default), a stream its send
buffer's worth. Each message is one byte with one descriptor, and a read of
one byte never takes two messages' descriptors.
"""

from __future__ import annotations

import errno
import os
import socket
from collections import deque

__all__ = ["Channel", "Dealer", "Inbox"]


class Channel:
    """The two ends of one worker's channel: ``master`` (kept by the master) and ``worker`` (kept by the worker)."""

    def __init__(self) -> None:
        self.master, self.worker = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.master.setblocking(False)
        self.worker.setblocking(False)


class Dealer:
    """The master's side: hands connections to the workers in turn (:meth:`hand`), keeps those none would take."""

    def __init__(self) -> None:
        self.turn: dict[int, socket.socket] = {}  # workers that take connections, in the order they take them: pid -> channel
        self.waiting: deque[socket.socket] = deque()  # connections accepted that no worker took yet

    def join(self, pid: int, channel: socket.socket) -> None:
        """``pid`` takes connections from now on (it serves)."""
        self.turn[pid] = channel

    def leave(self, pid: int) -> None:
        """``pid`` takes no more connections (it drains, or died): what was handed to it already is its own."""
        self.turn.pop(pid, None)

    def hand(self, conn: socket.socket) -> bool:
        """Give ``conn`` to the next worker in turn that takes it and close the master's copy; False if none would (kept)."""
        if not self.waiting and self._give(conn):
            return True
        self.waiting.append(conn)
        return False

    def hand_waiting(self) -> None:
        """Try again the connections no worker took, oldest first."""
        while self.waiting and self._give(self.waiting[0]):
            self.waiting.popleft()

    def _give(self, conn: socket.socket) -> bool:
        for pid, channel in list(self.turn.items()):
            try:
                socket.send_fds(channel, [b"c"], [conn.fileno()])
            except ConnectionError:  # EPIPE: it drains (its channel takes no more), or it exited
                self.turn.pop(pid, None)
                continue
            except OSError:
                continue  # its channel is full (EAGAIN), or the kernel refuses for now: the next worker
            del self.turn[pid]
            self.turn[pid] = channel  # to the back of the turn
            conn.close()
            return True
        return False

    def close(self) -> None:
        """Close what no worker took (the master is stopping and no worker will)."""
        while self.waiting:
            self.waiting.popleft().close()


class Inbox:
    """A worker's side of its channel, taken from as a listening socket is: ``accept`` raises ``BlockingIOError`` when
    nothing waits, ``OSError(EMFILE)`` when no descriptor is left for a connection, ``EOFError`` once the master is gone."""

    def __init__(self, channel: socket.socket):
        self.channel = channel
        self.reserve = _open_reserve()

    def fileno(self) -> int:
        return self.channel.fileno()

    def accept(self) -> tuple[socket.socket, object]:
        if self.reserve < 0:
            self.reserve = _open_reserve()
            if self.reserve < 0:
                raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
        os.close(self.reserve)  # the room the connection's descriptor will take
        self.reserve = -1
        try:
            data, fds, _flags, _ = socket.recv_fds(self.channel, 1, 1)
        finally:
            self.reserve = _open_reserve()  # -1 if the connection took the last room: the next accept says so
        if not fds:
            if not data:
                raise EOFError("the master closed the channel")
            raise BlockingIOError(errno.EAGAIN, "a message without a descriptor")
        conn = socket.socket(fileno=fds[0])
        try:
            peer = conn.getpeername()
        except OSError:
            peer = None  # the client left meanwhile; the connection finds out
        return conn, peer

    def refuse_more(self) -> None:
        """Take nothing more: the master's next hand to this worker fails (and goes to another), what it handed already
        stays to be taken. For a worker told to drain by someone else than the master, which still hands it connections."""
        try:
            self.channel.shutdown(socket.SHUT_RD)
        except OSError:
            pass  # the master is gone

    def close(self) -> None:
        self.channel.close()
        if self.reserve >= 0:
            os.close(self.reserve)
            self.reserve = -1


def _open_reserve() -> int:
    try:
        return os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return -1

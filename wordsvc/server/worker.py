"""One worker process: an asyncio event loop in front, a thread pool behind, a graceful drain at the end.

The loop takes the connections the master hands it (:mod:`.handoff`: the
master accepts, and deals connections to the workers in turn), and reads every request whole (:mod:`.protocol`); only then does a
pool thread run the app. On SIGTERM (from the master: shutdown, or this
worker being recycled) the worker drains:

1. each request's ``Hosting.draining()`` (:mod:`.hosting`) turns True at once, so ``/ready`` can say 503;
2. the worker stops watching its channel from the master and closes it to
   more connections (the master hands those to another worker), takes every
   connection already handed to it, then closes the channel;
3. held streams are ended (the chunked body's last chunk), so their clients
   reconnect to a worker that stays; idle keep-alive connections are
   half-closed and read on until their clients close, so a request that
   crossed the close meets a clean end, never a reset
   (:meth:`~.protocol.Connection.close_idle`); requests in hand are finished and
   answered with ``Connection: close``;
4. once no connection is left (or ``drain_seconds`` less a second have
   passed) the process exits 0.

The worker accepts connections itself rather than through an
``asyncio.Server``: a server closed while one of its accepts is still on the
way to its protocol drops that connection, request unread, and the kernel
answers the client with a reset. Here every accepted socket is tracked
until its connection is made, and a drain waits for it.

The worker asks the master to recycle it (a line on a pipe) after
``max_requests`` plus jitter requests, and drains by itself if the master
is gone.
"""

from __future__ import annotations

import asyncio
import errno
import os
import random
import signal
from concurrent.futures import ThreadPoolExecutor
from types import FrameType

from .handoff import Inbox
from .logs import log_event
from .metrics import count_collections, watch_collections
from .options import ServerOptions
from .protocol import Hub
from .wsgi import WSGIApp

__all__ = ["BACKLOG", "hold_early_signals", "serve_worker"]

#: Listen backlog: how many connections the kernel holds for the workers to accept (nginx's default is 511).
BACKLOG = 1024
#: How often a worker checks that its master is alive (and counts its garbage collections), and a draining one that it is done.
_PARENT_CHECK_SECONDS = 1.0
_DRAIN_CHECK_SECONDS = 0.02
#: Out of file descriptors (or kernel memory): stop accepting for this long, as asyncio's own server does.
_ACCEPT_RETRY_SECONDS = 1.0
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
#: Sockets a worker takes from the backlog in one pass of its loop, counting those still being set up: the rest wait
#: for the next pass, after the ones taken have become connections the caps count (and may evict), so a flood
#: cannot make a worker hold a whole backlog of uncounted sockets and run out of descriptors.
_ACCEPT_BATCH = 32

_early: list[int] = []


def hold_early_signals() -> None:
    """In a fresh child: remember a SIGTERM/SIGINT that comes before the event loop can take it."""

    def remember(signum: int, _frame: FrameType | None) -> None:
        _early.append(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, remember)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # a hang-up reaches a worker as its master's reload: drained, not cut


class Worker:
    def __init__(self, sock: Inbox, app: WSGIApp, options: ServerOptions, report_fd: int, master_pid: int):
        self.sock, self.options, self.report_fd, self.master_pid = sock, options, report_fd, master_pid
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        self.executor = ThreadPoolExecutor(options.threads, thread_name_prefix="wsgi")
        self.hub = Hub(app, options, self.loop, self.executor, self._request_done)
        self.hub.worker = self.hub.streams.worker = self.pid
        self.requests = 0
        jitter = random.randint(0, options.max_requests_jitter) if options.max_requests_jitter else 0
        self.request_limit = options.max_requests + jitter if options.max_requests else 0
        self.accepting: set[asyncio.Task[object]] = set()
        self.drain_deadline = 0.0
        self.clean = True
        self.listening = False

    def run(self) -> int:
        loop = self.loop
        asyncio.set_event_loop(loop)
        self._listen()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.drain, signal.Signals(sig).name)
        if _early:
            loop.call_soon(self.drain, "early_signal")
        loop.call_later(_PARENT_CHECK_SECONDS, self._watch_master)
        watch_collections()
        log_event("worker_started", worker=self.pid, threads=self.options.threads, max_requests=self.request_limit, accepts_from=self.sock.fileno())
        self._report("ready")
        try:
            loop.run_forever()
        finally:
            self.executor.shutdown(wait=self.clean, cancel_futures=True)
            loop.close()
        log_event("worker_stopped", worker=self.pid, requests=self.requests, clean=self.clean)
        return 0

    # -- recycling ---------------------------------------------------------------------------------

    def _request_done(self) -> None:
        self.requests += 1
        if self.request_limit and self.requests == self.request_limit:
            self._report("max_requests")

    def _report(self, what: str) -> None:
        try:
            os.write(self.report_fd, f"{self.pid} {what}\n".encode())  # one short write: atomic on a pipe
        except OSError:
            pass  # the master is gone; _watch_master will notice

    def _watch_master(self) -> None:
        if os.getppid() != self.master_pid:
            self.drain("master_gone")
        elif not self.hub.draining:
            self.loop.call_later(_PARENT_CHECK_SECONDS, self._watch_master)
        count_collections()

    # -- draining ----------------------------------------------------------------------------------

    def drain(self, why: str) -> None:
        hub, loop = self.hub, self.loop
        if hub.draining:
            return
        hub.draining = True
        hub.streams.drain()  # streams end now, cleanly: their clients reconnect to a worker that stays
        self._unlisten()
        self.sock.refuse_more()
        try:
            self._accept_backlog()
        except OSError:
            pass  # out of descriptors: what is left in the channel is closed with it, its clients see the close
        self.sock.close()  # its channel from the master, which hands it nothing more
        log_event("drain_begun", worker=self.pid, why=why, connections=len(hub.connections), accepting=len(self.accepting))
        # One loop pass first: bytes already in a socket's buffer make their connection busy, not idle.
        loop.call_later(_DRAIN_CHECK_SECONDS, hub.close_idle)
        grace = self.options.drain_seconds
        self.drain_deadline = loop.time() + max(grace - 1.0, grace / 2)
        loop.call_later(_DRAIN_CHECK_SECONDS, self._drained)

    # -- accepting ---------------------------------------------------------------------------------

    def _listen(self) -> None:
        if not self.hub.draining and not self.listening:
            self.loop.add_reader(self.sock.fileno(), self._accept_ready)
            self.listening = True

    def _unlisten(self) -> None:
        if self.listening:
            self.loop.remove_reader(self.sock.fileno())
            self.listening = False

    def _accept_ready(self) -> None:
        """The channel from the master is readable: take some of what it handed."""
        try:
            self._accept_backlog(max(0, _ACCEPT_BATCH - len(self.accepting)))
        except OSError as err:
            if err.errno not in _OUT_OF_RESOURCES:
                raise
            log_event("accept_paused", 30, worker=self.pid, error=os.strerror(err.errno), retry_s=_ACCEPT_RETRY_SECONDS)
            self._unlisten()
            self.loop.call_later(_ACCEPT_RETRY_SECONDS, self._listen)

    def _accept_backlog(self, most: int = BACKLOG + 1) -> None:
        """Take what the master has handed us, ``most`` connections at most (all of it when draining); each socket is
        tracked until its connection is made. Out of descriptors, the OSError is the caller's."""
        for _ in range(most):
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except EOFError:  # the master is gone: nothing more will come (it is noticed within a second, and drains)
                self._unlisten()
                return
            conn.setblocking(False)
            task = self.loop.create_task(self.loop.connect_accepted_socket(self.hub.connection, conn))
            self.accepting.add(task)
            task.add_done_callback(self._accepted)

    def _accepted(self, task: asyncio.Task[object]) -> None:
        self.accepting.discard(task)
        if not task.cancelled() and (err := task.exception()) is not None:  # the client left before it was set up
            log_event("accept_failed", 30, worker=self.pid, error=repr(err))

    def _drained(self) -> None:
        hub, loop = self.hub, self.loop
        if not hub.connections and not hub.in_pool and not self.accepting:
            log_event("drain_finished", worker=self.pid, requests=self.requests)
            loop.stop()
        elif loop.time() >= self.drain_deadline:
            self.clean = False
            log_event("drain_finished", 30, worker=self.pid, requests=self.requests, cut=len(hub.connections))
            for conn in list(hub.connections):
                if conn.transport is not None:
                    conn.transport.abort()
            loop.stop()
        else:
            loop.call_later(_DRAIN_CHECK_SECONDS, self._drained)


def serve_worker(sock: Inbox, app: WSGIApp, options: ServerOptions, report_fd: int, master_pid: int) -> int:
    """Serve on ``sock`` until drained; returns the exit status. Runs in a forked child of the master."""
    return Worker(sock, app, options, report_fd, master_pid).run()

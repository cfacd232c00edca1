"""The pre-fork master: bind once, load the app once, fork the workers, keep them alive, stop them gently.

:func:`run` binds the listening socket (``SO_REUSEADDR``, backlog 1024) and
calls the app factory *before* forking, so what the app maps or loads is
shared by every worker. It then forks ``workers`` processes and supervises
them:

- the master accepts every connection and hands it to the workers in turn
  (:mod:`.handoff`), so each worker holds its share of a client's
  connections, however few (workers accepting for themselves took them as
  they woke: a load generator's 16 keep-alive connections all went to one);
  a worker takes connections once it serves and until it is told to drain,
  and a connection waits in the listen backlog (or, accepted, in the master)
  while no worker takes it;
- a worker that dies is replaced (at once; after a growing pause if it keeps
  dying within a second of starting) and its metrics files are marked dead;
- a worker past ``max_requests`` (+ jitter), or whose private memory passes
  ``max_worker_rss_mb``, is recycled: its replacement is started first, and
  the old one gets SIGTERM once the new one serves (or after 5 s);
- on SIGTERM or SIGINT the master hands out what waits in the listen
  backlog, closes the listening socket, and every worker gets SIGTERM and
  drains (answering what it was handed); the master exits 0 once all have
  exited, or SIGKILLs what is left after ``drain_seconds`` and exits 1. A
  second SIGINT kills at once;
- on SIGHUP (a terminal closed, or an operator asking) the master reloads:
  every worker is recycled as above, a fresh one started first and the old
  one drained, so requests in flight are answered and the service never
  stops. The configuration is what the master was started with (the
  environment cannot change under a running process); workers ignore
  SIGHUP themselves, so a hang-up sent to the whole process group reaches
  them only as the master's drain.

At start the master raises its descriptor limit as far as it may and fits
the connection caps to it (:mod:`.descriptors`).

The master writes no pid file and no control socket, so two instances never
share anything but, if they are told to, a port.

Prometheus multiprocess mode: without ``PROMETHEUS_MULTIPROC_DIR`` the
master makes a fresh folder for it (set before the app is loaded, since
prometheus_client reads it at import) and removes it at exit.
"""

from __future__ import annotations

import errno
import gc
import logging
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass

from .descriptors import RESERVED_DESCRIPTORS, fit_descriptors, raise_soft_limit
from .handoff import Channel, Dealer, Inbox
from .logs import configure_logging, log, log_event
from .metrics import init as init_metrics
from .options import ServerOptions
from .worker import BACKLOG, hold_early_signals, serve_worker
from .wsgi import WSGIApp, load_app

__all__ = ["run"]

_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGCHLD, signal.SIGHUP}
#: A recycled worker is stopped once its replacement says it serves, or after this long regardless.
_REPLACEMENT_WAIT = 5.0
#: Connections the master accepts in one pass of its loop before it looks at signals and workers again.
_ACCEPT_BATCH = 64
#: Out of descriptors (or kernel memory): stop accepting for this long, as a worker did.
_ACCEPT_RETRY_SECONDS = 1.0
_OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
#: How often the master looks at its workers' memory, and wakes when nothing happens.
_TICK = 1.0


@dataclass
class _Child:
    started: float
    channel: Channel  # how the master hands it connections
    retiring: bool = False
    kill_at: float = 0.0


def run(app: str | Callable[[], WSGIApp], options: ServerOptions | None = None) -> int:
    """Serve the WSGI app from ``app`` (``"module:factory"`` or a factory) until SIGTERM; the exit status."""
    options = options or ServerOptions()
    configure_logging(options.log_format, options.log_level)
    soft, hard = raise_soft_limit()
    fitted = fit_descriptors(options, soft)
    log_event(
        "descriptors", soft=soft, hard=hard, reserved=RESERVED_DESCRIPTORS, max_connections=fitted.max_connections,
        max_client_connections=fitted.max_client_connections, max_streams=fitted.max_streams, max_client_streams=fitted.max_client_streams,
    )  # fmt: skip
    options = fitted
    own_dir = _metrics_dir()
    pid = os.getpid()
    try:
        return _Master(app, options).run()
    finally:
        if own_dir is not None and os.getpid() == pid:
            shutil.rmtree(own_dir, ignore_errors=True)
            os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)


def private_bytes(pid: int) -> int | None:
    """Resident memory of ``pid`` that is its own (smaps' Private_Clean + Private_Dirty), or None without /proc.

    Not RSS: RSS counts the memory-mapped lexicon pages every worker shares
    (up to 244 MiB with every language, the size of ``build/lexicons``), which recycling a worker would not free.
    """
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            fields = dict(line.split(b":", 1) for line in f.read().splitlines() if b":" in line)
        return sum(int(fields[name].split()[0]) for name in (b"Private_Clean", b"Private_Dirty")) * 1024
    except (OSError, ValueError, KeyError, IndexError):
        return None  # no /proc (not Linux), or the worker just exited


def _metrics_dir() -> str | None:
    """Point prometheus_client at a folder the workers share; a fresh one of ours unless one is given."""
    given = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if "prometheus_client.values" in sys.modules and not given:
        log_event("metrics_not_shared", logging.WARNING, detail="prometheus_client was imported before the server set PROMETHEUS_MULTIPROC_DIR")
    if given:
        os.makedirs(given, exist_ok=True)
        return None
    folder = tempfile.mkdtemp(prefix="wordsvc-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    return folder


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


class _Master:
    def __init__(self, app: str | Callable[[], WSGIApp], options: ServerOptions):
        self.target, self.options = app, options
        self.pid = os.getpid()
        self.children: dict[int, _Child] = {}
        self.spawn_at: list[float] = []  # replacements for dead workers, due at these times
        self.dealer = Dealer()
        self.accept_again = 0.0  # out of descriptors: no accepting before this (monotonic)
        self.crashes = 0
        self.awaiting: dict[int, int] = {}  # new worker pid -> the retiring pid it replaces
        self.awaiting_until: dict[int, float] = {}
        self.stopping = False
        self.stop_deadline = 0.0
        self.killed = 0
        self.next_rss_check = 0.0

    def run(self) -> int:
        opts = self.options
        self.sock = _bind(opts.host, opts.port)
        self.report_r, self.report_w = os.pipe()
        self.wake_r, self.wake_w = os.pipe()
        for fd in (self.report_r, self.report_w, self.wake_r, self.wake_w):
            os.set_blocking(fd, False)
        for sig in _SIGNALS:  # before the app loads, so a SIGTERM meanwhile waits for the loop below
            signal.signal(sig, _noop)
        signal.set_wakeup_fd(self.wake_w)
        try:
            init_metrics()
            self.app = load_app(self.target)  # preload: loaded once, shared copy-on-write by the workers
            gc.freeze()  # what the master holds now is never scanned by a worker's collector (nor its pages dirtied by the scan)
            host, port = self.sock.getsockname()[:2]
            shared = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
            log_event("listening", host=host, port=port, workers=opts.workers, threads=opts.threads, master=self.pid, metrics_dir=shared)
            for _ in range(opts.workers):
                self._spawn()
            while not (self.stopping and not self.children):
                self._tick()
        finally:
            signal.set_wakeup_fd(-1)
            for sig in _SIGNALS:
                signal.signal(sig, signal.SIG_DFL)
            for fd in (self.report_r, self.report_w, self.wake_r, self.wake_w):
                os.close(fd)
            self.sock.close()
            self.dealer.close()
            for child in self.children.values():
                child.channel.master.close()
        log_event("drain_finished", master=self.pid, killed=self.killed)
        return 1 if self.killed else 0

    # -- the loop ----------------------------------------------------------------------------------

    def _tick(self) -> None:
        now = time.monotonic()
        due = (
            [self.stop_deadline]
            if self.stopping
            else [*self.spawn_at, *self.awaiting_until.values(), *(c.kill_at for c in self.children.values() if c.kill_at)]
        )
        dealer = self.dealer
        accepting = not self.stopping and bool(dealer.turn) and not dealer.waiting
        if accepting and now < self.accept_again:
            accepting, due = False, [*due, self.accept_again]
        timeout = max(0.0, min([now + _TICK, *due]) - now)
        readers = [self.wake_r, self.report_r, self.sock] if accepting else [self.wake_r, self.report_r]
        writers = list(dealer.turn.values()) if dealer.waiting else []  # a worker's channel has room again
        ready, writable, _ = select.select(readers, writers, [], timeout)
        if writable:
            dealer.hand_waiting()
        if self.sock in ready:
            self._accept()
        if self.wake_r in ready:
            for signum in _drain_fd(self.wake_r):
                self._on_signal(signum)
        if self.report_r in ready:
            for line in _drain_fd(self.report_r).decode("ascii", "replace").splitlines():
                pid_text, _, what = line.partition(" ")
                if pid_text.isdigit():
                    self._on_report(int(pid_text), what)
        self._reap()
        now = time.monotonic()
        if self.stopping:
            if now >= self.stop_deadline:
                self._kill_all()
            return
        for new, until in list(self.awaiting_until.items()):
            if now >= until:
                self._retire(new)
        for child_pid, child in self.children.items():
            if child.retiring and child.kill_at and now >= child.kill_at:
                log_event("worker_killed", logging.WARNING, worker=child_pid, why="recycled worker still draining after drain_seconds")
                self._signal(child_pid, signal.SIGKILL)
                child.kill_at = 0.0
        while self.spawn_at and self.spawn_at[0] <= now:
            self.spawn_at.pop(0)
            self._spawn()
        if self.options.max_worker_rss_mb and now >= self.next_rss_check:
            self.next_rss_check = now + _TICK
            self._check_memory()

    def _on_signal(self, signum: int) -> None:
        if signum == signal.SIGHUP:
            if not self.stopping:
                log_event("reload", master=self.pid, workers=sorted(pid for pid, child in self.children.items() if not child.retiring))
                for pid in list(self.children):
                    self._recycle(pid, "sighup")
            return
        if signum in (signal.SIGTERM, signal.SIGINT):
            if self.stopping and signum == signal.SIGINT:
                self._kill_all()  # a second Ctrl-C: stop waiting
            elif not self.stopping:
                self._stop(signal.Signals(signum).name)

    def _on_report(self, pid: int, what: str) -> None:
        if what == "ready":
            child = self.children.get(pid)
            if child is not None and not self.stopping:
                self.dealer.join(pid, child.channel.master)
                log_event("worker_ready", worker=pid)  # it is handed connections from now on
            if pid in self.awaiting:
                self._retire(pid)
        elif what == "max_requests":
            self._recycle(pid, "max_requests")

    # -- workers -----------------------------------------------------------------------------------

    def _spawn(self) -> int:
        """Fork a worker; its pid, or 0 if the fork failed (then one is forked again in a second)."""
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        channel = Channel()
        try:
            pid = os.fork()
        except OSError as err:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
            channel.master.close()
            channel.worker.close()
            log_event("fork_failed", logging.ERROR, detail=str(err))
            self.spawn_at.append(time.monotonic() + 1.0)
            self.spawn_at.sort()
            return 0
        if pid == 0:  # the worker; it never returns from here
            code = 1
            try:
                signal.set_wakeup_fd(-1)
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                hold_early_signals()
                signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
                for fd in (self.report_r, self.wake_r, self.wake_w):
                    os.close(fd)
                self.sock.close()  # the master accepts; the worker takes what it is handed
                channel.master.close()
                for child in self.children.values():
                    child.channel.master.close()  # the other workers' channels
                for conn in self.dealer.waiting:
                    conn.close()  # the master's to hand out: a copy held here would keep the connection open after its close
                code = serve_worker(Inbox(channel.worker), self.app, self.options, self.report_w, self.pid)
            except BaseException:
                log.exception("worker %s failed", os.getpid())
            finally:
                logging.shutdown()
                os._exit(code)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
        channel.worker.close()
        self.children[pid] = _Child(started=time.monotonic(), channel=channel)
        return pid

    def _reap(self) -> None:
        """Collect the workers that exited: only ours, never ``waitpid(-1)``, which would steal the exit
        status of a child the embedding program started itself (``wordsvc serve --build``'s builder)."""
        for pid in list(self.children):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 0
            if done == 0:
                continue
            _mark_dead(pid)
            child = self.children.pop(pid)
            self.dealer.leave(pid)
            child.channel.master.close()  # what it was handed and never took is closed with it
            code = os.waitstatus_to_exitcode(status)
            uptime = time.monotonic() - child.started
            expected = (self.stopping or child.retiring) and code == 0
            log_event("worker_exited", logging.INFO if expected else logging.WARNING, worker=pid, code=code, uptime_s=round(uptime, 1))
            for new, old in list(self.awaiting.items()):
                if old == pid:
                    self.awaiting.pop(new)
                    self.awaiting_until.pop(new, None)
            if pid in self.awaiting:  # a replacement that died before it served: retire the old one anyway
                self._retire(pid)
            if self.stopping or child.retiring:
                continue
            self.crashes = self.crashes + 1 if uptime < 1.0 else 0
            pause = min(0.1 * 2**self.crashes, 10.0) if self.crashes else 0.0
            self.spawn_at.append(time.monotonic() + pause)
            self.spawn_at.sort()

    def _recycle(self, pid: int, reason: str) -> None:
        """Start a replacement for ``pid``; ``pid`` gets SIGTERM once the replacement serves."""
        child = self.children.get(pid)
        if child is None or child.retiring or self.stopping:
            return
        child.retiring = True  # it takes connections until its replacement serves
        new = self._spawn()
        log_event("worker_recycled", worker=pid, reason=reason, replacement=new)
        if new:
            self.awaiting[new] = pid
            self.awaiting_until[new] = time.monotonic() + _REPLACEMENT_WAIT
        else:
            self._terminate(pid)

    def _retire(self, new: int) -> None:
        old = self.awaiting.pop(new, None)
        self.awaiting_until.pop(new, None)
        if old is not None:
            self._terminate(old)

    def _terminate(self, pid: int) -> None:
        """SIGTERM to ``pid``, handed nothing more first: it takes what it was handed, answers it, and exits."""
        self.dealer.leave(pid)
        child = self.children.get(pid)
        if child is not None:
            child.kill_at = time.monotonic() + self.options.drain_seconds
            self._signal(pid, signal.SIGTERM)

    def _check_memory(self) -> None:
        limit = self.options.max_worker_rss_mb * 1024 * 1024
        for pid, child in list(self.children.items()):
            if child.retiring:
                continue
            private = private_bytes(pid)
            if private is not None and private > limit:
                log_event("worker_over_memory", logging.WARNING, worker=pid, private_mb=private // (1024 * 1024), limit_mb=self.options.max_worker_rss_mb)
                self._recycle(pid, "max_worker_rss_mb")

    # -- stopping ----------------------------------------------------------------------------------

    def _stop(self, why: str) -> None:
        self.stopping = True
        self.stop_deadline = time.monotonic() + self.options.drain_seconds
        self.spawn_at.clear()
        self.awaiting.clear()
        self.awaiting_until.clear()
        self.dealer.hand_waiting()
        self._accept(everything=True)  # what waits in the backlog is handed out before the socket closes (closed, it would be reset)
        self.sock.close()
        self.dealer.close()  # none of the workers took these: their clients see the close
        log_event("drain_begun", master=self.pid, why=why, workers=sorted(self.children))
        for pid in self.children:
            self.dealer.leave(pid)
            self._signal(pid, signal.SIGTERM)

    # -- accepting ---------------------------------------------------------------------------------

    def _accept(self, everything: bool = False) -> None:
        """Accept what waits (``_ACCEPT_BATCH`` at most, or ``everything``) and hand it out, until a connection no worker takes."""
        for _ in range(BACKLOG + 1 if everything else _ACCEPT_BATCH):
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as err:
                if err.errno not in _OUT_OF_RESOURCES:
                    raise
                log_event("accept_paused", logging.WARNING, master=self.pid, error=os.strerror(err.errno), retry_s=_ACCEPT_RETRY_SECONDS)
                self.accept_again = time.monotonic() + _ACCEPT_RETRY_SECONDS
                return
            if not self.dealer.hand(conn):
                return  # kept until a worker takes it; the backlog waits meanwhile

    def _kill_all(self) -> None:
        for pid in list(self.children):
            self._signal(pid, signal.SIGKILL)
            self.killed += 1
        for pid in list(self.children):
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
            _mark_dead(pid)
            self.children.pop(pid, None)
            log_event("worker_exited", logging.WARNING, worker=pid, code=-signal.SIGKILL, killed=True)

    @staticmethod
    def _signal(pid: int, sig: int) -> None:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def _noop(_signum: int, _frame: object) -> None:
    """The signal's number reaches the loop through the wakeup fd; the handler itself has nothing to do."""


def _drain_fd(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except (BlockingIOError, InterruptedError):
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks)


def _mark_dead(pid: int) -> None:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)

"""The pre-fork master: bind once, load the app once, fork the workers, keep them alive, stop them gently.

:func:`run` binds the listening sockets (``SO_REUSEADDR``, backlog 1024) and
calls the app factory *before* forking, so what the app maps or loads is
shared by every worker. It then forks ``workers`` processes and supervises
them:

- each worker slot has a listening socket of its own on the one port
  (``SO_REUSEPORT``), so the kernel spreads new connections over the
  workers by a hash of their addresses and ports: with one socket shared,
  the worker that woke first took a whole burst of connections (16 keep-alive
  connections of a load generator, all on one worker, the other idle). A
  slot's socket is the master's, kept across its workers: a replacement
  takes it over, and what waits in its queue while its worker is recycled
  or restarted is accepted by the next one, never reset. The port is first
  bound without ``SO_REUSEPORT``, so a port another process listens on is
  refused as before rather than shared. Without ``SO_REUSEPORT`` (not Linux)
  the slots share one socket;

- a worker that dies is replaced (at once; after a growing pause if it keeps
  dying within a second of starting) and its metrics files are marked dead;
- a worker past ``max_requests`` (+ jitter), or whose private memory passes
  ``max_worker_rss_mb``, is recycled: its replacement is started first, and
  the old one gets SIGTERM once the new one serves (or after 5 s);
- on SIGTERM or SIGINT every worker gets SIGTERM and drains; the master
  exits 0 once all have exited, or SIGKILLs what is left after
  ``drain_seconds`` and exits 1. A second SIGINT kills at once;
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
from .logs import configure_logging, log, log_event
from .metrics import init as init_metrics
from .options import ServerOptions
from .worker import BACKLOG, hold_early_signals, serve_worker
from .wsgi import WSGIApp, load_app

__all__ = ["run"]

_SIGNALS = {signal.SIGTERM, signal.SIGINT, signal.SIGCHLD, signal.SIGHUP}
#: A recycled worker is stopped once its replacement says it serves, or after this long regardless.
_REPLACEMENT_WAIT = 5.0
#: How often the master looks at its workers' memory, and wakes when nothing happens.
_TICK = 1.0


@dataclass
class _Child:
    started: float
    slot: int  # which listening socket it accepts from (its replacement takes the same)
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


#: Linux balances the connections of a port over the sockets that share it by SO_REUSEPORT; other systems do not.
_BALANCED = sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT")


def _bind(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` listening sockets on one port (``port``, or one the kernel picks for 0), sharing it by SO_REUSEPORT.

    The port is bound first by a socket without SO_REUSEPORT: EADDRINUSE if
    another process listens on it (SO_REUSEPORT alone would join its group
    and split the traffic with it), and the kernel's free pick for port 0.
    """
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]

    def bound(reuse_port: bool) -> socket.socket:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind(address)
        except OSError:
            sock.close()
            raise
        return sock

    if not _BALANCED or count == 1:
        socks = [bound(False)]
    else:
        with bound(False) as probe:
            address = (*address[:1], probe.getsockname()[1], *address[2:])
        socks = []
        try:
            for _ in range(count):
                socks.append(bound(True))
        except OSError:
            for sock in socks:
                sock.close()
            raise
    for sock in socks:
        sock.listen(BACKLOG)
        sock.setblocking(False)
    return socks


class _Master:
    def __init__(self, app: str | Callable[[], WSGIApp], options: ServerOptions):
        self.target, self.options = app, options
        self.pid = os.getpid()
        self.children: dict[int, _Child] = {}
        self.spawn_at: list[tuple[float, int]] = []  # replacements for dead workers: (when, slot), soonest first
        self.crashes = 0
        self.awaiting: dict[int, int] = {}  # new worker pid -> the retiring pid it replaces
        self.awaiting_until: dict[int, float] = {}
        self.stopping = False
        self.stop_deadline = 0.0
        self.killed = 0
        self.next_rss_check = 0.0

    def run(self) -> int:
        opts = self.options
        self.socks = _bind(opts.host, opts.port, opts.workers)
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
            host, port = self.socks[0].getsockname()[:2]
            shared = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
            log_event("listening", host=host, port=port, workers=opts.workers, sockets=len(self.socks), threads=opts.threads, master=self.pid, metrics_dir=shared)
            for slot in range(opts.workers):
                self._spawn(slot)
            while not (self.stopping and not self.children):
                self._tick()
        finally:
            signal.set_wakeup_fd(-1)
            for sig in _SIGNALS:
                signal.signal(sig, signal.SIG_DFL)
            for fd in (self.report_r, self.report_w, self.wake_r, self.wake_w):
                os.close(fd)
            for sock in self.socks:
                sock.close()
        log_event("drain_finished", master=self.pid, killed=self.killed)
        return 1 if self.killed else 0

    # -- the loop ----------------------------------------------------------------------------------

    def _tick(self) -> None:
        now = time.monotonic()
        due = (
            [self.stop_deadline]
            if self.stopping
            else [*(when for when, _ in self.spawn_at), *self.awaiting_until.values(), *(c.kill_at for c in self.children.values() if c.kill_at)]
        )
        timeout = max(0.0, min([now + _TICK, *due]) - now)
        ready, _, _ = select.select([self.wake_r, self.report_r], [], [], timeout)
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
        while self.spawn_at and self.spawn_at[0][0] <= now:
            self._spawn(self.spawn_at.pop(0)[1])
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
            if pid in self.awaiting:
                self._retire(pid)
        elif what == "max_requests":
            self._recycle(pid, "max_requests")

    # -- workers -----------------------------------------------------------------------------------

    def _spawn(self, slot: int) -> int:
        """Fork a worker accepting from ``slot``'s socket; its pid, or 0 if the fork failed (then it is tried again in a second)."""
        signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
        sock = self.socks[slot % len(self.socks)]
        try:
            pid = os.fork()
        except OSError as err:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
            log_event("fork_failed", logging.ERROR, detail=str(err))
            self.spawn_at.append((time.monotonic() + 1.0, slot))
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
                for other in self.socks:
                    if other is not sock:
                        other.close()  # the other slots' sockets: their connections are for their own workers
                code = serve_worker(sock, self.app, self.options, self.report_w, self.pid)
            except BaseException:
                log.exception("worker %s failed", os.getpid())
            finally:
                logging.shutdown()
                os._exit(code)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
        self.children[pid] = _Child(started=time.monotonic(), slot=slot)
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
            self.spawn_at.append((time.monotonic() + pause, child.slot))
            self.spawn_at.sort()

    def _recycle(self, pid: int, reason: str) -> None:
        """Start a replacement for ``pid``; ``pid`` gets SIGTERM once the replacement serves."""
        child = self.children.get(pid)
        if child is None or child.retiring or self.stopping:
            return
        child.retiring = True
        new = self._spawn(child.slot)
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
        for sock in self.socks:
            sock.close()  # the workers hold their own copies until they have taken the backlog
        log_event("drain_begun", master=self.pid, why=why, workers=sorted(self.children))
        for pid in self.children:
            self._signal(pid, signal.SIGTERM)

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

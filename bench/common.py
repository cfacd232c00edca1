"""What the benches share: a server started as a subprocess, the machine's speed right now, latency summaries.

- :func:`start_server` starts ``wordsvc serve`` (the command ``make serve``
  runs) on a free port and returns once ``GET /ready`` answers 200; the
  handle stops it, also as a context manager::

      with start_server(workers=2) as server:
          status, body = post(server.port, "/best-meld", {"hand": "quiz"})

  :func:`launch` does the same for any other command that serves HTTP (the
  gunicorn baseline of ``bench/http_load.py``).
- :func:`machine_loop_ms` times a fixed Python loop. On a shared machine the
  timed figures move with the other jobs' load by 2x and more from minute to
  minute; the loop moves with them, so a figure is read beside it.
- :func:`summary` turns a list of durations into p50, p99, worst and mean;
  :class:`Timer` and :func:`time_each` take the durations.

Importing this module puts the repository first on ``sys.path`` (the benches
measure this tree) and imports nothing of ``wordsvc``: a bench that times
its own imports still can.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO, Any

__all__ = [
    "ROOT",
    "Server",
    "Timer",
    "free_port",
    "launch",
    "machine_line",
    "machine_loop_ms",
    "post",
    "start_server",
    "summary",
    "time_each",
    "wait_ready",
]

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"
#: Seconds to wait for /ready: the lexicons are memory-mapped, so a few seconds at most on an idle machine.
READY_TIMEOUT = 60.0
#: Seconds to wait for the server to exit after SIGTERM: its master drains for WORDSVC_DRAIN_SECONDS (20 s) at most.
STOP_TIMEOUT = 30.0
#: Additions in the machine loop: about a tenth of a second when the machine is idle, long enough to feel a neighbour's load.
LOOP_STEPS = 3_000_000


# ---------------------------------------------------------------- a server as a subprocess


def free_port() -> int:
    """A TCP port on 127.0.0.1 free right now (the kernel's pick)."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_ready(port: int, proc: subprocess.Popen[bytes] | None = None, timeout: float = READY_TIMEOUT) -> bool:
    """Poll ``GET /ready`` on ``port`` until it answers 200 (True), ``proc`` exits or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/ready")
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                return True
        except OSError:
            pass
        time.sleep(0.05)
    return False


@dataclass
class Server:
    """A server process started by :func:`launch`; :meth:`stop` ends it and its workers."""

    proc: subprocess.Popen[bytes]
    port: int
    name: str
    #: Seconds from starting the process to the first 200 from /ready.
    ready_s: float = math.nan
    _log: IO[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def cpu_seconds(self) -> tuple[float, float]:
        """User and system CPU seconds used so far by the server's processes alive now (its process group: master and workers)."""
        user = system = 0
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[2]) == self.proc.pid:  # the process group (fields[2] is pgrp: state, ppid, pgrp after the name)
                user, system = user + int(fields[11]), system + int(fields[12])
        ticks = os.sysconf("SC_CLK_TCK")
        return user / ticks, system / ticks

    def log(self, tail: int | None = 2000, since: int = 0) -> str:
        """What the server wrote to stderr so far (from byte ``since``): its last ``tail`` characters, or all of it (``None``)."""
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(since)
        text = self._log.read().decode(errors="replace")
        return text if tail is None else text[-tail:]

    def log_size(self) -> int:
        """How many bytes the server has written to stderr so far: a ``since`` for :meth:`log`."""
        if self._log is None:
            return 0
        self._log.seek(0, os.SEEK_END)
        return self._log.tell()

    def stop(self) -> None:
        """SIGTERM (the master drains its workers), then SIGKILL to the process group after :data:`STOP_TIMEOUT`."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # its own process group: started with start_new_session
                self.proc.wait(5)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Server:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()


def launch(cmd: Sequence[str], port: int, name: str, env: dict[str, str] | None = None, nofile: tuple[int, int] | None = None) -> Server:
    """Run ``cmd`` (which serves HTTP on ``port``) from the repository, in a process group of its own; return once /ready is 200.

    ``env``: variables set on top of this process's environment; ``nofile``:
    the (soft, hard) descriptor limit (RLIMIT_NOFILE) it starts with. Raises
    ``SystemExit`` with the end of the server's stderr if it exits or is not
    ready within :data:`READY_TIMEOUT` seconds.
    """
    log = tempfile.TemporaryFile()
    limit = None if nofile is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
    started = time.perf_counter()
    proc = subprocess.Popen(
        list(cmd),
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
        preexec_fn=limit,
    )
    server = Server(proc, port, name, _log=log)
    if not wait_ready(port, proc):
        how = f"exited with {proc.returncode}" if proc.poll() is not None else f"was not ready in {READY_TIMEOUT:.0f} s"
        tail = server.log()
        server.stop()
        raise SystemExit(f"{name} {how} (port {port}); its stderr ends:\n{tail}")
    server.ready_s = time.perf_counter() - started
    return server


def start_server(workers: int = 2, env: dict[str, str] | None = None, nofile: tuple[int, int] | None = None) -> Server:
    """``wordsvc serve --host 127.0.0.1 --port <free> --workers N``, as ``make serve`` starts it, once /ready is 200 (``env``, ``nofile``: :func:`launch`)."""
    port = free_port()
    exe = Path(sys.executable).with_name("wordsvc")
    cmd = [str(exe), "serve", "--host", HOST, "--port", str(port), "--workers", str(workers)]
    return launch(cmd, port, "wordsvc serve", env, nofile)


def post(port: int, path: str, body: bytes | Any, timeout: float = 30.0) -> tuple[int, bytes]:
    """POST ``body`` (bytes as they are, anything else as JSON) to ``path`` on a new connection: (status, response body)."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


# ---------------------------------------------------------------- timing


def machine_loop_ms() -> float:
    """Milliseconds for :data:`LOOP_STEPS` additions in a Python loop: how fast this machine runs Python right now."""
    started = time.perf_counter()
    total = 0
    for i in range(LOOP_STEPS):
        total += i
    return (time.perf_counter() - started) * 1e3


def machine_line() -> str:
    """The line a timed bench prints first (and may print again after its figures)."""
    return f"machine: a {LOOP_STEPS / 1e6:g}-million-step Python loop takes {machine_loop_ms():.0f} ms now"


class Timer:
    """``with Timer() as t: ...`` then ``t.seconds`` (or ``t.ms``): the wall-clock time of the block."""

    seconds: float = math.nan

    def __enter__(self) -> Timer:
        self._started = time.perf_counter()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.seconds = time.perf_counter() - self._started

    @property
    def ms(self) -> float:
        return self.seconds * 1e3


def time_each(run: Callable[[Any], object], items: Iterable[Any]) -> list[float]:
    """Seconds each ``run(item)`` took, in the order of ``items``."""
    times = []
    for item in items:
        started = time.perf_counter()
        run(item)
        times.append(time.perf_counter() - started)
    return times


def summary(times: Iterable[float]) -> dict[str, float]:
    """Durations in seconds -> ``n`` and ``p50``, ``p99``, ``worst``, ``mean`` in milliseconds.

    p99 is the nearest-rank percentile: the smallest duration at least 99 %
    of the others do not exceed (of 100 durations, the 99th smallest).
    """
    ordered = sorted(times)
    if not ordered:
        raise ValueError("no durations to summarise")
    return {
        "n": len(ordered),
        "p50": statistics.median(ordered) * 1e3,
        "p99": ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)] * 1e3,
        "worst": ordered[-1] * 1e3,
        "mean": statistics.fmean(ordered) * 1e3,
    }

"""What the server counts itself, through prometheus_client: what never reached the app.

- ``wordsvc_server_rejected_total{reason}``: requests and connections the
  server refused or cut (``timeout_headers``, ``timeout_body``,
  ``timeout_write``, ``bad_request``, ``bad_framing``, ``tls_on_plain_port``,
  ``too_large``, ``headers_too_large``, ``not_implemented``,
  ``too_many_connections``, ``too_many_client_connections``,
  ``too_many_streams``, ``too_many_client_streams``, the connections closed
  to make room, ``evicted_silent`` and ``evicted_idle``, and the streams cut
  for a client that does not read, ``stream_slow``), every series made when a worker starts, so counting
  never opens a file;
- ``wordsvc_server_connections``: open connections, summed over live workers
  (``multiprocess_mode="livesum"``); ``wordsvc_server_streams``: the streams
  held open among them (:mod:`.streams`), which leave the connections' count
  when they become streams;
- ``wordsvc_server_gc_pause_seconds{generation}``: each collection of the
  cyclic garbage collector in a worker, as the collecting thread's CPU time
  (its wall time would also hold the wait for the GIL after it). A
  collection holds the GIL: nothing else in the worker runs meanwhile, not
  even ``/health`` on the event loop. The collector's callback only notes
  the time; the worker counts the notes once a second
  (:func:`count_collections`), since the metric's lock is not reentrant and
  a collection may begin in a thread that holds it.

prometheus_client picks its storage when it is first imported: in memory, or
files under ``PROMETHEUS_MULTIPROC_DIR`` that every worker writes and the
app's ``/metrics`` reads through ``MultiProcessCollector``. So nothing here
imports it until :func:`init`, which the master calls after setting that
variable and before forking; until then the counting functions do nothing.
"""

from __future__ import annotations

import gc
import time
from typing import Any

__all__ = ["connection_closed", "connection_opened", "count_collections", "init", "rejected", "stream_closed", "stream_opened", "watch_collections"]

_metrics: dict[str, Any] = {}
_reasons: dict[str, Any] = {}
_pauses: list[tuple[int, float]] = []  # (generation, seconds) of collections not counted yet
_pause_series: list[Any] = []  # the metric's series for generations 0, 1 and 2
#: Bounds of the pause histogram: the health checks' budget is 250 ms.
PAUSE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


def init() -> None:
    """Create the server's metrics (once); call it after ``PROMETHEUS_MULTIPROC_DIR`` is set."""
    if _metrics:
        return
    from prometheus_client import Counter, Gauge, Histogram

    _metrics["rejected"] = Counter("wordsvc_server_rejected", "Requests or connections the server refused before the app saw them.", ["reason"])
    _metrics["connections"] = Gauge("wordsvc_server_connections", "Open client connections.", multiprocess_mode="livesum")
    _metrics["streams"] = Gauge("wordsvc_server_streams", "Streams held open (Server-Sent Events).", multiprocess_mode="livesum")
    _metrics["gc_pause"] = Histogram(
        "wordsvc_server_gc_pause_seconds", "Garbage collections in the workers: CPU time of each.", ["generation"], buckets=PAUSE_BUCKETS
    )


#: Every reason :func:`rejected` is given: the label's closed set, each series made when a worker starts.
REASONS = (
    "timeout_headers", "timeout_body", "timeout_write", "bad_request", "bad_framing", "tls_on_plain_port", "too_large",
    "headers_too_large", "not_implemented", "too_many_connections", "too_many_client_connections", "evicted_silent", "evicted_idle",
    "too_many_streams", "too_many_client_streams", "stream_slow",
)  # fmt: skip


def rejected(reason: str) -> None:
    child = _reasons.get(reason)
    if child is None and _metrics:
        try:
            child = _reasons[reason] = _metrics["rejected"].labels(reason=reason if reason in REASONS else "other")
        except OSError:  # out of descriptors for the metric's file: the refusal still happens, uncounted
            return
    if child is not None:
        child.inc()


def connection_opened() -> None:
    if _metrics:
        _metrics["connections"].inc()


def connection_closed() -> None:
    if _metrics:
        _metrics["connections"].dec()


def stream_opened() -> None:
    if _metrics:
        _metrics["streams"].inc()


def stream_closed() -> None:
    if _metrics:
        _metrics["streams"].dec()


def watch_collections() -> None:
    """Note the time of every garbage collection in this process from now on (a worker calls it once, after the fork).

    The metric's series are made here, at the start: that opens the
    process's file of histogram values, which counting later may find no
    descriptor left for.
    """
    if not _metrics or _pause_series:  # nothing to count them in, or already watched
        return
    for reason in REASONS:  # the counters' file is opened now too, not when descriptors may have run out
        rejected_series = _metrics["rejected"].labels(reason=reason)
        _reasons[reason] = rejected_series
    _pause_series.extend(_metrics["gc_pause"].labels(generation=str(generation)) for generation in range(3))
    started = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.thread_time()
        else:
            _pauses.append((info["generation"], time.thread_time() - started[0]))

    gc.callbacks.append(timed)


def count_collections() -> None:
    """Count the collections noted since the last call in ``wordsvc_server_gc_pause_seconds``."""
    noted = _pauses[:]
    del _pauses[: len(noted)]  # what a collection notes meanwhile stays for the next call
    if _pause_series:
        for generation, seconds in noted:
            _pause_series[generation].observe(seconds)

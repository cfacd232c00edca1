"""``GET /metrics``: Prometheus text format through the standard client library.

Requests by endpoint, method and status, latency histograms, requests in
flight, requests shed by admission control, the size of every cache, the
ledger's write transactions (how long each held the lock, how many writes
each committed), and a
``wordsvc_lexicon_info`` series per loaded lexicon (id, version, sha256).
Under ``wordsvc serve`` the server gives each worker the same
``PROMETHEUS_MULTIPROC_DIR``, so any worker answers for all of them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess

from .endpoints import TEXT, Endpoint, Resource
from .requests import service

__all__ = ["bp", "count_out_of_descriptors", "count_safety_limit", "install", "observe_commit"]

bp = Resource("metrics", __name__)

REQUESTS = Counter("wordsvc_requests", "Requests answered, by endpoint (the route), method and status.", ["endpoint", "method", "status"])
LATENCY = Histogram(
    "wordsvc_request_duration_seconds",
    "Time from the app receiving a request to its answer, by endpoint.",
    ["endpoint"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
IN_FLIGHT = Gauge("wordsvc_requests_in_flight", "Requests being handled now.", multiprocess_mode="livesum")
SHED = Counter("wordsvc_requests_shed", "Expensive requests refused at once (503) because the worker was full.", ["endpoint"])
CACHE = Gauge("wordsvc_cache_entries", "Entries held by each cache of a worker.", ["cache"], multiprocess_mode="livesum")
CACHE_BYTES = Gauge("wordsvc_cache_bytes", "Estimated bytes held by each cache of a worker.", ["cache"], multiprocess_mode="livesum")
COMMIT = Histogram(
    "wordsvc_ledger_commit_seconds",
    "A ledger write transaction, from taking the database's write lock to the commit on disk.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
COMMIT_WRITES = Histogram("wordsvc_ledger_commit_writes", "Writes committed together in one ledger transaction (group commit).", buckets=(1, 2, 4, 8, 16, 32, 64))
SAFETY = Counter(
    "wordsvc_work_safety_limits",
    "Requests refused (503) because an operation on a work budget ran past its wall-clock safety limit (WORDSVC_WORK_SAFETY_SECONDS): a bug to report.",
    ["operation"],
)
CACHE_LIMIT = Gauge("wordsvc_cache_limit_bytes", "What the caches of the workers may hold, as steered by their private memory.", multiprocess_mode="livesum")
WRITTEN = Gauge("wordsvc_worker_written_bytes", "Written private memory (Private_Dirty) of the workers at their last check, every 256 requests.", multiprocess_mode="livesum")
DESCRIPTORS = Counter("wordsvc_out_of_descriptors", "Requests answered 503 because the worker was out of file descriptors.")
#: Methods counted under their own name; any other (a client may send any token) is counted as ``other``.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"})
#: The operations that run on a work budget: the only values of SAFETY's label.
WORK_OPERATIONS = ("words", "anagrams", "suggest", "solitaire_solve")
LEXICON = Gauge("wordsvc_lexicon_info", "A loaded lexicon (value 1), with its stamp.", ["id", "version", "sha256"], multiprocess_mode="max")


def observe_memory(cache_limit: int, private: int | None) -> None:
    """The caches' limit and the private memory a worker's memory governor saw at its last check."""
    CACHE_LIMIT.set(cache_limit)
    if private is not None:
        WRITTEN.set(private)


def count_out_of_descriptors() -> None:
    """Count one request refused for want of a file descriptor (its metric file was opened when the worker started)."""
    try:
        DESCRIPTORS.inc()
    except OSError:
        pass  # the counter's own file could not be opened either: the answer is still a 503


def count_safety_limit(operation: str) -> None:
    """Count one request refused by a work budget's safety limit (an operation outside :data:`WORK_OPERATIONS` counts as ``other``)."""
    SAFETY.labels(operation if operation in WORK_OPERATIONS else "other").inc()


def observe_commit(writes: int, seconds: float) -> None:
    """Count one ledger write transaction: ``writes`` committed together, the write lock held ``seconds``."""
    COMMIT.observe(seconds)
    COMMIT_WRITES.observe(writes)


def install(app: Flask, cache_sizes: Callable[[], dict[str, tuple[int, int]]] | None = None) -> None:
    """Count every request of ``app``; ``cache_sizes`` gives ``{cache: (entries, bytes)}`` when /metrics is read."""
    app.extensions["wordsvc.cache_sizes"] = cache_sizes or (lambda: {})
    app.extensions["wordsvc.admission"].on_refused = lambda endpoint: SHED.labels(endpoint).inc()

    @app.before_request
    def _start() -> None:
        g.metrics_started = time.perf_counter()
        IN_FLIGHT.inc()

    @app.after_request
    def _count(response: Response) -> Response:
        started = g.get("metrics_started")
        if started is not None:
            endpoint = request.url_rule.rule if request.url_rule is not None else "unmatched"
            method = request.method if request.method in METHODS else "other"  # a label per made-up method would grow /metrics without end
            REQUESTS.labels(endpoint, method, str(response.status_code)).inc()
            LATENCY.labels(endpoint).observe(time.perf_counter() - started)
        return response

    @app.teardown_request
    def _done(_error: BaseException | None) -> None:
        # Always run, also for a request handed from the event loop to the pool (counted once, when answered there).
        if g.pop("metrics_started", None) is not None:
            IN_FLIGHT.dec()


@bp.declare(
    Endpoint(
        method="get",
        path="/metrics",
        operation_id="getMetrics",
        tag="service",
        summary="Prometheus metrics",
        description="Requests by endpoint and status, latency histograms, in-flight and shed requests, cache sizes, lexicon stamps; "
        "Prometheus text exposition format, for all workers.",
        answers={200: TEXT},
        problems=(),
    )
)
def metrics() -> Response:
    for lexicon in service().languages.lexicons.values():
        stamp = lexicon.info.stamp()
        LEXICON.labels(stamp["id"], stamp["version"], stamp["sha256"]).set(1)
    for name, (entries, size) in current_app.extensions["wordsvc.cache_sizes"]().items():
        CACHE.labels(name).set(entries)
        CACHE_BYTES.labels(name).set(size)
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry)
    else:
        body = generate_latest()
    return Response(body, mimetype=CONTENT_TYPE_LATEST.split(";")[0], headers={"Content-Type": CONTENT_TYPE_LATEST})

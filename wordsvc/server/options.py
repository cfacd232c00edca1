"""What a server run is told: :class:`ServerOptions`, every limit and timeout in one frozen value.

The defaults are what ships. Each one says why it is that number; tests pass
smaller timeouts to stay short, never other semantics.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["LOG_FORMATS", "ServerOptions"]

LOG_FORMATS = ("json", "plain")


@dataclass(frozen=True)
class ServerOptions:
    """Settings of one server: the master, its workers and every connection they hold.

    Timeouts are in seconds, sizes in bytes. A value of ``0`` for
    ``max_worker_rss_mb`` or ``max_requests`` turns that recycling off.
    """

    host: str = "127.0.0.1"
    #: 0 lets the kernel pick a free port; the ``listening`` log event names it.
    port: int = 8000
    #: Worker processes; two keep one answering while the other is recycled or busy.
    workers: int = 2
    #: Threads per worker that run the WSGI app; the event loop itself never waits on one.
    threads: int = 8
    #: All of a request's headers must arrive within this many seconds of its first byte
    #: (of the connection's opening, for its first request): slowloris gets no longer.
    header_timeout: float = 10.0
    #: The whole body must arrive within this many seconds of the end of the headers.
    body_timeout: float = 10.0
    #: An idle keep-alive connection is closed after this many seconds without a new request.
    keepalive_timeout: float = 5.0
    #: A response must be taken by the client within this many seconds, else the connection is cut.
    write_timeout: float = 10.0
    #: Largest request body (the service's own WORDSVC_MAX_BODY default); larger gets 413 unread.
    max_body: int = 65536
    #: Paths whose bodies may be larger than ``max_body`` (an import document): path -> largest body.
    body_limits: Mapping[str, int] = field(default_factory=dict)
    #: Largest request line plus headers; larger gets 431. Twice gunicorn's 8190-byte request line.
    max_header_bytes: int = 16384
    #: Open connections per worker. Past it the connection that has waited longest for a request (silent
    #: since it opened, or idle after one) is closed to make room; with none waiting, the new one gets 503.
    #: :func:`~wordsvc.server.master.run` lowers it to what the worker's descriptor limit leaves.
    max_connections: int = 1000
    #: Open connections per worker from one client address. Past it that client's own longest-waiting
    #: connection is closed to make room, or the new one gets 503: one client cannot take the worker's room.
    #: Half the worker's, so a flood from one address always leaves room for others (a proxy's clients share one).
    max_client_connections: int = 500
    #: Streams (Server-Sent Events, :mod:`.streams`) a worker holds open, counted apart from ``max_connections``: a held
    #: stream costs a few KiB and a descriptor, never a thread. :func:`~wordsvc.server.master.run` lowers it to what the
    #: worker's descriptor limit leaves after ``max_connections``. Past it, a new stream is answered 503.
    max_streams: int = 10000
    #: Streams per worker from one client address (half the worker's, as for connections); past it, 503.
    max_client_streams: int = 5000
    #: Seconds between the keep-alive comments of an idle stream: under the 60 s idle timeout of common proxies.
    stream_heartbeat: float = 15.0
    #: Bytes a stream's client may leave unread before the stream is cut (it reconnects and resumes from its last id):
    #: hundreds of messages, so only a client that has stopped reading gets there, and 10,000 of them hold 640 MiB at most.
    stream_buffer: int = 65536
    #: Grace period after SIGTERM: requests in hand are finished within it, then what is left is killed.
    drain_seconds: float = 20.0
    #: Recycle (gracefully) a worker whose private resident memory (smaps Private_Clean + Private_Dirty,\n    #: not the memory-mapped pages workers share) passes this many MiB; 0 is off.
    max_worker_rss_mb: int = 0
    #: Recycle a worker after this many requests plus a random 0..max_requests_jitter; 0 is off.
    max_requests: int = 0
    #: Spreads the recycling of workers that started together, so they do not all restart at once.
    max_requests_jitter: int = 0
    #: "json" (one object a line, for collectors) or "plain" (for people).
    log_format: str = "json"
    #: Origins whose browsers may read the server's own refusals (the app's CORS setting): ``*`` for any.
    cors_origins: tuple[str, ...] = ()
    log_level: str = "info"
    #: Paths whose GET and HEAD requests are answered by calling the app on the event-loop thread: they
    #: never wait behind the pool (a probe hears from a worker whose threads are all busy) and skip its
    #: round trip. Keep them cheap: an inline call that finds costly work to do hands the request to the
    #: pool with its ``Hosting.to_pool()`` (:mod:`.hosting`) before doing it.
    inline_paths: frozenset[str] = field(default_factory=lambda: frozenset({"/health", "/ready", "/validate"}))
    #: The methods the app serves on some path: what ``OPTIONS *`` (a question about the server, RFC 9110 §9.3.7) is
    #: answered in ``Allow``, by the server itself (a WSGI app has no path ``*``).
    allow: str = "GET, HEAD, POST, PUT, DELETE, OPTIONS"

    def __post_init__(self) -> None:
        problems = []
        if self.workers < 1:
            problems.append("workers must be at least 1")
        if self.threads < 1:
            problems.append("threads must be at least 1")
        for name in ("header_timeout", "body_timeout", "keepalive_timeout", "write_timeout", "drain_seconds", "stream_heartbeat"):
            if getattr(self, name) <= 0:
                problems.append(f"{name} must be positive")
        for name in ("max_body", "max_header_bytes", "max_connections", "max_client_connections", "max_streams", "max_client_streams", "stream_buffer"):
            if getattr(self, name) < 1:
                problems.append(f"{name} must be at least 1")
        problems += [f"body_limits: {path} must be at least 1" for path, limit in self.body_limits.items() if limit < 1]
        for name in ("max_worker_rss_mb", "max_requests", "max_requests_jitter", "port"):
            if getattr(self, name) < 0:
                problems.append(f"{name} must not be negative")
        if not re.fullmatch(r"[A-Z]+(?:, [A-Z]+)*", self.allow):
            problems.append("allow must be methods in capitals separated by ', '")
        if self.log_format not in LOG_FORMATS:
            problems.append(f"log_format must be one of {', '.join(LOG_FORMATS)}")
        if problems:
            raise ValueError("; ".join(problems))
        object.__setattr__(self, "inline_paths", frozenset(self.inline_paths))

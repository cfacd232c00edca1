"""File descriptors: raise the soft limit as far as the hard one allows, and share what is left between connections and streams.

A worker holds one descriptor per connection and per held stream, and a few
hundred of its own (memory-mapped lexicon files while they open, the
ledger's database, the metrics files, pipes, its pool threads' files), so
caps set without looking at the limit run the process out of descriptors:
under systemd's default soft limit of 1,024, a worker holding 1,000
connections could not open a file, and every request that needed one
failed. At start the master raises the soft limit to the hard one (an
unprivileged process may), and when ``max_connections`` and ``max_streams``
do not both fit in the limit less :data:`RESERVED_DESCRIPTORS`, shares that
room: streams get at most :data:`STREAM_SHARE` of it, connections what is
left (at most ``max_connections``), and streams then what the connections
leave; ``max_client_connections`` and ``max_client_streams`` become half of
their cap, at most. So connections and streams alone can never exhaust the
limit, and neither starves the other: at a hard limit of 1,024 a worker
holds 448 connections and 448 streams (a venue's projector, consoles and
phones all connect). What is left of exhaustion (a descriptor leak, the
machine's own limit) is answered 503 by the app and counted, and a worker
that cannot accept pauses its accepting (:mod:`.worker`).
"""

from __future__ import annotations

import dataclasses
import resource

from .options import ServerOptions

__all__ = ["RESERVED_DESCRIPTORS", "STREAM_SHARE", "fit_descriptors", "raise_soft_limit"]

#: Descriptors a worker keeps for itself, beyond its connections: it uses about 45 with every language loaded (lexicon files,
#: ledger, metrics, pipes), so this leaves room for refused connections lingering and files opened on demand.
RESERVED_DESCRIPTORS = 128
#: The share of a worker's room for connections and streams that streams may take when the limit cannot hold both caps:
#: half, so a venue's screens and its requests each keep room (a stream is long-lived; a connection turns over).
STREAM_SHARE = 0.5
#: The soft limit asked for when the hard one is unlimited (Linux's default ``fs.nr_open``).
_UNLIMITED_TARGET = 1 << 20


def raise_soft_limit() -> tuple[int, int]:
    """Raise RLIMIT_NOFILE's soft limit to the hard one (or as near as the system allows); the ``(soft, hard)`` limits after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = _UNLIMITED_TARGET if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        for attempt in (target, 1 << 16, 1 << 14, 4096):
            if soft < attempt <= target:
                try:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (attempt, hard))
                    break
                except (ValueError, OSError):
                    continue
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def fit_descriptors(options: ServerOptions, soft: int) -> ServerOptions:
    """``options`` with the connection and stream caps lowered to share what ``soft`` descriptors leave a worker (never raised)."""
    if soft == resource.RLIM_INFINITY:
        return options
    room = max(2, soft - RESERVED_DESCRIPTORS)
    if options.max_connections + options.max_streams <= room:
        return options
    streams = min(options.max_streams, max(1, int(room * STREAM_SHARE)))
    connections = min(options.max_connections, room - streams)
    streams = min(options.max_streams, room - connections)  # what the connections leave, when they need less than their share
    fitted = {
        "max_connections": connections,
        "max_client_connections": _client_cap(options.max_client_connections, connections, options.max_connections),
        "max_streams": streams,
        "max_client_streams": _client_cap(options.max_client_streams, streams, options.max_streams),
    }
    if all(getattr(options, name) == value for name, value in fitted.items()):
        return options
    return dataclasses.replace(options, **fitted)


def _client_cap(per_client: int, cap: int, asked: int) -> int:
    """One client's share of a lowered cap: half of it (so one address never takes all), as the defaults are."""
    return per_client if cap >= asked else min(per_client, max(1, cap // 2))

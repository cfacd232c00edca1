"""File descriptors: raise the soft limit as far as the hard one allows, and size the connection cap to what is left.

A worker holds one descriptor per connection and a few hundred of its own
(memory-mapped lexicon files while they open, the ledger's database, the
metrics files, pipes, its pool threads' files), so a cap of connections set
without looking at the limit runs the process out of descriptors: under
systemd's default soft limit of 1,024, a worker holding 1,000 connections
could not open a file, and every request that needed one failed. At start
the master raises the soft limit to the hard one (an unprivileged process
may) and lowers ``max_connections`` to the limit less
:data:`RESERVED_DESCRIPTORS` (and ``max_client_connections`` to half of
that, at most), and ``max_streams`` to what is left after ``max_connections``
(``max_client_streams`` to half of that, at most), so connections and
streams alone can never exhaust it. What is left of
exhaustion (a descriptor leak, the machine's own limit) is answered 503 by
the app and counted, and a worker that cannot accept pauses its accepting
(:mod:`.worker`).
"""

from __future__ import annotations

import dataclasses
import resource

from .options import ServerOptions

__all__ = ["RESERVED_DESCRIPTORS", "fit_descriptors", "raise_soft_limit"]

#: Descriptors a worker keeps for itself, beyond its connections: it uses about 45 with every language loaded (lexicon files,
#: ledger, metrics, pipes), so this leaves room for refused connections lingering and files opened on demand.
RESERVED_DESCRIPTORS = 128
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
    """``options`` with the connection and stream caps lowered to what ``soft`` descriptors leave a worker (never raised)."""
    if soft == resource.RLIM_INFINITY:
        return options
    room = max(1, soft - RESERVED_DESCRIPTORS)
    connections = min(options.max_connections, room)
    clients = min(options.max_client_connections, max(1, connections // 2) if connections < options.max_connections else options.max_client_connections)
    streams = min(options.max_streams, max(1, room - connections))
    stream_clients = min(options.max_client_streams, max(1, streams // 2) if streams < options.max_streams else options.max_client_streams)
    fitted = {"max_connections": connections, "max_client_connections": clients, "max_streams": streams, "max_client_streams": stream_clients}
    if all(getattr(options, name) == value for name, value in fitted.items()):
        return options
    return dataclasses.replace(options, **fitted)

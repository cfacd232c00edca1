"""What a worker may spend on caches: the memory budget less what the loaded service takes, less a reserve.

``WORDSVC_MEMORY_BUDGET_MB`` is the private memory one worker may use. The
loaded service (interpreter, libraries, rulesets, lexicon tables, the
Estonian analyser) takes part of it before any request; the caches share
what is left (:class:`~wordsvc.core.budget.MemoryBudget`) but for a
reserve, :data:`RESERVE_FRACTION` of the budget, for what no cache holds:
requests in flight (a solve's tables, request and answer bodies, a thread
stack each), the allocator's slack, and the pages of the memory-mapped
indexes only this worker has read so far.

The loaded service is *measured*, not assumed: it ranges from about 40 MB
(English only) to about 90 MB (with the Estonian analyser, and after the
copy-on-write of a forked worker), so any fixed share would either waste
the budget or overrun it. It is measured where the service is built: under
``wordsvc serve`` that is the master, before it forks, so the figure is what
every worker holds once it has touched its inherited pages (the workers
start nearly all shared and grow towards it).

Private memory is ``Private_Clean + Private_Dirty`` of
``/proc/self/smaps_rollup``: pages no other process maps, the figure that
grows when a worker leaks. Where /proc is not there the loaded service
counts as :data:`ASSUMED_LOADED`.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ASSUMED_LOADED", "MIN_CACHE_BYTES", "RESERVE_FRACTION", "cache_budget", "private_bytes"]

MIB = 1 << 20
#: The share of the memory budget no cache may use. bench/soak.py (10 minutes
#: over every ruleset and language, 16 clients): a worker's private memory
#: beyond what the loaded service and its caches' estimate hold stayed under
#: 20 % of a 256 MB budget.
RESERVE_FRACTION = 0.25
#: The caches get at least this much, even when the loaded service leaves
#: less (the worker then passes its budget, and the recycling backstop
#: replaces it if it passes WORDSVC_MAX_WORKER_RSS_MB).
MIN_CACHE_BYTES = 16 * MIB
#: The loaded service, where /proc cannot tell: the largest measured (all four
#: languages with the Estonian analyser).
ASSUMED_LOADED = 96 * MIB


def private_bytes(smaps: str | Path = "/proc/self/smaps_rollup") -> int | None:
    """This process's private memory (``Private_Clean + Private_Dirty``) in bytes; ``None`` where /proc is not there."""
    try:
        text = Path(smaps).read_text()
    except OSError:
        return None
    total = 0
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name in ("Private_Clean", "Private_Dirty"):
            total += int(rest.split()[0]) * 1024  # "Private_Dirty:    36764 kB"
    return total


def cache_budget(budget_mb: int, loaded: int | None) -> int:
    """Bytes the caches share: ``budget_mb`` less ``loaded`` (measured private bytes) less the reserve; at least :data:`MIN_CACHE_BYTES`.

    >>> cache_budget(256, 56 * MIB) // MIB
    136
    >>> cache_budget(64, 56 * MIB) // MIB
    16
    """
    total = budget_mb * MIB
    loaded = ASSUMED_LOADED if loaded is None else loaded
    return max(MIN_CACHE_BYTES, int(total * (1 - RESERVE_FRACTION)) - loaded)

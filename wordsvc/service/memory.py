"""What a worker may spend on caches: the memory budget, less the loaded service, less a reserve, over the caches' overhead.

``WORDSVC_MEMORY_BUDGET_MB`` is the private memory one worker may use. The
loaded service (interpreter, libraries, rulesets, lexicon tables, the
Estonian analyser) takes part of it before any request. What is left, less
:data:`FIXED_RESERVE` for what no cache holds, goes to the caches, shrunk by
:data:`OVERHEAD` because a cache's estimate (entries times a measured cost
each) is not all the memory it makes the process keep
(:func:`cache_budget`).

The loaded service is *measured*, not assumed: 26 MiB private with the
English and Icelandic lexicons (memory-mapped: they are not private), 47 MiB
with the Estonian analyser too, 84 MiB in ``wordsvc serve``'s master with
six lexicons (``bench/soak.py`` prints it), so a fixed share would either waste the budget or overrun it. It is measured where the service is built: under
``wordsvc serve`` that is the master, before it forks, so the figure is what
a worker holds once it has touched its inherited pages (workers start
nearly all shared and grow towards it).

Private memory is ``Private_Clean + Private_Dirty`` of
``/proc/self/smaps_rollup``: pages no other process maps, the figure that
grows when a worker leaks. Where /proc is not there the loaded service
counts as :data:`ASSUMED_LOADED`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from ..core.budget import MemoryBudget

__all__ = ["ASSUMED_LOADED", "FIXED_RESERVE", "MIB", "MIN_CACHE_BYTES", "OVERHEAD", "MemoryGovernor", "cache_budget", "private_bytes", "written_bytes"]

MIB = 1 << 20
#: What a worker holds besides the loaded service and its caches: its own
#: Estonian analyser (Vabamorf reopens in each process: 34 MiB private in a
#: forked child, measured; the master's copy, counted in the loaded service,
#: stays shared and unused), requests in flight (a best-meld of 11 cards with
#: 20 runners-up peaks at 2.7 MiB, the worst of 40 Icelandic hands under
#: tracemalloc; two heavy requests run at once), the threads' stacks, and a
#: margin for the loaded service's pages a worker turns private.
FIXED_RESERVE = 64 * MIB
#: Private memory the caches make a process keep, per byte of their
#: estimate: the allocator's slack, dict tables between resizes, evicted
#: objects' pages not yet reused. Measured: 40,000 requests of bench/soak.py's
#: mix in one process grew private memory by 113 MiB while the caches'
#: estimate reached 91 MiB (1.24).
OVERHEAD = 1.25
#: The caches get at least this much, even when the loaded service leaves
#: less (the worker then passes its budget, and the recycling backstop
#: replaces it if it passes WORDSVC_MAX_WORKER_RSS_MB).
MIN_CACHE_BYTES = 16 * MIB
#: The loaded service, where /proc cannot tell: the largest measured (all four
#: languages, the Estonian analyser among them), rounded up.
ASSUMED_LOADED = 64 * MIB


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


def written_bytes(smaps: str | Path = "/proc/self/smaps_rollup") -> int | None:
    """This process's written private pages (``Private_Dirty``) in bytes: what it holds of its own; ``None`` where /proc is not there.

    Unlike :func:`private_bytes` it leaves out clean pages of the
    memory-mapped lexicons that only this process happens to have read: the
    kernel may drop them at any time, and another worker reading them makes
    them shared.
    """
    try:
        text = Path(smaps).read_text()
    except OSError:
        return None
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        if name == "Private_Dirty":
            return int(rest.split()[0]) * 1024
    return None


def cache_budget(budget_mb: int, loaded: int | None) -> int:
    """Bytes the caches share: ``(budget_mb - loaded - FIXED_RESERVE) / OVERHEAD``, at least :data:`MIN_CACHE_BYTES`.

    ``loaded`` is the loaded service's private bytes (:func:`private_bytes`).

    >>> cache_budget(256, 47 * MIB) // MIB
    116
    >>> cache_budget(64, 47 * MIB) // MIB
    16
    """
    loaded = ASSUMED_LOADED if loaded is None else loaded
    return max(MIN_CACHE_BYTES, int((budget_mb * MIB - loaded - FIXED_RESERVE) / OVERHEAD))


class MemoryGovernor:
    """Holds a worker's private memory to its budget by resizing the caches' limit: the estimate is steered by the real figure.

    The caches count an estimate of their bytes; the process keeps more
    than that for them (the allocator's slack, dict tables between resizes,
    freed pages not yet reused), and how much more depends on the mix of
    requests (2.5 bytes per estimated byte was measured for best plays over
    every ruleset and language, 1.24 for the soak's mix: docs/performance.md).
    Every ``every`` requests (a count, so the checks cost the same under any
    load) :meth:`tick` reads the process's written private memory
    (:func:`written_bytes`): past ``target``,
    the caches' limit shrinks by what is over (never below
    :data:`MIN_CACHE_BYTES`) and the caches evict down to it; well under
    (below 90 % of it), the limit grows back by half the room, up to where it
    started. The worker-recycling backstop (``WORDSVC_MAX_WORKER_RSS_MB``)
    stays for what eviction cannot give back.
    """

    def __init__(self, budget: MemoryBudget, target: int, every: int = 256, measure: Callable[[], int | None] | None = None):
        self.budget, self.target, self.every = budget, target, every
        self.measure = measure or written_bytes
        self.ceiling = budget.limit  # what the budget was sized to at start: it never grows past it
        self.requests = 0
        self.shrunk = 0  # times the limit was lowered
        self.last: int | None = None  # private bytes at the last check
        self._lock = threading.Lock()

    def tick(self) -> bool:
        """Count one request; on every ``every``-th, compare private memory with the target and steer the caches' limit (True: it did)."""
        with self._lock:
            self.requests += 1
            if self.requests % self.every:
                return False
        self.check()
        return True

    def check(self) -> None:
        private = self.measure()
        if private is None:
            return
        self.last = private
        limit = self.budget.limit
        if private > self.target:
            lowered = max(MIN_CACHE_BYTES, limit - (private - self.target))
            if lowered < limit:
                self.shrunk += 1
                self.budget.resize(lowered)
        elif private < self.target * 0.9 and limit < self.ceiling:
            self.budget.resize(min(self.ceiling, limit + int(self.target * 0.9 - private) // 2))

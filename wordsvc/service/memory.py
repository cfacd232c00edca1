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

from pathlib import Path

__all__ = ["ASSUMED_LOADED", "FIXED_RESERVE", "MIB", "MIN_CACHE_BYTES", "OVERHEAD", "cache_budget", "private_bytes"]

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

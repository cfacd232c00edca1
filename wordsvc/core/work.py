"""Work budgets: a bounded operation stops after a count of steps, never after a time.

The same request against the same lexicon must give the same bytes on any
machine and under any load, so an operation that could run on (a broad
``/words`` pattern, a solitaire layout with millions of states) is bounded by
the work it does, as chess engines bound analysis by nodes and SQLite's
progress handler by virtual-machine steps. Each operation charges
:meth:`Work.spend` at fixed places with counts that depend only on its input
and the lexicon (trie probes, index bytes read, candidates looked up,
verdicts, search states), and checks whether the budget is spent at fixed
places too; what it found by then is its answer, marked ``truncated``.

Counts are weighted so that one *unit* is about a microsecond of the
operation's work on the reference machine (docs/performance.md): the
default budgets keep the latencies of the time budgets they replaced, and a
budget reads as "about this many microseconds, counted". The weights are
constants of the code, documented per operation in docs/search.md.

A wall-clock :class:`SafetyLimit` is kept only as a last resort against a bug
(an operation whose counts miss some of its work): past it the operation
raises instead of answering, so a load spike can cost an answer (a 503,
logged and counted), never change one.

>>> work = Work(100)
>>> work.spend(60), work.spend(30), work.spend(20)
(False, False, True)
>>> work.spent, work.exhausted
(110, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["SafetyLimit", "Work"]


class SafetyLimit(RuntimeError):
    """An operation ran past its wall-clock safety limit: a bug in its counting, never a normal answer."""

    def __init__(self, operation: str, seconds: float, spent: int, limit: int):
        super().__init__(f"{operation or 'an operation'} ran past its {seconds:g} s safety limit after {spent:,} of {limit:,} work units")
        self.operation = operation
        self.seconds = seconds
        self.spent = spent
        self.limit = limit


class Work:
    """``limit`` units of work; :meth:`spend` counts them and says when they are spent.

    ``safety``: seconds of wall clock after which :meth:`spend` raises
    :class:`SafetyLimit` (``None``: no limit, for tools and tests). The clock
    never decides an answer: it only stops one from being given.
    """

    __slots__ = ("_at", "_clock", "limit", "operation", "safety", "spent")

    def __init__(self, limit: int, safety: float | None = None, operation: str = "", clock: Callable[[], float] = time.monotonic):
        if limit < 1:
            raise ValueError(f"a work budget needs at least 1 unit, not {limit}")
        self.limit = limit
        self.spent = 0
        self.safety = safety
        self.operation = operation
        self._clock = clock
        self._at = None if safety is None else clock() + safety

    def spend(self, units: int) -> bool:
        """Count ``units`` of work done; True once the budget is spent (at or past its limit)."""
        self.spent += units
        if self._at is not None and self._clock() > self._at:
            assert self.safety is not None
            raise SafetyLimit(self.operation, self.safety, self.spent, self.limit)
        return self.spent >= self.limit

    @property
    def exhausted(self) -> bool:
        """True once the budget is spent; checking costs nothing and counts nothing."""
        return self.spent >= self.limit

    @classmethod
    def unbounded(cls) -> Work:
        """A budget no operation spends (tools that want the whole answer, however long)."""
        return cls(1 << 62)

"""One memory budget shared by many caches: past it, the least recently used entries go, whichever cache holds them.

A worker keeps several kinds of memo (the solver's word checks and
prefix answers, each deck's laying plans, the Estonian analyser's
readings), dozens of caches in all: one per solver, per deck, per lexicon.
Bounding each on its own bounds none of them together, so every cache
joins one :class:`MemoryBudget` of bytes, and the budget evicts across all
of them.

How. Each :class:`BudgetedCache` costs ``entry_bytes`` an entry (key, value
and the dict's own slot, measured where each cache is made) and keeps its
entries in *generations*, one dict each, newest first. The budget counts the
bytes written; every ``limit / GENERATIONS`` bytes it opens a new generation
in every cache, where writes land from then on. A hit in an older
generation moves the entry to the newest (so entries in use never age out),
and when the bytes held pass the limit the oldest generation goes from every
cache at once. That is least-recently-used eviction across caches, by
generation rather than by entry: a hit in the newest generation costs one
dict look-up and no bookkeeping, which the solver's inner loops need (see
:attr:`BudgetedCache.recent`), and what is dropped goes in bulk (objects
allocated together are freed together, so the allocator can give its arenas
back). The bytes held are counted from the dicts' lengths, never from a
running sum, so concurrent writers cannot make the figure drift.

Thread-safe: requests run in a thread pool. Reads and writes are single
dict operations (atomic under the GIL); changing a cache's list of
generations takes its lock, evicting takes the budget's. A race can only
cost a recomputation or a short-lived duplicate, never a wrong answer:
these are memos of pure functions.

Pure: standard library only, no I/O. What a process may spend is the
service's business (:mod:`wordsvc.service.memory`).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["GENERATIONS", "BudgetedCache", "Doorkeeper", "MemoryBudget"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

#: Generations the budget's bytes are spread over: eviction frees about one
#: eighth of the budget at a time, and a look-up missing the newest
#: generation checks at most seven more dicts.
GENERATIONS = 8
#: Writes between two checks of the bytes held, as a fraction of the limit:
#: the budget is passed by at most about 1/64 of itself between checks.
_CHECKS = 64

_MISSING = object()


class MemoryBudget:
    """``limit`` bytes that every cache made with (or attached to) this budget shares.

    >>> budget = MemoryBudget(10_000)
    >>> words, plans = budget.cache("words", 100), budget.cache("plans", 1_000)
    >>> for i in range(200):
    ...     words.put(i, True)
    >>> plans.put("layout", "plan")
    >>> budget.used() <= budget.limit, plans.get("layout"), len(words) < 200
    (True, 'plan', True)
    """

    def __init__(self, limit: int, generations: int = GENERATIONS):
        if generations < 2:
            raise ValueError("a budget needs at least two generations")
        self.generations = generations
        #: The generation writes land in now; only ever grows.
        self.generation = 0
        self._lock = threading.Lock()  # held while checking and evicting
        self._registry = threading.Lock()  # held while the set of caches changes or is read
        self._caches: weakref.WeakSet[BudgetedCache[object, object]] = weakref.WeakSet()
        self._written = 0  # bytes written since the last check (racy by design: it only times checks)
        self._in_generation = 0  # bytes written in the current generation, as of the last check
        self.evicted = 0  # entries dropped, to keep within the limit or for want of use
        self.resize(limit)

    @property
    def limit(self) -> int:
        return self._limit

    def resize(self, limit: int) -> None:
        """Change the limit (the service sizes its budget once the data is loaded); evicts at once if now over."""
        if limit < 1:
            raise ValueError(f"a memory budget needs a positive limit, not {limit}")
        self._limit = limit
        self._check_every = max(1, limit // _CHECKS)
        self._generation_bytes = max(1, limit // self.generations)
        self.settle()

    def cache(self, name: str, entry_bytes: int) -> BudgetedCache[K, V]:
        """A new cache named ``name`` (caches of one kind may share a name) whose entries cost ``entry_bytes`` each."""
        return BudgetedCache(name, entry_bytes, self)

    def used(self) -> int:
        """Bytes the registered caches hold, by their entries' estimated cost."""
        return sum(cache.nbytes for cache in self._registered())

    def sizes(self) -> dict[str, tuple[int, int]]:
        """``{name: (entries, bytes)}`` summed over the caches of each name (the shape ``/metrics`` reports)."""
        out: dict[str, tuple[int, int]] = {}
        for cache in self._registered():
            entries, size = out.get(cache.name, (0, 0))
            n = len(cache)
            out[cache.name] = (entries + n, size + n * cache.entry_bytes)
        return dict(sorted(out.items()))

    def settle(self) -> None:
        """Open a new generation if the current one is full, then drop the oldest generations until within the limit."""
        with self._lock:
            self._in_generation += self._written
            self._written = 0
            caches = self._registered()
            if self._in_generation >= self._generation_bytes:
                self._advance(caches)
                # An entry unused while a whole budget's worth was written goes even under the limit: a
                # least-recently-used cache of the budget's size would have dropped it by then (sooner, by
                # as much as the entries moved forward count twice). And no cache holds more than
                # generations + 1 dicts, however long the process runs.
                self._drop_through(caches, self.generation - self.generations - 1)
            used = sum(cache.nbytes for cache in caches)
            while used > self._limit:
                oldest = min(cache.oldest_generation() for cache in caches)
                if oldest >= self.generation:  # everything is in the current generation: close it, so it can go
                    self._advance(caches)
                self._drop_through(caches, oldest)
                used = sum(cache.nbytes for cache in caches)

    def _advance(self, caches: list[BudgetedCache[object, object]]) -> None:
        self.generation += 1
        self._in_generation = 0
        for cache in caches:
            cache.open_generation(self.generation)

    def _drop_through(self, caches: list[BudgetedCache[object, object]], generation: int) -> None:
        if generation >= 0:
            for cache in caches:
                self.evicted += cache.drop_through(generation)

    # ---- for the caches

    def register(self, cache: BudgetedCache[K, V]) -> None:
        with self._registry:
            self._caches.add(cache)  # type: ignore[arg-type]

    def unregister(self, cache: BudgetedCache[K, V]) -> None:
        with self._registry:
            self._caches.discard(cache)  # type: ignore[arg-type]

    def wrote(self, nbytes: int) -> None:
        """A cache wrote ``nbytes`` (an entry, or an entry moved forward); checks the limit every so often."""
        self._written += nbytes
        if self._written >= self._check_every:
            self.settle()

    def _registered(self) -> list[BudgetedCache[object, object]]:
        with self._registry:  # a WeakSet cannot be iterated while another thread adds to it
            return list(self._caches)


class BudgetedCache(Generic[K, V]):
    """A memo whose entries count against a :class:`MemoryBudget`: ``get`` and ``put``, no ``delete``.

    ``entry_bytes`` is the estimated cost of one entry: key, value and the
    dict's slot. Without ``budget`` the cache gets one of its own of
    ``max_entries`` entries (then it is simply an approximately-LRU cache of
    that size); :meth:`attach` moves it to a shared one.
    """

    def __init__(self, name: str, entry_bytes: int, budget: MemoryBudget | None = None, max_entries: int | None = None):
        if budget is None:
            if not max_entries or max_entries < 1:
                raise ValueError("a cache without a shared budget needs max_entries")
            budget = MemoryBudget(max_entries * entry_bytes)
        self.name = name
        self.entry_bytes = entry_bytes
        self._budget = budget
        self._lock = threading.Lock()
        #: The newest generation's dict, where writes go: read it first in a hot loop, a hit costs one
        #: C-level look-up. A miss there is not a miss of the cache: ask :meth:`get`, which also looks
        #: in the older generations and moves what it finds forward. Never write to it (use
        #: :meth:`put`: writes are what the budget counts).
        self.recent: dict[K, V] = {}
        #: (generation, entries) of every generation held, newest (``recent``) first; replaced whole, never changed in place.
        self._chain: tuple[tuple[int, dict[K, V]], ...] = ((budget.generation, self.recent),)
        budget.register(self)

    @property
    def budget(self) -> MemoryBudget:
        return self._budget

    def get(self, key: K, default: V | None = None) -> V | None:
        """The value kept for ``key``, else ``default``; a hit in an older generation moves to the newest."""
        value = self.recent.get(key, _MISSING)
        if value is _MISSING:
            return self._get_older(key, default)
        return value  # type: ignore[return-value]

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (in the newest generation)."""
        self.recent[key] = value
        self._budget.wrote(self.entry_bytes)

    def _get_older(self, key: K, default: V | None) -> V | None:
        head = self.recent
        for _, entries in self._chain:
            value = entries.get(key, _MISSING)
            if value is not _MISSING:
                if entries is not head:  # in use again: bring it forward, so it outlives its generation
                    head[key] = value  # type: ignore[assignment]
                    entries.pop(key, None)
                    self._budget.wrote(self.entry_bytes)
                return value  # type: ignore[return-value]
        return default

    def __len__(self) -> int:
        return sum(len(entries) for _, entries in self._chain)

    def __contains__(self, key: object) -> bool:
        return any(key in entries for _, entries in self._chain)

    @property
    def nbytes(self) -> int:
        """Estimated bytes held: entries times ``entry_bytes``."""
        return len(self) * self.entry_bytes

    def clear(self) -> None:
        with self._lock:
            self._set_chain(((self._budget.generation, {}),))

    def attach(self, budget: MemoryBudget) -> None:
        """Count against ``budget`` from now on (what is kept stays, as of its current generation)."""
        if budget is self._budget:
            return
        with self._lock:
            merged: dict[K, V] = {}
            for _, entries in reversed(self._chain):
                merged.update(entries)
            self._set_chain(((budget.generation, merged),))
            old, self._budget = self._budget, budget
        old.unregister(self)
        budget.register(self)
        budget.settle()

    # ---- for the budget

    def open_generation(self, generation: int) -> None:
        """Start ``generation``: a new head, where writes land from now on (older generations without entries go)."""
        with self._lock:
            self._set_chain(((generation, {}), *(link for link in self._chain if link[1])))

    def oldest_generation(self) -> int:
        """The generation of the oldest entries held (the current one when empty)."""
        for gen, entries in reversed(self._chain):
            if entries:
                return gen
        return self._budget.generation

    def drop_through(self, generation: int) -> int:
        """Forget the generations up to ``generation``; the number of entries dropped."""
        with self._lock:
            dropped = sum(len(entries) for gen, entries in self._chain if gen <= generation)
            kept = tuple((gen, entries) for gen, entries in self._chain if gen > generation)
            self._set_chain(kept or ((self._budget.generation, {}),))
        return dropped

    def _set_chain(self, chain: tuple[tuple[int, dict[K, V]], ...]) -> None:
        self._chain = chain
        self.recent = chain[0][1]


class Doorkeeper:
    """Admits a key into a cache on its second sighting, so keys asked for once never take a cache's room.

    For caches whose misses are mostly one-offs: the Estonian analyser is
    asked about random strings, misspellings and every arrangement a solver
    tries, and an entry kept for each would push out what is asked for again.
    A key seen once is remembered only as two marks in a table of ``slots``
    bytes (by its hash: a fixed cost, no entries). The marks are forgotten
    every ``window`` new keys, so "second sighting" means within about that
    many. Two other keys may set both of a key's marks: it is then let in on
    its first sighting, about 1.4 % of them at the window's end with the
    defaults. A wrong admission costs only room, never a wrong answer.

    Marks are the current epoch's number, so forgetting is a counter step, and
    the table is zeroed once every 255 windows.

    >>> door = Doorkeeper(window=4, slots=64)
    >>> door.admit(7), door.admit(7), door.admit(8)
    (False, True, False)
    """

    def __init__(self, window: int = 65_536, slots: int = 1 << 20):
        if slots < 2 or slots & (slots - 1):
            raise ValueError(f"a doorkeeper's slots must be a power of two, not {slots}")
        if window < 1:
            raise ValueError(f"a doorkeeper needs a positive window, not {window}")
        self.window = window
        self._marks = bytearray(slots)
        self._mask = slots - 1
        self._shift = max(1, slots.bit_length() - 1)  # the second mark comes from the hash's next bits
        self._epoch = 1
        self._new = 0  # keys marked in this epoch (racy by design: it only times the forgetting)

    def admit(self, key: Hashable) -> bool:
        """Whether ``key`` was seen before in this window; marks it as seen if not."""
        h = hash(key)
        i, j = h & self._mask, (h >> self._shift) & self._mask
        marks, epoch = self._marks, self._epoch
        if marks[i] == epoch and marks[j] == epoch:
            return True
        marks[i] = marks[j] = epoch
        self._new += 1
        if self._new >= self.window:
            self._forget()
        return False

    def _forget(self) -> None:
        self._new = 0
        if self._epoch == 255:
            self._marks[:] = bytes(len(self._marks))
            self._epoch = 1
        else:
            self._epoch += 1

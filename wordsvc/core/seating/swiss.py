"""Swiss seating: tables of players of similar standing, with as few repeat meetings as a local search finds.

The cost of a seating, compared lexicographically (docs/seating.md, "The cost of a Swiss seating"):

1. **repeats**: pairs at a table that have met before (:func:`~.cost.repeat_meetings`);
2. **weight**: the sum, over pairs at a table, of how often they have met (a third meeting costs more than a second);
3. **drift**: the sum, over players, of the square of how many places in the standings a player is from the
   band of places their table has under King of the Hill (:func:`~.king_of_the_hill.standings_seating`): 0 for a
   player at their King of the Hill table; the player in 2nd place at the table of places 5 to 8 is 3 places
   off and adds 9.

The search starts from the King of the Hill seating and swaps two players at different tables, in phases.
A swap's change of (repeats, weight, drift) is compared by a key: in the four penalised phases, P = 1, 4,
16 and 64 in turn, the tuple (P * (dr + dw) + dd, dr, dw, dd), so that repeats are first traded for small
moves in the standings (and, among swaps that leave the weighted sum as it is, one that lowers the repeats
is still taken); in the last, lexicographic phase, (dr, dw, dd). A swap improves if its key is below the
key of no change. Each phase is at most :data:`MAX_PASSES` passes: every player's improving swap with the
lowest key is proposed (the earliest partner in standing order among equals), all on the seating as the pass
begins; the proposals are taken by key, then by the first player's place, each only if neither player has
moved yet in the pass and its key, worked out again, still improves; a pass that takes no swap ends the phase.

**The bound**: if the result costs more than King of the Hill (lexicographically), the search is run again
from King of the Hill with the lexicographic phase alone, whose every swap lowers the cost; either way the
result never has more repeat meetings than King of the Hill on the same input. The same input gives the
same tables, each listing its players in standing order (docs/seating.md section 8 says every step).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cost import adjacency
from .errors import check_players, check_sizes

__all__ = ["swiss_cost", "swiss_seating"]

#: The passes of one phase at most (docs/seating.md, "The search"): a pass over every player costs n * n cheap
#: steps, and a phase ends long before this many passes on any field the service seats.
MAX_PASSES = 64
#: The penalised phases before the lexicographic one: a repeat (or a meeting's weight) is worth this many
#: units of drift, 1 then 4, 16 and 64. Starting cheap lets repeats be traded for small moves down the
#: standings before the lexicographic phase freezes them (bench/seating_solvers.py: drift 255 against 652 with
#: the lexicographic phase alone on 40 players, 81 against 124 on 200; CP-SAT's optima 184 and 75).
PENALTIES = (1, 4, 16, 64)


def _bands(sizes: list[int]) -> tuple[list[int], list[int]]:
    """The first and last place (from 0) of each table's band under King of the Hill."""
    lo, hi, start = [], [], 0
    for size in sizes:
        lo.append(start)
        hi.append(start + size - 1)
        start += size
    return lo, hi


def _drift(rank: int, lo: int, hi: int) -> int:
    return (lo - rank) ** 2 if rank < lo else (rank - hi) ** 2 if rank > hi else 0


def swiss_cost(tables: Sequence[Sequence[str]], ranked: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int]) -> tuple[int, int, int]:
    """(repeats, weight, drift) of ``tables`` (table t in King of the Hill's band t) for players ``ranked`` best first; lower is better."""
    field = check_players(ranked, "ranked")
    lo, hi = _bands(check_sizes(sizes, len(field)))
    index = {p: i for i, p in enumerate(field)}
    adj = adjacency(field, met)
    repeats = weight = drift = 0
    for t, table in enumerate(tables):
        members = [index[p] for p in table]
        for k, a in enumerate(members):
            drift += _drift(a, lo[t], hi[t])
            for b in members[k + 1 :]:
                count = adj[a].get(b, 0)
                repeats += count > 0
                weight += count
    return repeats, weight, drift


def swiss_seating(ranked: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Tables of ``sizes`` for ``ranked`` (best first): the lowest cost the swap search reaches from King of the Hill; each table in standing order."""
    field = check_players(ranked, "ranked")
    table_sizes = check_sizes(sizes, len(field))
    adj = adjacency(field, met)
    koth = [t for t, s in enumerate(table_sizes) for _ in range(s)]
    where = list(koth)
    search = _Search(adj, where, table_sizes)
    for penalty in PENALTIES:
        search.run(penalty)
    search.run()
    if search.cost() > _Search(adj, list(koth), table_sizes).cost():
        where = list(koth)
        _Search(adj, where, table_sizes).run()
    tables: list[list[str]] = [[] for _ in table_sizes]
    for i, t in enumerate(where):
        tables[t].append(field[i])
    return tables


class _Search:
    """Swaps in place on ``where`` (player, by place in the standings -> table).

    ``met_at[p][t]`` is how many players at table t player p has met, ``weight_at[p][t]`` how often in all,
    kept up to date on each swap, so that a swap's change of cost is a handful of look-ups.
    """

    def __init__(self, adj: list[dict[int, int]], where: list[int], sizes: list[int]):
        self.adj, self.where = adj, where
        self.lo, self.hi = _bands(sizes)
        n, count = len(where), len(sizes)
        self.met_at = [[0] * count for _ in range(n)]
        self.weight_at = [[0] * count for _ in range(n)]
        for p in range(n):
            for q, c in adj[p].items():
                self.met_at[p][where[q]] += 1
                self.weight_at[p][where[q]] += c

    def cost(self) -> tuple[int, int, int]:
        """(repeats, weight, drift) of the seating as it stands."""
        repeats = sum(self.met_at[p][t] for p, t in enumerate(self.where)) // 2
        weight = sum(self.weight_at[p][t] for p, t in enumerate(self.where)) // 2
        drift = sum(_drift(p, self.lo[t], self.hi[t]) for p, t in enumerate(self.where))
        return repeats, weight, drift

    def delta(self, a: int, b: int) -> tuple[int, int, int]:
        """The change of (repeats, weight, drift) if a and b (at different tables) swap."""
        A, B = self.where[a], self.where[b]
        ra, rb, wa, wb = self.met_at[a], self.met_at[b], self.weight_at[a], self.weight_at[b]
        c = self.adj[a].get(b, 0)
        lo, hi = self.lo, self.hi
        dr = ra[B] + rb[A] - ra[A] - rb[B] - 2 * (c > 0)
        dw = wa[B] + wb[A] - wa[A] - wb[B] - 2 * c
        dd = _drift(a, lo[B], hi[B]) + _drift(b, lo[A], hi[A]) - _drift(a, lo[A], hi[A]) - _drift(b, lo[B], hi[B])
        return dr, dw, dd

    def best_for(self, a: int, penalty: int | None) -> tuple[tuple[int, ...], int]:
        """a's best improving swap by the phase's comparison, and its partner (-1 for none); the earliest partner among equals."""
        if penalty is not None:
            return self.best_penalised(a, penalty)
        where, adj_a, lo, hi = self.where, self.adj[a], self.lo, self.hi
        A = where[a]
        ra, wa = self.met_at[a], self.weight_at[a]
        stay_r, stay_w = ra[A], wa[A]
        stay_d = _drift(a, lo[A], hi[A])
        lo_a, hi_a = lo[A], hi[A]
        best, partner = (0, 0, 0), -1
        for b, B in enumerate(where):
            if B == A:
                continue
            rb = self.met_at[b]
            c = adj_a.get(b, 0)
            dr = ra[B] + rb[A] - stay_r - rb[B] - 2 * (c > 0)
            if dr > best[0]:
                continue
            wb = self.weight_at[b]
            dw = wa[B] + wb[A] - stay_w - wb[B] - 2 * c
            if dr == best[0] and dw > best[1]:
                continue
            dd = _drift(a, lo[B], hi[B]) + _drift(b, lo_a, hi_a) - stay_d - _drift(b, lo[B], hi[B])
            if (dr, dw, dd) < best:
                best, partner = (dr, dw, dd), b
        return best, partner

    def best_penalised(self, a: int, penalty: int) -> tuple[tuple[int, ...], int]:
        best: tuple[int, ...] = (0, 0, 0, 0)
        partner = -1
        for b, B in enumerate(self.where):
            if B != self.where[a]:
                key = self.key(self.delta(a, b), penalty)
                if key < best:
                    best, partner = key, b
        return best, partner

    @staticmethod
    def key(delta: tuple[int, int, int], penalty: int | None) -> tuple[int, ...]:
        """How a phase compares changes: lexicographically, or penalty * (repeats + weight) + drift first."""
        dr, dw, dd = delta
        return delta if penalty is None else (penalty * (dr + dw) + dd, dr, dw, dd)

    def run(self, penalty: int | None = None) -> None:
        """Passes of best-first swaps until one takes none; each swap lowers the cost as the phase compares it."""
        n = len(self.where)
        zero = self.key((0, 0, 0), penalty)
        for _ in range(MAX_PASSES):
            proposals = []
            for a in range(n):
                key, b = self.best_for(a, penalty)
                if b >= 0:
                    proposals.append((key, a, b))
            proposals.sort()
            moved: set[int] = set()
            for _, a, b in proposals:
                if a in moved or b in moved or self.where[a] == self.where[b] or self.key(self.delta(a, b), penalty) >= zero:
                    continue
                self.swap(a, b)
                moved.update((a, b))
            if not moved:
                return

    def swap(self, a: int, b: int) -> None:
        A, B = self.where[a], self.where[b]
        for p, src, dst in ((a, A, B), (b, B, A)):
            for q, c in self.adj[p].items():
                self.met_at[q][src] -= 1
                self.met_at[q][dst] += 1
                self.weight_at[q][src] -= c
                self.weight_at[q][dst] += c
            self.where[p] = dst

"""Swiss seating: tables of players of similar standing, with as few repeat meetings as a local search finds.

The cost of a seating, compared lexicographically (docs/seating.md, "The cost of a Swiss seating"):

1. **repeats**: pairs at a table that have met before (:func:`~.cost.repeat_meetings`);
2. **weight**: the sum, over pairs at a table, of how often they have met (a third meeting costs more than a second);
3. **drift**: the sum, over players, of the square of the distance between a player's table and their *home
   table*, the one King of the Hill gives them (:func:`~.standings.standings_seating`).

The search starts from the King of the Hill seating and makes only swaps of two players at different tables
that lower the cost, so the result never has more repeat meetings than King of the Hill on the same input:
that is the bound. Players are visited in standing order, and each takes the best swap of all (the earliest
partner in standing order among equals), until a whole pass finds none; the same input gives the same tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .cost import adjacency
from .errors import check_players, check_sizes

__all__ = ["swiss_cost", "swiss_seating"]

#: A pass over every player costs n * n cheap steps; the search ends long before this many passes.
MAX_PASSES = 64


def swiss_cost(tables: Sequence[Sequence[str]], ranked: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], int]) -> tuple[int, int, int]:
    """(repeats, weight, drift) of ``tables`` for players ``ranked`` best first and the King of the Hill ``sizes``; lower is better."""
    field = check_players(ranked, "ranked")
    home = [t for t, s in enumerate(check_sizes(sizes, len(field))) for _ in range(s)]
    index = {p: i for i, p in enumerate(field)}
    adj = adjacency(field, met)
    repeats = weight = drift = 0
    for t, table in enumerate(tables):
        members = [index[p] for p in table]
        for k, a in enumerate(members):
            drift += (t - home[a]) ** 2
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
    home = [t for t, s in enumerate(table_sizes) for _ in range(s)]
    where = list(home)
    _search(adj, home, where, len(table_sizes))
    tables: list[list[str]] = [[] for _ in table_sizes]
    for i, t in enumerate(where):
        tables[t].append(field[i])
    return tables


def _search(adj: list[dict[int, int]], home: list[int], where: list[int], count: int) -> None:
    """Best-improvement swaps, in place on ``where`` (player -> table), until none lowers (repeats, weight, drift).

    ``met_at[p][t]`` is how many players at table t player p has met, ``weight_at[p][t]`` how often in all,
    kept up to date on each swap, so that a swap's change of cost is a handful of look-ups.
    """
    n = len(where)
    met_at = [[0] * count for _ in range(n)]
    weight_at = [[0] * count for _ in range(n)]
    for p in range(n):
        for q, c in adj[p].items():
            met_at[p][where[q]] += 1
            weight_at[p][where[q]] += c
    for _ in range(MAX_PASSES):
        moved = False
        for a in range(n):
            A = where[a]
            ra, wa, ha = met_at[a], weight_at[a], home[a]
            adj_a = adj[a]
            stay_r, stay_w = ra[A], wa[A]
            da = (A - ha) ** 2
            best = (0, 0, 0)
            partner = -1
            for b in range(n):
                B = where[b]
                if B == A:
                    continue
                rb, wb = met_at[b], weight_at[b]
                c = adj_a.get(b, 0)
                dr = ra[B] + rb[A] - stay_r - rb[B] - 2 * (c > 0)
                if dr > 0:
                    continue
                dw = wa[B] + wb[A] - stay_w - wb[B] - 2 * c
                hb = home[b]
                dd = (B - ha) ** 2 - da + (A - hb) ** 2 - (B - hb) ** 2
                delta = (dr, dw, dd)
                if delta < best:
                    best, partner = delta, b
            if partner >= 0:
                _swap(adj, met_at, weight_at, where, a, partner)
                moved = True
        if not moved:
            return


def _swap(adj: list[dict[int, int]], met_at: list[list[int]], weight_at: list[list[int]], where: list[int], a: int, b: int) -> None:
    A, B = where[a], where[b]
    for p, src, dst in ((a, A, B), (b, B, A)):
        for q, c in adj[p].items():
            met_at[q][src] -= 1
            met_at[q][dst] += 1
            weight_at[q][src] -= c
            weight_at[q][dst] += c
        where[p] = dst

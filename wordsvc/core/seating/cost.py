"""Who met whom: the meetings of a seating, its repeat meetings, and a lower bound on them.

``met`` maps a pair, ``frozenset({a, b})``, to how many earlier sessions a
and b shared a table (:func:`meetings` of those sessions, added up); a pair
that never met may be absent or 0. A **repeat meeting** of a seating is a
pair seated together that had met before, counted once however often it met.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from .errors import SeatingError, check_players

__all__ = ["adjacency", "meetings", "repeat_lower_bound", "repeat_meetings"]


def meetings(tables: Iterable[Sequence[str]]) -> Counter[frozenset[str]]:
    """Every pair of players sharing a table, with how many of ``tables`` they share (pass several sessions' tables to add them up)."""
    out: Counter[frozenset[str]] = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            out[frozenset((a, b))] += 1
    return out


def repeat_meetings(tables: Sequence[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """The number of pairs at the same table in ``tables`` whose ``met`` count is 1 or more; each pair counts once."""
    return sum(1 for table in tables for a, b in combinations(table, 2) if met.get(frozenset((a, b)), 0) > 0)


def adjacency(players: Sequence[str], met: Mapping[frozenset[str], int]) -> list[dict[int, int]]:
    """``met`` as one dict per player (by index in ``players``): the other player's index -> times met (> 0); pairs with a player outside ``players`` are ignored."""
    index = {p: i for i, p in enumerate(players)}
    out: list[dict[int, int]] = [{} for _ in players]
    for pair, count in met.items():
        if not isinstance(pair, frozenset) or len(pair) != 2:
            raise SeatingError("met", f"{sorted(pair) if isinstance(pair, (set, frozenset)) else pair!r} is not a pair of two players")
        if not isinstance(count, int) or count < 0:
            raise SeatingError("met", f"a meeting count is a whole number from 0, not {count!r}")
        a, b = pair
        if count and a in index and b in index:
            out[index[a]][index[b]] = count
            out[index[b]][index[a]] = count
    return out


def repeat_lower_bound(sizes: Sequence[int], met: Mapping[frozenset[str], int], players: Sequence[str]) -> int:
    """No seating of ``players`` at tables of ``sizes`` has fewer repeat meetings than this (docs/seating.md, "The lower bound").

    A seating puts sum C(s, 2) pairs together; each is a repeat unless it is a pair that has not met (a
    "fresh" pair). The fresh pairs seated together are at most the number of fresh pairs F, and at most
    half of sum_v min(seat(v) - 1, fresh(v)), where seat(v) is the size of v's table and fresh(v) the number
    of players v has not met: v has seat(v) - 1 tablemates, of which at most fresh(v) are fresh, and each
    fresh pair is counted from both ends. Over every way of giving the table sizes to players, the sum is
    largest when the largest tables go to the players with the most fresh pairs (both sorted the same way),
    so that pairing bounds every seating.
    """
    field = check_players(players)
    n = len(field)
    if sum(sizes) != n:
        raise SeatingError("sizes", f"the tables seat {sum(sizes)} players; there are {n}")
    adjacent = adjacency(field, met)
    fresh = sorted((n - 1 - len(row) for row in adjacent), reverse=True)
    seats = sorted((s for s in sizes for _ in range(s)), reverse=True)
    together = sum(s * (s - 1) // 2 for s in sizes)
    fresh_pairs = sum(fresh) // 2
    fresh_at_tables = min(fresh_pairs, sum(min(s - 1, f) for s, f in zip(seats, fresh, strict=True)) // 2)
    return max(0, together - fresh_at_tables)

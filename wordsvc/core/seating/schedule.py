"""The "schedule" method: every session of an event seated in advance, each pair meeting as evenly as possible.

The players are first put in a seeded order: sorted by id, then shuffled by Fisher-Yates with the stream
SHA-256("wordsvc-schedule-s1" || 0x00 || event seed || 0 (4 bytes) || k) (docs/seating.md, "Schedules").
Then:

- **an affine plane** when every table seats q players, there are q*q of them and q is a prime power
  (4 players at 2, 9 at 3, 16 at 4, 25 at 5, 49 at 7, 64 at 8): session s uses parallel class
  (s - 1) mod (q + 1) of AG(2, q) (:mod:`.designs`) on the seeded order, so in q + 1 sessions every pair
  meets exactly once, and over more sessions no pair meets twice before every pair has met once;
- **otherwise a search**: each session is built greedily, a table at a time, each next player the one whose
  meetings so far with the table's players cost least; then swaps of two players at different tables of one
  session are made while they lower the cost of the whole schedule, session after session, until a round
  over every session finds none. The cost is the sum over pairs of W**c, c the pair's meetings and W the
  number of pairs plus one: it compares schedules by how many pairs meet most often, then by the next
  count down, so it lowers the most meetings of any pair first and then the repeat meetings.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..deal import DealError, counter_stream, fisher_yates, parse_seed
from .designs import affine_classes, prime_power
from .errors import SeatingError, check_players, check_sizes

__all__ = ["round_robin_schedule"]

_DOMAIN = b"wordsvc-schedule-s1\x00"
#: At most this many starts of the search (start 0 from the seeded order, start r from it shuffled again with
#: stream number r), fewer for large fields: starts * n * n * sessions stays within WORK. The first schedule
#: where no pair meets twice ends them; otherwise the best by (most meetings of a pair, repeat meetings) is kept.
MAX_STARTS = 32
WORK = 400_000
#: Rounds of improvement over the whole schedule; each round that changes nothing ends the search earlier.
MAX_ROUNDS = 32


def round_robin_schedule(players: Sequence[str], sizes: Sequence[int], sessions: int, event_seed: str) -> list[list[list[str]]]:
    """``sessions`` seatings of ``players`` at tables of ``sizes`` (the same sizes each session), session 1 first; deterministic from ``event_seed``."""
    field = check_players(players)
    table_sizes = check_sizes(sizes, len(field))
    if not isinstance(sessions, int) or sessions < 1:
        raise SeatingError("sessions", "a schedule has one session or more")
    try:
        raw = parse_seed(event_seed)
    except DealError as e:
        raise SeatingError("event_seed", str(e)) from None
    order = fisher_yates(sorted(field), counter_stream(_DOMAIN, raw, 0))
    q = table_sizes[0]
    if all(s == q for s in table_sizes) and len(field) == q * q and prime_power(q):
        classes = affine_classes(q)
        plan = [classes[s % (q + 1)] for s in range(sessions)]
    else:
        n = len(order)
        tries = max(1, min(MAX_STARTS, WORK // (n * n * sessions)))
        best: tuple[tuple[int, ...], list[list[list[int]]]] | None = None
        for start in range(tries):
            first = list(range(n)) if start == 0 else fisher_yates(list(range(n)), counter_stream(_DOMAIN, raw, start))
            plan = _search(n, table_sizes, sessions, first)
            score = _score(n, plan)
            if best is None or score < best[0]:
                best = (score, plan)
            if score[0] <= 1:
                break
        assert best is not None  # tries >= 1
        plan = best[1]
    return [[[order[i] for i in table] for table in session] for session in plan]


def _score(n: int, plan: list[list[list[int]]]) -> tuple[int, int]:
    """(the most meetings of any pair, the repeat meetings: the sum over pairs of meetings beyond the first)."""
    count: dict[tuple[int, int], int] = {}
    for session in plan:
        for table in session:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    count[(a, b)] = count.get((a, b), 0) + 1
    return max(count.values(), default=0), sum(c - 1 for c in count.values() if c > 1)


def _search(n: int, sizes: list[int], sessions: int, first: list[int]) -> list[list[list[int]]]:
    weight = n * (n - 1) // 2 + 1
    step = [weight ** (c + 1) - weight**c for c in range(sessions + 1)]  # the cost of one more meeting of a pair met c times
    count = [[0] * n for _ in range(n)]
    plan: list[list[int]] = []  # plan[s][p] = p's table in session s
    for s in range(sessions):
        where = _greedy(n, sizes, count, step, [first[(s + i) % n] for i in range(n)])
        _add(count, where, +1)
        plan.append(where)
    for _ in range(MAX_ROUNDS):
        changed = False
        for where in plan:
            changed |= _improve(n, where, count, step)
        if not changed:
            break
    return [[[p for p in range(n) if where[p] == t] for t in range(len(sizes))] for where in plan]


def _greedy(n: int, sizes: list[int], count: list[list[int]], step: list[int], unseated: list[int]) -> list[int]:
    """One session, a table at a time: the first of ``unseated`` (the start order rotated by the session's index), then each next the cheapest to add, the earliest among equals."""
    where = [-1] * n
    for t, size in enumerate(sizes):
        members = [unseated.pop(0)]
        while len(members) < size:
            best = min(range(len(unseated)), key=lambda k: sum(step[count[unseated[k]][m]] for m in members))
            members.append(unseated.pop(best))
        for p in members:
            where[p] = t
    return where


def _add(count: list[list[int]], where: list[int], sign: int) -> None:
    n = len(where)
    for a in range(n):
        for b in range(a + 1, n):
            if where[a] == where[b]:
                count[a][b] += sign
                count[b][a] += sign


def _improve(n: int, where: list[int], count: list[list[int]], step: list[int]) -> bool:
    """Best-improvement swaps within one session against the whole schedule's counts (this session's included); True if any was made."""
    changed = False
    improved = True
    while improved:
        improved = False
        tables: dict[int, list[int]] = {}
        for p in range(n):
            tables.setdefault(where[p], []).append(p)
        for a in range(n):
            A = where[a]
            ca = count[a]
            others_a = [x for x in tables[A] if x != a]
            leave_a = sum(step[ca[x] - 1] for x in others_a)
            best, partner = 0, -1
            for b in range(n):
                B = where[b]
                if B == A:
                    continue
                cb = count[b]
                others_b = [y for y in tables[B] if y != b]
                delta = sum(step[cb[x]] for x in others_a) - leave_a + sum(step[ca[y]] - step[cb[y] - 1] for y in others_b)
                if delta < best:
                    best, partner = delta, b
            if partner >= 0:
                b, B = partner, where[partner]
                for x in tables[A]:
                    if x != a:
                        count[a][x] -= 1
                        count[x][a] -= 1
                        count[b][x] += 1
                        count[x][b] += 1
                for y in tables[B]:
                    if y != b:
                        count[b][y] -= 1
                        count[y][b] -= 1
                        count[a][y] += 1
                        count[y][a] += 1
                tables[A] = [b if x == a else x for x in tables[A]]
                tables[B] = [a if y == b else y for y in tables[B]]
                where[a], where[b] = B, A
                improved = changed = True
    return changed

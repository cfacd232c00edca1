"""A second seating implementation, written from docs/seating.md alone, held to the service's on generated cases.

Nothing here imports the service's seating code except to compare with it: the streams, the shuffle, Swiss's
search, the schedules (the affine planes over GF(q) and the search), following a schedule, the checks of a
manual seating, the seat order and a session's steps (section 13) are each written again from the text's
sections 2 to 13. Only the standings that rank players for Swiss are the service's own (they are
docs/standings.md's subject, not this text's). Where the two disagree the text does not say what the
service does, and the test names the case. The cases are drawn from
a fixed seed (``random.Random``), so a failure is the same on every run; the whole file runs in a few seconds.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path

import pytest

from wordsvc.core.seating import (
    SeatingError,
    check_seating,
    follow_schedule,
    random_seating,
    round_robin_schedule,
    seat_order,
    swiss_seating,
)
from wordsvc.core.standings import Entrant, Game, standings
from wordsvc.data.formats import known_formats

VECTORS = Path(__file__).with_name("seating_vectors.json")


# --- sections 2 and 3: the stream, draws below n, the shuffle -----------------------------------------


def stream(domain: str, seed: str, number: int) -> Iterator[int]:
    """SHA-256(domain || 0x00 || seed || number (4 bytes) || k (8 bytes)), read 4 bytes at a time."""
    k = 0
    while True:
        block = hashlib.sha256(domain.encode() + b"\x00" + bytes.fromhex(seed) + number.to_bytes(4, "big") + k.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        k += 1


def below(draws: Iterator[int], n: int) -> int:
    limit = 2**32 - 2**32 % n
    while True:
        x = next(draws)
        if x < limit:
            return x % n


def shuffle(items: list, draws: Iterator[int]) -> list:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(draws, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def cut(order: list, sizes: list[int]) -> list[list]:
    out, start = [], 0
    for size in sizes:
        out.append(order[start : start + size])
        start += size
    return out


def sizes_of(count: int, target: int, remainder: str, smallest: int, largest: int) -> list[int]:
    """Section 5."""
    tables = -(-count // target) if remainder == "smaller" else max(1, count // target)
    tables = min(max(tables, -(-count // largest)), count // smallest)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def met_of(met: dict, a: str, b: str) -> int:
    return met.get(frozenset((a, b)), 0)


# --- section 8: Swiss -----------------------------------------------------------------------------------


def text_swiss(ranked: list[str], sizes: list[int], met: dict) -> list[list[str]]:
    n = len(ranked)
    lo, hi, start = [], [], 0
    for size in sizes:
        lo.append(start)
        hi.append(start + size - 1)
        start += size
    together = [[met_of(met, ranked[a], ranked[b]) if a != b else 0 for b in range(n)] for a in range(n)]

    def drift(place: int, t: int) -> int:
        return (lo[t] - place) ** 2 if place < lo[t] else (place - hi[t]) ** 2 if place > hi[t] else 0

    drifts = [[drift(p, t) for t in range(len(sizes))] for p in range(n)]

    def table_cost(t: int, members: list[int]) -> tuple[int, int, int]:
        repeats = weight = 0
        for i, a in enumerate(members):
            row = together[a]
            for b in members[i + 1 :]:
                c = row[b]
                repeats += c >= 1
                weight += c
        return repeats, weight, sum(drifts[p][t] for p in members)

    def cost(tables: list[list[int]]) -> tuple[int, int, int]:
        parts = [table_cost(t, members) for t, members in enumerate(tables)]
        return tuple(sum(part[i] for part in parts) for i in range(3))  # type: ignore[return-value]

    def share(x: int, others: list[int], t: int) -> tuple[int, int, int]:
        """What player x adds at table t beside ``others``: the pairs x makes there, and x's drift."""
        row = together[x]
        return sum(row[o] >= 1 for o in others), sum(row[o] for o in others), drifts[x][t]

    def change(tables: list[list[int]], where: list[int], a: int, b: int) -> tuple[int, int, int]:
        """The cost with a and b exchanged minus the cost as it is: only their two tables change, by who leaves and who comes."""
        A, B = where[a], where[b]
        stay_a = [p for p in tables[A] if p != a]
        stay_b = [p for p in tables[B] if p != b]
        parts = (share(b, stay_a, A), share(a, stay_b, B), share(a, stay_a, A), share(b, stay_b, B))
        return tuple(parts[0][i] + parts[1][i] - parts[2][i] - parts[3][i] for i in range(3))  # type: ignore[return-value]

    def key(delta: tuple[int, int, int], penalty: int | None) -> tuple[int, ...]:
        dr, dw, dd = delta
        return delta if penalty is None else (penalty * (dr + dw) + dd, dr, dw, dd)

    def phase(where: list[int], penalty: int | None) -> None:
        nothing = key((0, 0, 0), penalty)
        for _ in range(64):
            tables = [[p for p in range(n) if where[p] == t] for t in range(len(sizes))]
            # beside[p][t]: what p adds at table t beside its players other than p (the pass's proposals read the seating as it begins)
            beside = [[share(p, [o for o in tables[t] if o != p], t) for t in range(len(sizes))] for p in range(n)]
            proposals = []
            for a in range(n):
                A = where[a]
                lowest, partner = nothing, None
                for b in range(n):
                    B = where[b]
                    if B == A:
                        continue
                    c = together[a][b]
                    seen = c >= 1
                    # b at A beside A's players but a, a at B beside B's players but b, less a at A and b at B
                    delta = (
                        beside[b][A][0] - seen + beside[a][B][0] - seen - beside[a][A][0] - beside[b][B][0],
                        beside[b][A][1] - c + beside[a][B][1] - c - beside[a][A][1] - beside[b][B][1],
                        beside[b][A][2] + beside[a][B][2] - beside[a][A][2] - beside[b][B][2],
                    )
                    k = key(delta, penalty)
                    if k < lowest:
                        lowest, partner = k, b
                if partner is not None:
                    proposals.append((lowest, a, partner))
            proposals.sort(key=lambda proposal: (proposal[0], proposal[1]))
            swapped: set[int] = set()
            for _, a, b in proposals:
                if a in swapped or b in swapped:
                    continue
                if key(change(tables, where, a, b), penalty) < nothing:
                    A, B = where[a], where[b]
                    tables[A] = [b if p == a else p for p in tables[A]]
                    tables[B] = [a if p == b else p for p in tables[B]]
                    where[a], where[b] = B, A
                    swapped |= {a, b}
            if not swapped:
                return

    hill = [t for t, size in enumerate(sizes) for _ in range(size)]
    where = list(hill)
    for penalty in (1, 4, 16, 64, None):
        phase(where, penalty)

    def seated(w: list[int]) -> list[list[int]]:
        return [[p for p in range(n) if w[p] == t] for t in range(len(sizes))]

    if cost(seated(where)) > cost(seated(hill)):
        where = list(hill)
        phase(where, None)
    return [[ranked[p] for p in table] for table in seated(where)]


# --- section 9: schedules -------------------------------------------------------------------------------


def prime_power(q: int) -> tuple[int, int] | None:
    for p in range(2, q + 1):
        if q % p == 0:
            k, rest = 0, q
            while rest % p == 0:
                rest //= p
                k += 1
            return (p, k) if rest == 1 else None
    return None


def poly_mod(poly: list[int], divisor: list[int], p: int) -> list[int]:
    """``poly`` (coefficients low first) modulo the monic ``divisor``, over GF(p)."""
    rest = [c % p for c in poly]
    d = len(divisor) - 1
    for top in range(len(rest) - 1, d - 1, -1):
        c = rest[top]
        if c:
            for j in range(d + 1):
                rest[top - d + j] = (rest[top - d + j] - c * divisor[j]) % p
    return rest[:d]


def digits(value: int, p: int, k: int) -> list[int]:
    return [value // p**j % p for j in range(k)]


def field(q: int):
    p, k = prime_power(q)  # type: ignore[misc]
    modulus = None
    for low in range(p**k):
        candidate = [*digits(low, p, k), 1]
        if not any(
            not any(poly_mod(candidate, [*digits(d_low, p, degree), 1], p)) for degree in range(1, k // 2 + 1) for d_low in range(p**degree)
        ):
            modulus = candidate
            break

    def number(ds: list[int]) -> int:
        return sum(d * p**j for j, d in enumerate(ds))

    def add(a: int, b: int) -> int:
        return number([(x + y) % p for x, y in zip(digits(a, p, k), digits(b, p, k), strict=True)])

    def times(a: int, b: int) -> int:
        product = [0] * (2 * k)
        for i, x in enumerate(digits(a, p, k)):
            for j, y in enumerate(digits(b, p, k)):
                product[i + j] += x * y
        reduced = poly_mod(product, modulus, p)  # type: ignore[arg-type]
        return number(reduced + [0] * (k - len(reduced)))

    return add, times


def affine_plan(q: int, sessions: int) -> list[list[list[int]]]:
    add, times = field(q)
    classes = []
    for m in range(q):
        tables: list[list[int]] = [[] for _ in range(q)]
        for x in range(q):
            for y in range(q):
                c = next(c for c in range(q) if add(times(m, x), c) == y)  # y = m*x + c
                tables[c].append(x * q + y)
        classes.append([sorted(t) for t in tables])
    classes.append([[c * q + y for y in range(q)] for c in range(q)])
    return [classes[(s - 1) % (q + 1)] for s in range(1, sessions + 1)]


def searched_plan(n: int, sizes: list[int], sessions: int, seed: str) -> list[list[list[int]]]:
    w = n * (n - 1) // 2 + 1

    def step(c: int) -> int:
        return w ** (c + 1) - w**c

    def build(f: list[int]) -> list[list[list[int]]]:
        count = [[0] * n for _ in range(n)]
        plan: list[list[list[int]]] = []
        for s in range(sessions):
            left = [f[(s + i) % n] for i in range(n)]
            session = []
            for size in sizes:
                table = [left.pop(0)]
                while len(table) < size:
                    costs = [sum(step(count[u][m]) for m in table) for u in left]
                    table.append(left.pop(costs.index(min(costs))))
                session.append(table)
            for table in session:
                for a, b in combinations(table, 2):
                    count[a][b] += 1
                    count[b][a] += 1
            plan.append(session)
        for _ in range(32):
            changed = False
            for session in plan:
                while True:
                    exchanged = False
                    for a in range(n):
                        at = {p: t for t, table in enumerate(session) for p in table}
                        A = at[a]
                        best, partner = 0, None
                        for b in range(n):
                            B = at[b]
                            if B == A:
                                continue
                            delta = 0
                            for x in session[A]:
                                if x != a:
                                    delta += (w ** (count[a][x] - 1) - w ** count[a][x]) + step(count[b][x])
                            for y in session[B]:
                                if y != b:
                                    delta += (w ** (count[b][y] - 1) - w ** count[b][y]) + step(count[a][y])
                            if delta < best:
                                best, partner = delta, b
                        if partner is not None:
                            b, B = partner, at[partner]
                            for x in session[A]:
                                if x != a:
                                    count[a][x] -= 1
                                    count[x][a] -= 1
                                    count[b][x] += 1
                                    count[x][b] += 1
                            for y in session[B]:
                                if y != b:
                                    count[b][y] -= 1
                                    count[y][b] -= 1
                                    count[a][y] += 1
                                    count[y][a] += 1
                            session[A] = [b if x == a else x for x in session[A]]
                            session[B] = [a if y == b else y for y in session[B]]
                            exchanged = changed = True
                    if not exchanged:
                        break
            if not changed:
                break
        return [[sorted(table) for table in session] for session in plan]

    def score(plan: list[list[list[int]]]) -> tuple[int, int]:
        pairs: dict[tuple[int, int], int] = {}
        for session in plan:
            for table in session:
                for a, b in combinations(sorted(table), 2):
                    pairs[(a, b)] = pairs.get((a, b), 0) + 1
        return max(pairs.values(), default=0), sum(c - 1 for c in pairs.values() if c > 1)

    starts = max(1, min(32, 400_000 // (n * n * sessions)))
    kept = None
    for r in range(starts):
        f = list(range(n)) if r == 0 else shuffle(list(range(n)), stream("wordsvc-schedule-s1", seed, r))
        plan = build(f)
        if kept is None or score(plan) < score(kept):
            kept = plan
        if score(plan)[0] <= 1:
            break
    return kept  # type: ignore[return-value]


def text_schedule(players: list[str], sizes: list[int], sessions: int, seed: str) -> list[list[list[str]]]:
    order = shuffle(sorted(players), stream("wordsvc-schedule-s1", seed, 0))
    q = sizes[0]
    if all(s == q for s in sizes) and len(players) == q * q and prime_power(q):
        plan = affine_plan(q, sessions)
    else:
        plan = searched_plan(len(players), sizes, sessions, seed)
    return [[[order[i] for i in table] for table in session] for session in plan]


# --- section 10: following a schedule ----------------------------------------------------------------


def text_follow(planned: list[list[str]], active: list[str], smallest: int, largest: int, met: dict) -> list[list[str]] | str:
    """The tables, or the field a refusal names."""
    ids_ok = all(isinstance(p, str) and p and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-_" for c in p) for p in active)
    if not ids_ok or len(set(active)) != len(active):
        return "active"
    seats = [p for table in planned for p in table]
    if len(set(seats)) != len(seats):
        return "planned"
    if not 1 <= smallest <= largest:
        return "sizes"
    n = len(active)
    fewest, most = -(-n // largest), n // smallest
    if n < smallest or fewest > most:
        return "players"
    tables = [[p for p in table if p in active] for table in planned]
    tables = [t for t in tables if t]
    to_seat: list[str] = []
    while len(tables) > most:
        least = min(len(t) for t in tables)
        broken = max(i for i, t in enumerate(tables) if len(t) == least)
        to_seat += tables.pop(broken)
    while len(tables) < fewest:
        tables.append([])
    for table in tables:
        while len(table) > largest:
            to_seat.append(table.pop())
    held = {p for table in planned for p in table}
    to_seat += [p for p in active if p not in held]

    def repeats(player: str, table: list[str]) -> int:
        return sum(1 for other in table if met_of(met, player, other) >= 1)

    for player in to_seat:
        room = [i for i, t in enumerate(tables) if len(t) < largest]
        tables[min(room, key=lambda i: (len(tables[i]), repeats(player, tables[i]), i))].append(player)
    while True:
        short = [i for i, t in enumerate(tables) if len(t) < smallest]
        if not short:
            return tables
        receiver = tables[short[0]]
        most_players = max(len(t) for t in tables)
        donor = tables[max(i for i, t in enumerate(tables) if len(t) == most_players)]
        fewest_repeats = min(repeats(p, receiver) for p in donor)
        giver = max(j for j, p in enumerate(donor) if repeats(p, receiver) == fewest_repeats)
        receiver.append(donor.pop(giver))


# --- sections 11 and 12: manual checks, seat order ---------------------------------------------------


def text_check(tables: list[list[str]], players: list[str], smallest: int, largest: int) -> list[tuple[str, str]]:
    out = []
    seen: set[str] = set()
    for i, table in enumerate(tables):
        if not smallest <= len(table) <= largest:
            out.append((f"tables.{i}", f"{len(table)} players; a table seats {smallest} to {largest}"))
        for j, player in enumerate(table):
            if player not in players:
                out.append((f"tables.{i}.{j}", f"'{player}' is not a player of this session"))
            elif player in seen:
                out.append((f"tables.{i}.{j}", f"'{player}' is seated twice"))
            seen.add(player)
    return out + [("players", f"'{p}' is not seated") for p in players if p not in seen]


def text_seat_order(table: list[str], firsts: dict[str, int], session: int) -> list[str]:
    size = len(table)
    return sorted(table, key=lambda p: (firsts.get(p, 0), (table.index(p) - (session - 1)) % size))


# --- the cases ------------------------------------------------------------------------------------------


def swiss_cases(count: int, rng: random.Random, dense: bool = False) -> Iterator[tuple[list[str], list[int], dict]]:
    """Fields of 4 to 22 players with a few meetings each; ``dense``: 4 to 12 players who have met most others, often many times."""
    for _ in range(count):
        n = rng.randint(4, 12 if dense else 22)
        players = [f"p{i:02d}" for i in range(n)]
        target = rng.choice([2, 3, 4, 5])
        sizes = sizes_of(n, min(target, n), rng.choice(["smaller", "larger"]), 2, 8)
        met: dict[frozenset[str], int] = {}
        for _ in range(rng.randint(n * 2, n * n) if dense else rng.randint(0, n * 3)):
            a, b = rng.sample(players, 2)
            met[frozenset((a, b))] = rng.choice([1, 2, 3, 5, 8] if dense else [1, 1, 1, 2, 3])
        ranked = rng.sample(players, n)
        yield ranked, sizes, met


def test_the_issue_example_seats_as_the_text_says():
    """Nine players, session 1 by hand, session 2 by Swiss before any game is complete (section 13's example)."""
    session_1 = [["p02", "p08", "p01"], ["p07", "p03"], ["p05", "p06"], ["p09", "p04"]]
    met = {frozenset(pair): 1 for table in session_1 for pair in combinations(table, 2)}
    ranked = [f"p0{i}" for i in range(1, 10)]
    tables = text_swiss(ranked, [3, 3, 3], met)
    assert tables == swiss_seating(ranked, [3, 3, 3], met) == [["p01", "p03", "p04"], ["p02", "p05", "p07"], ["p06", "p08", "p09"]]
    firsts = {table[0]: 1 for table in session_1}
    assert [text_seat_order(t, firsts, 2) for t in tables] == [["p03", "p04", "p01"], ["p05", "p07", "p02"], ["p08", "p06", "p09"]]


def test_swiss_from_the_text_agrees_with_the_service_on_generated_fields():
    rng = random.Random(20261206)
    for ranked, sizes, met in swiss_cases(300, rng):
        assert text_swiss(ranked, sizes, met) == swiss_seating(ranked, sizes, met), (ranked, sizes, sorted((sorted(k), v) for k, v in met.items()))


def test_swiss_from_the_text_agrees_with_the_service_where_players_have_met_most_others():
    """Dense histories, where the penalised phases can end above King of the Hill and the bound's second search decides."""
    rng = random.Random(1)  # one of these 300 fields ends the phases above King of the Hill
    for ranked, sizes, met in swiss_cases(300, rng, dense=True):
        assert text_swiss(ranked, sizes, met) == swiss_seating(ranked, sizes, met), (ranked, sizes, sorted((sorted(k), v) for k, v in met.items()))


def test_swiss_from_the_text_agrees_on_forty_players_after_three_random_sessions():
    players = [f"q{i:02d}" for i in range(40)]
    met: dict[frozenset[str], int] = {}
    for session in range(1, 4):
        for table in random_seating(players, [4] * 10, "ab" * 32, session):
            for pair in combinations(table, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    ranked = random.Random(3).sample(players, 40)
    assert text_swiss(ranked, [4] * 10, met) == swiss_seating(ranked, [4] * 10, met)


@pytest.mark.parametrize(("q", "sessions"), [(2, 3), (3, 4), (4, 6), (5, 2), (8, 3), (9, 2)])
def test_affine_schedules_from_the_text_agree_with_the_service(q, sessions):
    players = [f"x{i:03d}" for i in range(q * q)]
    seed = hashlib.sha256(f"affine {q}".encode()).hexdigest()
    assert text_schedule(players, [q] * q, sessions, seed) == round_robin_schedule(players, [q] * q, sessions, seed)


def test_searched_schedules_from_the_text_agree_with_the_service():
    rng = random.Random(7)
    for case in range(12):
        n = rng.randint(4, 14)
        players = [f"s{i:02d}" for i in range(n)]
        sizes = sizes_of(n, rng.choice([3, 4]), rng.choice(["smaller", "larger"]), 2, 8)
        if all(s == sizes[0] for s in sizes) and n == sizes[0] ** 2 and prime_power(sizes[0]):
            continue
        sessions = rng.randint(1, 6)
        seed = hashlib.sha256(f"schedule {case}".encode()).hexdigest()
        assert text_schedule(players, sizes, sessions, seed) == round_robin_schedule(players, sizes, sessions, seed), (n, sizes, sessions)


def follow_cases(count: int, rng: random.Random) -> Iterator[tuple[list[list[str]], list[str], int, int, dict]]:
    for _ in range(count):
        n = rng.randint(3, 18)
        players = [f"f{i:02d}" for i in range(n)]
        smallest = rng.randint(1, 4)
        largest = rng.randint(smallest, 6)
        shuffled = rng.sample(players, n)
        planned, start = [], 0
        while start < n:
            size = rng.randint(1, largest + 1)  # a planned table may be over the range: step 3
            planned.append(shuffled[start : start + size])
            start += size
        active = sorted(p for p in players if rng.random() > 0.25) + [f"new{i}" for i in range(rng.randint(0, 4))]
        active = sorted(active)
        met: dict[frozenset[str], int] = {}
        for _ in range(rng.randint(0, 2 * len(active))):
            if len(active) >= 2:
                a, b = rng.sample(active, 2)
                met[frozenset((a, b))] = 1
        yield planned, active, smallest, largest, met


def test_following_a_schedule_from_the_text_agrees_with_the_service():
    rng = random.Random(11)
    refused = broken = 0
    for planned, active, smallest, largest, met in follow_cases(400, rng):
        try:
            service: list[list[str]] | str = follow_schedule(planned, active, smallest, largest, met)
        except SeatingError as err:
            service = err.field
            refused += 1
        else:
            broken += len([t for t in planned if any(p in active for p in t)]) > len(service)
        assert text_follow(planned, active, smallest, largest, met) == service, (planned, active, smallest, largest, met)
    assert refused and broken  # both kinds of case were drawn


def test_following_refuses_in_the_order_the_text_gives():
    assert text_follow([["a", "a"]], ["A", "b"], 3, 2, {}) == "active"
    with pytest.raises(SeatingError) as caught:
        follow_schedule([["a", "a"]], ["A", "b"], 3, 2, {})
    assert caught.value.field == "active"
    for planned, active, smallest, largest, field in [
        ([["a", "a"]], ["a", "b"], 3, 2, "planned"),
        ([["a", "b"]], ["a", "b"], 3, 2, "sizes"),
        ([["a", "b"]], ["a", "b"], 3, 4, "players"),
    ]:
        with pytest.raises(SeatingError) as caught:
            follow_schedule(planned, active, smallest, largest, {})
        assert caught.value.field == field == text_follow(planned, active, smallest, largest, {})


def test_manual_checks_from_the_text_agree_with_the_service():
    rng = random.Random(13)
    for _ in range(300):
        players = sorted(rng.sample([f"m{i}" for i in range(12)], rng.randint(2, 10)))
        pool = [*players, "zed", "yan"]
        tables = [[rng.choice(pool) for _ in range(rng.randint(1, 6))] for _ in range(rng.randint(1, 4))]
        smallest = rng.randint(1, 3)
        largest = rng.randint(smallest, 5)
        assert text_check(tables, players, smallest, largest) == check_seating(tables, players, smallest, largest)


def test_a_stranger_seated_twice_is_not_a_player_at_both_seats():
    problems = check_seating([["ann", "zed"], ["zed", "ann"]], ["ann", "bob"], 2, 2)
    assert problems == text_check([["ann", "zed"], ["zed", "ann"]], ["ann", "bob"], 2, 2) == [
        ("tables.0.1", "'zed' is not a player of this session"),
        ("tables.1.0", "'zed' is not a player of this session"),
        ("tables.1.1", "'ann' is seated twice"),
        ("players", "'bob' is not seated"),
    ]


def test_seat_order_from_the_text_agrees_with_the_service():
    rng = random.Random(17)
    for _ in range(300):
        table = rng.sample([f"o{i}" for i in range(10)], rng.randint(1, 8))
        firsts = {p: rng.randint(0, 2) for p in table if rng.random() < 0.6}
        session = rng.randint(1, 12)
        assert text_seat_order(table, firsts, session) == seat_order(table, firsts, session)


def test_the_random_seating_from_the_text_agrees_with_the_service():
    rng = random.Random(19)
    for _ in range(50):
        n = rng.randint(2, 30)
        players = [f"r{i:02d}" for i in rng.sample(range(60), n)]
        sizes = sizes_of(n, min(4, n), "smaller", 2, 8)
        seed, session = f"{rng.getrandbits(256):064x}", rng.randint(1, 9)
        assert cut(shuffle(sorted(players), stream("wordsvc-seating-s1", seed, session)), sizes) == random_seating(players, sizes, seed, session)


# --- the vectors, read as an outsider reads them -------------------------------------------------------


def vectors() -> dict:
    return json.loads(VECTORS.read_text(encoding="utf-8"))


def as_met(triples: list[list]) -> dict[frozenset[str], int]:
    return {frozenset((a, b)): count for a, b, count in triples}


def test_the_text_reproduces_every_swiss_vector():
    for case in vectors()["swiss"]:
        assert text_swiss(case["ranked"], case["sizes"], as_met(case["met"])) == case["tables"], case["name"]


def test_the_text_reproduces_every_schedule_vector():
    for case in vectors()["schedules"]:
        assert text_schedule(case["players"], case["sizes"], case["sessions"], case["event_seed"]) == case["schedule"], case["name"]


def test_the_text_reproduces_every_following_vector():
    for case in vectors()["follow"]:
        got = text_follow(case["planned"], case["active"], case["smallest"], case["largest"], as_met(case["met"]))
        assert got == case.get("tables", case.get("refused")), case["name"]


def test_the_text_reproduces_every_manual_vector():
    for case in vectors()["manual"]:
        assert [list(p) for p in text_check(case["tables"], case["players"], case["smallest"], case["largest"])] == case["problems"], case["name"]


def text_sessions(event: dict) -> list[dict]:
    """Section 13 on a vector's event: each session's players, ranking and tables in seat order, from its request and the results before it."""
    registered = event["players"]
    fmt = known_formats()[event["format"]]
    entrants = [Entrant(p["id"], p["id"], p["joined"], p["withdrawn"]) for p in registered if p["checked_in"]]
    earlier: list[list[list[str]]] = []
    games: list[Game] = []
    out = []
    for number, session in enumerate(event["sessions"], start=1):
        request, draws = session["request"], session["draws"]
        players = sorted(
            p["id"] for p in registered if p["checked_in"] and p["joined"] <= number and (p["withdrawn"] is None or p["withdrawn"] > number)
        )
        met: dict[frozenset[str], int] = {}
        firsts: dict[str, int] = {}
        for tables in earlier:
            for table in tables:
                for pair in combinations(table, 2):
                    met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
                firsts[table[0]] = firsts.get(table[0], 0) + 1
        size = request.get("size") or {}
        target = size.get("target", min(max(4, event["smallest"]), event["largest"]))
        sizes = sizes_of(len(players), target, size.get("remainder", "smaller"), event["smallest"], event["largest"])
        if number == 1:
            ranked = list(players)
        else:
            order = [line["player"] for line in standings(fmt, entrants, games, number - 1)]
            ranked = [p for p in order if p in players]
        method = request["method"]
        if method == "random":
            seed = event["event_seed"]
            if draws > 1:
                seed = hashlib.sha256(b"wordsvc-redraw-q1\x00" + bytes.fromhex(seed) + draws.to_bytes(4, "big")).hexdigest()
            tables = cut(shuffle(players, stream("wordsvc-seating-s1", seed, number)), sizes)
        elif method == "standings":
            tables = cut(ranked, sizes)
        elif method == "swiss":
            tables = text_swiss(ranked, sizes, met)
        elif method == "schedule":
            tables = text_follow(event["schedule"][number - 1], players, event["smallest"], event["largest"], met)  # type: ignore[assignment]
        else:
            tables = request["tables"]
        if method != "manual":
            tables = [text_seat_order(table, firsts, number) for table in tables]
        games += [Game(number, game, tuple(scores.items())) for game, scores in session["results"].items()]
        earlier.append(tables)
        out.append({"players": players, "ranked": ranked, "tables": tables})
    return out


def test_the_text_reproduces_every_session_of_the_vectors_events():
    for event in vectors()["sessions"]:
        wanted = [{key: session[key] for key in ("players", "ranked", "tables")} for session in event["sessions"]]
        assert text_sessions(event) == wanted, event["name"]

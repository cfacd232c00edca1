"""Seating (wordsvc/core/seating, docs/seating.md): sizes, the random seating's vectors, King of the Hill, Swiss and its bound, schedules, following one, checks, seat order.

``tests/seating_vectors.json`` holds, for spec s1: random seatings of several fields, sizes and sessions, one
of them rejecting a draw; Swiss seatings with their meetings (one where the phases' result is dropped for a
search from King of the Hill); schedules, affine and searched; following a schedule with tables broken up,
overfull, short and with newcomers, and its refusals; manual checks; and whole sessions of three events
(section 13: players, requests, earlier results, the seating in seat order). ``python tests/test_seating.py
--write`` rebuilds it (only when the specification's version changes: s1 seatings never change);
tests/test_seating_text.py reads it as an outsider would.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.core.deal import counter_stream
from wordsvc.core.seating import (
    SeatingError,
    SizePolicy,
    check_seating,
    follow_schedule,
    meetings,
    random_seating,
    repeat_lower_bound,
    repeat_meetings,
    round_robin_schedule,
    seat_order,
    standings_seating,
    swiss_cost,
    swiss_seating,
    table_sizes,
)
from wordsvc.core.seating.designs import affine_classes, prime_power
from wordsvc.core.seating.sessions import Registration, active, plan_session, sizes_for
from wordsvc.core.seating.sessions import history as session_history
from wordsvc.core.seating.shuffle import seating_stream
from wordsvc.core.standings import Entrant, Game, standings
from wordsvc.data.formats import known_formats

VECTORS = Path(__file__).with_name("seating_vectors.json")
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "jo", "kim", "lou", "max"]
FIELD = [f"p{i:03d}" for i in range(200)]
REJECTING = "1d24ea8b401f29aed2903ff59f2513ec2d213c581fdc0ba44ee0f5e47fa854c5"  # draw 39 (below 162) reads 4294967166 and is rejected
CASES = [
    (["ann", "bob"], [2], "00" * 32, 1),
    (NAMES, [4, 3, 3, 3], "11" * 32, 1),
    (NAMES, [4, 3, 3, 3], "11" * 32, 2),
    (list(reversed(NAMES)), [5, 4, 4], hashlib.sha256(b"wordsvc").hexdigest(), 3),
    (NAMES[:8], [8], "ff" * 32, 7),
    (FIELD, [4] * 50, REJECTING, 1),
]
SEED = hashlib.sha256(b"seating tests").hexdigest()
NINE = [f"p0{i}" for i in range(1, 10)]
NINE_SESSION_1 = [["p02", "p08", "p01"], ["p07", "p03"], ["p05", "p06"], ["p09", "p04"]]
FORTY = [f"q{i:02d}" for i in range(40)]
SWISS_CASES = [
    ("nine players after a manual session (docs/seating.md section 13's example)", NINE, [3, 3, 3], dict(meetings(NINE_SESSION_1))),
    ("a repeat broken by the smallest move down the standings", ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"], [4, 4], {frozenset({"a1", "a2"}): 1}),
    ("no history: King of the Hill", NAMES, [5, 4, 4], {}),
    (
        "thirteen players after two random sessions",
        sorted(NAMES, key=lambda p: hashlib.sha256(p.encode()).digest()),
        [4, 3, 3, 3],
        dict(meetings(t for s in (1, 2) for t in random_seating(NAMES, [4, 3, 3, 3], "11" * 32, s))),
    ),
    (
        "forty players after three random sessions, pairs met up to three times",
        sorted(FORTY, key=lambda p: hashlib.sha256(p.encode()).digest()),
        [4] * 10,
        dict(meetings(t for s in (1, 2, 3) for t in random_seating(FORTY, [5, 5, 5, 5, 5, 5, 5, 5], "22" * 32, s))),
    ),
    (
        "the phases end above King of the Hill: the lexicographic phase alone from King of the Hill",
        ["p00", "p04", "p01", "p03", "p02"],
        [3, 2],
        {frozenset(p): c for *p, c in [("p00", "p01", 8), ("p00", "p02", 2), ("p00", "p03", 2), ("p01", "p02", 8), ("p01", "p03", 3), ("p02", "p03", 8), ("p02", "p04", 8), ("p03", "p04", 8)]},
    ),
]
SCHEDULE_CASES = [
    ("AG(2, 3): 9 players at 3, 4 sessions", [f"x{i}" for i in range(9)], [3, 3, 3], 4, "33" * 32),
    ("AG(2, 4) over GF(4): 16 players at 4, 6 sessions (a class again)", [f"x{i:02d}" for i in range(16)], [4] * 4, 6, SEED),
    ("a search: 10 players at 4, 3, 3, 4 sessions", [f"y{i}" for i in range(10)], [4, 3, 3], 4, "44" * 32),
    ("a search: 22 players at 4, 4, 4, 4, 3, 3, 5 sessions", [f"x{i:02d}" for i in range(22)], [4, 4, 4, 4, 3, 3], 5, SEED),
    ("a search where pairs must meet twice: 7 players at 4, 3, 5 sessions", [f"z{i}" for i in range(7)], [4, 3], 5, "55" * 32),
]
_TEN = [["ann", "bob", "cy"], ["dee", "eve"], ["fay", "gus", "hal"], ["ida", "jo"]]
FOLLOW_CASES = [
    ("unchanged", _TEN, sorted(p for t in _TEN for p in t), 2, 3, {}),
    ("two tables broken up, smallest first and the last among equals first", _TEN, ["ann", "bob", "cy", "dee", "fay", "gus", "ida"], 3, 4, {}),
    (
        "a broken table's players go where they know fewest",
        _TEN,
        ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"],
        4,
        4,
        {frozenset({"dee", "ann"}): 1, frozenset({"eve", "fay"}): 1},
    ),
    ("an overfull table loses its last players", [["ann", "bob", "cy", "dee", "eve", "fay"], ["gus", "hal"]], ["ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal"], 2, 4, {}),
    (
        "a short table filled from the largest, by fewest repeats and the last among equals",
        [["ann", "bob", "cy", "dee", "eve"], ["fay", "gus", "hal"]],
        ["ann", "bob", "cy", "dee", "eve", "fay"],
        3,
        5,
        {frozenset({"fay", "eve"}): 1},
    ),
    ("newcomers in active order, after a broken table", _TEN, ["ann", "bob", "cy", "eve", "gus", "hal", "ida", "kim", "lou"], 3, 5, {frozenset({"kim", "ann"}): 2}),
    ("a new table opened for newcomers", _TEN, sorted([*(p for t in _TEN for p in t), "kim", "lou", "max", "ned", "oli"]), 3, 3, {}),
    ("no number of tables fits", _TEN, ["ann", "bob", "cy"], 4, 5, {}),
    ("a player twice in active", _TEN, ["ann", "ann"], 2, 3, {}),
    ("a player at two planned seats", [["ann", "bob"], ["ann", "cy"]], ["ann", "bob", "cy"], 1, 3, {}),
]
MANUAL_CASES = [
    ("good", [["ann", "bob"], ["cy", "dee", "eve"]], ["ann", "bob", "cy", "dee", "eve"], 2, 4),
    ("every kind of problem", [["ann", "bob", "ann"], ["cy", "zed", "dee", "eve", "fay"]], ["ann", "bob", "cy", "dee", "eve", "fay", "gus"], 2, 4),
    ("a stranger twice, a player three times", [["zed", "ann"], ["ann", "zed", "ann"]], ["ann", "bob"], 2, 2),
    ("an empty table", [[], ["ann", "bob"]], ["ann", "bob"], 1, 4),
]


def _registered(ids: list[str], **changes: tuple[bool, int, int | None]) -> list[dict]:
    out = []
    for player in ids:
        checked_in, joined, withdrawn = changes.get(player, (True, 1, None))
        out.append({"id": player, "checked_in": checked_in, "joined": joined, "withdrawn": withdrawn})
    return out


_ELEVEN = [f"e{i:02d}" for i in range(1, 12)]
_TWELVE = [f"f{i:02d}" for i in range(1, 13)]
EVENTS = [
    {
        "name": "nine players: a manual session, then Swiss before any game is complete",
        "event_seed": "66" * 32, "format": "total", "smallest": 2, "largest": 8,
        "players": _registered(NINE),
        "sessions": [
            {"request": {"method": "manual", "size": None, "tables": NINE_SESSION_1}, "complete": []},
            {"request": {"method": "swiss", "size": None}},
        ],
    },
    {
        "name": "eleven players: random, Swiss, standings, Swiss with a table unfinished, a random redraw; a late entry, a withdrawal, a no-show",
        "event_seed": "77" * 32, "format": "total", "smallest": 2, "largest": 8,
        "players": _registered(_ELEVEN, e04=(True, 3, None), e07=(True, 1, 4), e11=(False, 1, None)),
        "sessions": [
            {"request": {"method": "random", "size": {"target": 3, "remainder": "smaller"}}},
            {"request": {"method": "swiss", "size": {"target": 3, "remainder": "smaller"}}},
            {"request": {"method": "standings", "size": {"target": 4, "remainder": "larger"}}, "complete": [1]},
            {"request": {"method": "swiss", "size": None}},
            {"request": {"method": "random", "size": None}, "draws": 3},
        ],
    },
    {
        "name": "twelve players on a schedule of 4 sessions at 4: five withdraw, one enters late, so a table is broken up",
        "event_seed": "88" * 32, "format": "table-points", "smallest": 3, "largest": 5,
        "players": _registered([*_TWELVE, "f13"], f02=(True, 1, 2), f05=(True, 1, 2), f09=(True, 1, 3), f10=(True, 1, 3), f11=(True, 1, 3), f13=(True, 2, None)),
        "schedule": round_robin_schedule(_TWELVE, [4, 4, 4], 4, "88" * 32),
        "sessions": [
            {"request": {"method": "schedule", "size": None}},
            {"request": {"method": "schedule", "size": None}},
            {"request": {"method": "schedule", "size": None}},
            {"request": {"method": "swiss", "size": None}},
        ],
    },
]


def vectors() -> dict:
    stream = seating_stream("00" * 32, 1)
    return {
        "spec": "s1",
        "stream": {"event_seed": "00" * 32, "session": 1, "first_uint32": [next(stream) for _ in range(16)]},
        "seatings": [
            {"event_seed": seed, "session": session, "players": players, "sizes": sizes, "tables": random_seating(players, sizes, seed, session)}
            for players, sizes, seed, session in CASES
        ],
        "swiss": [
            {"name": name, "ranked": ranked, "sizes": sizes, "met": _triples(met), "tables": swiss_seating(ranked, sizes, met)}
            for name, ranked, sizes, met in SWISS_CASES
        ],
        "schedules": [
            {"name": name, "event_seed": seed, "players": players, "sizes": sizes, "sessions": count, "schedule": round_robin_schedule(players, sizes, count, seed)}
            for name, players, sizes, count, seed in SCHEDULE_CASES
        ],
        "follow": [_follow_vector(*case) for case in FOLLOW_CASES],
        "manual": [
            {"name": name, "tables": tables, "players": players, "smallest": lo, "largest": hi, "problems": [list(p) for p in check_seating(tables, players, lo, hi)]}
            for name, tables, players, lo, hi in MANUAL_CASES
        ],
        "sessions": [tournament_vector(event) for event in EVENTS],
    }


def _triples(met: dict[frozenset[str], int]) -> list[list]:
    return sorted([*sorted(pair), count] for pair, count in met.items())


def _follow_vector(name: str, planned: list[list[str]], active: list[str], smallest: int, largest: int, met: dict) -> dict:
    case = {"name": name, "planned": planned, "active": active, "smallest": smallest, "largest": largest, "met": _triples(met)}
    try:
        return {**case, "tables": follow_schedule(planned, active, smallest, largest, met)}
    except SeatingError as err:
        return {**case, "refused": err.field}


def _met_of_sessions(*sessions: list[list[str]]) -> dict[frozenset[str], int]:
    return dict(meetings(table for session in sessions for table in session))


def _scores(player: str, session: int) -> int:
    """A game score for the vectors' events: a fixed function of the player and the session, some of them equal."""
    return 60 + hashlib.sha256(f"{player}/{session}".encode()).digest()[0] % 12 * 10


def tournament_vector(event: dict) -> dict:
    """Section 13 on an event described by its players, its schedule and each session's request and results.

    Each session: ``request`` (as stored), ``draws``, and ``complete``: the tables (1 first) whose game is
    complete when the next session is seated (every table, unless listed). The scores of a complete game are
    :func:`_scores`. The vector lists each session's tables in seat order and the results it was given.
    """
    fmt = known_formats()[event["format"]]
    registrations = [Registration(p["id"], p["checked_in"], p["joined"], p["withdrawn"]) for p in event["players"]]
    entrants = [Entrant(p["id"], p["id"], p["joined"], p["withdrawn"]) for p in event["players"] if p["checked_in"]]
    seated: list[list[list[str]]] = []
    games: list[Game] = []
    out = []
    for number, session in enumerate(event["sessions"], start=1):
        request = session["request"]
        players = active(registrations, number)
        past = session_history(seated)
        if request["method"] == "manual":
            sizes = [len(t) for t in request["tables"]]
        else:
            size = request.get("size") or {}
            sizes = sizes_for(len(players), size.get("target"), size.get("remainder", "smaller"), event["smallest"], event["largest"])
        order = [line["player"] for line in standings(fmt, entrants, games, number - 1)] if number > 1 else players
        ranked = [player for player in order if player in players]
        planned = event["schedule"][number - 1] if request["method"] == "schedule" else None
        tables = plan_session(
            request["method"], number, players, sizes, event["smallest"], event["largest"], past,
            seed=event["event_seed"], draw=session.get("draws", 1), ranked=ranked, manual=request.get("tables"), planned=planned,
        )
        complete = session.get("complete", range(1, len(tables) + 1))
        results = {f"s{number}-t{t}": {p: _scores(p, number) for p in tables[t - 1]} for t in complete}
        games += [Game(number, game, tuple(scores.items())) for game, scores in results.items()]
        seated.append(tables)
        out.append({"request": request, "draws": session.get("draws", 1), "players": players, "ranked": ranked, "tables": tables, "results": results})
    return {
        "name": event["name"], "event_seed": event["event_seed"], "format": event["format"], "smallest": event["smallest"], "largest": event["largest"],
        "players": event["players"], "schedule": event.get("schedule"), "sessions": out,
    }


def history(players: list[str], sizes: list[int], sessions: int, seed: str = SEED) -> Counter[frozenset[str]]:
    met: Counter[frozenset[str]] = Counter()
    for session in range(1, sessions + 1):
        met += meetings(random_seating(players, sizes, seed, session))
    return met


# table sizes


def test_thirteen_players_at_four_with_smaller_remainder_make_4_3_3_3():
    assert table_sizes(13, SizePolicy(4, "smaller"), 2, 8) == [4, 3, 3, 3]


def test_thirteen_players_at_four_with_larger_remainder_make_5_4_4():
    assert table_sizes(13, SizePolicy(4, "larger"), 2, 8) == [5, 4, 4]


def test_a_field_that_divides_evenly_gets_tables_of_the_target_either_way():
    assert table_sizes(16, SizePolicy(4, "smaller"), 2, 8) == table_sizes(16, SizePolicy(4, "larger"), 2, 8) == [4, 4, 4, 4]


def test_fewer_players_than_the_target_sit_at_one_table():
    assert table_sizes(3, SizePolicy(4, "larger"), 2, 8) == [3]


def test_a_larger_remainder_that_would_overfill_a_table_splits_it():
    assert table_sizes(9, SizePolicy(8, "larger"), 2, 8) == [5, 4]


def test_a_smaller_remainder_that_would_leave_a_table_too_small_takes_fewer_tables():
    assert table_sizes(7, SizePolicy(3, "smaller"), 3, 4) == [4, 3]


@pytest.mark.parametrize(
    ("count", "policy", "smallest", "largest", "field"),
    [
        (1, SizePolicy(4), 2, 8, "players"),
        (9, SizePolicy(6), 5, 8, "players"),
        (10, SizePolicy(9), 2, 8, "sizes"),
        (10, SizePolicy(4, "even"), 2, 8, "sizes"),
        (10, SizePolicy(4), 5, 4, "sizes"),
    ],
)
def test_impossible_sizes_name_the_input_at_fault(count, policy, smallest, largest, field):
    with pytest.raises(SeatingError) as caught:
        table_sizes(count, policy, smallest, largest)
    assert caught.value.field == field


@given(st.integers(2, 300), st.integers(2, 8), st.sampled_from(["smaller", "larger"]))
def test_sizes_seat_everyone_evenly_within_the_range_largest_first(count, target, remainder):
    sizes = table_sizes(count, SizePolicy(target, remainder), 2, 8)
    assert sum(sizes) == count
    assert all(2 <= s <= 8 for s in sizes)
    assert sizes == sorted(sizes, reverse=True) and sizes[0] - sizes[-1] <= 1
    if count >= target and count // target <= count // 2:
        assert (max(sizes) <= target) if remainder == "smaller" and -(-count // target) <= count // 2 else True
        assert (min(sizes) >= target) if remainder == "larger" and count // target >= -(-count // 8) else True


# the random seating, spec s1


def test_the_vectors_in_the_repository_are_what_the_code_seats():
    assert json.loads(VECTORS.read_text(encoding="utf-8")) == vectors()


def test_the_stream_is_sha256_of_domain_seed_session_and_counter():
    seed = bytes(range(32))
    block = hashlib.sha256(b"wordsvc-seating-s1\x00" + seed + (3).to_bytes(4, "big") + (1).to_bytes(8, "big")).digest()
    stream = seating_stream(seed.hex(), 3)
    values = [next(stream) for _ in range(16)]
    assert values[8:] == [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]


def test_the_rejecting_vector_does_reject_a_draw():
    stream = list(zip(range(199), counter_stream(b"wordsvc-seating-s1\x00", bytes.fromhex(REJECTING), 1), strict=False))
    rejected = [(k, x) for k, x in stream if x >= (1 << 32) - (1 << 32) % (200 - k)]
    assert rejected == [(38, 4294967166)]


def test_the_random_seating_ignores_the_order_players_are_given_in():
    assert random_seating(NAMES, [5, 4, 4], SEED, 1) == random_seating(list(reversed(NAMES)), [5, 4, 4], SEED, 1)


def test_each_session_is_seated_afresh():
    assert random_seating(NAMES, [5, 4, 4], SEED, 1) != random_seating(NAMES, [5, 4, 4], SEED, 2)


def test_the_random_seating_seats_everyone_once_at_the_sizes_given():
    tables = random_seating(NAMES, [4, 3, 3, 3], SEED, 5)
    assert [len(t) for t in tables] == [4, 3, 3, 3]
    assert sorted(p for t in tables for p in t) == NAMES


@pytest.mark.parametrize(
    ("players", "sizes", "seed", "session", "field"),
    [
        (NAMES, [5, 4, 4], "AB" * 32, 1, "event_seed"),
        (NAMES, [5, 4, 4], SEED, 0, "session"),
        (NAMES, [4, 4, 4], SEED, 1, "sizes"),
        (["ann", "Bob"], [2], SEED, 1, "players"),
        (["ann", "ann"], [2], SEED, 1, "players"),
    ],
)
def test_a_bad_input_to_the_random_seating_is_named(players, sizes, seed, session, field):
    with pytest.raises(SeatingError) as caught:
        random_seating(players, sizes, seed, session)
    assert caught.value.field == field


# meetings, repeats and the bound


def test_meetings_count_every_pair_at_each_table_they_share():
    assert meetings([["ann", "bob", "cy"], ["ann", "bob"]]) == Counter({frozenset({"ann", "bob"}): 2, frozenset({"ann", "cy"}): 1, frozenset({"bob", "cy"}): 1})


def test_a_pair_that_met_twice_before_is_one_repeat_meeting():
    met = {frozenset({"ann", "bob"}): 2, frozenset({"cy", "dee"}): 0}
    assert repeat_meetings([["ann", "bob", "cy"], ["dee", "eve"]], met) == 1


def test_king_of_the_hill_cuts_the_standings_in_order():
    assert standings_seating(NAMES, [5, 4, 4]) == [NAMES[:5], NAMES[5:9], NAMES[9:]]


def test_after_a_complete_affine_plane_every_seating_meets_only_old_friends_and_the_bound_says_so():
    sixteen = [*NAMES, "ned", "oli", "pat"]
    met = meetings(t for session in round_robin_schedule(sixteen, [4] * 4, 5, SEED) for t in session)
    assert repeat_lower_bound([4] * 4, met, sixteen) == 24 == repeat_meetings(random_seating(sixteen, [4] * 4, SEED, 6), met)


def test_a_player_who_has_met_everyone_makes_a_repeat_at_any_table():
    met = {frozenset({"ann", p}): 1 for p in ["bob", "cy", "dee"]}
    assert repeat_lower_bound([2, 2], met, ["ann", "bob", "cy", "dee"]) == 1
    assert repeat_lower_bound([4], met, ["ann", "bob", "cy", "dee"]) == 3
    assert repeat_lower_bound([3, 2], met, ["ann", "bob", "cy", "dee", "eve"]) == 0


def _fewest_repeats(players: list[str], sizes: list[int], met: dict) -> int:
    """The fewest repeat meetings of any seating, by trying every one (small fields only)."""
    if not sizes:
        return 0
    first, rest = players[0], players[1:]
    return min(
        repeat_meetings([[first, *mates]], met) + _fewest_repeats([p for p in rest if p not in mates], sizes[1:], met)
        for mates in combinations(rest, sizes[0] - 1)
    )


@pytest.mark.parametrize(("count", "sizes", "bound", "fewest"), [(4, [2, 2], 1, 1), (6, [2, 2, 2], 1, 1), (6, [3, 3], 1, 2), (8, [4, 4], 2, 3)])
def test_the_lower_bound_is_exact_for_one_player_who_met_everyone_only_at_tables_of_two(count, sizes, bound, fewest):
    players = [f"v{i}" for i in range(count)]
    met = {frozenset({players[0], p}): 1 for p in players[1:]}
    assert repeat_lower_bound(sizes, met, players) == bound
    assert _fewest_repeats(players, sizes, met) == fewest  # that player brings sizes[0] - 1 repeats to any table


@pytest.mark.parametrize("count", [4, 6, 8])
def test_the_lower_bound_is_exact_when_no_pair_or_every_pair_has_met(count):
    players = [f"v{i}" for i in range(count)]
    sizes = [count // 2, count // 2]
    everyone = {frozenset(pair): 1 for pair in combinations(players, 2)}
    assert repeat_lower_bound(sizes, {}, players) == _fewest_repeats(players, sizes, {}) == 0
    assert repeat_lower_bound(sizes, everyone, players) == _fewest_repeats(players, sizes, everyone) == 2 * (count // 2) * (count // 2 - 1) // 2


fields = st.integers(4, 14).flatmap(
    lambda n: st.tuples(
        st.just([f"x{i}" for i in range(n)]),
        st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]), max_size=n * 3),
        st.permutations(range(n)),
        st.sampled_from([2, 3, 4, 5]),
    )
)


@settings(max_examples=150, deadline=None)
@given(fields)
def test_swiss_never_has_more_repeats_than_king_of_the_hill_nor_fewer_than_the_bound(case):
    players, edges, order, target = case
    met = {frozenset({players[a], players[b]}): 1 for a, b in edges}
    ranked = [players[i] for i in order]
    sizes = table_sizes(len(players), SizePolicy(min(target, len(players) // 2)), 2, 8)
    swiss = swiss_seating(ranked, sizes, met)
    assert sorted(p for t in swiss for p in t) == sorted(players) and [len(t) for t in swiss] == sizes
    assert swiss_cost(swiss, ranked, sizes, met) <= swiss_cost(standings_seating(ranked, sizes), ranked, sizes, met)
    bound = repeat_lower_bound(sizes, met, players)
    assert bound <= repeat_meetings(swiss, met) <= repeat_meetings(standings_seating(ranked, sizes), met)
    assert bound <= repeat_meetings(random_seating(players, sizes, SEED, 1), met)


def test_swiss_with_no_history_is_king_of_the_hill():
    assert swiss_seating(NAMES, [5, 4, 4], {}) == standings_seating(NAMES, [5, 4, 4])


def test_swiss_breaks_a_repeat_by_the_smallest_move_down_the_standings():
    ranked = ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"]
    met = {frozenset({"a1", "a2"}): 1}
    assert swiss_seating(ranked, [4, 4], met) == [["a1", "a3", "a4", "b1"], ["a2", "b2", "b3", "b4"]]


def test_swiss_seats_200_players_after_five_random_sessions_with_no_repeat():
    met = history(FIELD, [4] * 50, 5)
    ranked = sorted(FIELD, key=lambda p: hashlib.sha256(p.encode()).digest())
    swiss = swiss_seating(ranked, [4] * 50, met)
    assert repeat_meetings(standings_seating(ranked, [4] * 50), met) > 0
    assert swiss_cost(swiss, ranked, [4] * 50, met)[0] == repeat_meetings(swiss, met) == repeat_lower_bound([4] * 50, met, FIELD) == 0


def test_swiss_cost_of_king_of_the_hill_has_no_drift():
    met = {frozenset({"ann", "bob"}): 2}
    assert swiss_cost(standings_seating(NAMES, [5, 4, 4]), NAMES, [5, 4, 4], met) == (1, 2, 0)


# schedules


@pytest.mark.parametrize(("q", "sessions"), [(2, 3), (3, 4), (4, 5), (5, 6), (7, 8), (8, 9)])
def test_an_affine_plane_schedule_meets_every_pair_exactly_once(q, sessions):
    players = [f"x{i:02d}" for i in range(q * q)]
    schedule = round_robin_schedule(players, [q] * q, sessions, SEED)
    assert all(sorted(p for t in s for p in t) == players and [len(t) for t in s] == [q] * q for s in schedule)
    assert set(meetings(t for s in schedule for t in s).values()) == {1}
    assert len(meetings(t for s in schedule for t in s)) == q * q * (q * q - 1) // 2


def test_sixteen_players_over_ten_sessions_meet_everyone_exactly_twice():
    players = [f"x{i:02d}" for i in range(16)]
    assert set(meetings(t for s in round_robin_schedule(players, [4] * 4, 10, SEED) for t in s).values()) == {2}


def test_twenty_two_players_over_five_sessions_never_meet_twice():
    players = [f"x{i:02d}" for i in range(22)]
    schedule = round_robin_schedule(players, [4, 4, 4, 4, 3, 3], 5, SEED)
    assert all(sorted(p for t in s for p in t) == players and [len(t) for t in s] == [4, 4, 4, 4, 3, 3] for s in schedule)
    assert max(meetings(t for s in schedule for t in s).values()) == 1


def test_a_schedule_depends_on_the_seed_and_only_on_it():
    players = [f"x{i:02d}" for i in range(16)]
    assert round_robin_schedule(players, [4] * 4, 5, SEED) == round_robin_schedule(list(reversed(players)), [4] * 4, 5, SEED)
    assert round_robin_schedule(players, [4] * 4, 5, SEED) != round_robin_schedule(players, [4] * 4, 5, "00" * 32)


def test_prime_powers_are_recognised():
    assert [q for q in range(2, 30) if prime_power(q)] == [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29]


@pytest.mark.parametrize("q", [4, 8, 9])
def test_the_parallel_classes_partition_the_points(q):
    for tables in affine_classes(q):
        assert sorted(p for t in tables for p in t) == list(range(q * q))


# following a schedule

PLAN = [["ann", "bob", "cy", "dee"], ["eve", "fay", "gus", "hal"], ["ida", "jo", "kim", "lou"]]


def test_an_unchanged_field_follows_the_plan():
    assert follow_schedule(PLAN, [p for t in PLAN for p in t], 3, 5, {}) == PLAN


def test_a_newcomer_joins_the_smallest_table_where_they_know_fewest():
    active = [p for t in PLAN for p in t if p not in ("gus", "kim")] + ["max"]
    met = {frozenset({"max", "eve"}): 1}
    assert follow_schedule(PLAN, active, 3, 5, met) == [PLAN[0], ["eve", "fay", "hal"], ["ida", "jo", "lou", "max"]]


def test_a_newcomer_joins_the_smallest_table_even_where_they_know_someone():
    active = [p for t in PLAN for p in t if p != "gus"] + ["max"]
    met = {frozenset({"max", "eve"}): 1}
    assert follow_schedule(PLAN, active, 3, 5, met) == [PLAN[0], ["eve", "fay", "hal", "max"], PLAN[2]]


def test_a_table_that_falls_below_the_smallest_takes_a_player_from_the_largest():
    active = [p for t in PLAN for p in t if p not in ("ida", "jo")]
    assert follow_schedule(PLAN, active, 3, 5, {}) == [PLAN[0], ["eve", "fay", "gus"], ["kim", "lou", "hal"]]


def test_a_field_too_small_for_the_planned_tables_breaks_the_smallest_one_up():
    active = [p for t in PLAN for p in t if p not in ("ida", "jo", "kim")]
    assert follow_schedule(PLAN, active, 4, 5, {}) == [["ann", "bob", "cy", "dee", "lou"], PLAN[1]]


def test_a_field_too_large_for_the_planned_tables_opens_another():
    active = [p for t in PLAN for p in t] + ["max", "ned", "oli", "pat"]
    assert follow_schedule(PLAN, active, 4, 4, {}) == [*PLAN, ["max", "ned", "oli", "pat"]]


def test_a_plan_that_seats_a_player_twice_is_refused():
    with pytest.raises(SeatingError) as caught:
        follow_schedule([["ann", "bob"], ["ann", "cy"]], ["ann", "bob", "cy"], 1, 3, {})
    assert caught.value.field == "planned"


def test_a_field_that_no_tables_fit_is_refused():
    with pytest.raises(SeatingError) as caught:
        follow_schedule(PLAN, ["ann", "bob", "cy"], 4, 5, {})
    assert caught.value.field == "players"


# manual seatings


def test_a_good_manual_seating_has_no_problem():
    assert check_seating(PLAN, [p for t in PLAN for p in t], 3, 4) == []


def test_every_problem_of_a_manual_seating_is_reported_with_where_it_is():
    tables = [["ann", "bob", "ann"], ["cy", "zed", "dee", "eve", "fay"]]
    players = ["ann", "bob", "cy", "dee", "eve", "fay", "gus"]
    assert check_seating(tables, players, 2, 4) == [
        ("tables.0.2", "'ann' is seated twice"),
        ("tables.1", "5 players; a table seats 2 to 4"),
        ("tables.1.1", "'zed' is not a player of this session"),
        ("players", "'gus' is not seated"),
    ]


# seat order


def test_the_player_who_dealt_first_least_often_takes_seat_0():
    assert seat_order(["ann", "bob", "cy"], {"ann": 2, "bob": 1}, 4)[0] == "cy"


def test_ties_for_seat_0_rotate_with_the_session():
    assert [seat_order(["ann", "bob", "cy"], {}, s) for s in (1, 2, 3, 4)] == [
        ["ann", "bob", "cy"],
        ["bob", "cy", "ann"],
        ["cy", "ann", "bob"],
        ["ann", "bob", "cy"],
    ]


@given(st.integers(2, 8), st.integers(1, 40))
def test_over_sessions_seat_0_never_goes_to_anyone_twice_more_than_to_another(size, sessions):
    table = [f"x{i}" for i in range(size)]
    firsts: Counter[str] = Counter()
    for session in range(1, sessions + 1):
        firsts[seat_order(table, firsts, session)[0]] += 1
    assert max(firsts[p] for p in table) - min(firsts[p] for p in table) <= 1


def test_every_pair_of_a_table_counts_once_in_meetings():
    table = ["ann", "bob", "cy", "dee"]
    assert set(meetings([table])) == {frozenset(pair) for pair in combinations(table, 2)}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    VECTORS.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")

"""Seating (wordsvc/core/seating, docs/seating.md): sizes, the random seating's vectors, King of the Hill, Swiss and its bound, schedules, following one, checks, seat order.

``tests/seating_vectors.json`` holds random seatings (spec s1) of several fields, sizes and sessions, one of
them rejecting a draw; ``python tests/test_seating.py --write`` rebuilds it (only when the specification's
version changes: s1 seatings never change).
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
from wordsvc.core.seating.shuffle import seating_stream

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


def vectors() -> dict:
    stream = seating_stream("00" * 32, 1)
    return {
        "spec": "s1",
        "stream": {"event_seed": "00" * 32, "session": 1, "first_uint32": [next(stream) for _ in range(16)]},
        "seatings": [
            {"event_seed": seed, "session": session, "players": players, "sizes": sizes, "tables": random_seating(players, sizes, seed, session)}
            for players, sizes, seed, session in CASES
        ],
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

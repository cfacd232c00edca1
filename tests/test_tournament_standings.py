"""Standings across games (wordsvc.core.standings): the worked example of docs/standings.md, each figure by hand."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.standings import Entrant, Format, Game, crosstable, crosstable_rows, standings
from wordsvc.core.standings.games import results

TOTAL = Format(id="total", name="Total", ranking="total", tie_breaks=("head_to_head", "best_game", "spread"), missed="zero")
TABLE_POINTS = Format(id="table-points", name="Table points", ranking="table_points", tie_breaks=("head_to_head", "total", "spread"), missed="zero")

# docs/standings.md, "A worked example"
ENTRANTS = [
    Entrant("ann", "Ann"),
    Entrant("bob", "Bob"),
    Entrant("cy", "Cy"),
    Entrant("dan", "Dan"),
    Entrant("eve", "Eve", withdrawn=3),
    Entrant("dee", "Dee", joined=2),
]
GAMES = [
    Game(1, "s1-t1", (("ann", 120), ("bob", 90), ("cy", 90))),
    Game(1, "s1-t2", (("dan", 100), ("eve", 80))),
    Game(2, "s2-t1", (("bob", 110), ("dan", 100), ("dee", 100), ("eve", 50))),
    Game(2, "s2-t2", (("ann", 70), ("cy", 130))),
]


def by_player(lines):
    return {line["player"]: line for line in lines}


def test_the_worked_example_by_total():
    lines = standings(TOTAL, ENTRANTS, GAMES)
    assert [(line["rank"], line["player"]) for line in lines] == [(1, "cy"), (2, "bob"), (3, "dan"), (4, "ann"), (5, "eve"), (6, "dee")]
    figures = {line["player"]: (line["total"], line["table_points"], line["wins"], line["best_game"], line["spread"]) for line in lines}
    assert figures == {
        "ann": (190, 1, 1, 120, -10),
        "bob": (200, 1.25, 1, 110, 10),
        "cy": (220, 1.25, 1, 130, 20),
        "dan": (200, 1.5, 1, 100, 20),
        "eve": (130, 0, 0, 80, -50),
        "dee": (100, 0.5, 0, 100, 10),
    }
    assert {line["player"]: line["tie_break"] for line in lines} == {
        "cy": [None, 130, 20],
        "bob": [1, 110, 10],
        "dan": [0, 100, 20],
        "ann": [None, 120, -10],
        "eve": [None, 80, -50],
        "dee": [None, 100, 10],
    }


def test_head_to_head_separates_two_tied_players_who_met():
    lines = by_player(standings(TOTAL, ENTRANTS, GAMES))
    assert (lines["bob"]["total"], lines["dan"]["total"]) == (200, 200)
    assert (lines["bob"]["rank"], lines["dan"]["rank"]) == (2, 3)  # bob beat dan at s2-t1, though dan's spread is higher


def test_head_to_head_does_not_separate_players_who_never_met():
    games = [Game(1, "a", (("p", 50), ("x", 10))), Game(1, "b", (("q", 50), ("y", 10)))]
    fmt = Format(id="h", name="H", ranking="total", tie_breaks=("head_to_head",), missed="zero")
    lines = standings(fmt, [Entrant("p", "P"), Entrant("q", "Q")], games)
    assert [(line["rank"], line["player"], line["tie_break"]) for line in lines] == [(1, "p", [0]), (1, "q", [0])]


def test_head_to_head_counts_a_meeting_as_if_only_the_tied_players_sat_there():
    """bob beat dan at a table of 3 (1/2 a table point) and dan beat bob at a table of 2: one meeting each, still tied."""
    games = [
        Game(1, "s1-t1", (("bob", 90), ("dan", 80), ("x", 100))),
        Game(2, "s2-t1", (("bob", 70), ("dan", 80))),
    ]
    fmt = Format(id="h", name="H", ranking="total", tie_breaks=("head_to_head",), missed="zero")
    lines = standings(fmt, [Entrant("bob", "Bob"), Entrant("dan", "Dan")], games)
    assert [(line["rank"], line["player"], line["tie_break"]) for line in lines] == [(1, "bob", [1]), (1, "dan", [1])]


def test_head_to_head_in_a_group_of_three():
    fmt = Format(id="a", name="A", ranking="average", tie_breaks=("head_to_head", "best_game", "spread"), missed="nothing")
    lines = standings(fmt, ENTRANTS, GAMES)
    assert [(line["rank"], line["player"], line["average"]) for line in lines] == [
        (1, "cy", 110),
        (2, "bob", 100),
        (3, "dan", 100),
        (4, "dee", 100),
        (5, "ann", 95),
        (6, "eve", 65),
    ]
    lines = by_player(lines)
    assert [lines[p]["tie_break"][0] for p in ("bob", "dan", "dee")] == [1, 0.25, 0.25]  # s2-t1: bob beat both, dan and dee tied


def test_the_worked_example_by_table_points():
    lines = standings(TABLE_POINTS, ENTRANTS, GAMES)
    assert [(line["rank"], line["player"], line["table_points"]) for line in lines] == [
        (1, "dan", 1.5),
        (2, "cy", 1.25),
        (3, "bob", 1.25),
        (4, "ann", 1),
        (5, "dee", 0.5),
        (6, "eve", 0),
    ]
    assert by_player(lines)["cy"]["tie_break"] == [0.5, 220, 20]  # they tied at s1-t1: half a point each, so the total decides


def test_tables_of_three_and_five_weigh_alike_in_table_points():
    three = results(Game(1, "t3", (("a", 90), ("b", 60), ("c", 30))))
    five = results(Game(1, "t5", (("a", 90), ("b", 80), ("c", 60), ("d", 40), ("e", 30))))
    assert [r.table_points for r in three] == [1, Fraction(1, 2), 0]
    assert [r.table_points for r in five] == [1, Fraction(3, 4), Fraction(1, 2), Fraction(1, 4), 0]
    assert sum(r.table_points for r in three) / 3 == sum(r.table_points for r in five) / 5 == Fraction(1, 2)


def test_a_tie_at_a_table_counts_half_in_table_points():
    assert [r.table_points for r in results(Game(1, "t", (("a", 50), ("b", 50), ("c", 10))))] == [Fraction(3, 4), Fraction(3, 4), 0]


def test_a_shared_top_score_shares_the_win():
    assert [r.win for r in results(Game(1, "t", (("a", 50), ("b", 50), ("c", 50), ("d", 10))))] == [Fraction(1, 3)] * 3 + [0]


def test_spread_is_the_score_less_the_table_average():
    assert [r.spread for r in results(Game(1, "t", (("a", 100), ("b", 50), ("c", 30))))] == [40, -10, -30]


def test_late_entry_with_missed_zero_counts_a_zero_game():
    dee = by_player(standings(TOTAL, ENTRANTS, GAMES))["dee"]
    assert (dee["missed"], dee["games"], dee["played"], dee["total"], dee["average"], dee["table_points"]) == (1, 2, 1, 100, 50, 0.5)


def test_late_entry_with_missed_nothing_counts_only_games_played():
    fmt = Format(id="n", name="N", ranking="average", tie_breaks=(), missed="nothing")
    dee = by_player(standings(fmt, ENTRANTS, GAMES))["dee"]
    assert (dee["missed"], dee["games"], dee["total"], dee["average"]) == (1, 1, 100, 100)


def test_late_entry_with_missed_average_counts_the_average_game():
    fmt = Format(id="v", name="V", ranking="total", tie_breaks=(), missed="average")
    dee = by_player(standings(fmt, ENTRANTS, GAMES))["dee"]
    assert (dee["missed"], dee["games"], dee["total"], dee["average"], dee["table_points"], dee["wins"]) == (1, 2, 200, 100, 1, 0)
    assert (dee["best_game"], dee["spread"]) == (100, 10)  # a missed game is never a played one


def test_missed_average_before_any_game_counts_nothing():
    fmt = Format(id="v", name="V", ranking="total", tie_breaks=(), missed="average")
    dee = by_player(standings(fmt, ENTRANTS, GAMES, through=1))["dee"]
    assert (dee["missed"], dee["games"], dee["total"], dee["best_game"]) == (1, 0, 0, None)


def test_through_counts_only_the_sessions_up_to_it_and_ties_share_a_rank():
    lines = standings(TOTAL, ENTRANTS, GAMES, through=1)
    assert [(line["rank"], line["player"], line["total"]) for line in lines] == [
        (1, "ann", 120),
        (2, "dan", 100),
        (3, "bob", 90),
        (3, "cy", 90),
        (5, "eve", 80),
        (6, "dee", 0),
    ]
    assert by_player(lines)["bob"]["tie_break"] == [0.5, 90, -10]


def test_a_withdrawn_player_keeps_their_line_and_their_games():
    eve = by_player(standings(TOTAL, ENTRANTS, GAMES))["eve"]
    assert (eve["withdrawn"], eve["games"], eve["total"]) == (True, 2, 130)
    assert by_player(standings(TOTAL, ENTRANTS, GAMES, through=2))["eve"]["withdrawn"] is False  # withdrawn from session 3 on


def test_min_games_ranks_players_with_fewer_games_below():
    fmt = Format(id="a", name="A", ranking="average", tie_breaks=(), missed="nothing", min_games=2)
    lines = standings(fmt, ENTRANTS, GAMES)
    assert [(line["player"], line["qualified"]) for line in lines][-1] == ("dee", False)
    assert lines[-1]["rank"] == 6 and lines[-2]["average"] < 100  # eve (65) still ranks above dee (100, one game)


def test_a_player_without_games_ranks_last():
    lines = standings(TOTAL, [*ENTRANTS, Entrant("zed", "Zed", joined=9)], GAMES)
    assert (lines[-1]["player"], lines[-1]["games"], lines[-1]["best_game"], lines[-1]["missed"]) == ("zed", 2, None, 2)


def test_malformed_games_are_refused_all_at_once():
    with pytest.raises(InvalidRequest) as caught:
        standings(TOTAL, ENTRANTS, [Game(1, "a", (("ann", 1),)), Game(0, "b", (("bob", 1), ("bob", 2)))])
    assert caught.value.problems == {
        "games.0.scores": ["game a has 1 player(s); a table seats 2 or more"],
        "games.1.scores": ["game b seats a player twice"],
        "games.1.session": ["sessions are numbered from 1"],
    }


def test_crosstable_lists_every_meeting_from_both_sides():
    table = crosstable(ENTRANTS, GAMES)
    assert table["players"] == ["ann", "bob", "cy", "dan", "eve", "dee"]
    assert table["meetings"]["bob"]["dan"] == [{"session": 2, "table": "s2-t1", "score": 110, "opponent_score": 100, "result": "win"}]
    assert table["meetings"]["dan"]["bob"] == [{"session": 2, "table": "s2-t1", "score": 100, "opponent_score": 110, "result": "loss"}]
    assert table["meetings"]["bob"]["cy"][0]["result"] == "tie"
    assert "dee" not in table["meetings"]["ann"]
    assert json.loads(json.dumps(table)) == table


def test_crosstable_rows_are_one_per_meeting_and_side():
    rows = crosstable_rows(crosstable(ENTRANTS, GAMES, through=1))
    assert len(rows) == 2 * (3 + 1)
    assert rows[0] == {"player": "ann", "opponent": "bob", "session": 1, "table": "s1-t1", "score": 120, "opponent_score": 90, "result": "win"}


scores = st.integers(min_value=-20, max_value=60)


@st.composite
def tournaments(draw):
    players = [f"p{i}" for i in range(draw(st.integers(2, 9)))]
    games = []
    for session in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(players))
        size = draw(st.integers(2, min(8, len(players))))
        for t, start in enumerate(range(0, len(order) - 1, size)):
            seat = order[start : start + size]
            if len(seat) >= 2:
                games.append(Game(session, f"s{session}-t{t}", tuple((p, draw(scores)) for p in seat)))
    entrants = [Entrant(p, p.upper(), joined=draw(st.integers(1, 2))) for p in players]
    return entrants, games


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.sampled_from(["total", "table_points", "wins", "average"]), st.sampled_from(["nothing", "zero", "average"]))
def test_standings_do_not_depend_on_the_order_of_games_or_entrants(tournament, ranking, missed):
    entrants, games = tournament
    fmt = Format(id="x", name="X", ranking=ranking, tie_breaks=("head_to_head", "best_game", "spread"), missed=missed)
    lines = standings(fmt, entrants, games)
    assert lines == standings(fmt, entrants[::-1], games[::-1])
    ranks = [line["rank"] for line in lines]
    assert ranks == sorted(ranks) and ranks[0] == 1 and len(lines) == len(entrants)
    assert all(rank == i + 1 or rank == ranks[i - 1] for i, rank in enumerate(ranks))  # 1, 2, 2, 4


@settings(max_examples=60, deadline=None)
@given(st.lists(scores, min_size=2, max_size=8))
def test_a_table_shares_half_a_point_a_player_and_one_win(table):
    got = results(Game(1, "t", tuple((f"p{i}", s) for i, s in enumerate(table))))
    assert sum(r.table_points for r in got) == Fraction(len(table), 2)
    assert sum(r.win for r in got) == 1
    assert sum(r.spread for r in got) == 0

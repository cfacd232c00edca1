"""Who the standings and the crosstable list, and in what order, on SQLite and PostgreSQL (docs/standings.md, docs/tournaments.md).

- An **entrant** is a registered player who checked in: a player registered but never checked in (a
  no-show) has no standings line and no crosstable column; a late entry and a withdrawn player keep theirs.
- The crosstable lists its players in the order of the overall standings, as the printed results do.
- Late entries following a published schedule are seated in id order (docs/seating.md section 10).
- Ratings count the complete games of an event's sessions only: a table left unfinished at the close is not rated.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from tournament_kit import LEXICON, open_ledger, play
from tournament_kit import one_round as one_round_ruleset

from wordsvc.ledger import LOCAL, Ledger, NotFound

_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    yield from open_ledger(database_url)


@pytest.fixture(scope="module")
def one_round():
    return one_round_ruleset()


def new_event(ledger: Ledger, ruleset, checked_in: list[str], registered: list[str] = ()) -> tuple[str, object]:
    view = ledger.events.create_event(LOCAL, ruleset, LEXICON, "Club night", f"entrants{next(_ids)}")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for player in checked_in:
        ledger.players.register(director, view["id"], player, player.title(), rating_id=f"r-{view['id']}-{player}", checked_in=True)
    for player in registered:
        ledger.players.register(director, view["id"], player, player.title(), rating_id=f"r-{view['id']}-{player}", checked_in=False)
    return view["id"], director


def test_a_player_registered_but_never_checked_in_has_no_standings_line_nor_crosstable_column(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, ["ann", "bob", "cy", "dee"], registered=["noshow"])
    _, session = ledger.sessions.create(director, event_id, {"method": "random", "number": 1})
    play(ledger, director, event_id, session)
    lines = ledger.standings.standings(director, event_id)["overall"]["lines"]
    assert sorted(line["player"] for line in lines) == ["ann", "bob", "cy", "dee"]
    assert "noshow" not in ledger.tournament_standings.crosstable(director, event_id)["players"]


def test_a_tournament_whose_players_have_not_checked_in_yet_has_empty_overall_standings(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, [], registered=["ann", "bob"])
    overall = ledger.standings.standings(director, event_id)["overall"]
    assert overall["lines"] == [] and overall["through"] == 0


def test_a_late_entry_and_a_withdrawn_player_keep_their_lines(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, ["ann", "bob", "cy", "dee"], registered=["late"])
    _, session = ledger.sessions.create(director, event_id, {"method": "random", "number": 1})
    play(ledger, director, event_id, session)
    ledger.players.check_in(director, event_id, "late")
    ledger.players.withdraw(director, event_id, "dee")
    lines = {line["player"]: line for line in ledger.standings.standings(director, event_id)["overall"]["lines"]}
    assert set(lines) == {"ann", "bob", "cy", "dee", "late"}
    assert lines["late"]["played"] == 0 and lines["late"]["missed"] == 1 and lines["dee"]["played"] == 1
    assert "late" in ledger.tournament_standings.crosstable(director, event_id)["players"]


def test_the_crosstable_lists_its_players_in_the_order_of_the_overall_standings(ledger: Ledger, one_round) -> None:
    players = ["ann", "bob", "cy", "dee", "eve", "fay"]
    event_id, director = new_event(ledger, one_round, players)
    for number in (1, 2):
        _, session = ledger.sessions.create(director, event_id, {"method": "random", "number": number})
        play(ledger, director, event_id, session)
    ranked = [line["player"] for line in ledger.standings.standings(director, event_id)["overall"]["lines"]]
    assert ranked != sorted(ranked)  # the case tells the two orders apart
    assert ledger.tournament_standings.crosstable(director, event_id)["players"] == ranked


def test_late_entries_join_a_followed_schedule_in_id_order(ledger: Ledger, one_round) -> None:
    """Twelve players on a schedule of tables of 4; two withdraw and two enter late, 'zoe' registered before 'amy': amy is seated first."""
    players = [f"p{i:02d}" for i in range(1, 13)]
    event_id, director = new_event(ledger, one_round, players, registered=["zoe", "amy"])
    ledger.sessions.publish_schedule(director, event_id, 2, {"target": 4})
    _, first = ledger.sessions.create(director, event_id, {"method": "schedule", "number": 1})
    play(ledger, director, event_id, first)
    planned = ledger.sessions.schedule(director, event_id)["schedule"][1]
    gone = [planned[0][0], planned[1][0]]  # one player from each of two tables: those two have room, the third is full
    for player in gone:
        ledger.players.withdraw(director, event_id, player)
    ledger.players.check_in(director, event_id, "zoe")
    ledger.players.check_in(director, event_id, "amy")
    _, second = ledger.sessions.create(director, event_id, {"method": "schedule", "number": 2})
    seated = [{seat["player"] for seat in table["seats"]} for table in second["tables"]]
    assert "amy" in seated[0] and "zoe" in seated[1]  # each joins the first table with room: amy first


def test_only_complete_games_are_rated(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, ["ann", "bob", "cy", "dee", "eve", "fay"])
    _, session = ledger.sessions.create(director, event_id, {"method": "random", "number": 1, "size": {"target": 3}})
    play(ledger, director, event_id, session, tables=range(1))  # table 1 complete, table 2 never played
    ledger.events.close_event(director, event_id)
    complete = {seat["player"] for seat in session["tables"][0]["seats"]}
    for player in ["ann", "bob", "cy", "dee", "eve", "fay"]:
        rating_id = f"r-{event_id}-{player}"
        if player in complete:
            assert ledger.ratings.rating(rating_id)["games"] == 1
        else:
            with pytest.raises(NotFound):
                ledger.ratings.rating(rating_id)

"""Tournaments in the ledger, on SQLite and PostgreSQL: players, sessions and their seating, standings across sessions, ratings, transfer.

Each test makes its own event under a one-round ruleset (the standard ruleset's
snapshot with one round of 3 cards), so a game is complete after one round.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from sqlalchemy import insert
from sqlalchemy.exc import IntegrityError
from tournament_kit import LEXICON, open_ledger, play, tables_of
from tournament_kit import one_round as one_round_ruleset

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.seating import meetings, random_seating
from wordsvc.core.seating.sessions import draw_seed
from wordsvc.ledger import LOCAL, Conflict, Ledger, NotFound
from wordsvc.ledger._db.schema import seats

_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    yield from open_ledger(database_url)


@pytest.fixture(scope="module")
def one_round():
    return one_round_ruleset()


def new_event(ledger: Ledger, ruleset, players: int, fmt: dict | None = None) -> tuple[str, object]:
    """An event with ``players`` checked-in players p01, p02, ... (names Player 1, ...), and its director."""
    view = ledger.events.create_event(LOCAL, ruleset, LEXICON, "League night", f"tour{next(_ids)}", tournament_format=fmt)
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for i in range(1, players + 1):
        ledger.players.register(director, view["id"], f"p{i:02d}", f"Player {i}", rating_id=f"r{i:02d}", checked_in=True)
    return view["id"], director


def test_thirteen_players_at_four_with_larger_remainders_sit_at_five_four_four(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 13)
    created, session = ledger.sessions.create(director, event_id, {"method": "random", "size": {"target": 4, "remainder": "larger"}})
    assert created and session["number"] == 1
    assert [len(table) for table in tables_of(session)] == [5, 4, 4]
    assert sorted(p for table in tables_of(session) for p in table) == [f"p{i:02d}" for i in range(1, 14)]
    game = ledger.games.game(director, event_id, "s1-t1")
    assert game["players"] == [seat["name"] for seat in session["tables"][0]["seats"]]


def test_the_random_seating_is_the_specification_s_from_the_revealed_seed(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 9)
    _, session = ledger.sessions.create(director, event_id, {"method": "random", "size": {"target": 3}})
    seed = ledger.events.close_event(director, event_id)["deals"]["seed"]
    players = [f"p{i:02d}" for i in range(1, 10)]
    drawn = random_seating(players, [3, 3, 3], draw_seed(seed, 1), 1)
    assert [sorted(t) for t in tables_of(session)] == [sorted(t) for t in drawn]


def test_a_player_in_two_tables_of_one_session_is_refused_by_the_database(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    _, session = ledger.sessions.create(director, event_id, {"method": "random"})
    first = tables_of(session)[0][0]
    with pytest.raises(IntegrityError), ledger.engine.begin() as conn:
        conn.execute(insert(seats).values(event_id=event_id, session=1, player_id=first, game_id="s1-t2", seat=7))


def test_a_session_waits_for_the_one_before_unless_the_director_allows_it(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    ledger.sessions.create(director, event_id, {"method": "random"})
    with pytest.raises(Conflict) as refused:
        ledger.sessions.create(director, event_id, {"method": "swiss"})
    assert "unfinished" in refused.value.problems
    created, second = ledger.sessions.create(director, event_id, {"method": "swiss", "unfinished": "allow"})
    assert created and second["unfinished"] and second["number"] == 2
    assert [e["payload"]["unfinished"] for e in ledger.trail.log(event_id) if e["action"] == "session.created"] == [False, True]


def test_a_retry_naming_its_number_is_answered_not_seated_twice(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 6)
    body = {"method": "random", "number": 1}
    created, first = ledger.sessions.create(director, event_id, body)
    again, second = ledger.sessions.create(director, event_id, body)
    assert created and not again and tables_of(first) == tables_of(second)
    assert second["receipt"]["seq"] < first["receipt"]["seq"]  # the entry that seated it, before its tables' entries
    with pytest.raises(Conflict):
        ledger.sessions.create(director, event_id, {"method": "standings", "number": 1})
    with pytest.raises(Conflict):
        ledger.sessions.create(director, event_id, {"method": "random", "number": 3, "unfinished": "allow"})


def test_a_withdrawn_player_is_never_seated_and_a_late_entry_joins_the_next_session(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    _, first = ledger.sessions.create(director, event_id, {"method": "random"})
    play(ledger, director, event_id, first)
    ledger.players.withdraw(director, event_id, "p03")
    _, late = ledger.players.register(director, event_id, "p99", "Late Comer", checked_in=True)
    assert late["joined"] == 2
    _, second = ledger.sessions.create(director, event_id, {"method": "standings"})
    seated = {p for table in tables_of(second) for p in table}
    assert "p03" not in seated and "p99" in seated and len(seated) == 8
    lines = {line["player"]: line for line in ledger.standings.standings(director, event_id)["overall"]["lines"]}
    assert lines["p03"]["played"] == 1 and lines["p99"]["played"] == 0


def test_swaps_and_redraws_stop_once_a_round_is_stored(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    _, session = ledger.sessions.create(director, event_id, {"method": "random"})
    a, b = tables_of(session)[0][0], tables_of(session)[1][0]
    swapped = ledger.sessions.swap(director, event_id, 1, a, b)
    assert tables_of(swapped)[0][0] == b and tables_of(swapped)[1][0] == a
    assert ledger.games.game(director, event_id, "s1-t1")["players"][0] == swapped["tables"][0]["seats"][0]["name"]
    redrawn = ledger.sessions.redraw(director, event_id, 1)
    assert redrawn["draws"] == 2
    play(ledger, director, event_id, redrawn)
    with pytest.raises(Conflict):
        ledger.sessions.swap(director, event_id, 1, a, b)
    with pytest.raises(Conflict):
        ledger.sessions.redraw(director, event_id, 1)
    assert ledger.trail.verify(event_id) == []


def test_a_manual_seating_is_checked_and_kept_as_given(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 6)
    with pytest.raises(InvalidRequest) as refused:
        ledger.sessions.create(director, event_id, {"method": "manual", "tables": [["p01", "p02", "p03"], ["p04", "p05", "p01"]]})
    assert refused.value.problems == {"tables.1.2": ["'p01' is seated twice"], "players": ["'p06' is not seated"]}  # every problem at once
    _, session = ledger.sessions.create(director, event_id, {"method": "manual", "tables": [["p06", "p02", "p03"], ["p04", "p05", "p01"]]})
    assert tables_of(session) == [["p06", "p02", "p03"], ["p04", "p05", "p01"]]


def test_swiss_after_random_avoids_every_repeat_meeting_a_field_of_sixteen_allows(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 16)
    _, first = ledger.sessions.create(director, event_id, {"method": "random", "size": {"target": 4}})
    play(ledger, director, event_id, first)
    _, second = ledger.sessions.create(director, event_id, {"method": "swiss", "size": {"target": 4}})
    assert second["repeat_meetings"] == 0
    assert not set(meetings(tables_of(first))) & set(meetings(tables_of(second)))


def test_a_published_schedule_of_sixteen_at_four_meets_everyone_once_in_five_sessions(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 16)
    created, schedule = ledger.sessions.publish_schedule(director, event_id, 5, {"target": 4, "remainder": "smaller"})
    assert created and len(schedule["schedule"]) == 5
    met: dict = {}
    for number in range(1, 6):
        _, session = ledger.sessions.create(director, event_id, {"method": "schedule", "size": {"target": 4}})
        assert [sorted(t) for t in tables_of(session)] == [sorted(t) for t in schedule["schedule"][number - 1]]
        for pair, count in meetings(tables_of(session)).items():
            met[pair] = met.get(pair, 0) + count
        play(ledger, director, event_id, session)
    assert len(met) == 16 * 15 // 2 and set(met.values()) == {1}


def test_standings_across_sessions_rank_by_the_event_s_format_and_after_any_session(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    for method in ("random", "standings"):
        _, session = ledger.sessions.create(director, event_id, {"method": method})
        play(ledger, director, event_id, session)
    overall = ledger.standings.standings(director, event_id)["overall"]
    assert overall["through"] == 2 and overall["format"]["id"] == "total"
    assert all(line["played"] == 2 for line in overall["lines"])
    totals = [line["total"] for line in overall["lines"]]
    assert totals == sorted(totals, reverse=True)
    after_one = ledger.standings.standings(director, event_id, 1)["overall"]
    assert after_one["through"] == 1 and all(line["played"] == 1 for line in after_one["lines"])
    crosstable = ledger.tournament_standings.crosstable(director, event_id)
    assert set(crosstable["players"]) == {f"p{i:02d}" for i in range(1, 9)}


def test_ratings_come_from_closed_rated_events_and_an_excluded_event_drops_out(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 4)
    _, session = ledger.sessions.create(director, event_id, {"method": "random"})
    play(ledger, director, event_id, session)
    ledger.events.close_event(director, event_id)
    assert event_id in [entry["event"] for entry in ledger.ratings.rating("r01")["history"]]
    assert ledger.ratings.set_rated(director, event_id, False, "a friendly, not for the ladder")["rated"] is False
    try:
        left = [entry["event"] for entry in ledger.ratings.rating("r01")["history"]]
    except NotFound:  # no other rated event of r01's
        left = []
    assert event_id not in left
    with pytest.raises(NotFound):
        ledger.ratings.rating("nobody")
    assert ledger.trail.verify(event_id) == []


def test_an_export_carries_the_tournament_and_imports_as_it_was(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 8)
    _, session = ledger.sessions.create(director, event_id, {"method": "random"})
    play(ledger, director, event_id, session)
    ledger.players.withdraw(director, event_id, "p02")
    exported = ledger.transfer.export(director, event_id)
    assert len(exported["players"]) == 8 and len(exported["seats"]) == 8 and exported["sessions"][0]["number"] == 1
    with ledger.engine.begin() as conn:  # the same event under a new id: rename every row and entry would break the chain, so move it
        from sqlalchemy import delete

        from wordsvc.ledger._db.schema import audit, events, games, players, revisions, sessions, tokens

        for table in (seats, revisions, games, sessions, players, tokens):
            conn.execute(delete(table).where(table.c.event_id == event_id))
        conn.execute(delete(audit).where(audit.c.chain == event_id))
        conn.execute(delete(events).where(events.c.id == event_id))
    imported = ledger.transfer.import_event(LOCAL, exported)
    assert imported["id"] == event_id
    again = ledger.transfer.export(LOCAL, event_id)
    for key in ("players", "sessions", "seats"):
        assert again[key] == exported[key]
    assert ledger.trail.verify(event_id) == []


def test_an_import_whose_seats_no_write_could_make_is_refused(ledger: Ledger, one_round) -> None:
    event_id, director = new_event(ledger, one_round, 6)
    ledger.sessions.create(director, event_id, {"method": "random"})
    exported = ledger.transfer.export(director, event_id)
    exported["event"]["id"] = "elsewhere"
    exported["seats"][1]["player"] = exported["seats"][0]["player"]
    with pytest.raises(InvalidRequest) as refused:
        ledger.transfer.import_event(LOCAL, exported)
    assert any(key.startswith("seats") for key in refused.value.problems)


def test_a_seat_row_edited_in_the_database_fails_verify(ledger: Ledger, one_round) -> None:
    from sqlalchemy import update

    event_id, director = new_event(ledger, one_round, 6)
    _, session = ledger.sessions.create(director, event_id, {"method": "random"})
    first = tables_of(session)[0]
    with ledger.engine.begin() as conn:
        conn.execute(update(seats).where(seats.c.event_id == event_id, seats.c.player_id == first[0]).values(seat=9))
    assert any("seat" in problem for problem in ledger.trail.verify(event_id))


def test_an_event_registers_at_most_its_limit_of_players(ledger: Ledger, one_round, monkeypatch: pytest.MonkeyPatch) -> None:
    """MAX_EVENT_PLAYERS (2,000; 3 here) bounds an event: the next registration is a 409, and the field stays as it was."""
    import wordsvc.ledger.tournaments.players as registry

    monkeypatch.setattr(registry, "MAX_EVENT_PLAYERS", 3)
    event_id, director = new_event(ledger, one_round, 3)
    with pytest.raises(Conflict) as full:
        ledger.players.register(director, event_id, "p04", "Player 4", checked_in=True)
    assert full.value.problems == {"player": ["the event is full: 3 players"]}
    assert [p["id"] for p in ledger.players.players(director, event_id)["players"]] == ["p01", "p02", "p03"]
    assert ledger.players.register(director, event_id, "p03", "Player 3", rating_id="r03", checked_in=True)[0] is False  # the same again: answered

"""A round is stored only for the players its table seats when it is written, on SQLite and PostgreSQL.

A round's submission reads the table's seats, checks and scores the play
against them, then writes under the event's lock. A swap or redraw of the
session's seating may commit in between (it checks, under the same lock,
that no round of the session is stored yet). These tests put the reseat
exactly there, deterministically: the submission's read is wrapped so that
the director's swap (or redraw) commits right after it. The round must then
be refused, and the table, its rounds and the event's export must agree.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tournament_kit import LEXICON, open_ledger

from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger

_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    yield from open_ledger(database_url)


def seated_event(ledger: Ledger) -> tuple[str, Any, dict[str, Any]]:
    """An event of four checked-in players seated by a random session at two tables of two."""
    view = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "Club night", f"seats{next(_ids)}")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for i in range(1, 5):
        ledger.players.register(director, view["id"], f"p{i}", f"Player {i}", checked_in=True)
    _, session = ledger.sessions.create(director, view["id"], {"method": "random", "size": {"target": 2}})
    return view["id"], director, session


def first_round(names: list[str]) -> RoundPlay:
    """Round 1 (3 cards each): the first seat lays CAT, the second RAT."""
    return RoundPlay(tuple(PlayerPlay(name, (tuple(word),), ()) for name, word in zip(names, ("cat", "rat"), strict=True)))


def reseat_after_the_read(ledger: Ledger, monkeypatch: pytest.MonkeyPatch, reseat: Callable[[], Any]) -> None:
    """Make ``reseat`` commit once, right after the next round submission has read its table."""
    read = ledger.rounds._table_round
    pending = [reseat]

    def read_then_reseat(where: dict[str, Any]) -> Any:
        seen = read(where)
        while pending:
            pending.pop()()
        return seen

    monkeypatch.setattr(ledger.rounds, "_table_round", read_then_reseat)


@pytest.mark.parametrize("reseat", ["swap", "redraw"])
def test_a_reseat_committed_between_a_rounds_read_and_its_write_refuses_the_round(ledger: Ledger, monkeypatch: pytest.MonkeyPatch, reseat: str) -> None:
    event_id, director, session = seated_event(ledger)
    tables = [[seat["player"] for seat in table["seats"]] for table in session["tables"]]
    names = [seat["name"] for seat in session["tables"][0]["seats"]]
    if reseat == "swap":
        reseat_after_the_read(ledger, monkeypatch, lambda: ledger.sessions.swap(director, event_id, 1, tables[0][0], tables[1][0]))
    else:

        def redraw_until_the_table_moves() -> None:  # a redraw may seat the table as it was (four players, two tables): draw again
            for _ in range(32):
                ledger.sessions.redraw(director, event_id, 1)
                if ledger.games.game(director, event_id, "s1-t1")["players"] != names:
                    return
            raise AssertionError("32 redraws left table s1-t1 as it was")

        reseat_after_the_read(ledger, monkeypatch, redraw_until_the_table_moves)
    with pytest.raises(Conflict) as refused:
        ledger.rounds.submit_round(director, event_id, "s1-t1", 1, first_round(names))
    assert refused.value.problems == {"game": ["reseated"]}
    monkeypatch.undo()
    seated_now = ledger.games.game(director, event_id, "s1-t1")["players"]
    assert seated_now != names
    assert ledger.sessions.session(director, event_id, 1)["started"] is False  # nothing was stored: the seating may still change
    stored = ledger.rounds.submit_round(director, event_id, "s1-t1", 1, first_round(seated_now))  # the slip read again against the new seats
    assert stored.status == 201
    assert ledger.trail.verify(event_id) == []
    exported = ledger.transfer.export(director, event_id)
    games = {game["id"]: game for game in exported["games"]}
    assert games["s1-t1"]["players"] == seated_now


def test_a_round_read_before_no_reseat_is_stored_as_before(ledger: Ledger, monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-read costs nothing when the seats did not move: the same submission is stored at once."""
    event_id, director, session = seated_event(ledger)
    names = [seat["name"] for seat in session["tables"][0]["seats"]]
    other = [seat["name"] for seat in session["tables"][1]["seats"]]
    reseat_after_the_read(ledger, monkeypatch, lambda: ledger.rounds.submit_round(director, event_id, "s1-t2", 1, first_round(other)))
    assert ledger.rounds.submit_round(director, event_id, "s1-t1", 1, first_round(names)).status == 201

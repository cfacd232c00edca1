"""A tournament session's tables hosted online in the ledger (wordsvc/ledger/hosting/seated.py), on SQLite and PostgreSQL.

Six players seated at two tables of three, both hosted; at one table a
player resigns in the first round, so a bot plays their seat. Both games
played out with random legal moves: the resigned player has no game, the
others' games count among the people, the table with the bot is not rated,
and the audit verifies.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest
from play_lexicon import HASH
from test_hosting_ledger import _public

from wordsvc.core.play import Knobs
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger, NotFound, Principal
from wordsvc.ledger.hosting.plays import HOST

BOOK = load_rulesets()
_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lambda lang: HASH)
    yield opened
    opened.close()


def _play_out(ledger: Ledger, event: str, game_id: str, actors: dict[int, Principal], rng: random.Random) -> None:
    """Random legal moves until the game is over: a person's through its token, a bot's as the server makes it."""
    player = RandomPlayer(BOOK.get("standard"), HASH, rng, eagerness=0.5)
    while not (game := ledger.plays.game(event, game_id)).state.over:
        seat, public = _public(player.move(game.state))
        bots = ledger.tables.bot_seats(event, game_id)
        if seat in bots:
            ledger.plays.move(HOST, seat, event, game_id, game.state.moves, f"bot-{game.state.moves}-{seat}", public, by="bot")
        else:
            ledger.plays.move(actors[seat], seat, event, game_id, game.state.moves, f"m{game.state.moves}", public)


def test_a_resigned_seat_counts_for_nobody_and_its_table_is_not_rated(ledger: Ledger) -> None:
    event = f"seated{next(_ids)}"
    made = ledger.events.create_event(LOCAL, BOOK.get("standard"), HASH, "Online cup", event)
    director = ledger.tokens.authenticate(made["director_token"]["token"])
    for n in range(1, 7):
        ledger.players.register(director, event, f"p{n}", f"Player {n}", rating_id=f"{event}-p{n}", checked_in=True)
    _, session = ledger.sessions.create(director, event, {"method": "random", "number": 1, "size": {"target": 3, "remainder": "smaller"}})
    tables = session["tables"]
    assert [len(t["seats"]) for t in tables] == [3, 3]

    actors: dict[str, dict[int, Principal]] = {}
    for table in tables:
        hosted = ledger.seated_tables.host(director, event, table["game"], {}, Knobs(), {"kind": "none"})
        assert [s["player"] for s in hosted["seats"]] == [s["player"] for s in table["seats"]]
        actors[table["game"]] = {s["seat"]: ledger.tokens.authenticate(s["token"]) for s in hosted["seats"]}
    for reseat in (lambda: ledger.sessions.swap(director, event, 1, tables[0]["seats"][0]["player"], tables[1]["seats"][0]["player"]), lambda: ledger.sessions.redraw(director, event, 1)):
        with pytest.raises(Conflict) as fixed:  # the players hold their seats' links: the seating is fixed
            reseat()
        assert fixed.value.code == "session_conflict"
    first, second = tables[0]["game"], tables[1]["game"]
    resigned = tables[0]["seats"][2]["player"]
    ledger.endings.resign(actors[first][2], 2, event, first)
    rng = random.Random(3)
    _play_out(ledger, event, first, actors[first], rng)
    _play_out(ledger, event, second, actors[second], rng)

    overall = ledger.standings.standings(None, event)["overall"]
    lines = {line["player"]: line for line in overall["lines"]}
    assert lines[resigned]["games"] == 0 and lines[resigned]["total"] == 0
    assert all(lines[p]["games"] == 1 for p in lines if p != resigned)
    meetings = ledger.tournament_standings.crosstable(None, event)["meetings"]
    assert set(meetings.get(resigned, {})) == set()
    assert set(meetings[tables[0]["seats"][0]["player"]]) == {tables[0]["seats"][1]["player"]}  # the two people of the first table
    ledger.events.close_event(director, event)
    for seat in tables[1]["seats"]:
        assert ledger.ratings.rating(f"{event}-{seat['player']}")["games"] == 1
    for seat in tables[0]["seats"]:
        with pytest.raises(NotFound):
            ledger.ratings.rating(f"{event}-{seat['player']}")
    assert ledger.trail.verify(event) == []

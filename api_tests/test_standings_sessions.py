"""A tournament's standings mid-event over HTTP (docs/standings.md, "Final or provisional", "A session's tables", "Numbers shown").

Eight players at two tables of four a session: the overall standings count played games only (a session seated and not
played adds none), say which session is the last complete and stay provisional until the tournament's last session is
complete (the event closed, or its published schedule played out); a session's tables are ranked within it; the format
says the decimals its numbers are shown with (2 unless it says otherwise).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from .conftest import LedgerServer
from .plays import random_players
from .test_events import Api

_ids = itertools.count()


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def _tournament(api: Api, ledger_server: LedgerServer, name: str) -> tuple[str, str]:
    event = f"{name}{next(_ids)}-{ledger_server.backend}"
    created = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Mid-event cup", "format": "table-points"}).json()
    token = created["director_token"]["token"]
    for i in range(1, 9):
        api("PUT", f"/events/{event}/players/p{i}", token, expect=201, json={"name": f"Player {i}", "checked_in": True})
    return event, token


def _play(api: Api, event: str, token: str, table: dict[str, Any], rng: random.Random) -> None:
    standard = api("GET", "/rulesets/standard", expect=200).json()
    deck = [card["face"] for card in standard["deck"]["cards"] for _ in range(card["count"])]
    names = [seat["name"] for seat in table["seats"]]
    for number in range(1, 9):
        api("PUT", f"/events/{event}/games/{table['game']}/rounds/{number}", token, expect=201, json={"players": random_players(rng, deck, number, names)})


def _seat(api: Api, event: str, token: str, number: int, method: str = "random") -> dict[str, Any]:
    body: dict[str, Any] = {"method": method, "number": number}
    if method != "schedule":
        body["size"] = {"target": 4}
    return api("POST", f"/events/{event}/sessions", token, expect=201, json=body).json()


def _standings(api: Api, event: str, query: str = "") -> dict[str, Any]:
    return api("GET", f"/events/{event}/standings{query}", expect=200).json()


def test_standings_count_played_games_only_and_stay_provisional_until_the_event_closes(api: Api, ledger_server: LedgerServer) -> None:
    rng = random.Random(51)
    event, token = _tournament(api, ledger_server, "midway")
    first = _seat(api, event, token, 1)
    for table in first["tables"]:
        _play(api, event, token, table, rng)
    second = _seat(api, event, token, 2, "standings")  # seated, not a round played

    answer = _standings(api, event)
    overall = answer["overall"]
    assert (overall["through"], overall["completed"], overall["provisional"]) == (2, 1, True)
    assert len(overall["lines"]) == 8 and all(line["games"] == line["played"] == 1 for line in overall["lines"])  # one line a player, no 0-game session-2 line
    assert overall["format"]["decimals"] == 2
    # The tables' lines: each session's ranked within it; session 2's unplayed tables never rank beside session 1's games.
    assert {line["session"] for line in answer["standings"]} == {1, 2}
    for number in (1, 2):
        lines = [line for line in answer["standings"] if line["session"] == number]
        assert len(lines) == 8 and min(line["rank"] for line in lines) == 1
        totals = [line["total"] for line in lines]
        assert totals == sorted(totals, reverse=True)
    assert all(line["rank"] == 1 and line["rounds"] == 0 and line["total"] == 0 for line in answer["standings"] if line["session"] == 2)
    assert [line["session"] for line in answer["standings"]] == sorted(line["session"] for line in answer["standings"])

    # Half of session 2 played: the last complete session is still 1; the games played count.
    _play(api, event, token, second["tables"][0], rng)
    overall = _standings(api, event)["overall"]
    assert (overall["completed"], overall["provisional"]) == (1, True)
    assert sorted(line["games"] for line in overall["lines"]) == [1] * 4 + [2] * 4
    assert _standings(api, event, "?session=1")["overall"]["completed"] == 1

    # Session 2 complete: provisional still, for nothing says it is the last; closed: final.
    _play(api, event, token, second["tables"][1], rng)
    overall = _standings(api, event)["overall"]
    assert (overall["completed"], overall["provisional"]) == (2, True)
    api("POST", f"/events/{event}/close", token, expect=200)
    overall = _standings(api, event)["overall"]
    assert (overall["through"], overall["completed"], overall["provisional"]) == (2, 2, False)
    assert _standings(api, event, "?session=1")["overall"]["provisional"] is True  # after session 1 is not the end of the event


def test_a_published_schedule_makes_the_standings_final_once_its_last_session_is_complete(api: Api, ledger_server: LedgerServer) -> None:
    rng = random.Random(52)
    event, token = _tournament(api, ledger_server, "scheduled")
    api("POST", f"/events/{event}/schedule", token, expect=201, json={"sessions": 2, "size": {"target": 4}})
    for number in (1, 2):
        session = _seat(api, event, token, number, "schedule")
        assert _standings(api, event)["overall"]["provisional"] is True
        for table in session["tables"]:
            _play(api, event, token, table, rng)
        overall = _standings(api, event)["overall"]
        assert (overall["completed"], overall["provisional"]) == (number, number == 1)
    assert api("GET", f"/events/{event}", expect=200).json()["status"] == "open"  # final without closing: the schedule says session 2 is the last

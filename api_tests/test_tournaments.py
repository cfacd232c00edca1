"""A tournament over HTTP, on SQLite and PostgreSQL: 22 players over 5 sessions (random, swiss, standings, swiss, standings),
a late entry and a withdrawal, every table's 8 rounds submitted through the API.

Checked with what is written here, never the service's code: every active player seated once per session at a table
within the ruleset's range; the random seating recomputed from docs/seating.md's specification s1 with the seed the
close reveals; each session's repeat meetings counted from the seatings; Swiss never worse than King of the Hill on
the same standings; the overall standings and the crosstable recomputed from the stored rounds; the export carrying
every player, session and seat. Every answer is checked against the OpenAPI document.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import random
from collections import Counter
from typing import Any

import pytest

from .conftest import LedgerServer
from .plays import random_players
from .test_events import Api

_ids = itertools.count()
PLAYERS = [f"p{i:02d}" for i in range(1, 23)]
METHODS = ["random", "swiss", "standings", "swiss", "standings"]


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def shuffle_s1(players: list[str], seed: str, session: int) -> list[str]:
    """docs/seating.md sections 2 and 3, written from the text: SHA-256 counter blocks, draws below n by rejection, Fisher-Yates."""

    def stream():
        block = 0
        while True:
            digest = hashlib.sha256(b"wordsvc-seating-s1\x00" + bytes.fromhex(seed) + session.to_bytes(4, "big") + block.to_bytes(8, "big")).digest()
            for i in range(0, 32, 4):
                yield int.from_bytes(digest[i : i + 4], "big")
            block += 1

    draws = stream()

    def below(n: int) -> int:
        limit = 2**32 - 2**32 % n
        for x in draws:
            if x < limit:
                return x % n
        raise AssertionError

    order = sorted(players)
    for i in range(len(order) - 1, 0, -1):
        j = below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def pairs(tables: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset((a, b)) for table in tables for a, b in itertools.combinations(table, 2)}


def tables_of(session: dict[str, Any]) -> list[list[str]]:
    return [[seat["player"] for seat in table["seats"]] for table in session["tables"]]


def play_table(api: Api, token: str, event: str, table: dict[str, Any], deck: list[str], rng: random.Random) -> None:
    names = [seat["name"] for seat in table["seats"]]
    for number in range(1, 9):
        body = {"players": random_players(rng, deck, number, names)}
        api("PUT", f"/events/{event}/games/{table['game']}/rounds/{number}", token, expect=201, json=body)


def test_a_tournament_of_22_players_over_5_sessions(api: Api, ledger_server: LedgerServer) -> None:
    rng = random.Random(20261205)
    standard = api("GET", "/rulesets/standard", expect=200).json()
    deck = [card["face"] for card in standard["deck"]["cards"] for _ in range(card["count"])]
    smallest, largest = standard["players"]["min"], standard["players"]["max"]
    event_id = f"league{next(_ids)}-{ledger_server.backend}"
    created = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event_id, "name": "League night", "format": "total"}).json()
    token = created["director_token"]["token"]
    for pid in PLAYERS:
        api("PUT", f"/events/{event_id}/players/{pid}", token, expect=201, json={"name": f"Player {pid[1:]}", "rating_id": f"{event_id}-{pid}", "checked_in": True})
    again = api("PUT", f"/events/{event_id}/players/p01", token, expect=200, json={"name": "Player 01", "rating_id": f"{event_id}-p01", "checked_in": True})
    assert again.json()["receipt"] is not None
    api("PUT", f"/events/{event_id}/players/p01", token, expect=409, json={"name": "Someone Else"})

    active = set(PLAYERS)
    seatings: list[list[list[str]]] = []
    for number, method in enumerate(METHODS, start=1):
        if number == 3:  # a late entry, seated from session 3
            api("PUT", f"/events/{event_id}/players/p23", token, expect=201, json={"name": "Late Comer", "checked_in": True})
            active.add("p23")
        if number == 4:  # a withdrawal after session 3: never seated again
            assert api("POST", f"/events/{event_id}/players/p05/withdraw", token, expect=200).json()["withdrawn"] == 4
            active.discard("p05")
        overall_before = api("GET", f"/events/{event_id}/standings", expect=200).json().get("overall")
        body = {"method": method, "size": {"target": 4, "remainder": "smaller"}, "number": number}
        session = api("POST", f"/events/{event_id}/sessions", token, expect=201, json=body).json()
        assert api("POST", f"/events/{event_id}/sessions", token, expect=200, json=body).json()["tables"] == session["tables"]  # a retry
        if number == 1:  # the next session waits for this one's rounds
            refused = api("POST", f"/events/{event_id}/sessions", token, expect=409, json={"method": "swiss", "number": 2}).json()["errors"]
            assert [entry["message"] for entry in refused["unfinished"]] == [table["game"] for table in session["tables"]]
        tables = tables_of(session)
        seated = [p for table in tables for p in table]
        assert sorted(seated) == sorted(active), f"session {number}: every active player once"
        assert all(smallest <= len(table) <= largest and len(table) in (3, 4) for table in tables)
        earlier = set().union(*(pairs(s) for s in seatings)) if seatings else set()
        assert session["repeat_meetings"] == len(pairs(tables) & earlier)
        if method == "swiss":  # never worse than King of the Hill on the same standings
            ranked = [line["player"] for line in overall_before["lines"] if line["player"] in active]
            ranked += sorted(active - set(ranked))
            sizes = [len(t) for t in tables]
            koth, start = [], 0
            for size in sizes:
                koth.append(ranked[start : start + size])
                start += size
            assert session["repeat_meetings"] <= len(pairs(koth) & earlier)
        if method == "standings":
            ranked = [line["player"] for line in overall_before["lines"] if line["player"] in active]
            ranked += sorted(active - set(ranked))
            assert [sorted(t) for t in tables] == [sorted(ranked[sum(len(x) for x in tables[:k]) : sum(len(x) for x in tables[: k + 1])]) for k in range(len(tables))]
        for table in session["tables"]:
            play_table(api, token, event_id, table, deck, rng)
        seatings.append(tables)

    # standings recomputed from the stored rounds: each game's final scores, summed per player
    scores: dict[str, list[int]] = {}
    games: list[tuple[int, list[tuple[str, int]]]] = []
    for number in range(1, 6):
        session = api("GET", f"/events/{event_id}/sessions/{number}", expect=200).json()
        assert session["complete"] and session["started"]
        for table in session["tables"]:
            game = api("GET", f"/events/{event_id}/games/{table['game']}", expect=200).json()
            final = {line["name"]: line["total"] for line in game["totals"]}
            result = [(seat["player"], final[seat["name"]]) for seat in table["seats"]]
            games.append((number, result))
            for player, score in result:
                scores.setdefault(player, []).append(score)
    overall = api("GET", f"/events/{event_id}/standings", expect=200).json()["overall"]
    lines = {line["player"]: line for line in overall["lines"]}
    assert set(lines) == active | {"p05"}
    for player, line in lines.items():
        assert line["total"] == sum(scores[player]) and line["played"] == len(scores[player])
        assert line["best_game"] == max(scores[player])
    order = [line["player"] for line in overall["lines"]]
    assert [lines[p]["total"] for p in order] == sorted((lines[p]["total"] for p in order), reverse=True)
    for a, b in itertools.pairwise(order):  # equal totals: best game breaks the tie when head to head does not
        if lines[a]["total"] == lines[b]["total"] and lines[a]["tie_break"][0] == lines[b]["tie_break"][0]:
            assert lines[a]["best_game"] >= lines[b]["best_game"]
    assert lines["p05"]["withdrawn"] and lines["p05"]["played"] == 3
    assert lines["p23"]["played"] == 3
    after_two = api("GET", f"/events/{event_id}/standings?session=2", expect=200).json()["overall"]
    assert {line["player"]: line["total"] for line in after_two["lines"]}["p01"] == sum(score for n, result in games if n <= 2 for p, score in result if p == "p01")
    assert "session" in api("GET", f"/events/{event_id}/standings?session=6", expect=422).json()["errors"]  # no session 6 yet
    sheet = api("GET", f"/events/{event_id}/standings?format=csv", expect=200)
    rows = list(csv.DictReader(io.StringIO(sheet.text)))
    assert [row["player"] for row in rows] == order

    # the crosstable: who met whom, from the seatings
    crosstable = api("GET", f"/events/{event_id}/crosstable", expect=200).json()
    met = Counter(pair for tables in seatings for pair in pairs(tables))
    for pair, count in met.items():
        a, b = sorted(pair)
        assert len(crosstable["meetings"][a][b]) == count
    api("GET", f"/events/{event_id}/crosstable?format=csv", expect=200)

    # the close reveals the seed: session 1 is the specification's shuffle cut into the tables, in order
    closed = api("POST", f"/events/{event_id}/close", token, expect=200).json()
    order1 = shuffle_s1(PLAYERS, closed["deals"]["seed"], 1)
    sizes = [len(t) for t in seatings[0]]
    cut = [order1[sum(sizes[:k]) : sum(sizes[: k + 1])] for k in range(len(sizes))]
    assert [sorted(t) for t in seatings[0]] == [sorted(t) for t in cut]

    # ratings: every rated player of the closed event, with the event in their history
    rating = api("GET", f"/ratings/{event_id}-p01", expect=200).json()
    assert rating["history"][-1]["event"] == event_id and rating["games"] == 5 and rating["provisional"]
    listed = {line["id"] for line in api("GET", "/ratings", expect=200).json()["ratings"]}
    assert {f"{event_id}-{p}" for p in PLAYERS} <= listed
    api("GET", "/ratings/nobody-at-all", expect=404)

    # the export carries the tournament: every player, session and seat
    exported = api("GET", f"/events/{event_id}/export", token, expect=200).json()
    assert len(exported["players"]) == 23 and len(exported["sessions"]) == 5
    assert len(exported["seats"]) == sum(len(s) for tables in seatings for s in tables)


def test_tournament_writes_refuse_bad_input_with_the_field_at_fault(api: Api, ledger_server: LedgerServer) -> None:
    event_id = f"bad{next(_ids)}-{ledger_server.backend}"
    token = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event_id, "name": "Bad"}).json()["director_token"]["token"]
    assert "format" in api("POST", "/events", ledger_server.admin_token, expect=422, json={"name": "x", "format": "nope"}).json()["errors"]
    api("PUT", f"/events/{event_id}/players/p1", expect=401, json={"name": "Ann"})
    assert "name" in api("PUT", f"/events/{event_id}/players/p1", token, expect=422, json={"name": ""}).json()["errors"]
    api("PUT", f"/events/{event_id}/players/Bad%20Id", token, expect=422, json={"name": "Ann"})
    api("PUT", f"/events/{event_id}/players/p1", token, expect=201, json={"name": "Ann", "checked_in": True})
    assert "name" in api("PUT", f"/events/{event_id}/players/p2", token, expect=422, json={"name": "ann"}).json()["errors"]
    assert "name" in api("PUT", f"/events/{event_id}/players/p3", token, expect=422, json={"name": "\u0410nn"}).json()["errors"]
    assert "method" in api("POST", f"/events/{event_id}/sessions", token, expect=422, json={"method": "alphabetical", "number": 1}).json()["errors"]
    assert "number" in api("POST", f"/events/{event_id}/sessions", token, expect=422, json={"method": "random"}).json()["errors"]  # retries must be safe
    api("POST", f"/events/{event_id}/sessions", token, expect=422, json={"method": "random", "number": 1})  # one checked-in player cannot fill a table
    api("POST", f"/events/{event_id}/players/nobody/check-in", token, expect=404)
    api("GET", f"/events/{event_id}/sessions/1", expect=404)
    api("GET", f"/events/{event_id}/schedule", expect=404)
    api("PUT", f"/events/{event_id}/players/p2", token, expect=201, json={"name": "Bob", "checked_in": True})
    api("PUT", f"/events/{event_id}/players/p3", token, expect=201, json={"name": "Cy", "checked_in": True})
    problems = api("POST", f"/events/{event_id}/sessions", token, expect=422, json={"method": "manual", "number": 1, "tables": [["p1", "p2", "p2"]]}).json()["errors"]
    assert any(key.startswith("tables") for key in problems)
    api("POST", f"/events/{event_id}/sessions", token, expect=201, json={"method": "manual", "number": 1, "tables": [["p3", "p1", "p2"]]})
    api("POST", f"/events/{event_id}/sessions/1/swap", token, expect=422, json={"players": ["p1", "p1"]})
    api("POST", f"/events/{event_id}/sessions/1/redraw", token, expect=422)  # a manual seating is changed by swaps
    api("POST", f"/events/{event_id}/sessions/9/swap", token, expect=404, json={"players": ["p1", "p2"]})
    api("POST", f"/events/{event_id}/close", token, expect=200)
    api("PUT", f"/events/{event_id}/players/p4", token, expect=409, json={"name": "Dee"})
    api("POST", f"/events/{event_id}/sessions", token, expect=409, json={"method": "random", "number": 2, "unfinished": "allow"})

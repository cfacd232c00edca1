"""docs/seating.md section 13's promise, on SQLite and PostgreSQL: every seating of an event is recomputed from its export alone.

An event is run through the ledger with every method and every change the text speaks of: a published
schedule followed while players withdraw and enter late (so a table is broken up), random seatings and
redraws, Swiss and King of the Hill by the standings, a session seated with the one before unfinished (whose
rounds are stored afterwards), a swap, a redraw after more rounds were stored, a manual seating. The export is
then read as an outsider reads it: the audit chain, in order, says what each write saw (the players, the
earlier seatings, the rounds stored so far), and section 13's steps, with the section's own seating
functions, must give every ``session.created`` entry's tables and every redraw's ``session.reseated`` tables,
seat for seat; the export's seats are the last of them.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from tournament_kit import LEXICON, one_round, open_ledger, play

from wordsvc.core.seating import check_seating, follow_schedule, random_seating, seat_order, standings_seating, swiss_seating, table_sizes
from wordsvc.core.seating.sizes import SizePolicy
from wordsvc.core.standings import Entrant, Game, standings
from wordsvc.data.formats import format_document, format_from_snapshot, known_formats
from wordsvc.ledger import LOCAL, Ledger

_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    yield from open_ledger(database_url)


@pytest.fixture(scope="module")
def three_to_four():
    """The standard rules with one round of 3 cards, for 3 or 4 players a table: a field of 8 cannot keep 3 tables."""
    return one_round(players={"min": 3, "max": 4})


def run_event(ledger: Ledger, ruleset) -> dict[str, Any]:
    snapshot = format_document(known_formats()["table-points"])
    view = ledger.events.create_event(LOCAL, ruleset, LEXICON, "Every method", f"recompute{next(_ids)}", tournament_format=snapshot)
    event_id, director = view["id"], ledger.tokens.authenticate(view["director_token"]["token"])
    for i in range(1, 12):
        ledger.players.register(director, event_id, f"p{i:02d}", f"Player {i}", checked_in=True)
    ledger.players.register(director, event_id, "p12", "Player 12", checked_in=False)  # enters late
    ledger.players.register(director, event_id, "p13", "Player 13", checked_in=False)  # never comes

    def seat(number: int, body: dict) -> dict:
        return ledger.sessions.create(director, event_id, {**body, "number": number})[1]

    ledger.sessions.publish_schedule(director, event_id, 5, {"target": 4})
    play(ledger, director, event_id, seat(1, {"method": "schedule"}))
    ledger.players.withdraw(director, event_id, "p03")
    ledger.players.check_in(director, event_id, "p12")
    second = seat(2, {"method": "random", "size": {"target": 3}})
    play(ledger, director, event_id, second, range(1))
    third = seat(3, {"method": "swiss", "unfinished": "allow"})
    first, other = third["tables"][0]["seats"][0]["player"], third["tables"][1]["seats"][0]["player"]
    ledger.sessions.swap(director, event_id, 3, first, other)
    play(ledger, director, event_id, second, range(1, len(second["tables"])))  # session 2 finished after session 3 was seated
    third = ledger.sessions.redraw(director, event_id, 3)  # Swiss again, on the standings as they now are
    play(ledger, director, event_id, third)
    for player in ("p05", "p07", "p09"):
        ledger.players.withdraw(director, event_id, player)
    play(ledger, director, event_id, seat(4, {"method": "schedule"}))  # 8 players: the plan's 3 tables cannot stay
    play(ledger, director, event_id, seat(5, {"method": "standings", "size": {"target": 4, "remainder": "larger"}}), range(1))
    sixth = seat(6, {"method": "random", "unfinished": "allow"})
    ledger.sessions.redraw(director, event_id, 6)
    sixth = ledger.sessions.redraw(director, event_id, 6)
    play(ledger, director, event_id, sixth)
    seat(7, {"method": "manual", "unfinished": "allow", "tables": [["p12", "p01", "p02", "p04"], ["p11", "p10", "p08", "p06"]]})
    ledger.events.close_event(director, event_id)
    return ledger.transfer.export(director, event_id)


def recompute(document: dict[str, Any]) -> list[tuple[int, str, list[list[str]], list[list[str]]]]:
    """(session, action, the entry's tables, section 13's tables) for every seating entry of the export's chain that section 13 computes."""
    event = document["event"]
    smallest, largest = event["ruleset"]["players"]["min"], event["ruleset"]["players"]["max"]
    rounds = len(event["ruleset"]["rounds"])
    fmt = format_from_snapshot(event["format"])
    registered = document["players"]
    entrants = [Entrant(p["id"], p["name"], p["joined"], p["withdrawn"]) for p in registered if p["checked_in"]]
    ids_of_name = {p["name"]: p["id"] for p in registered}
    totals = {(r["game"], r["round"], r["revision"]): r["totals"] for r in document["revisions"]}
    plan = document["schedule"]["schedule"]
    seated: dict[int, list[list[str]]] = {}
    draws: dict[int, int] = {}
    stored: dict[tuple[str, int], dict[str, int]] = {}
    out = []

    def complete() -> list[Game]:
        games = []
        for number, tables in seated.items():
            for t, table in enumerate(tables, start=1):
                game = f"s{number}-t{t}"
                if sum(1 for (g, _) in stored if g == game) == rounds:
                    final = {ids_of_name[name]: sum(stored[(game, r)][name] for r in range(1, rounds + 1)) for name in stored[(game, 1)]}
                    games.append(Game(number, game, tuple((player, final[player]) for player in table)))
        return games

    def section_13(number: int, request: dict, draw: int, players: list[str], sizes: list[int] | None) -> list[list[str]]:
        met: dict[frozenset[str], int] = {}
        firsts: dict[str, int] = {}
        for earlier in range(1, number):
            for table in seated[earlier]:
                for a, b in itertools.combinations(table, 2):
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
                firsts[table[0]] = firsts.get(table[0], 0) + 1
        size = request.get("size") or {}
        if sizes is None:
            sizes = table_sizes(len(players), SizePolicy(size.get("target", min(max(4, smallest), largest)), size.get("remainder", "smaller")), smallest, largest)
        order = [line["player"] for line in standings(fmt, entrants, complete(), number - 1)] if number > 1 else players
        ranked = [p for p in order if p in players]
        method = request["method"]
        if method == "random":
            seed = event["deal_seed"]
            if draw > 1:
                seed = hashlib.sha256(b"wordsvc-redraw-q1\x00" + bytes.fromhex(seed) + draw.to_bytes(4, "big")).hexdigest()
            tables = random_seating(players, sizes, seed, number)
        elif method == "standings":
            tables = standings_seating(ranked, sizes)
        elif method == "swiss":
            tables = swiss_seating(ranked, sizes, met)
        elif method == "schedule":
            tables = follow_schedule(plan[number - 1], players, smallest, largest, met)
        else:
            assert check_seating(request["tables"], players, smallest, largest) == []
            return request["tables"]
        return [seat_order(table, firsts, number) for table in tables]

    for entry in document["audit"]:
        payload = entry["payload"]
        if entry["action"] in ("round.submitted", "round.corrected"):
            stored[(payload["game"], payload["round"])] = totals[(payload["game"], payload["round"], payload["revision"])]
        elif entry["action"] == "session.created":
            number = payload["session"]
            players = sorted(
                p["id"] for p in registered if p["checked_in"] and p["joined"] <= number and (p["withdrawn"] is None or p["withdrawn"] > number)
            )
            tables = [t["players"] for t in payload["tables"]]
            out.append((number, "created", tables, section_13(number, payload["request"], payload["draws"], players, None)))
            seated[number], draws[number] = tables, payload["draws"]
        elif entry["action"] == "session.reseated":
            number = payload["session"]
            tables = [t["players"] for t in payload["tables"]]
            if payload["draws"] > draws[number]:  # a redraw, which section 13 computes; a swap is the director's own
                request = next(s["request"] for s in document["sessions"] if s["number"] == number)
                before = seated[number]
                again = section_13(number, request, payload["draws"], sorted(p for t in before for p in t), [len(t) for t in before])
                out.append((number, "redrawn", tables, again))
            seated[number], draws[number] = tables, payload["draws"]
    final = {}
    for row in document["seats"]:
        final.setdefault(row["session"], {}).setdefault(row["game"], {})[row["seat"]] = row["player"]
    for number, tables in seated.items():
        assert [[final[number][f"s{number}-t{t}"][s] for s in range(len(table))] for t, table in enumerate(tables, start=1)] == tables
    return out


def test_every_seating_of_an_export_is_what_section_13_computes_from_it(ledger: Ledger, three_to_four) -> None:
    document = run_event(ledger, three_to_four)
    checked = recompute(document)
    assert [(number, action) for number, action, _, _ in checked] == [
        (1, "created"), (2, "created"), (3, "created"), (3, "redrawn"), (4, "created"), (5, "created"), (6, "created"), (6, "redrawn"), (6, "redrawn"), (7, "created"),
    ]
    for number, action, tables, computed in checked:
        assert tables == computed, (number, action)
    planned_tables = len(document["schedule"]["schedule"][3])
    assert planned_tables == 3 and len(checked[4][2]) == 2  # session 4: a planned table broken up

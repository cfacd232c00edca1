"""The ledger over HTTP, on SQLite and on PostgreSQL (the ``ledger_server`` fixture runs each test on both).

A scripted event of 3 tables x 8 rounds is checked against a scorer written here from the rules (card values
minus cards left over, 10-point bonuses to a sole leader, a floor at 0), with only word validity asked of the
service; then retries, conflicting bodies, corrections and their effect on standings, every role against every
endpoint, export and import, and tampering found by ``wordsvc audit verify``. Every answer is checked against
the OpenAPI document.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import json
import random
from collections import Counter
from typing import Any

import pytest
import requests
from sqlalchemy import NullPool, create_engine, text

from .conftest import LedgerServer, wordsvc_cli
from .contract import assert_problem, media_type, schema_errors

WORDS = ("cat", "dog", "tea", "eat", "rain", "stone", "notes", "heart", "art", "tan", "net", "ten", "ear", "red", "lean", "rope", "nrt", "tsr", "aeo")
TABLES = {"t1": ["ann", "bob", "cy"], "t2": ["dee", "eve"], "t3": ["fay", "gus", "hal", "ivy"]}
_ids = itertools.count()


class Api:
    """Requests to one server, each answer checked against the OpenAPI document for its operation and status."""

    def __init__(self, server: LedgerServer):
        self.server = server
        self.http = requests.Session()
        self.doc = self.http.get(f"{server.url}/openapi.json", timeout=30).json()

    def __call__(self, method: str, path: str, token: str | None = None, expect: int | None = None, **kwargs: Any) -> requests.Response:
        headers = dict(kwargs.pop("headers", {}))
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        response = self.http.request(method, self.server.url + path, headers=headers, timeout=30, **kwargs)
        if expect is not None:
            assert response.status_code == expect, f"{method} {path}: {response.status_code} {response.text[:600]}"
        self._check(method.lower(), path.split("?")[0], response)
        return response

    def _check(self, method: str, path: str, response: requests.Response) -> None:
        template = next(t for t in self.doc["paths"] if _matches(t, path) and method in self.doc["paths"][t])
        responses = self.doc["paths"][template][method]["responses"]
        assert str(response.status_code) in responses, f"{method} {template} answered {response.status_code}, not documented"
        if response.status_code >= 400:
            assert_problem(response, response.status_code)
            return
        if media_type(response) in ("text/csv", "application/pdf"):
            assert media_type(response) in responses[str(response.status_code)]["content"]
            return
        schema = responses[str(response.status_code)]["content"]["application/json"]["schema"]
        errors = schema_errors(self.doc, schema, response.json())
        assert errors == [], f"{method} {template}: {errors}"


def _matches(template: str, path: str) -> bool:
    a, b = template.strip("/").split("/"), path.strip("/").split("/")
    return len(a) == len(b) and all(x == y or x.startswith("{") for x, y in zip(a, b, strict=True))


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


@pytest.fixture(scope="module")
def deck(api: Api) -> dict[str, dict[str, int]]:
    cards = api("GET", "/rulesets/standard", expect=200).json()["deck"]["cards"]
    return {c["face"].lower(): {"count": c["count"], "value": c["value"]} for c in cards}


def _event(api: Api, **body: Any) -> tuple[str, str]:
    """A new event's id and director token."""
    event_id = f"ev{next(_ids)}"
    created = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Thursday club", "id": event_id, **body}).json()
    return event_id, created["director_token"]["token"]


# ---- an independent scorer ------------------------------------------------------------------------------


def deal_round(rng: random.Random, deck: dict[str, dict[str, int]], players: list[str], hand: int) -> dict[str, Any]:
    """A round a table could have played: each player lays some words the pile allows, the rest of the hand unused."""
    pile = Counter({face: card["count"] for face, card in deck.items()})
    out = []
    for name in players:
        left, words = hand, []
        for word in rng.sample(WORDS, len(WORDS)):
            need = Counter(word)
            if len(word) <= left and all(pile[c] >= n for c, n in need.items()) and rng.random() < 0.6:
                pile -= need
                words.append(word)
                left -= len(word)
        unused = []
        for _ in range(left):
            face = rng.choice(sorted(pile.elements()))
            pile[face] -= 1
            unused.append(face)
        out.append({"name": name, "words": words, "unused": unused})
    return {"players": out}


def expected_totals(play: dict[str, Any], deck: dict[str, dict[str, int]], valid: dict[str, bool]) -> dict[str, int]:
    """The standard ruleset's round totals, from the rules alone."""
    value = {face: card["value"] for face, card in deck.items()}
    base, counted = {}, {}
    for p in play["players"]:
        good = [w for w in p["words"] if valid[w]]
        bad = [w for w in p["words"] if not valid[w]]
        base[p["name"]] = sum(value[c] for w in good for c in w) - sum(value[c] for w in bad for c in w) - sum(value[c] for c in p["unused"])
        counted[p["name"]] = good
    for measure in (lambda ws: max((len(w) for w in ws), default=0), len):
        scores = {name: measure(ws) for name, ws in counted.items()}
        best = max(scores.values())
        leaders = [name for name, s in scores.items() if s == best]
        if best > 0 and len(leaders) == 1:
            base[leaders[0]] += 10
    return {name: max(0, total) for name, total in base.items()}


def validity(api: Api) -> dict[str, bool]:
    verdicts = api("POST", "/validate", json={"words": list(WORDS)}, expect=200).json()["verdicts"]
    return {w: v["valid"] for w, v in zip(WORDS, verdicts, strict=True)}


def competition_ranks(totals: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    ordered = sorted(totals.items(), key=lambda kv: -kv[1])
    ranks: dict[tuple[str, str], int] = {}
    for i, (key, total) in enumerate(ordered):
        ranks[key] = ranks[ordered[i - 1][0]] if i and ordered[i - 1][1] == total else i + 1
    return ranks


# ---- the tests ------------------------------------------------------------------------------------------


def test_a_scripted_event_of_three_tables_and_eight_rounds_adds_up(api: Api, deck: dict[str, dict[str, int]]) -> None:
    event, director = _event(api)
    valid = validity(api)
    assert any(valid.values()) and not all(valid.values())  # the script lays valid and invalid words
    referees = {}
    for table, players in TABLES.items():
        api("PUT", f"/events/{event}/games/{table}", director, expect=201, json={"players": players})
        referees[table] = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": table}).json()["token"]
    rng = random.Random(20261201)
    totals: dict[tuple[str, str], int] = {(t, p): 0 for t, ps in TABLES.items() for p in ps}
    for number in range(1, 9):
        for table, players in TABLES.items():
            play = deal_round(rng, deck, players, number + 2)
            want = expected_totals(play, deck, valid)
            stored = api("PUT", f"/events/{event}/games/{table}/rounds/{number}", referees[table], expect=201, json=play)
            body = stored.json()
            assert {p["name"]: p["total"] for p in body["result"]["players"]} == want, (table, number, play)
            for name in players:
                totals[(table, name)] += want[name]
            assert body["running_totals"] == [{"name": name, "total": totals[(table, name)]} for name in players]
            assert stored.headers["ETag"] == body["etag"] and body["revision"] == 1
            again = api("PUT", f"/events/{event}/games/{table}/rounds/{number}", referees[table], expect=200, json=play)  # a retry over bad Wi-Fi
            assert again.json()["result"] == body["result"] and again.json()["revisions"] == 1

    standings = api("GET", f"/events/{event}/standings", expect=200).json()["standings"]
    assert {(s["table"], s["player"]): s["total"] for s in standings} == totals
    ranks = competition_ranks(totals)
    assert {(s["table"], s["player"]): s["rank"] for s in standings} == ranks
    assert all(s["rounds"] == 8 for s in standings)
    game = api("GET", f"/events/{event}/games/t3", expect=200).json()
    assert [r["round"] for r in game["rounds"]] == list(range(1, 9))
    assert game["totals"] == [{"name": n, "total": totals[("t3", n)]} for n in TABLES["t3"]]

    as_csv = api("GET", f"/events/{event}/standings", headers={"Accept": "text/csv"}, expect=200)
    rows = list(csv.DictReader(io.StringIO(as_csv.text)))
    assert [(r["player"], r["table"], int(r["rank"]), int(r["total"])) for r in rows] == [(s["player"], s["table"], s["rank"], s["total"]) for s in standings]
    assert api("GET", f"/events/{event}/standings?format=csv", expect=200).text == as_csv.text

    exported = api("GET", f"/events/{event}/export", director, expect=200)
    assert len(exported.content) > 65536  # past WORDSVC_MAX_BODY: the import's own limit takes it
    again = api("POST", "/events/import", api.server.admin_token, data=exported.content, headers={"Content-Type": "application/json"}, expect=409)
    assert "already an event" in again.json()["detail"]  # verified first, then refused for the id
    verify = wordsvc_cli(api.server.database_url, "audit", "verify", event)
    assert verify.returncode == 0 and f"event {event}: ok" in verify.stdout


ROUND_1 = {"players": [{"name": "ann", "words": ["cat"]}, {"name": "bob", "words": ["do"], "unused": ["g"]}, {"name": "cy", "unused": ["t", "e", "a"]}]}
FIXED = {"players": [{"name": "ann", "words": ["cat"]}, {"name": "bob", "words": ["dog"]}, {"name": "cy", "unused": ["t", "e", "a"]}]}


def test_retries_conflicts_and_corrections(api: Api) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1", director, expect=200, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1", director, expect=409, json={"players": ["ann", "bob"]})
    referee = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    path = f"/events/{event}/games/t1/rounds/1"
    first = api("PUT", path, referee, expect=201, json=ROUND_1)
    assert first.headers["Location"] == path
    compact = {"players": [{"name": "ann", "words": [["C", "A", "T"]]}, {"name": "bob", "words": ["DO"], "unused": "g"}, {"name": "cy", "unused": "tea"}]}
    assert api("PUT", path, referee, expect=200, json=compact).json()["result"] == first.json()["result"]  # the same cards, another notation
    assert "different play" in api("PUT", path, referee, expect=409, json=FIXED).json()["detail"]
    correction = {**FIXED, "correction": {"reason": "bob laid DOG, not DO + G"}}
    assert_problem(api("PUT", path, referee, json=correction, headers={"If-Match": first.headers["ETag"]}), 403)
    assert "If-Match" in api("PUT", path, director, expect=428, json=correction).json()["detail"]
    api("PUT", path, director, expect=412, json=correction, headers={"If-Match": '"not-the-etag"'})
    before = {s["player"]: s["total"] for s in api("GET", f"/events/{event}/standings", expect=200).json()["standings"]}
    fixed = api("PUT", path, director, expect=200, json=correction, headers={"If-Match": first.headers["ETag"]}).json()
    assert fixed["revision"] == 2 and fixed["revisions"] == 2
    after = {s["player"]: s["total"] for s in api("GET", f"/events/{event}/standings", expect=200).json()["standings"]}
    bob = {p["name"]: p["total"] for p in fixed["result"]["players"]}["bob"]
    assert after["bob"] == bob != before["bob"]
    api("PUT", path, director, expect=412, json={**ROUND_1, "correction": {"reason": "back"}}, headers={"If-Match": first.headers["ETag"]})  # stale now
    same = api("PUT", path, director, expect=422, json=correction, headers={"If-Match": fixed["etag"]}).json()
    assert "changes nothing" in same["detail"]
    history = api("GET", path, expect=200).json()["history"]
    assert [(h["revision"], h["reason"]) for h in history] == [(1, None), (2, "bob laid DOG, not DO + G")]
    assert history[0]["result"] == first.json()["result"]
    assert api("PUT", path, referee, expect=200, json=FIXED).json()["revision"] == 2  # a retry of the current play is still harmless
    wrong = api("PUT", f"/events/{event}/games/t1/rounds/2", referee, expect=422, json={"round": 3, **ROUND_1}).json()
    assert "round" in wrong["errors"]
    unseated = {"players": [{"name": "ann", "words": ["cat", "x"]}, {"name": "zed", "unused": "tea"}, {"name": "cy", "unused": "zz"}]}
    errors = api("PUT", f"/events/{event}/games/t1/rounds/2", referee, expect=422, json=unseated).json()["errors"]
    assert "players.1.name" in errors and any("bob is seated" in m["message"] for m in errors["players"]) and "players.2" in errors
    assert [m["code"] for m in errors["players.1.name"]] == ["seat_mismatch"]
    actions = [e["action"] for e in api("GET", f"/events/{event}/audit", expect=200).json()["entries"]]
    assert actions == ["event.created", "token.issued", "game.created", "token.issued", "round.submitted", "round.corrected"]


def _commit_metrics(api: Api) -> tuple[float, float]:
    """``(transactions, writes)`` counted so far by ``/metrics`` (every worker's)."""
    found = {"wordsvc_ledger_commit_seconds_count": 0.0, "wordsvc_ledger_commit_writes_sum": 0.0}
    for line in api.http.get(f"{api.server.url}/metrics", timeout=30).text.splitlines():
        name, _, value = line.partition(" ")
        if name in found:
            found[name] = float(value)
    return found["wordsvc_ledger_commit_seconds_count"], found["wordsvc_ledger_commit_writes_sum"]


def test_a_name_is_one_name_however_it_is_typed(api: Api) -> None:
    event, director = _event(api)
    same = api("PUT", f"/events/{event}/games/t1", director, expect=422, json={"players": ["Ann", "bob", "ann"]}).json()
    assert list(same["errors"]) == ["players.2"] and "also seat 0" in same["errors"]["players.2"][0]["message"]
    assert same["code"] == "invalid_fields" and same["errors"]["players.2"][0]["code"] == "duplicate_name"
    spaced = api("PUT", f"/events/{event}/games/t1", director, expect=422, json={"players": ["ann ", "\u00a0bob"]}).json()
    edge = {"code": "invalid_name", "message": "must not start or end with white space"}
    assert spaced["errors"] == {"players.0": [edge], "players.1": [edge]}
    composed, decomposed = "\u00e9va", "e\u0301va"  # é as one character, and as e with a combining accent
    assert api("PUT", f"/events/{event}/games/t1", director, expect=422, json={"players": [composed, decomposed]}).json()["errors"].keys() == {"players.1"}
    seated = api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": [decomposed, "bob"]}).json()
    assert seated["players"] == [composed, "bob"]
    referee = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    play = {"players": [{"name": composed, "words": ["cat"]}, {"name": "bob", "words": ["do"], "unused": ["g"]}]}
    api("PUT", f"/events/{event}/games/t1/rounds/1", referee, expect=201, json=play)
    play["players"][0]["name"] = decomposed  # the same play from a keyboard that sends the accent apart: a retry, not a conflict
    again = api("PUT", f"/events/{event}/games/t1/rounds/1", referee, expect=200, json=play).json()
    assert [p["name"] for p in again["result"]["players"]] == [composed, "bob"] and again["revisions"] == 1


def test_standings_as_csv_never_hand_a_spreadsheet_a_formula(api: Api) -> None:
    event, director = _event(api)
    names = ["=HYPERLINK(\"http://x\")", "+1", "@ann", "-bob", "cy"]
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": names})
    referee = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    play = {"players": [{"name": name, "words": ["cat"]} if name == "cy" else {"name": name, "words": ["do"], "unused": ["g"]} for name in names]}
    api("PUT", f"/events/{event}/games/t1/rounds/1", referee, expect=201, json=play)
    standings = api("GET", f"/events/{event}/standings", expect=200).json()["standings"]
    rows = list(csv.DictReader(io.StringIO(api("GET", f"/events/{event}/standings?format=csv", expect=200).text)))
    assert {s["player"] for s in standings} == set(names)  # the JSON keeps each name as seated
    assert [r["player"] for r in rows] == [("'" + s["player"]) if s["player"][0] in "=+-@" else s["player"] for s in standings]
    assert [int(r["total"]) for r in rows] == [s["total"] for s in standings]


def test_metrics_count_the_ledgers_write_transactions(api: Api) -> None:
    transactions, writes = _commit_metrics(api)
    event, director = _event(api)  # the event and its director token: one write
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1)
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=200, json=ROUND_1)  # a repeat writes nothing
    after = _commit_metrics(api)
    assert after[1] - writes == 3 and 1 <= after[0] - transactions <= 3


def test_every_role_against_every_endpoint(api: Api) -> None:
    event, director = _event(api)
    _, other_director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t2", director, expect=201, json={"players": TABLES["t2"]})

    def issue(role: str, table: str | None = None) -> str:
        return api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": role, "table": table} if table else {"role": role}).json()["token"]

    actors = {
        "none": None,
        "forged": "wsv_00000000_" + "A" * 43,
        "viewer": issue("viewer"),
        "referee t1": issue("referee", "t1"),
        "referee t2": issue("referee", "t2"),
        "kiosk": issue("kiosk"),  # the judge kiosk's: rulings at any table, never a round, a preview or a deal
        "kiosk t2": issue("kiosk", "t2"),
        "director": director,
        "other director": other_director,
        "admin": api.server.admin_token,
    }
    etag = api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1).headers["ETag"]
    e = f"/events/{event}"
    operations: list[tuple[str, str, dict[str, Any], set[str], int]] = [
        # method, path, request, who may, the status those get
        ("POST", "/events", {"json": {"name": "x"}}, {"*"}, 201),  # creation open to anyone (the default policy; a forged token is still a 401)
        ("POST", "/events/import", {"json": {"format": "wordsvc-event/1", "event": {}, "games": [], "revisions": [], "tokens": [], "audit": [{}]}}, {"admin"}, 422),
        ("GET", e, {}, {"*"}, 200),
        ("GET", f"{e}/games/t1", {}, {"*"}, 200),
        ("GET", f"{e}/games/t1/rounds/1", {}, {"*"}, 200),
        ("GET", f"{e}/standings", {}, {"*"}, 200),
        ("GET", f"{e}/audit", {}, {"*"}, 200),
        ("PUT", f"{e}/games/t3", {"json": {"players": ["fay", "gus"]}}, {"director", "admin"}, 200),
        ("PUT", f"{e}/games/t1/rounds/1", {"json": ROUND_1}, {"referee t1", "director", "admin"}, 200),
        ("PUT", f"{e}/games/t1/rounds/1", {"json": {**ROUND_1, "correction": {"reason": "x"}}, "headers": {"If-Match": etag}}, {"director", "admin"}, 422),
        ("POST", f"{e}/judge", {"json": {"words": ["cat"], "table": "t1", "round": 1}}, {"referee t1", "kiosk", "director", "admin"}, 200),
        ("POST", f"{e}/games/t1/rounds/1/preview", {"json": ROUND_1}, {"referee t1", "director", "admin"}, 200),
        ("GET", "/whoami", {}, {"viewer", "referee t1", "referee t2", "kiosk", "kiosk t2", "director", "other director", "admin"}, 200),
        ("GET", f"{e}/export", {}, {"director", "admin"}, 200),
        ("POST", f"{e}/lexicon", {}, {"director", "admin"}, 200),
        ("POST", f"{e}/tokens", {"json": {"role": "viewer"}}, {"director", "admin"}, 201),
        ("GET", f"{e}/tokens", {}, {"director", "admin"}, 200),
    ]
    api("PUT", f"{e}/games/t3", director, expect=201, json={"players": ["fay", "gus"]})
    wrong = []
    for method, path, kwargs, allowed, status in operations:
        for actor, token in actors.items():
            want = 401 if actor in ("none", "forged") and not ("*" in allowed and actor == "none") else status if {"*", actor} & allowed else 403
            got = api(method, path, token, **kwargs).status_code
            if got != want:
                wrong.append(f"{actor} {method} {path}: {got}, expected {want}")
    for actor, token in actors.items():  # revoking: a throwaway token each time
        victim = issue("viewer")
        victim_id = api("GET", f"{e}/tokens", director, expect=200).json()["tokens"][-1]["id"]
        want = 200 if actor in ("director", "admin") else 401 if actor in ("none", "forged") else 403
        got = api("DELETE", f"{e}/tokens/{victim_id}", token).status_code
        if got != want:
            wrong.append(f"{actor} DELETE token: {got}, expected {want}")
        if got == 200:
            assert_problem(api("GET", f"{e}/tokens", victim), 401)
    assert wrong == []
    unauthorized = api("PUT", f"{e}/games/t3", json={"players": ["fay", "gus"]}, expect=401)
    assert unauthorized.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(api("GET", e, "not-even-a-token"), 401)
    assert_problem(api("GET", e, headers={"Authorization": "Basic YWRtaW46YWRtaW4="}), 401)


def test_a_preview_scores_like_the_submission_and_stores_nothing(api: Api) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    referee = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()
    e = f"/events/{event}/games/t1/rounds/1"
    audit_before = api("GET", f"/events/{event}/audit", expect=200).json()["head"]
    preview = api("POST", f"{e}/preview", referee["token"], expect=200, json=ROUND_1).json()
    assert preview["stored"] is None
    assert api("GET", f"/events/{event}/audit", expect=200).json()["head"] == audit_before  # nothing written, nothing audited
    assert_problem(api("GET", e), 404)
    stored = api("PUT", e, referee["token"], expect=201, json=ROUND_1)
    assert preview["result"] == stored.json()["result"] and preview["running_totals"] == stored.json()["running_totals"]
    again = api("POST", f"{e}/preview", referee["token"], expect=200, json=ROUND_1).json()
    assert again["stored"] == stored.headers["ETag"]
    # What a submission would refuse, the preview refuses the same way: every problem listed.
    short = {"players": [{"name": "ann", "words": ["cats"]}, {"name": "bob", "words": ["zzz"]}, {"name": "zed", "words": ["cat"]}]}
    errors = api("POST", f"{e}/preview", referee["token"], expect=422, json=short).json()["errors"]
    assert any("round 1 deals 3" in m["message"] for m in errors["players.0"]) and "players.2.name" in errors and any("the deck holds 2" in m["message"] for m in errors["players"])
    assert "too_many_copies" in {m["code"] for m in errors["players"]} and {m["code"] for m in errors["players.0"]} == {"hand_size"}
    assert "correction" in api("POST", f"{e}/preview", director, expect=422, json={**ROUND_1, "correction": {"reason": "x"}}).json()["errors"]
    assert "round" in api("POST", f"/events/{event}/games/t1/rounds/2/preview", referee["token"], expect=422, json={**ROUND_1, "round": 1}).json()["errors"]
    assert api("GET", "/whoami", referee["token"], expect=200).json() == {"id": referee["id"], "role": "referee", "event": event, "table": "t1"}
    api("POST", f"/events/{event}/close", director, expect=200)
    assert_problem(api("POST", f"{e}/preview", referee["token"], json=ROUND_1), 409)
    # A closed event is final: no table joins its standings, no ruling joins its audit; seating a table again changes nothing.
    head = api("GET", f"/events/{event}/audit", expect=200).json()["head"]
    assert_problem(api("PUT", f"/events/{event}/games/t9", director, json={"players": ["ann", "bob"]}), 409)
    assert_problem(api("POST", f"/events/{event}/judge", referee["token"], json={"words": ["cat"], "table": "t1", "round": 1}), 409)
    api("PUT", f"/events/{event}/games/t1", director, expect=200, json={"players": TABLES["t1"]})
    assert api("GET", f"/events/{event}/audit", expect=200).json()["head"] == head


def test_a_private_event_is_read_only_with_its_tokens(api: Api) -> None:
    event, director = _event(api, private=True)
    viewer = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "viewer"}).json()["token"]
    for path in (f"/events/{event}", f"/events/{event}/standings", f"/events/{event}/audit"):
        assert "private" in api("GET", path, expect=401).json()["detail"]
        api("GET", path, viewer, expect=200)
    _, stranger = _event(api)
    api("GET", f"/events/{event}/standings", stranger, expect=403)


def test_a_table_referee_token_comes_with_the_consoles_sign_in_link(api: Api) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    issued = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()
    assert issued["console"] == f"/console#event={event}&table=t1&token={issued['token']}"
    for body in ({"role": "referee"}, {"role": "viewer"}, {"role": "director"}):
        assert "console" not in api("POST", f"/events/{event}/tokens", director, expect=201, json=body).json()
    listed = api("GET", f"/events/{event}/tokens", director, expect=200).json()["tokens"]
    assert all("console" not in token for token in listed)  # the link holds the secret: shown once, as the token is


def test_judge_rulings_are_logged_and_never_name_the_failing_word(api: Api) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    ruling = api("POST", f"/events/{event}/judge", director, expect=200, json={"words": ["cat", "qxzv"], "table": "t1", "round": 3})
    body = ruling.json()
    assert body["acceptable"] is False and body["count"] == 2 and "qxzv" not in ruling.text and body["lexicon"]["id"] == "en-US"
    assert api("POST", f"/events/{event}/judge", director, expect=200, json={"words": ["cat", "dog"], "table": "t1", "round": 3}).json()["acceptable"]
    entries = api("GET", f"/events/{event}/audit?after={body['audit_seq'] - 1}&limit=1", expect=200).json()["entries"]
    assert entries[0]["action"] == "judge.ruling" and entries[0]["payload"]["words"] == ["cat", "qxzv"] and entries[0]["payload"]["acceptable"] is False
    problems = api("POST", f"/events/{event}/judge", director, expect=422, json={"words": ["cat"], "table": "t9", "round": 30}).json()["errors"]
    assert set(problems) == {"table", "round"}


def _edit(database_url: str, sql: str, **params: Any) -> None:
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.begin() as conn:
        conn.execute(text(sql), params)
    engine.dispose()


def test_a_row_edited_in_the_database_makes_audit_verify_fail(api: Api, tmp_path: Any) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1)
    url = api.server.database_url
    assert wordsvc_cli(url, "audit", "verify", event).returncode == 0
    exported = api("GET", f"/events/{event}/export", director, expect=200).json()

    _edit(url, "UPDATE revisions SET result_json = REPLACE(result_json, :old, :new) WHERE event_id = :e", old='"word_points":', new='"word_points":1', e=event)
    failed = wordsvc_cli(url, "audit", "verify", event)
    assert failed.returncode == 1 and "revision 1 of game t1 round 1: its result differs from audit entry 4" in failed.stdout, failed.stdout
    assert wordsvc_cli(url, "audit", "verify").returncode == 1  # and so does the check of everything

    other, other_director = _event(api)
    api("PUT", f"/events/{other}/games/t1", other_director, expect=201, json={"players": TABLES["t1"]})
    _edit(url, "DELETE FROM audit WHERE chain = :e AND seq = 2", e=other)
    failed = wordsvc_cli(url, "audit", "verify", other)
    assert failed.returncode == 1 and "audit entry 3: expected entry 2 here" in failed.stdout, failed.stdout

    original_total = exported["revisions"][0]["result"]["players"][0]["total"]
    exported["revisions"][0]["result"]["players"][0]["total"] = 99  # a total its play does not score: no write could store it
    refused = api("POST", "/events/import", api.server.admin_token, expect=422, json=exported).json()
    assert "no write of the API" in refused["detail"] and sorted(refused["errors"]) == ["revisions.0.result", "revisions.0.totals"]
    exported["revisions"][0]["result"]["players"][0]["total"] = original_total
    exported["revisions"][0]["reason"] = "edited"  # a reason a write could store, but not the one the chain recorded
    refused = api("POST", "/events/import", api.server.admin_token, expect=422, json=exported).json()
    assert "does not verify" in refused["detail"] and "reason or actor differs" in refused["errors"]["audit"][0]["message"]
    assert refused["code"] == "export_unverified"


def test_an_export_imports_into_another_ledger(api: Api, tmp_path: Any) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1)
    document = tmp_path / "event.json"
    document.write_text(json.dumps(api("GET", f"/events/{event}/export", director, expect=200).json()))
    elsewhere = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    done = wordsvc_cli(elsewhere, "event", "import", str(document))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["director_token"]["token"].startswith("wsv_")
    shown = wordsvc_cli(elsewhere, "event", "show", event, "--standings")
    assert json.loads(shown.stdout)["standings"] == api("GET", f"/events/{event}/standings", expect=200).json()["standings"]
    assert wordsvc_cli(elsewhere, "audit", "verify", event).returncode == 0


def test_a_seeded_event_deals_when_due_and_reveals_on_close(api: Api, tmp_path: Any) -> None:
    event, director = _event(api, deals="seeded")
    created = api("GET", f"/events/{event}", expect=200).json()
    commitment = created["deals"]["commitment"]
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    referee = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    seen = []
    first = api("GET", f"/events/{event}/games/t1/rounds/1/deal", referee, expect=200).json()
    api("GET", f"/events/{event}/games/t1/rounds/2/deal", referee, expect=403)
    api("GET", f"/events/{event}/games/t1/rounds/1/deal", expect=401)
    play = {"players": [{"name": s["player"], "unused": s["hand"]} for s in first["seats"]]}
    stored = api("PUT", f"/events/{event}/games/t1/rounds/1", referee, expect=201, json=play).json()
    assert stored["deal_digest"] == first["digest"] and first["deal_id"] is None
    seen += [first, stored, api("GET", f"/events/{event}/games/t1", expect=200).json(), api("GET", f"/events/{event}/audit", expect=200).json()]
    seen.append(api("GET", f"/events/{event}/games/t1/rounds/2/deal", referee, expect=200).json())
    seen.append(api("GET", f"/events/{event}/export", director, expect=200).json())

    closed = api("POST", f"/events/{event}/close", director, expect=200).json()
    seed = closed["deals"]["seed"]
    assert closed["status"] == "closed" and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    table = hashlib.sha256(b"wordsvc-table-q1\x00" + bytes.fromhex(seed) + b"t1").hexdigest()  # docs/deals.md, section 8
    assert seed not in json.dumps(seen) and table not in json.dumps(seen)  # nothing before the reveal gives the seeds away
    api("PUT", f"/events/{event}/games/t1/rounds/2", referee, expect=409, json=play)
    for number in (1, 2, 3):
        public = api("GET", f"/events/{event}/games/t1/rounds/{number}/deal", expect=200).json()
        stateless = api("GET", f"/deal?ruleset=standard&players=3&round={number}&seed={table}", expect=200).json()
        assert public["deal_id"] == stateless["deal_id"] and public["digest"] == stateless["digest"]
        assert [s["hand"] for s in public["seats"]] == stateless["hands"]
    export = tmp_path / "seeded.json"
    export.write_text(api("GET", f"/events/{event}/export", director, expect=200).text)
    done = wordsvc_cli(api.server.database_url, "deal", "verify", str(export))
    assert done.returncode == 0 and "ok: 1 deal(s)" in done.stdout, done.stdout + done.stderr

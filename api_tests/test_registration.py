"""Registering a room of players over HTTP, on SQLite and PostgreSQL: ids made from names, a list registered whole or not at
all, look-alike names warned about and confirmed, a registration with no games deleted (audited, through export and
import), everyone checked in at once. Every answer is checked against the OpenAPI document.
"""

from __future__ import annotations

import itertools
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from .conftest import LedgerServer, wordsvc_cli
from .test_events import Api

_ids = itertools.count()
MAX_PLAYERS = 2000  # an event's cap (docs/tournaments.md)


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def _event(api: Api) -> tuple[str, str]:
    event_id = f"reg{next(_ids)}"
    created = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Registration night", "id": event_id}).json()
    return event_id, created["director_token"]["token"]


def _register(api: Api, event: str, token: str, lines: list[dict[str, Any]], expect: int, **extra: Any) -> dict[str, Any]:
    return api("POST", f"/events/{event}/players", token, expect=expect, json={"players": lines, **extra}).json()  # type: ignore[no-any-return]


def _errors(answer: dict[str, Any]) -> dict[str, list[str]]:
    return {path: [entry["code"] for entry in entries] for path, entries in answer["errors"].items()}


def test_ids_are_made_from_names_folded_and_unique_in_the_event(api: Api) -> None:
    event, token = _event(api)
    lines = [{"name": n} for n in ("Þórdís Jónsdóttir", "Õnne Saar", "Zoë Martin", "Zoe Martín-Smith", "Łukasz Ærø", "Анна Петрова")]
    answer = _register(api, event, token, lines, 201, allow_similar=True)
    assert [p["id"] for p in answer["players"]] == ["thordis-jonsdottir", "onne-saar", "zoe-martin", "zoe-martin-smith", "lukasz-aero", "player"]
    assert [p["name"] for p in answer["players"]] == [line["name"] for line in lines]
    assert all(p["receipt"] is not None for p in answer["players"])
    # a second Zoë Martin is refused as another's name; a Zoé Martin is similar, confirmed: the next free id
    refused = _register(api, event, token, [{"name": "zoë martin"}], 422)
    assert _errors(refused) == {"players.0.name": ["duplicate_name"]}
    more = _register(api, event, token, [{"name": "Zoé Martin", "club": "Tartu"}, {"name": "Анна Иванова"}], 201, allow_similar=True)
    assert [p["id"] for p in more["players"]] == ["zoe-martin-2", "player-2"]
    # a given id is kept; one that is no id names the line, in the plain words of its message
    given = _register(api, event, token, [{"id": "p17", "name": "Ann Lee"}], 201)
    assert given["players"][0]["id"] == "p17"
    bad = _register(api, event, token, [{"id": "Þórdís", "name": "Þórdís B"}], 422)
    assert _errors(bad) == {"players.0.id": ["pattern_mismatch"]}
    listed = api("GET", f"/events/{event}/players", expect=200).json()["players"]
    assert len(listed) == 9


def test_a_list_is_registered_whole_or_not_at_all_each_line_at_fault_named(api: Api) -> None:
    event, token = _event(api)
    _register(api, event, token, [{"name": "Ann Lee"}], 201)
    lines = [
        {"name": "Bob Ray", "club": "Reykjavík"},
        {"name": "ANN LEE"},  # another's name without case
        {"name": "Cy Dee", "rating_id": "Not An Id"},
        {"name": "Bob Ray"},  # an earlier line's
        {"name": "Ann\u0410"},  # Latin and Cyrillic mixed
        {"name": ""},
    ]
    malformed = _register(api, event, token, lines, 422)  # the lines' shapes first: each field no line may hold
    assert _errors(malformed) == {"players.2.rating_id": ["pattern_mismatch"], "players.5.name": ["length_out_of_range"]}
    lines[2]["rating_id"], lines[5]["name"] = "cy-dee", "Eve Gray"
    refused = _register(api, event, token, lines, 422)  # then every name against the event's and the earlier lines'
    assert _errors(refused) == {"players.1.name": ["duplicate_name"], "players.3.name": ["duplicate_name"], "players.4.name": ["mixed_scripts"]}
    assert api("GET", f"/events/{event}/players", expect=200).json()["players"] == [
        {"id": "ann-lee", "name": "Ann Lee", "club": None, "rating_id": None, "checked_in": False, "joined": 1, "withdrawn": None}
    ]
    # a retry of a request that went through writes nothing and answers the same players and receipts
    good = [{"name": "Bob Ray", "club": "Reykjavík"}, {"name": "Cy Dee", "checked_in": True}]
    first = _register(api, event, token, good, 201)
    audit_before = api("GET", f"/events/{event}/audit", expect=200).json()
    again = _register(api, event, token, good, 200)
    assert [p["id"] for p in again["players"]] == [p["id"] for p in first["players"]] == ["bob-ray", "cy-dee"]
    assert [p["receipt"]["seq"] for p in again["players"]] == [p["receipt"]["seq"] for p in first["players"]]
    assert api("GET", f"/events/{event}/audit", expect=200).json() == audit_before
    registered = [e for e in audit_before["entries"] if e["action"] == "player.registered"]
    assert [e["payload"]["player"] for e in registered] == ["ann-lee", "bob-ray", "cy-dee"]  # one entry a player
    # an id registered otherwise is a conflict naming its line
    conflict = _register(api, event, token, [{"name": "Dee Fox"}, {"id": "bob-ray", "name": "Robert Ray"}], 409)
    assert _errors(conflict) == {"players.1.id": ["player_conflict"]}
    # a director's token only
    api("POST", f"/events/{event}/players", None, expect=401, json={"players": [{"name": "Eve"}]})


def test_look_alike_names_are_warned_about_with_both_names_and_registered_when_confirmed(api: Api) -> None:
    event, token = _event(api)
    _register(api, event, token, [{"name": "Zoë Martin"}, {"name": "Bill Lee"}], 201)
    warned = _register(api, event, token, [{"name": "Ann Lee"}, {"name": "Zoe Martin"}, {"name": "Ann Lée"}], 409)
    assert warned["code"] == "names_similar"
    assert _errors(warned) == {"players.1.name": ["names_similar"], "players.2.name": ["names_similar"]}
    message = warned["errors"]["players.1.name"][0]["message"]
    assert "Zoe Martin" in message and "Zoë Martin" in message and "zoe-martin" in message
    assert "Ann Lee" in warned["errors"]["players.2.name"][0]["message"]
    assert len(api("GET", f"/events/{event}/players", expect=200).json()["players"]) == 2  # nothing registered
    confirmed = _register(api, event, token, [{"name": "Ann Lee"}, {"name": "Zoe Martin"}, {"name": "Ann Lée"}], 201, allow_similar=True)
    assert [p["id"] for p in confirmed["players"]] == ["ann-lee", "zoe-martin-2", "ann-lee-2"]
    # the one-player registration warns too
    one = api("PUT", f"/events/{event}/players/zm3", token, expect=409, json={"name": "ZOÉ MARTIN"}).json()
    assert one["code"] == "names_similar" and "name" in one["errors"]
    api("PUT", f"/events/{event}/players/zm3", token, expect=201, json={"name": "ZOÉ MARTIN", "allow_similar": True})
    # names a reader cannot tell apart (two capital I for ll) stay refused, confirmed or not
    confusable = _register(api, event, token, [{"name": "BiII Lee"}], 422, allow_similar=True)
    assert _errors(confusable) == {"players.0.name": ["names_look_alike"]}


def test_a_registration_without_games_is_deleted_audited_and_the_event_still_exports_imports_and_verifies(api: Api, tmp_path: Path) -> None:
    event, token = _event(api)
    names = ["Ann Lee", "Bob Ray", "Cy Dee", "Dee Fox", "Mistaken Entry"]
    _register(api, event, token, [{"name": n, "checked_in": n != "Mistaken Entry"} for n in names], 201)
    gone = api("DELETE", f"/events/{event}/players/mistaken-entry", token, expect=200).json()
    assert gone["player"] == "mistaken-entry" and gone["deleted"] is True and gone["receipt"]["seq"] > 0
    again = api("DELETE", f"/events/{event}/players/mistaken-entry", token, expect=200).json()
    assert again["receipt"]["seq"] == gone["receipt"]["seq"]
    api("DELETE", f"/events/{event}/players/nobody", token, expect=404)
    api("DELETE", f"/events/{event}/players/ann-lee", None, expect=401)
    assert [p["id"] for p in api("GET", f"/events/{event}/players", expect=200).json()["players"]] == ["ann-lee", "bob-ray", "cy-dee", "dee-fox"]
    entries = api("GET", f"/events/{event}/audit", expect=200).json()["entries"]
    assert entries[-1]["action"] == "player.deleted" and entries[-1]["payload"] == {"player": "mistaken-entry", "name": "Mistaken Entry"}

    api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "random", "number": 1, "size": {"target": 4}})
    refused = api("DELETE", f"/events/{event}/players/bob-ray", token, expect=409).json()
    assert refused["code"] == "player_has_games" and "player" in refused["errors"]
    late = _register(api, event, token, [{"name": "Late Comer"}], 201)["players"][0]
    assert late["joined"] == 2
    api("DELETE", f"/events/{event}/players/late-comer", token, expect=200)  # a late entry never seated: deleted
    standings = api("GET", f"/events/{event}/standings", expect=200).json()
    assert "mistaken-entry" not in json.dumps(standings) and "late-comer" not in json.dumps(standings)

    server = api.server
    assert wordsvc_cli(server.database_url, "audit", "verify", event).returncode == 0
    exported = api("GET", f"/events/{event}/export", token, expect=200).json()
    assert [e["action"] for e in exported["audit"]].count("player.deleted") == 2
    document = tmp_path / "export.json"
    document.write_text(json.dumps(exported), encoding="utf-8")
    fresh = f"sqlite:///{tmp_path}/fresh.sqlite3"
    assert wordsvc_cli(fresh, "db", "upgrade").returncode == 0
    imported = wordsvc_cli(fresh, "event", "import", str(document))
    assert imported.returncode == 0, imported.stderr
    verified = wordsvc_cli(fresh, "audit", "verify", event)
    assert verified.returncode == 0 and f"event {event}: ok" in verified.stdout, verified.stdout + verified.stderr
    # a deletion the rows do not match is caught: the deleted player put back into the export
    exported["players"].append({**exported["players"][0], "id": "mistaken-entry", "name": "Mistaken Entry"})
    document.write_text(json.dumps(exported), encoding="utf-8")
    forged = wordsvc_cli(fresh, "audit", "verify", "--export", str(document))
    assert forged.returncode != 0 and "mistaken-entry" in forged.stdout + forged.stderr


def test_everyone_or_the_ticked_players_are_checked_in_in_one_request(api: Api) -> None:
    event, token = _event(api)
    players = _register(api, event, token, [{"name": f"Player {i}"} for i in range(1, 13)], 201)["players"]
    ids = [p["id"] for p in players]
    api("POST", f"/events/{event}/players/{ids[11]}/withdraw", token, expect=200)
    refused = api("POST", f"/events/{event}/check-in", token, expect=422, json={"players": [ids[0], "ghost", ids[1]]}).json()
    assert _errors(refused) == {"players.1": ["player_not_found"]}
    api("POST", f"/events/{event}/check-in", token, expect=422, json={"players": [ids[0]], "all": True})
    api("POST", f"/events/{event}/check-in", token, expect=422, json={})
    ticked = api("POST", f"/events/{event}/check-in", token, expect=200, json={"players": ids[:2]}).json()
    assert [p["id"] for p in ticked["players"]] == ids[:2] and all(p["checked_in"] and p["receipt"] for p in ticked["players"])
    everyone = api("POST", f"/events/{event}/check-in", token, expect=200, json={"all": True}).json()
    assert sorted(p["id"] for p in everyone["players"]) == sorted(ids[2:11])  # not the withdrawn one, not those checked in already
    assert api("POST", f"/events/{event}/check-in", token, expect=200, json={"all": True}).json()["players"] == []
    listed = {p["id"]: p for p in api("GET", f"/events/{event}/players", expect=200).json()["players"]}
    assert [listed[i]["checked_in"] for i in ids] == [True] * 11 + [False]
    entries = api("GET", f"/events/{event}/audit", expect=200).json()["entries"]
    assert sum(1 for e in entries if e["action"] == "player.checked_in") == 11
    # after a session is seated, a player checked in enters from the next one (a late entry)
    api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "random", "number": 1, "size": {"target": 4}})
    late = _register(api, event, token, [{"name": "Late Comer"}], 201)["players"][0]
    checked = api("POST", f"/events/{event}/check-in", token, expect=200, json={"players": [late["id"]]}).json()["players"]
    assert checked[0]["joined"] == 2


def test_the_cap_of_2000_players_is_kept(api: Api) -> None:
    event, token = _event(api)
    for start in range(0, MAX_PLAYERS, 500):  # 500 a request: a body within the service's 64 KiB
        _register(api, event, token, [{"id": f"p{i:04d}", "name": f"P{i:04d}"} for i in range(start, start + 500)], 201)
    refused = _register(api, event, token, [{"name": "One Too Many"}], 409)
    assert refused["code"] == "player_conflict" and "players" in refused["errors"]
    api("POST", f"/events/{event}/players", token, expect=422, json={"players": [{"name": f"Q{i}"} for i in range(MAX_PLAYERS + 1)]})


def test_the_same_list_sent_twice_at_once_registers_each_player_once(api: Api) -> None:
    event, token = _event(api)
    lines = [{"name": f"Spieler {chr(0x41 + i)}ä"} for i in range(12)]
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda _: api("POST", f"/events/{event}/players", token, json={"players": lines}), range(2)))
    assert sorted(a.status_code for a in answers) == [200, 201]
    ids = [[p["id"] for p in a.json()["players"]] for a in answers]
    assert ids[0] == ids[1] == [f"spieler-{chr(0x61 + i)}a" for i in range(12)]
    assert [p["receipt"]["seq"] for p in answers[0].json()["players"]] == [p["receipt"]["seq"] for p in answers[1].json()["players"]]
    assert len(api("GET", f"/events/{event}/players", expect=200).json()["players"]) == 12
    entries = api("GET", f"/events/{event}/audit", expect=200).json()["entries"]
    assert sum(1 for e in entries if e["action"] == "player.registered") == 12

"""A tournament session played online (docs/play.md, "Seated tables"; docs/tournaments.md, "Sessions played online"), on SQLite and PostgreSQL.

Twelve players under a published one-session schedule, seated at three
tables of four; each table hosted by the director, who gets every player's
seat token once; one player does not come and a bot plays their seat. The
people play through the protocol from their projections alone (going out
when ``POST /best-meld`` finds a way), the bot on the server. With no round
typed, the standings, the crosstable, the ratings and the results document
show every game: the bot counts for nobody, its seat's player has no game,
the others' games count, and the table with the bot is not rated. Then
every refusal of the two requests.
"""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import LedgerServer, wordsvc_cli
from .test_documents import pdf_text, poppler  # noqa: F401 - the fixture, by name
from .test_events import Api
from .test_play import person_move as weak_move

_ids = itertools.count()
PATIENCE = 600.0  # a safety net on a loaded machine: the test waits for the games' end, never for a time


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def _tournament(api: Api, ledger_server: LedgerServer, name: str, count: int) -> tuple[str, str]:
    """A public tournament of ``count`` checked-in players with rating ids, its one-session schedule published: the event and the director's token."""
    event = f"{name}{next(_ids)}-{ledger_server.backend}"
    created = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Online cup", "format": "total"}).json()
    token = created["director_token"]["token"]
    players = [{"id": f"p{i:02d}", "name": f"Player {i:02d}", "rating_id": f"{event}-p{i:02d}", "checked_in": True} for i in range(1, count + 1)]
    api("POST", f"/events/{event}/players", token, expect=201, json={"players": players})
    api("POST", f"/events/{event}/schedule", token, expect=201, json={"sessions": 1, "size": {"target": 4}})
    return event, token


def _slip(names: list[str]) -> dict[str, Any]:
    """A referee's slip of round 1: three cards unused by each player, none laid."""
    hands = (["a", "e", "i"], ["o", "u", "t"], ["s", "r", "n"], ["l", "d", "m"])
    return {"players": [{"name": name, "words": [], "unused": hand} for name, hand in zip(names, hands, strict=False)]}


def person_move(http: requests.Session, url: str, state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A simple player's legal move from its projection alone: go out when the solver finds a way, else discard at random; ``None`` when not to move."""
    weak = weak_move(state, rng)  # its turn's first half, a last turn, a challenge window: as the weak player
    if weak is None or weak["kind"] != "discard":
        return weak
    r = state["round"]
    card = weak["card"]
    best = http.post(f"{url}/best-meld", json={"ruleset": state["ruleset"], "hand": r["hand"], "discard": True}, timeout=60).json()
    if best["can_go_out"]:
        out = best["go_out"]
        return {"kind": "go_out", "words": [[c.lower() for c in w["cards"]] for w in out["words"]], "discard": out["discard"].lower()}
    return {"kind": "discard", "card": card}


def play_to_the_end(url: str, event: str, tokens: dict[str, dict[int, str]], rng: random.Random) -> None:
    """Every person seat of every table plays until each table's game is over."""
    http = requests.Session()
    playing = set(tokens)
    deadline = time.monotonic() + PATIENCE
    while playing and time.monotonic() < deadline:
        for game in sorted(playing):
            base = f"{url}/events/{event}/games/{game}/play"
            for seat, token in tokens[game].items():
                auth = {"Authorization": f"Bearer {token}"}
                state = http.get(base, headers=auth, timeout=60).json()["state"]
                move = person_move(http, url, state, rng)
                if move is not None:
                    sent = http.post(f"{base}/moves", headers=auth, json={"seq": state["seq"], "move_id": f"p{seat}-{state['seq']}", "move": move}, timeout=60)
                    assert sent.status_code in (200, 409), sent.text  # 409: the bot moved between the read and the move
            if http.get(base, timeout=60).json()["status"] == "over":
                playing.discard(game)
        time.sleep(0.005)
    assert not playing, f"tables {sorted(playing)} did not end"


def test_a_session_hosted_online_lands_in_the_standings_crosstable_ratings_and_documents_untyped(
    api: Api, ledger_server: LedgerServer, tmp_path: Path, poppler: None  # noqa: F811
) -> None:
    rng = random.Random(53)
    event, token = _tournament(api, ledger_server, "online", 12)
    session = api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "schedule", "number": 1}).json()
    tables = session["tables"]
    assert [len(t["seats"]) for t in tables] == [4, 4, 4] and [t["online"] for t in tables] == [None] * 3
    absent = tables[2]["seats"][1]["player"]  # this player does not come: a bot plays their seat

    tokens: dict[str, dict[int, str]] = {}
    for number, table in enumerate(tables):
        bots = [{"seat": 1, "level": 2}] if number == 2 else []
        hosted = api("POST", f"/events/{event}/games/{table['game']}/play/host", token, expect=201, json={"bots": bots}).json()
        assert hosted["table"]["status"] == "playing" and len(hosted["table"]["commitment"]) == 64 and "server_seed" not in hosted["table"]
        seats = [s for s in table["seats"] if s["player"] != absent]
        assert [(s["name"], s["player"]) for s in hosted["seats"]] == [(s["name"], s["player"]) for s in seats]  # seat order, each its player
        assert [s["name"] for s in hosted["table"]["seats"]] == [s["name"] for s in table["seats"]]
        assert all(s["token"].startswith("wsv_") for s in hosted["seats"])
        tokens[table["game"]] = {s["seat"]: s["token"] for s in hosted["seats"]}
    assert [t["online"] for t in api("GET", f"/events/{event}/sessions/1", expect=200).json()["tables"]] == ["playing"] * 3
    bot_table = api("GET", f"/events/{event}/games/{tables[2]['game']}/play", expect=200).json()
    assert [(s["kind"], s["handed"]) for s in bot_table["seats"]][1] == ("bot", "absent")
    # a referee's slip for a hosted table is refused: its game stores its rounds
    referee = api("POST", f"/events/{event}/tokens", token, expect=201, json={"role": "referee", "table": tables[0]["game"]}).json()["token"]
    slip = _slip([s["name"] for s in tables[0]["seats"]])
    assert api("PUT", f"/events/{event}/games/{tables[0]['game']}/rounds/1", referee, expect=409, json=slip).json()["code"] == "table_hosted"

    play_to_the_end(ledger_server.url, event, tokens, rng)

    assert [t["online"] for t in api("GET", f"/events/{event}/sessions/1", expect=200).json()["tables"]] == ["over"] * 3
    # the standings: every game counted, with no round typed; the absent player has none, the bot no line
    scores: dict[str, int] = {}
    for table in tables:
        stored = api("GET", f"/events/{event}/games/{table['game']}", expect=200).json()
        assert len(stored["rounds"]) == 8
        for seat, line in zip(table["seats"], stored["totals"], strict=True):
            assert line["name"] == seat["name"]
            if seat["player"] != absent:
                scores[seat["player"]] = line["total"]
    overall = api("GET", f"/events/{event}/standings", expect=200).json()["overall"]
    assert (overall["completed"], overall["provisional"]) == (1, False)  # the schedule's last session, complete: final
    lines = {line["player"]: line for line in overall["lines"]}
    assert set(lines) == {f"p{i:02d}" for i in range(1, 13)}  # the twelve entrants, no bot
    assert lines[absent]["games"] == 0 and lines[absent]["total"] == 0
    assert {p: lines[p]["total"] for p in scores} == scores and all(lines[p]["games"] == 1 for p in scores)

    # the crosstable: who met whom, the absent player nobody
    cross = api("GET", f"/events/{event}/crosstable", expect=200).json()
    met = {player: set(cross["meetings"].get(player, {})) for player in cross["players"]}
    assert absent in cross["players"] and met[absent] == set()
    for table in tables:
        people = [s["player"] for s in table["seats"] if s["player"] != absent]
        for player in people:
            assert met[player] == set(people) - {player}

    # the results document, in print
    pdf = api("GET", f"/events/{event}/documents/results", expect=200).content
    text = pdf_text(pdf, tmp_path, "results")
    best = max(scores, key=lambda p: scores[p])
    assert f"Player {best[1:]}" in text and str(scores[best]) in text

    # the ratings, once the event is closed: tables 1 and 2 rated, the table with the bot not
    api("POST", f"/events/{event}/close", token, expect=200)
    verified = wordsvc_cli(ledger_server.database_url, "audit", "verify", event)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    for number, table in enumerate(tables):
        for seat in table["seats"]:
            answer = api("GET", f"/ratings/{event}-{seat['player']}")
            assert answer.status_code == (200 if number < 2 else 404), (number, seat["player"], answer.text)


def test_hosting_refusals_a_short_table_and_a_seat_handed_during_the_game(api: Api, ledger_server: LedgerServer, tmp_path: Path) -> None:
    event, token = _tournament(api, ledger_server, "refusals", 7)
    tables = api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "schedule", "number": 1}).json()["tables"]
    short = next(t for t in tables if len(t["seats"]) == 3)
    full = next(t for t in tables if len(t["seats"]) == 4)
    host = f"/events/{event}/games/{short['game']}/play/host"

    def code(answer: requests.Response) -> str:
        return answer.json()["code"]

    assert api("POST", host, expect=401, json={}).status_code == 401
    _, stranger = _tournament(api, ledger_server, "other", 2)  # the director of another event
    api("POST", host, stranger, expect=403, json={})
    viewer = api("POST", f"/events/{event}/tokens", token, expect=201, json={"role": "viewer"}).json()["token"]
    assert code(api("POST", host, viewer, expect=403, json={})) == "role_required"
    assert code(api("POST", f"/events/{event}/games/s1-t9/play/host", token, expect=404, json={})) == "table_not_found"
    assert code(api("POST", host, token, expect=422, json={"bots": [{"seat": 4, "level": 2}]})) == "no_such_seat"  # seat 3 comes first
    assert code(api("POST", host, token, expect=422, json={"bots": [{"seat": s, "level": 1} for s in range(3)]})) == "player_count"
    assert code(api("POST", host, token, expect=422, json={"bots": [{"seat": 3, "level": 7}]})) == "invalid_fields"

    # a table short of players: a bot takes the seat after theirs, the game's players end with its name
    hosted = api("POST", host, token, expect=201, json={"bots": [{"seat": 3, "level": 1}], "clock": {"kind": "live", "turn_seconds": 60, "bank_seconds": 60}}).json()
    table = hosted["table"]
    assert [s["kind"] for s in table["seats"]] == ["person", "person", "person", "bot"] and table["setup"]["clock"]["kind"] == "live"
    assert api("GET", f"/events/{event}/games/{short['game']}", expect=200).json()["players"][3] == table["seats"][3]["name"]
    assert code(api("POST", host, token, expect=409, json={})) == "already_hosted"

    # a lost link: issued again, the old token revoked
    reissue = f"/events/{event}/games/{short['game']}/play/seats/1/token"
    again = api("POST", reissue, token, expect=201).json()
    assert (again["seat"], again["name"], again["player"]) == (1, hosted["seats"][1]["name"], hosted["seats"][1]["player"])
    old_auth = {"Authorization": f"Bearer {hosted['seats'][1]['token']}"}
    api("GET", f"/events/{event}/games/{short['game']}/play", headers=old_auth, expect=401)
    new_auth = {"Authorization": f"Bearer {again['token']}"}
    assert api("GET", f"/events/{event}/games/{short['game']}/play", headers=new_auth, expect=200).json()["state"]["viewer"] == 1
    assert code(api("POST", f"/events/{event}/games/{short['game']}/play/seats/3/token", token, expect=409)) == "seat_handed_over"  # the bot's

    # the director hands a player's seat to a bot during the game: the seat's token reads, never moves
    seat = hosted["seats"][0]
    handed = api("POST", f"/events/{event}/games/{short['game']}/play/seats/{seat['seat']}/bot", token, expect=200, json={"level": 3}).json()
    assert (handed["seats"][0]["kind"], handed["seats"][0]["level"], handed["seats"][0]["handed"]) == ("bot", 3, "absent")
    hand = f"/events/{event}/games/{short['game']}/play/seats/0/bot"
    assert code(api("POST", hand, token, expect=409, json={})) == "seat_handed_over"
    assert code(api("POST", f"/events/{event}/games/{short['game']}/play/seats/7/bot", token, expect=422, json={})) == "no_such_seat"
    assert code(api("POST", f"/events/{event}/games/{full['game']}/play/seats/0/bot", token, expect=404, json={})) == "not_hosted"
    assert code(api("POST", hand, seat["token"], expect=403, json={})) == "role_required"
    auth = {"Authorization": f"Bearer {seat['token']}"}
    state = api("GET", f"/events/{event}/games/{short['game']}/play", headers=auth, expect=200).json()["state"]
    move = {"seq": state["seq"], "move_id": "late", "move": {"kind": "draw"}}
    assert code(api("POST", f"/events/{event}/games/{short['game']}/play/moves", headers=auth, expect=409, json=move)) == "seat_handed_over"

    # a table whose referee stored a round is played at the table, not hosted
    api("PUT", f"/events/{event}/games/{full['game']}/rounds/1", token, expect=201, json=_slip([s["name"] for s in full["seats"]]))
    assert code(api("POST", f"/events/{event}/games/{full['game']}/play/host", token, expect=409, json={})) == "table_has_rounds"
    api("POST", f"/events/{event}/close", token, expect=200)
    assert code(api("POST", host, token, expect=409, json={})) == "event_closed"

    # every document prints the event with its bot seat and its handed seat
    for kind in ("seating", "scorecards", "standings", "crosstable", "results", "audit"):
        assert api("GET", f"/events/{event}/documents/{kind}?session=1" if kind in ("seating", "scorecards") else f"/events/{event}/documents/{kind}", token).status_code == 200, kind

    # the chain vouches for it all: the table reseated with its bot, the seats, the tokens; an export as well
    verified = wordsvc_cli(ledger_server.database_url, "audit", "verify", event)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    exported = tmp_path / "export.json"
    exported.write_text(api("GET", f"/events/{event}/export", token, expect=200).text, encoding="utf-8")
    verified = wordsvc_cli(ledger_server.database_url, "audit", "verify", "--export", str(exported))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    moved = wordsvc_cli(f"sqlite:///{tmp_path}/another.sqlite3", "event", "import", str(exported))  # another ledger takes it whole
    assert moved.returncode == 0, moved.stdout + moved.stderr

"""Hosted games over HTTP (docs/play.md), on SQLite and PostgreSQL: a table with people and the server's bots played to its end.

The people here are clients that know only what the protocol shows them:
they read their projection and send moves by face. Every body and every
stream message each of them (and a spectator) received is scanned for what
they may not know: another seat's hand, a card id, the server seed before
the game is over. The finished game is in the ledger as a referee's table
would be, and its log replays offline to the same totals (``wordsvc
verify-game``).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import REPO, LedgerServer, _wordsvc_command
from .sse import Stream

ID = re.compile(r'"[^"\s.]+\.\d+"')  # a card id ("e.7") as a JSON string: never sent to anyone
PATIENCE = 120.0  # a safety net for a bot's move on a loaded machine: the test waits for a state, never for a time


def person_move(state: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A weak player's move from its projection alone (never goes out), or ``None`` when it is not to move."""
    seat, r = state["viewer"], state["round"]
    if r is None:
        return None
    if r["phase"] == "challenges":
        return None if r["passed"][seat] else {"kind": "pass"}
    if r["turn"] != seat:
        return None
    if r["phase"] == "lay":
        return {"kind": "lay_down", "words": [], "discard": None}
    if r["phase"] == "draw":
        return {"kind": "draw"}
    card = rng.choice(r["hand"])
    if r["out"] is not None:
        return {"kind": "lay_down", "words": [], "discard": card}
    return {"kind": "discard", "card": card}


def _scan(received: list[str], seat: int | None, secrets: tuple[str, ...]) -> None:
    """Nothing in ``received`` (the bodies one viewer got) names a card id, a hand not its own, or a secret before the game's end."""
    for text in received:
        assert not ID.search(text), "a card id reached a client"
        body = json.loads(text)
        state = body.get("state")
        if isinstance(state, dict) and state.get("round") is not None:
            assert state["viewer"] == seat
            assert ("hand" in state["round"]) == (seat is not None)
        if any(secret in text for secret in secrets):
            assert body.get("status") == "over", "the seed reached a client before the game was over"


@pytest.fixture
def client() -> Iterator[requests.Session]:
    with requests.Session() as opened:
        yield opened


def _create(client: requests.Session, url: str, **body: Any) -> dict[str, Any]:
    answer = client.post(f"{url}/tables", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_people_and_bots_play_a_whole_game_that_lands_in_the_ledger_and_replays_offline(
    ledger_server: LedgerServer, client: requests.Session, tmp_path: Path
) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=4, bots=[{"seat": 1, "level": 1}, {"seat": 3, "level": 4}])
    event, base = table["event"], f"{url}/events/{table['event']}/games/table/play"
    assert table["status"] == "waiting" and "server_seed" not in table and "director_token" in table
    assert any(t["event"] == event for t in client.get(f"{url}/tables").json()["tables"])
    tokens = {}
    for name, nonce in (("Ann", "ann-says-hi"), ("Zoë", None)):
        taken = client.post(f"{base}/seats", json={"name": name, "nonce": nonce})
        assert taken.status_code == 201, taken.text
        tokens[taken.json()["seat"]] = taken.json()["token"]
    assert sorted(tokens) == [0, 2]
    assert client.post(f"{base}/seats", json={"name": "Late"}).json()["code"] == "table_full"

    received: dict[int | None, list[str]] = {0: [], 2: [], None: []}
    rng = random.Random(7)
    deadline = time.monotonic() + 40 * PATIENCE
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        moved = False
        for seat, token in tokens.items():
            answer = client.get(base, timeout=60, headers={"Authorization": f"Bearer {token}"})
            received[seat].append(answer.text)
            state = answer.json()["state"]
            assert answer.headers["ETag"] == f'"{state["seq"]}"'
            move = person_move(state, rng)
            if move is not None:
                sent = client.post(
                    f"{base}/moves",
                    headers={"Authorization": f"Bearer {token}"},
                    json={"seq": state["seq"], "move_id": f"s{seat}-{state['seq']}", "move": move},
                )
                received[seat].append(sent.text)
                assert sent.status_code in (200, 409), sent.text  # 409: a bot moved between the read and the move
                moved = True
        spectator = client.get(base)
        received[None].append(spectator.text)
        if spectator.json()["state"]["over"]:
            break
        if not moved:
            time.sleep(0.01)
    final = client.get(base).json()
    assert final["status"] == "over" and final["state"]["over"], "the game did not end"
    assert len(final["state"]["rounds"]) == 8

    for seat in received:
        _scan(received[seat], seat, (final["server_seed"], final["seed"]))

    # the ledger's table: 8 rounds stored as a referee's, with the same totals
    ledger_table = client.get(f"{url}/events/{event}/games/table").json()
    assert len(ledger_table["rounds"]) == 8
    assert [t["total"] for t in ledger_table["totals"]] == final["state"]["totals"]

    # the streams' history: a seat sees the cards it drew, nobody else's
    for seat, headers in ((0, {"Authorization": f"Bearer {tokens[0]}"}), (None, {})):
        with Stream(f"{base}/stream", {**headers, "Last-Event-ID": "0"}) as stream:
            stream.until(lambda messages: any(m.event == "play.ended" for m in messages), "the game's end")
        draws = [m.data for m in stream.messages if m.event == "move" and m.data["kind"] == "draw"]
        assert draws and all(("card" in d) == (d["seat"] == seat) for d in draws)
        assert not any(ID.search(json.dumps(m.data)) for m in stream.messages)

    # the log: revealed now, and it replays offline to the same totals
    log = client.get(f"{base}/log").json()
    assert len(log["moves"]) == final["state"]["seq"] and log["log"]["server_seed"] == final["server_seed"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log["log"]), encoding="utf-8")
    checked = subprocess.run([_wordsvc_command(), "verify-game", str(path)], cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log["log"]["nonces"][0] = "someone-else"
    path.write_text(json.dumps(log["log"]), encoding="utf-8")
    assert subprocess.run([_wordsvc_command(), "verify-game", str(path)], cwd=REPO, capture_output=True, text=True, timeout=300, check=False).returncode != 0


def test_a_move_is_refused_with_its_code_and_changes_nothing(ledger_server: LedgerServer, client: requests.Session) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=2)
    base = f"{url}/events/{table['event']}/games/table/play"
    ann = client.post(f"{base}/seats", json={"name": "Ann"}).json()["token"]
    assert client.post(f"{base}/seats", json={"name": "ann"}).json()["code"] == "name_taken"
    bob = client.post(f"{base}/seats", json={"name": "Bob", "nonce": "x" * 65}).json()
    assert bob["code"] == "invalid_fields"
    bob = client.post(f"{base}/seats", json={"name": "Bob"}).json()["token"]
    other = _create(client, url, seats=2)
    other_seat = client.post(f"{url}/events/{other['event']}/games/table/play/seats", json={"name": "Cy"}).json()["token"]

    state = client.get(base, timeout=60, headers={"Authorization": f"Bearer {ann}"}).json()["state"]
    turn = state["round"]["turn"]
    mover, waiter = (ann, bob) if turn == 0 else (bob, ann)

    def move(token: str | None, body: dict[str, Any], **headers: str) -> requests.Response:
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        return client.post(f"{base}/moves", headers={**auth, **headers}, json=body)

    draw = {"seq": 0, "move_id": "m1", "move": {"kind": "draw"}}
    assert move(None, draw).status_code == 401
    assert move(other_seat, draw).json()["code"] == "not_a_seat"
    assert move(table["director_token"]["token"], draw).json()["code"] == "not_a_seat"
    refused = move(waiter, draw)
    assert (refused.status_code, refused.json()["code"]) == (422, "not_your_turn")
    german = move(waiter, draw, **{"Accept-Language": "de"})
    assert german.json()["code"] == "not_your_turn" and german.json()["detail"] != refused.json()["detail"]
    assert move(mover, {"seq": 0, "move_id": "m2", "move": {"kind": "discard", "card": "e.1"}}).json()["code"] == "move_malformed"
    assert move(mover, {"seq": 0, "move_id": "m2", "move": {"kind": "discard", "card": "zz"}}).json()["code"] == "must_draw_first"
    stale = move(mover, {"seq": 5, "move_id": "m3", "move": {"kind": "draw"}})
    assert (stale.status_code, stale.json()["code"], stale.json()["state"]["seq"]) == (409, "stale_move", 0)
    assert client.get(base).json()["state"]["seq"] == 0  # nothing changed

    first = move(mover, draw)
    again = move(mover, draw)  # the same move id: answered, not applied twice
    assert first.status_code == again.status_code == 200
    assert (first.json()["seq"], again.json()["seq"], again.json()["repeat"]) == (1, 1, True)
    assert client.get(base).json()["state"]["seq"] == 1
    assert move(waiter, {"seq": 1, "move_id": "m1", "move": {"kind": "draw"}}).json()["code"] == "move_id_reused"
    hand = first.json()["state"]["round"]["hand"]
    assert len(hand) == first.json()["state"]["round"]["hand_size"] + 1
    missing = move(mover, {"seq": 1, "move_id": "m4", "move": {"kind": "discard", "card": "zz"}})
    assert (missing.json()["code"], missing.json()["refusal"]) == ("card_not_in_hand", {"card": "zz"})
    done = move(mover, {"seq": 1, "move_id": "m5", "move": {"kind": "discard", "card": hand[0]}})
    assert done.status_code == 200 and done.json()["state"]["round"]["discard_top"] == hand[0]


def _wait_over(client: requests.Session, base: str) -> dict[str, Any]:
    """The table once its game is over (bots play with no delay in the tests): polled, with a safety net."""
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        table = client.get(base).json()
        if table["status"] == "over":
            return table
        time.sleep(0.05)
    raise AssertionError(f"the game did not end: {table}")


def test_a_resigned_seat_is_played_by_a_bot_to_the_end_and_a_rematch_follows(ledger_server: LedgerServer, client: requests.Session) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=2, bots=[{"seat": 1, "level": 2}], clock={"kind": "live", "turn_seconds": 300, "bank_seconds": 60})
    base = f"{url}/events/{table['event']}/games/table/play"
    ann = client.post(f"{base}/seats", json={"name": "Ann"}).json()["token"]
    auth = {"Authorization": f"Bearer {ann}"}
    playing = client.get(base, headers=auth).json()
    assert playing["seats"][0]["bank_ms"] == 60_000 and any(s["deadline_ms"] for s in playing["seats"])
    resigned = client.post(f"{base}/resign", headers=auth)
    assert resigned.status_code == 200 and resigned.json()["seats"][0]["kind"] == "bot"
    assert client.post(f"{base}/moves", headers=auth, json={"seq": 0, "move_id": "late", "move": {"kind": "draw"}}).json()["code"] in (
        "seat_handed_over",
        "stale_move",
    )
    over = _wait_over(client, base)
    assert len(over["state"]["rounds"]) == 8 and over["server_seed"]
    assert client.post(f"{base}/rematch", headers=auth).json()["code"] == "seat_handed_over"


def test_a_game_is_aborted_before_its_first_round_is_scored_and_a_finished_one_played_again(ledger_server: LedgerServer, client: requests.Session) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=2)
    base = f"{url}/events/{table['event']}/games/table/play"
    client.post(f"{base}/seats", json={"name": "Ann"})
    assert client.post(f"{base}/abort").status_code == 401
    aborted = client.post(f"{base}/abort", headers={"Authorization": f"Bearer {table['director_token']['token']}"})
    assert aborted.status_code == 200 and aborted.json()["status"] == "aborted" and "server_seed" in aborted.json()
    assert client.post(f"{base}/seats", json={"name": "Bob"}).json()["code"] == "table_full"

    table = _create(client, url, seats=2, bots=[{"seat": 0, "level": 1}])
    base = f"{url}/events/{table['event']}/games/table/play"
    ann = client.post(f"{base}/seats", json={"name": "Ann"}).json()["token"]
    rng = random.Random(3)
    deadline = time.monotonic() + 40 * PATIENCE
    while time.monotonic() < deadline:
        state = client.get(base, headers={"Authorization": f"Bearer {ann}"}).json()["state"]
        if state["over"]:
            break
        move = person_move(state, rng)
        if move is None:
            time.sleep(0.01)
            continue
        client.post(f"{base}/moves", headers={"Authorization": f"Bearer {ann}"}, json={"seq": state["seq"], "move_id": f"a{state['seq']}", "move": move})
    again = client.post(f"{base}/rematch", headers={"Authorization": f"Bearer {ann}"})
    assert again.status_code == 201, again.text
    taken = again.json()
    assert (taken["seat"], taken["table"]["game"], taken["table"]["status"]) == (0, "table-2", "playing")
    assert client.get(base).json()["rematch"] == "table-2"


def test_a_revoked_seat_token_moves_no_more(ledger_server: LedgerServer, client: requests.Session) -> None:
    url = ledger_server.url
    table = _create(client, url, seats=2, bots=[{"seat": 0, "level": 1}])
    event, director = table["event"], table["director_token"]["token"]
    base = f"{url}/events/{event}/games/table/play"
    seat = client.post(f"{base}/seats", json={"name": "Ann"}).json()
    revoked = client.delete(f"{url}/events/{event}/tokens/{seat['token_id']}", headers={"Authorization": f"Bearer {director}"})
    assert revoked.status_code == 200, revoked.text
    answer = client.post(f"{base}/moves", headers={"Authorization": f"Bearer {seat['token']}"}, json={"seq": 0, "move_id": "m", "move": {"kind": "draw"}})
    assert answer.status_code == 401 and answer.json()["code"] == "token_invalid"

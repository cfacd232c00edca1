"""The event stream over HTTP (docs/streams.md), on SQLite and PostgreSQL, against ``wordsvc serve`` with two workers.

Every stream gets every change once and in order, with the audit entry's seq as its id; a client that reconnects with
``Last-Event-ID`` (or ``?after=``) gets what it missed and nothing twice; a change made through another server on the
same database (a second replica on PostgreSQL, a second process on the SQLite file) reaches the streams; a replica that
shuts down ends its streams cleanly and the clients resume on the other. Private events need a token.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from .conftest import LedgerServer, admin_token_for, running_server, wordsvc_cli
from .sse import Message, Stream
from .test_events import Api

_ids = itertools.count()


def round_body(number: int) -> dict[str, Any]:
    """Round ``number`` of table t1: Ann lays QUIZ, Bob TO with P left, and each holds the rest of the hand unused."""
    rest = list("eatoinsr")[: number - 1]  # a round deals number + 2 cards
    return {"players": [{"name": "Ann", "words": ["(qu)iz"], "unused": rest}, {"name": "Bob", "words": ["to"], "unused": ["p", *rest]}]}


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def event(api: Api, **body: Any) -> tuple[str, str]:
    """A new event with table t1 (Ann, Bob) seated: its id and director token."""
    event_id = f"st{next(_ids)}"
    created = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Stream night", "id": event_id, **body}).json()
    director = created["director_token"]["token"]
    api("PUT", f"/events/{event_id}/games/t1", director, expect=201, json={"players": ["Ann", "Bob"]})
    return event_id, director


def store(api: Api, event_id: str, token: str, number: int, url: str | None = None) -> dict[str, Any]:
    if url is None:
        return api("PUT", f"/events/{event_id}/games/t1/rounds/{number}", token, expect=201, json=round_body(number)).json()
    import requests

    answer = requests.put(
        f"{url}/events/{event_id}/games/t1/rounds/{number}", json=round_body(number), headers={"Authorization": f"Bearer {token}"}, timeout=30
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def kinds(messages: list[Message]) -> list[str]:
    return [message.event for message in messages]


def test_every_stream_gets_every_change_once_in_order_with_audit_ids(api: Api) -> None:
    event_id, director = event(api)
    url = f"{api.server.url}/events/{event_id}/stream"
    streams = [Stream(url) for _ in range(12)]  # over both workers: the kernel hands each connection to either
    try:
        assert {s.status for s in streams} == {200}
        assert streams[0].headers["content-type"].startswith("text/event-stream")
        assert streams[0].headers["cache-control"] == "no-cache"
        for s in streams:
            s.until(lambda m: len(m) >= 1, "ready")
        head = api("GET", f"/events/{event_id}/audit").json()["head"]["seq"]
        assert {(s.messages[0].event, s.messages[0].id, s.messages[0].data["head"]) for s in streams} == {("ready", head, head)}
        results = [store(api, event_id, director, n)["result"] for n in (1, 2, 3)]
        api("PUT", f"/events/{event_id}/games/t1/rounds/2", director, expect=200, json={"players": [round_body(2)["players"][0], {"name": "Bob", "words": ["top"], "unused": ["e"]}], "correction": {"reason": "Bob laid TOP"}},
            headers={"If-Match": api("GET", f"/events/{event_id}/games/t1/rounds/2").json()["etag"]})  # fmt: skip
        api("POST", f"/events/{event_id}/close", director, expect=200)
        entries = api("GET", f"/events/{event_id}/audit").json()["entries"]
        expected = [(e["seq"], e["action"]) for e in entries if e["seq"] > head]
        for s in streams:
            messages = s.until(lambda m: m[-1].event == "event.closed", "the close")[1:]
            assert kinds(messages) == ["round.stored", "round.stored", "round.stored", "round.corrected", "event.closed"]
            assert [(m.id, m.event) for m in messages] == [(seq, {"round.submitted": "round.stored"}.get(action, action)) for seq, action in expected]
            assert [m.data["points"] for m in messages[:3]] == [{p["name"]: p["total"] for p in result["players"]} for result in results]
            assert messages[3].data["reason"] == "Bob laid TOP" and messages[3].data["round"] == 2
    finally:
        for s in streams:
            s.close()


def test_a_reconnect_gets_what_it_missed_and_nothing_twice(api: Api) -> None:
    event_id, director = event(api)
    url = f"{api.server.url}/events/{event_id}/stream"
    with Stream(url) as first:
        store(api, event_id, director, 1)
        seen = first.until(lambda m: kinds(m)[-1:] == ["round.stored"], "round 1")
    last = seen[-1].id
    store(api, event_id, director, 2)
    store(api, event_id, director, 3)
    for resumed in (Stream(url, {"Last-Event-ID": str(last)}), Stream(f"{url}?after={last}"), Stream(f"{url}?after=0", {"Last-Event-ID": str(last)})):
        with resumed:
            messages = resumed.until(lambda m: len(m) >= 3, "the two missed rounds")
            assert [(m.event, m.data.get("round")) for m in messages] == [("ready", None), ("round.stored", 2), ("round.stored", 3)]
            assert messages[0].id == last
    with Stream(f"{url}?after=0") as everything:
        messages = everything.until(lambda m: len(m) >= 5, "the whole history")
        assert kinds(messages) == ["ready", "table.seated", "round.stored", "round.stored", "round.stored"]
        assert messages[1].data == {"game": "t1", "players": ["Ann", "Bob"]}


def test_a_private_events_stream_needs_one_of_its_tokens(api: Api) -> None:
    event_id, director = event(api, private=True)
    other_id, other_director = event(api)
    url = f"{api.server.url}/events/{event_id}/stream"
    with Stream(url) as anonymous:
        assert anonymous.status == 401
    with Stream(url, {"Authorization": f"Bearer {other_director}"}) as stranger:
        assert stranger.status == 403
    referee = api("POST", f"/events/{event_id}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    with Stream(url, {"Authorization": f"Bearer {referee}"}) as allowed:
        assert allowed.status == 200
        store(api, event_id, director, 1)
        assert kinds(allowed.until(lambda m: len(m) >= 2, "round 1")) == ["ready", "round.stored"]
    assert other_id != event_id


def test_bad_resumes_and_unknown_events_are_4xx_problems(api: Api) -> None:
    event_id, _ = event(api)
    url = f"{api.server.url}/events/{event_id}/stream"
    for header in ("x", "-1", "1e3", "99999999999", "2147483648", "9999999999"):  # past 2,147,483,647, the document's maximum
        with Stream(url, {"Last-Event-ID": header}) as bad:
            assert bad.status == 422, header
            assert b"Last-Event-ID" in bad.body
    with Stream(url, {"Last-Event-ID": "2147483647"}) as highest:
        assert highest.status == 200
    api("GET", f"/events/{event_id}/stream?after=-1", expect=422)
    for digits in ("%D9%A1%D9%A2", "%EF%BC%91%EF%BC%92", "+12"):  # Arabic-Indic and full-width 12, and a sign: ASCII digits only
        refused = api("GET", f"/events/{event_id}/stream?after={digits}", expect=422).json()
        assert refused["errors"] == {"after": [{"code": "not_ascii_digits", "message": "must be a whole number written with the digits 0-9"}]}
    api("GET", "/events/no-such-event/stream", expect=404)
    with Stream(f"{url}?after=100000") as future:  # past the newest entry: from the newest
        assert future.until(lambda m: len(m) >= 1, "ready")[0].id == future.messages[0].data["head"]


def test_a_tournament_streams_its_players_sessions_and_tables(api: Api) -> None:
    event_id, director = event(api)
    with Stream(f"{api.server.url}/events/{event_id}/stream") as watching:
        for i in range(1, 5):
            api("PUT", f"/events/{event_id}/players/p{i}", director, expect=201, json={"name": f"Player {i}"})
            api("POST", f"/events/{event_id}/players/p{i}/check-in", director, expect=200)
        api("POST", f"/events/{event_id}/sessions", director, expect=201, json={"method": "random", "size": {"target": 2}, "number": 1})
        api("POST", f"/events/{event_id}/players/p4/withdraw", director, expect=200)
        messages = watching.until(lambda m: kinds(m)[-1:] == ["player.withdrawn"], "the withdrawal")[1:]
    assert kinds(messages) == ["player.registered", "player.checked_in"] * 4 + ["session.started", "table.seated", "table.seated", "player.withdrawn"]
    assert messages[0].data == {"player": "p1", "name": "Player 1"}
    assert messages[8].data == {"session": 1, "tables": 2}
    assert sorted(name for m in messages[9:11] for name in m.data["players"]) == [f"Player {i}" for i in range(1, 5)]
    assert messages[-1].data == {"player": "p4", "from": 2}


def test_a_change_through_another_server_reaches_the_streams_and_a_clean_end_resumes_here(api: Api, ledger_server: LedgerServer) -> None:
    """Another ``wordsvc serve`` on the same database: a second replica (PostgreSQL) or a second process on the host (SQLite)."""
    event_id, director = event(api)
    here = Stream(f"{api.server.url}/events/{event_id}/stream")
    try:
        with running_server("wordsvc-stream-second-", env={"WORDSVC_DATABASE_URL": ledger_server.database_url}) as (second, _log):
            there = Stream(f"{second}/events/{event_id}/stream")
            for s in (here, there):
                s.until(lambda m: len(m) >= 1, "ready")
            store(api, event_id, director, 1, url=second)  # through the other server
            store(api, event_id, director, 2)  # through this one
            for s in (here, there):
                assert [(m.event, m.data.get("round")) for m in s.until(lambda m: len(m) >= 3, "both rounds")] == [
                    ("ready", None), ("round.stored", 1), ("round.stored", 2)
                ]  # fmt: skip
            ids = [m.id for m in here.messages[1:]]
            assert ids == [m.id for m in there.messages[1:]] and ids == sorted(set(ids))
        assert kinds(there.rest()) == ["ready", "round.stored", "round.stored"]  # the other server stopped: its stream ended, cleanly
        there.close()
        store(api, event_id, director, 3)
        with Stream(f"{api.server.url}/events/{event_id}/stream", {"Last-Event-ID": str(ids[-1])}) as resumed:
            assert [(m.event, m.data.get("round")) for m in resumed.until(lambda m: len(m) >= 2, "round 3")] == [("ready", None), ("round.stored", 3)]
        assert [(m.event, m.data.get("round")) for m in here.until(lambda m: len(m) >= 4, "round 3")][3] == ("round.stored", 3)
    finally:
        here.close()


def test_every_message_has_an_id_and_none_repeats(api: Api) -> None:
    event_id, director = event(api)
    with Stream(f"{api.server.url}/events/{event_id}/stream?after=0") as watching:
        for number in range(1, 9):
            store(api, event_id, director, number)
        messages = watching.until(lambda m: len(m) >= 10, "eight rounds")
    ids = [m.id for m in messages[1:]]
    assert all(isinstance(i, int) for i in ids) and ids == sorted(set(ids))


def test_revoking_a_token_ends_its_streams_on_every_worker_and_replica_before_any_later_change(api: Api, ledger_server: LedgerServer) -> None:
    event_id, director = event(api, private=True)
    issued = api("POST", f"/events/{event_id}/tokens", director, expect=201, json={"role": "viewer"}).json()
    kept_token = api("POST", f"/events/{event_id}/tokens", director, expect=201, json={"role": "viewer"}).json()["token"]
    url = f"{api.server.url}/events/{event_id}/stream"
    bearer = {"Authorization": f"Bearer {issued['token']}"}
    with running_server("wordsvc-stream-revoke-", env={"WORDSVC_DATABASE_URL": ledger_server.database_url}) as (second, _log):
        revoked = [Stream(url, bearer) for _ in range(6)] + [Stream(f"{second}/events/{event_id}/stream", bearer)]  # both workers, both servers
        kept = Stream(url, {"Authorization": f"Bearer {kept_token}"})
        try:
            for s in [*revoked, kept]:
                s.until(lambda m: len(m) >= 1, "ready")
            store(api, event_id, director, 1)
            for s in [*revoked, kept]:
                s.until(lambda m: kinds(m)[-1:] == ["round.stored"], "round 1")
            api("DELETE", f"/events/{event_id}/tokens/{issued['id']}", director, expect=200)
            store(api, event_id, director, 2)  # stored after the revocation: no revoked stream may get it
            for s in revoked:
                messages = s.until(lambda m, s=s: s.ended or len(m) > 2, "its end, or round 2")  # a stream that goes on fails here, not by waiting
                assert kinds(messages) == ["ready", "round.stored"] and s.ended  # ended, with the chunked body's last chunk, before round 2
            assert [m.data.get("round") for m in kept.until(lambda m: len(m) >= 3, "round 2")[1:]] == [1, 2]
        finally:
            for s in [*revoked, kept]:
                s.close()
    with Stream(url, bearer) as again:
        assert again.status == 401  # and it cannot come back


def test_an_admin_tokens_streams_end_when_it_is_revoked_from_the_command_line(api: Api, ledger_server: LedgerServer) -> None:
    event_id, director = event(api, private=True)
    admin = admin_token_for(ledger_server.database_url)
    admin_id = api("GET", "/whoami", admin, expect=200).json()["id"]
    streams = [Stream(f"{api.server.url}/events/{event_id}/stream", {"Authorization": f"Bearer {admin}"}) for _ in range(4)]
    try:
        for s in streams:
            s.until(lambda m: len(m) >= 1, "ready")
        done = wordsvc_cli(ledger_server.database_url, "token", "revoke", admin_id)  # on the house chain, by another process
        assert done.returncode == 0, done.stderr
        store(api, event_id, director, 1)
        for s in streams:
            messages = s.until(lambda m, s=s: s.ended or len(m) > 1, "its end, or round 1")
            assert kinds(messages) == ["ready"] and s.ended
    finally:
        for s in streams:
            s.close()


def test_a_resume_from_0_of_a_long_event_gets_every_entry_once_in_order(api: Api) -> None:
    event_id, director = event(api)
    for i in range(1, 121):  # 242 entries and more: players and their check-ins, a message each
        api("PUT", f"/events/{event_id}/players/p{i}", director, expect=201, json={"name": f"Player {i} " + "x" * 40})
        api("POST", f"/events/{event_id}/players/p{i}/check-in", director, expect=200)
    entries = api("GET", f"/events/{event_id}/audit?limit=1000").json()["entries"]
    with Stream(f"{api.server.url}/events/{event_id}/stream?after=0") as everything:
        messages = everything.until(lambda m: len(m) >= 1 + 1 + 240, "the whole history")
    expected = [e["seq"] for e in entries if e["action"] in ("game.created", "player.registered", "player.checked_in")]
    assert [m.id for m in messages[1:]] == expected and len(expected) == 241


def test_head_on_a_stream_answers_the_streams_headers_and_no_length(api: Api) -> None:
    import requests

    event_id, _ = event(api)
    answer = requests.head(f"{api.server.url}/events/{event_id}/stream", timeout=30)
    assert answer.status_code == 200 and answer.headers["Content-Type"].startswith("text/event-stream")
    assert "Content-Length" not in answer.headers


def test_every_message_matches_the_schema_the_openapi_document_gives_its_type(api: Api) -> None:
    from .contract import resolve, schema_errors

    doc = api("GET", "/openapi.json", expect=200).json()
    content = doc["paths"]["/events/{event}/stream"]["get"]["responses"]["200"]["content"]["text/event-stream"]
    by_type = {item["properties"]["event"]["enum"][0]: item["properties"]["data"]["contentSchema"] for item in content["x-itemSchema"]["oneOf"]}
    event_id, director = event(api)
    referee = api("POST", f"/events/{event_id}/tokens", director, expect=201, json={"role": "referee", "table": "t1"}).json()["token"]
    for i in (1, 2, 3):
        api("PUT", f"/events/{event_id}/players/p{i}", director, expect=201, json={"name": f"Player {i}"})
        api("POST", f"/events/{event_id}/players/p{i}/check-in", director, expect=200)
    api("POST", f"/events/{event_id}/sessions", director, expect=201, json={"method": "random", "size": {"target": 3}, "number": 1})
    api("POST", f"/events/{event_id}/sessions/1/redraw", director, expect=200)
    api("POST", f"/events/{event_id}/players/p3/withdraw", director, expect=200)
    api("PUT", f"/events/{event_id}/players/p9", director, expect=201, json={"name": "Mistaken Entry"})
    api("DELETE", f"/events/{event_id}/players/p9", director, expect=200)
    store(api, event_id, director, 1)
    api("PUT", f"/events/{event_id}/games/t1/rounds/1", director, expect=200, json={**round_body(1), "players": [round_body(1)["players"][0], {"name": "Bob", "words": ["top"], "unused": []}], "correction": {"reason": "Bob laid TOP"}},
        headers={"If-Match": api("GET", f"/events/{event_id}/games/t1/rounds/1").json()["etag"]})  # fmt: skip
    api("POST", f"/events/{event_id}/judge", referee, expect=200, json={"words": ["quiz"], "table": "t1", "round": 2})
    api("POST", f"/events/{event_id}/close", director, expect=200)
    with Stream(f"{api.server.url}/events/{event_id}/stream?after=0") as everything:
        messages = everything.until(lambda m: kinds(m)[-1:] == ["event.closed"], "the close")
    hosted = api("POST", "/tables", expect=201, json={"seats": 2, "bots": [{"seat": 0, "level": 1}]}).json()
    seat = api("POST", f"/events/{hosted['event']}/games/table/play/seats", expect=201, json={"name": "Ann"}).json()["token"]
    api("POST", f"/events/{hosted['event']}/games/table/play/resign", seat, expect=200)  # the bots play it out at once
    with Stream(f"{api.server.url}/events/{hosted['event']}/stream?after=0") as played:
        messages += played.until(lambda m: kinds(m)[-1:] == ["play.ended"], "the hosted game's end")
    stopped = api("POST", "/tables", expect=201, json={"seats": 2, "bots": [{"seat": 1, "level": 1}]}).json()
    seat = api("POST", f"/events/{stopped['event']}/games/table/play/seats", expect=201, json={"name": "Bo"}).json()["token"]
    api("POST", f"/events/{stopped['event']}/games/table/play/abort", seat, expect=200)  # before the first round is scored: Bo has not moved
    with Stream(f"{api.server.url}/events/{stopped['event']}/stream?after=0") as aborted:
        messages += aborted.until(lambda m: kinds(m)[-1:] == ["play.aborted"], "the hosted game's abort")
    assert set(kinds(messages)) == set(by_type)  # every type the document names came, and no other
    for message in messages:
        assert schema_errors(doc, resolve(doc, by_type[message.event]["$ref"]), message.data) == [], message

"""Entries appended in the database behind a running, signing service, on SQLite and PostgreSQL: the outside probe's three forgeries.

Each forgery is written in SQL, with the entry's hash recomputed from
docs/ledger.md (nothing of ``wordsvc`` is imported): a correction with its
revision (the standings change), a director token with its row and an
entry issuing it, an earlier entry replayed with its genuine signature.
Each chain still verifies and the rows match it, so ``wordsvc audit verify``
alone exits 0. With the service's public key it exits 1 naming the entry;
the server refuses every write to the event and every answer that would
sign its head with a 409 in the one problem shape, lets the minted token in
nowhere (401), and takes writes again once an operator runs ``wordsvc audit
accept``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import NullPool, create_engine, text

from .conftest import LedgerServer, admin_token_for, running_server, wordsvc_cli
from .contract import assert_problem
from .test_events import FIXED, ROUND_1, TABLES, Api
from .test_receipts import ROUND_2

_ids = itertools.count()
TOKEN = "wsv_0badc0de_" + "A" * 43  # the forger knows this secret


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def signed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, dict[str, str], Path]]:
    """A server with a key, on each back end: its API, the environment that gives the command line the same key, and the public key file."""
    folder = tmp_path_factory.mktemp("signed")
    if request.param == "sqlite":
        database_url = f"sqlite:///{folder}/ledger.sqlite3"
    else:
        from .postgres import create_database

        database_url = create_database(request.getfixturevalue("postgres_server_url"), "wordsvc_signatures")
    made = wordsvc_cli(database_url, "key", "create", str(folder / "ledger.key"))
    assert made.returncode == 0, made.stderr
    (folder / "public.pem").write_text(made.stdout, encoding="ascii")
    env = {"WORDSVC_LEDGER_KEY_FILE": str(folder / "ledger.key")}
    with running_server("wordsvc-signatures-", env={"WORDSVC_DATABASE_URL": database_url, **env}) as (url, _log):
        yield Api(LedgerServer(url, database_url, admin_token_for(database_url, env), request.param)), env, folder / "public.pem"


def _sql(url: str, sql: str, **params: Any) -> list[Any]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(sql), params)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _append(url: str, event: str, action: str, payload: dict[str, Any], actor: dict[str, str], signature: tuple[str, str] | None = None) -> int:
    """Append a chain-valid entry as docs/ledger.md hashes it ("The same check in another program", step 1); its seq."""
    seq, prev = _sql(url, "SELECT seq, hash FROM audit WHERE chain = :e ORDER BY seq DESC LIMIT 1", e=event)[0]
    entry = {"chain": event, "seq": seq + 1, "at": "2026-12-06T12:00:00.000000Z", "actor": actor, "action": action, "payload": payload, "prev": prev}
    digest = hashlib.sha256(_canonical(entry).encode("utf-8")).hexdigest()
    signed = ("", "") if signature is None else (", key_id, signature", ", :key_id, :signature")  # a forger writes no signature, or copies one
    _sql(
        url,
        f"INSERT INTO audit (chain, seq, at, actor_token, actor_role, action, payload_json, prev_hash, hash{signed[0]}) "
        f"VALUES (:chain, :seq, :at, :token, :role, :action, :payload, :prev, :hash{signed[1]})",
        chain=event, seq=seq + 1, at=entry["at"], token=actor["token"], role=actor["role"], action=action, payload=_canonical(payload), prev=prev,
        hash=digest, **({"key_id": signature[0], "signature": signature[1]} if signature else {}),
    )  # fmt: skip
    return seq + 1


def _event(api: Api) -> tuple[str, str, str]:
    """An event with table t1 and round 1 stored: its id, its director token and that token's id."""
    event = f"sig{next(_ids)}"
    issued = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Signed", "id": event}).json()["director_token"]
    api("PUT", f"/events/{event}/games/t1", issued["token"], expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1/rounds/1", issued["token"], expect=201, json=ROUND_1)
    return event, issued["token"], issued["id"]


def _forge_correction(api: Api, event: str, director_id: str) -> int:
    """Revision 2 of t1 round 1 and its round.corrected entry: the play and result another event's service scored for FIXED, copied."""
    url = api.server.database_url
    source, director, _ = _event(api)
    etag = api("GET", f"/events/{source}/games/t1/rounds/1", expect=200).json()["etag"]
    api("PUT", f"/events/{source}/games/t1/rounds/1", director, expect=200, json={**FIXED, "correction": {"reason": "bob laid DOG"}}, headers={"If-Match": etag})
    body, body_sha, result, totals = _sql(
        url, "SELECT body_json, body_sha256, result_json, totals_json FROM revisions WHERE event_id = :e AND revision = 2", e=source
    )[0]
    _sql(
        url,
        "INSERT INTO revisions (event_id, game_id, round, revision, body_json, body_sha256, result_json, totals_json, reason, actor, created_at) "
        "VALUES (:e, 't1', 1, 2, :body, :sha, :result, :totals, 'forged', :actor, '2026-12-06T12:00:00.000000Z')",
        e=event, body=body, sha=body_sha, result=result, totals=totals, actor=director_id,
    )  # fmt: skip
    payload = {"game": "t1", "round": 1, "revision": 2, "body": json.loads(body), "body_sha256": body_sha, "reason": "forged"}
    payload["result_sha256"] = hashlib.sha256(result.encode("utf-8")).hexdigest()
    return _append(url, event, "round.corrected", payload, {"token": director_id, "role": "director"})


def _forge_token(api: Api, event: str, director_id: str) -> int:
    """A director token whose secret the forger knows: its row and an entry issuing it."""
    url = api.server.database_url
    _sql(
        url,
        "INSERT INTO tokens (id, secret_sha256, role, event_id, table_id, label, created_at) VALUES ('0badc0de', :h, 'director', :e, NULL, NULL, :at)",
        h=hashlib.sha256(TOKEN.encode()).hexdigest(), e=event, at="2026-12-06T12:00:00.000000Z",
    )  # fmt: skip
    return _append(url, event, "token.issued", {"id": "0badc0de", "role": "director", "table": None}, {"token": director_id, "role": "director"})


def _forge_replay(api: Api, event: str, director_id: str) -> int:
    """The round's entry again, as the newest, with its genuine signature copied."""
    url = api.server.database_url
    action, payload, token, role, key_id, signature = _sql(
        url, "SELECT action, payload_json, actor_token, actor_role, key_id, signature FROM audit WHERE chain = :e AND action = 'round.submitted'", e=event
    )[0]
    return _append(url, event, action, json.loads(payload), {"token": token, "role": role}, (key_id, signature))


@pytest.mark.parametrize("forge", [_forge_correction, _forge_token, _forge_replay], ids=["correction", "token", "replay"])
def test_an_entry_appended_in_the_database_fails_verify_with_the_key_and_the_service_refuses_to_build_on_it(signed, forge) -> None:
    api, env, public = signed
    event, director, director_id = _event(api)
    before = api("GET", f"/events/{event}/standings", expect=200).json()
    seq = forge(api, event, director_id)
    url = api.server.database_url

    done = wordsvc_cli(url, "audit", "verify", event)
    if forge is not _forge_replay:
        assert done.returncode == 0 and f"event {event}: ok" in done.stdout, done.stdout  # the chain and the rows hold: the log only grew
    done = wordsvc_cli(url, "audit", "verify", "--public-key", str(public), event)
    assert done.returncode == 1 and f"event {event}: FAILED: audit entry {seq}:" in done.stdout, done.stdout

    for method, path, body in (
        ("PUT", f"/events/{event}/games/t1/rounds/2", ROUND_2),
        ("POST", f"/events/{event}/judge", {"words": ["cat"], "table": "t1", "round": 1}),
        ("POST", f"/events/{event}/tokens", {"role": "viewer"}),
        ("GET", f"/events/{event}/checkpoint", None),
        ("GET", f"/events/{event}/standings", None),
        ("GET", f"/events/{event}/games/t1", None),
    ):
        answer = api(method, path, director, json=body) if body is not None else api(method, path)
        problem = assert_problem(answer, 409)
        assert problem["errors"] == {"audit": [{"code": "log_unverified", "message": f"entry {seq} is not signed by the service's key"}]}, problem
        assert f"ends with entry {seq}, which this service did not sign" in problem["detail"] and "wsv_" not in answer.text
    api("GET", f"/events/{event}/audit", expect=200)  # the log itself stays readable, for the operator and any auditor
    if forge is _forge_token:
        assert_problem(api("GET", "/whoami", TOKEN), 401)

    accepted = wordsvc_cli(url, "audit", "accept", event, "--upto", str(seq), env=env)
    assert accepted.returncode == 0 and f"entries 1 to {seq} accepted in entry {seq + 1}" in accepted.stdout, accepted.stdout + accepted.stderr
    assert api("GET", f"/events/{event}/checkpoint", expect=200).json()["tree_size"] == seq + 1
    if forge is _forge_correction:
        after = api("GET", f"/events/{event}/standings", expect=200).json()
        assert after["standings"] != before["standings"]  # what the operator accepted is what is served: the decision is theirs, and in the log

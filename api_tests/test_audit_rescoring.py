"""``wordsvc audit verify`` scores every round again, of the database and of an export, on SQLite and PostgreSQL.

Two players' totals are swapped in a stored result, the round's entry is
rewritten to match and every later hash recomputed (docs/ledger.md's
hashing, done here without ``wordsvc``): the chain and the rows hold, so
only scoring the play again shows it. The same edit made offline to an
export fails ``audit verify --export``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import LedgerServer, wordsvc_cli
from .test_audit_signatures import _canonical, _sql
from .test_events import ROUND_1, TABLES, Api

_ids = itertools.count()


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def _swap(result: dict[str, Any]) -> dict[str, Any]:
    """The result with its first two players' totals swapped."""
    first, second = result["players"][0], result["players"][1]
    assert first["total"] != second["total"]
    first["total"], second["total"] = second["total"], first["total"]
    return result


def _rechain(entries: list[dict[str, Any]]) -> None:
    prev = "0" * 64
    for entry in entries:
        entry["prev"] = prev
        body = {key: entry[key] for key in ("chain", "seq", "at", "actor", "action", "payload", "prev")}
        entry["hash"] = prev = hashlib.sha256(_canonical(body).encode("utf-8")).hexdigest()


def test_totals_swapped_with_the_chain_recomputed_fail_audit_verify_of_the_database_and_of_an_export(api: Api, tmp_path: Path) -> None:
    event = f"rescore{next(_ids)}"
    director = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Rescore", "id": event}).json()["director_token"]["token"]
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1)
    exported = api("GET", f"/events/{event}/export", director, expect=200).json()
    url = api.server.database_url
    assert wordsvc_cli(url, "audit", "verify", event).returncode == 0

    exported["revisions"][0]["result"] = result = _swap(exported["revisions"][0]["result"])
    exported["revisions"][0]["totals"] = {p["name"]: p["total"] for p in result["players"]}
    for entry in exported["audit"]:
        if entry["action"] == "round.submitted":
            entry["payload"]["result_sha256"] = hashlib.sha256(_canonical(result).encode("utf-8")).hexdigest()
    _rechain(exported["audit"])
    exported.pop("checkpoint")  # the head the export was signed with no longer fits: a forger leaves it out
    (tmp_path / "forged.json").write_text(json.dumps(exported), encoding="utf-8")
    done = wordsvc_cli(url, "audit", "verify", "--export", str(tmp_path / "forged.json"))
    assert done.returncode == 1 and "revision 1 of game t1 round 1: its result is not the score of its play" in done.stdout, done.stdout

    _sql(url, "UPDATE revisions SET result_json = :r, totals_json = :t WHERE event_id = :e", r=_canonical(result), t=_canonical(exported["revisions"][0]["totals"]), e=event)
    for entry in exported["audit"]:
        _sql(url, "UPDATE audit SET payload_json = :p, prev_hash = :prev, hash = :h WHERE chain = :e AND seq = :s",
             p=_canonical(entry["payload"]), prev=entry["prev"], h=entry["hash"], e=event, s=entry["seq"])  # fmt: skip
    done = wordsvc_cli(url, "audit", "verify", event)
    assert done.returncode == 1 and f"event {event}: FAILED: revision 1 of game t1 round 1: its result is not the score of its play" in done.stdout, done.stdout

"""Receipts and checkpoints over HTTP, on SQLite and PostgreSQL: the outside probe's four edits, each made in the database.

Each edit deletes the newest audit entries together with the rows they
cover, so the hash chain that is left verifies: ``wordsvc audit verify``
alone exits 0. A receipt taken before the edit catches each one
(``wordsvc audit verify --receipt``, exit 1 naming what failed). Then the
endpoints a holder of a receipt uses (checkpoint, inclusion and consistency
proofs), checked by an RFC 9162 verifier written here from docs/ledger.md,
not by the service's; their access rules; and a server with a key, whose
signatures are checked with the documented message bytes.
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from .conftest import LedgerServer, admin_token_for, running_server, wordsvc_cli
from .test_events import ROUND_1, TABLES, Api, _edit

_ids = itertools.count()
ROUND_2 = {"players": [{"name": "ann", "words": ["tea"], "unused": ["t"]}, {"name": "bob", "words": ["rain"]}, {"name": "cy", "unused": ["s", "t", "o", "n"]}]}


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def _event(api: Api, **body: Any) -> tuple[str, str]:
    event = f"rcpt{next(_ids)}"
    director = api("POST", "/events", api.server.admin_token, expect=201, json={"name": "Receipts", "id": event, **body}).json()["director_token"]["token"]
    api("PUT", f"/events/{event}/games/t1", director, expect=201, json={"players": TABLES["t1"]})
    return event, director


def _keep(tmp_path: Path, name: str, answer: dict[str, Any]) -> str:
    """The answer a client kept, as a file for ``--receipt``."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(answer), encoding="utf-8")
    return str(path)


def _verify(url: str, *args: str) -> tuple[int, str]:
    done = wordsvc_cli(url, "audit", "verify", *args)
    return done.returncode, done.stdout + done.stderr


def _newest(api: Api, event: str, director: str) -> dict[str, Any]:
    return api("GET", f"/events/{event}/audit?after=0&limit=1000", director, expect=200).json()["entries"][-1]  # type: ignore[no-any-return]


# --- the probe's four edits --------------------------------------------------------------------------------


def test_an_acknowledged_round_deleted_with_its_entry_passes_the_chain_and_fails_its_receipt(api: Api, tmp_path: Path) -> None:
    event, director = _event(api)
    stored = api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1).json()
    kept = _keep(tmp_path, "round1", stored)
    url = api.server.database_url
    assert _verify(url, "--receipt", kept, event)[0] == 0
    exported_before = api("GET", f"/events/{event}/export", director, expect=200).json()

    _edit(url, "DELETE FROM revisions WHERE event_id = :e AND game_id = 't1' AND round = 1", e=event)
    _edit(url, "DELETE FROM audit WHERE chain = :e AND seq = :s", e=event, s=stored["receipt"]["seq"])
    api("GET", f"/events/{event}/games/t1/rounds/1", expect=404)  # the round is gone, silently
    code, out = _verify(url, event)
    assert code == 0 and f"event {event}: ok" in out  # the chain alone misses it
    code, out = _verify(url, "--receipt", kept, event)
    assert code == 1 and f"entry {stored['receipt']['seq']} was deleted" in out, out
    # the export of the cut log imports elsewhere, and fails the same receipt offline
    exported = api("GET", f"/events/{event}/export", director, expect=200).json()
    assert len(exported["audit"]) == len(exported_before["audit"]) - 1
    code, out = _verify(url, "--export", _keep(tmp_path, "export", exported), "--receipt", kept)
    assert code == 1 and "export of event" in out and ": ok" in out.splitlines()[0] and "was deleted" in out, out


def test_a_closed_event_reopened_in_the_database_accepts_a_round_and_fails_the_close_s_receipt(api: Api, tmp_path: Path) -> None:
    event, director = _event(api)
    api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1)
    closed = api("POST", f"/events/{event}/close", director, expect=200).json()
    assert closed["status"] == "closed" and closed["receipt"]["checkpoint"]["tree_size"] == closed["receipt"]["seq"]
    kept = _keep(tmp_path, "close", closed)
    url = api.server.database_url

    _edit(url, "DELETE FROM audit WHERE chain = :e AND action = 'event.closed'", e=event)
    _edit(url, "UPDATE events SET status = 'open', closed_at = NULL WHERE id = :e", e=event)
    again = api("PUT", f"/events/{event}/games/t1/rounds/2", director, expect=201, json=ROUND_2).json()
    assert again["receipt"]["tree_size"] == closed["receipt"]["tree_size"]  # the log is as long as it was at the close: not the same log
    code, out = _verify(url, event)
    assert code == 0, out
    code, out = _verify(url, "--receipt", kept, event)
    assert code == 1 and f"the log's first {closed['receipt']['tree_size']} entries are not the ones its checkpoint" in out, out


def test_a_revocation_undone_in_the_database_brings_the_token_back_and_fails_the_revocation_s_receipt(api: Api, tmp_path: Path) -> None:
    event, director = _event(api)
    issued = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "viewer"}).json()
    revoked = api("DELETE", f"/events/{event}/tokens/{issued['id']}", director, expect=200).json()
    assert revoked["revoked_at"] and revoked["receipt"]["seq"] == _newest(api, event, director)["seq"]
    kept = _keep(tmp_path, "revoked", revoked)
    api("GET", "/whoami", issued["token"], expect=401)
    url = api.server.database_url

    _edit(url, "DELETE FROM audit WHERE chain = :e AND seq = :s", e=event, s=revoked["receipt"]["seq"])
    _edit(url, "UPDATE tokens SET revoked_at = NULL WHERE id = :t", t=issued["id"])
    assert api("GET", "/whoami", issued["token"], expect=200).json()["id"] == issued["id"]  # the token works again
    assert _verify(url, event)[0] == 0
    code, out = _verify(url, "--receipt", kept, event)
    assert code == 1 and f"entry {revoked['receipt']['seq']} was deleted" in out, out


def test_a_judge_ruling_dropped_from_the_database_fails_the_ruling_s_receipt(api: Api, tmp_path: Path) -> None:
    event, director = _event(api)
    ruling = api("POST", f"/events/{event}/judge", director, expect=200, json={"words": ["cat"], "table": "t1", "round": 1}).json()
    assert ruling["receipt"]["seq"] == ruling["audit_seq"]
    kept = _keep(tmp_path, "ruling", ruling)
    url = api.server.database_url

    _edit(url, "DELETE FROM audit WHERE chain = :e AND action = 'judge.ruling'", e=event)
    assert _verify(url, event)[0] == 0
    code, out = _verify(url, "--receipt", kept, event)
    assert code == 1 and f"entry {ruling['audit_seq']} was deleted" in out, out
    # the event's checkpoint read by anyone later is shorter than the one the referee kept
    head = api("GET", f"/events/{event}/checkpoint", expect=200).json()
    assert head["tree_size"] == ruling["receipt"]["tree_size"] - 1
    api("GET", f"/events/{event}/proof?seq={ruling['audit_seq']}&tree_size={ruling['receipt']['tree_size']}", expect=422)


# --- what a holder of a receipt asks, checked as another program would -------------------------------------


def _h(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _inclusion_holds(leaf: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> bool:
    """RFC 9162, 2.1.3.2, as docs/ledger.md spells it out."""
    fn, sn, r = index, size - 1, leaf
    for p in proof:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            r = _h(b"\x01" + p + r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            r = _h(b"\x01" + r + p)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and r == root


def _consistency_holds(m: int, n: int, old: bytes, new: bytes, proof: list[bytes]) -> bool:
    """RFC 9162, 2.1.4.2, as docs/ledger.md spells it out."""
    if m == n:
        return not proof and old == new
    if not proof:
        return False
    path = [old, *proof] if m & (m - 1) == 0 else list(proof)
    fn, sn = m - 1, n - 1
    while fn % 2 == 1:
        fn, sn = fn // 2, sn // 2
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = _h(b"\x01" + c + fr), _h(b"\x01" + c + sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn // 2, sn // 2
        else:
            sr = _h(b"\x01" + sr + c)
        fn, sn = fn // 2, sn // 2
    return sn == 0 and fr == old and sr == new


def _leaf(entry_hash: str) -> bytes:
    return _h(b"\x00" + bytes.fromhex(entry_hash))


def test_a_receipt_s_entry_is_proved_in_later_trees_and_the_later_trees_extend_it(api: Api) -> None:
    event, director = _event(api)
    receipt = api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1).json()["receipt"]
    entries = api("GET", f"/events/{event}/audit", expect=200).json()["entries"]
    assert (receipt["seq"], receipt["entry_hash"], receipt["tree_size"]) == (entries[-1]["seq"], entries[-1]["hash"], len(entries))
    api("PUT", f"/events/{event}/games/t1/rounds/2", director, expect=201, json=ROUND_2)
    api("POST", f"/events/{event}/judge", director, expect=200, json={"words": ["cat"], "table": "t1", "round": 2})
    head = api("GET", f"/events/{event}/checkpoint", expect=200).json()
    assert head["tree_size"] == receipt["tree_size"] + 2 and head["signature"] is None  # this server has no key

    then = api("GET", f"/events/{event}/proof?seq={receipt['seq']}&tree_size={receipt['tree_size']}", expect=200).json()
    assert then["root"] == receipt["root"] and then["entry_hash"] == receipt["entry_hash"]
    assert _inclusion_holds(_leaf(receipt["entry_hash"]), receipt["seq"] - 1, receipt["tree_size"], [bytes.fromhex(p) for p in then["proof"]], bytes.fromhex(receipt["root"]))
    now = api("GET", f"/events/{event}/proof?seq={receipt['seq']}", expect=200).json()
    assert (now["tree_size"], now["root"]) == (head["tree_size"], head["root"])
    assert _inclusion_holds(_leaf(receipt["entry_hash"]), receipt["seq"] - 1, head["tree_size"], [bytes.fromhex(p) for p in now["proof"]], bytes.fromhex(head["root"]))
    grown = api("GET", f"/events/{event}/consistency?from={receipt['tree_size']}", expect=200).json()
    assert (grown["from"], grown["to"], grown["from_root"], grown["to_root"]) == (receipt["tree_size"], head["tree_size"], receipt["root"], head["root"])
    assert _consistency_holds(receipt["tree_size"], head["tree_size"], bytes.fromhex(receipt["root"]), bytes.fromhex(head["root"]), [bytes.fromhex(p) for p in grown["proof"]])
    # every stored round of the table carries its receipt, and the standings the head
    game = api("GET", f"/events/{event}/games/t1", expect=200).json()
    assert [r["receipt"]["seq"] for r in game["rounds"]] == [receipt["seq"], receipt["seq"] + 1]
    assert api("GET", f"/events/{event}/standings", expect=200).json()["checkpoint"]["tree_size"] == head["tree_size"]
    csv = api("GET", f"/events/{event}/standings?format=csv", expect=200)
    assert csv.text.startswith("rank,player,table,rounds,total\r\n")  # the CSV as it was: the head is in a header
    assert json.loads(csv.headers["Wordsvc-Checkpoint"])["root"] == head["root"]


@pytest.mark.parametrize(
    ("query", "field"),
    [("proof?seq=99", "seq"), ("proof?seq=1&tree_size=99", "tree_size"), ("proof?seq=0", "seq"), ("proof?seq=x", "seq"), ("proof", "seq"),
     ("consistency?from=1&to=99", "to"), ("consistency?from=3&to=2", "from"), ("consistency?to=2", "from"), ("consistency?from=-1", "from")],
)  # fmt: skip
def test_a_proof_asked_past_the_log_or_malformed_is_a_422_naming_the_field(api: Api, query: str, field: str) -> None:
    event, _ = _event(api)
    problem = api("GET", f"/events/{event}/{query}", expect=422).json()
    assert list(problem["errors"]) == [field], problem


def test_a_private_event_s_checkpoint_and_proofs_need_a_token_of_the_event(api: Api) -> None:
    event, director = _event(api, private=True)
    viewer = api("POST", f"/events/{event}/tokens", director, expect=201, json={"role": "viewer"}).json()["token"]
    for path in ("checkpoint", "proof?seq=1", "consistency?from=1"):
        api("GET", f"/events/{event}/{path}", expect=401)
        api("GET", f"/events/{event}/{path}", viewer, expect=200)
    api("GET", "/events/no-such-event/checkpoint", expect=404)


# --- a server with a key ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Api, Path]]:
    """A SQLite server whose checkpoints are signed (WORDSVC_LEDGER_KEY_FILE), and the public key file ``wordsvc key create`` printed."""
    folder = tmp_path_factory.mktemp("signed")
    database_url = f"sqlite:///{folder}/ledger.sqlite3"
    made = wordsvc_cli(database_url, "key", "create", str(folder / "ledger.key"))
    assert made.returncode == 0 and "key id" in made.stderr, made.stderr
    (folder / "public.pem").write_text(made.stdout, encoding="ascii")
    env = {"WORDSVC_LEDGER_KEY_FILE": str(folder / "ledger.key")}
    with running_server("wordsvc-signed-", env={"WORDSVC_DATABASE_URL": database_url, **env}) as (url, _log):
        yield Api(LedgerServer(url, database_url, admin_token_for(database_url, env), "sqlite")), folder  # the admin token sealed with the key


def test_signed_checkpoints_verify_with_the_printed_public_key_and_the_documented_message(signed: tuple[Api, Path], tmp_path: Path) -> None:
    api, folder = signed
    event, director = _event(api)
    stored = api("PUT", f"/events/{event}/games/t1/rounds/1", director, expect=201, json=ROUND_1).json()
    checkpoint = stored["receipt"]["checkpoint"]
    public = load_pem_public_key((folder / "public.pem").read_bytes())
    signed_bytes = f"wordsvc-checkpoint/v1\n{event}\n{checkpoint['tree_size']}\n{checkpoint['root']}\n{checkpoint['timestamp']}\n".encode("ascii")
    public.verify(base64.b64decode(checkpoint["signature"]), signed_bytes)  # type: ignore[union-attr, call-arg]  # raises if it does not verify
    raw = public.public_bytes_raw()  # type: ignore[union-attr]
    assert checkpoint["key_id"] == hashlib.sha256(raw).hexdigest()[:16]
    shown = wordsvc_cli(api.server.database_url, "key", "public", str(folder / "ledger.key"))
    assert shown.stdout == (folder / "public.pem").read_text(encoding="ascii") and checkpoint["key_id"] in shown.stderr

    kept = _keep(tmp_path, "round1", stored)
    url, key = api.server.database_url, str(folder / "public.pem")
    code, out = _verify(url, "--receipt", kept, "--public-key", key, event)
    assert code == 0 and f"signed by key {checkpoint['key_id']}" in out, out
    # Whoever holds only the database cannot make a checkpoint for a log they rewrote: one unsigned, or with the root changed, fails.
    forged = {**stored["receipt"], "checkpoint": {**checkpoint, "signature": None, "key_id": None}}
    code, out = _verify(url, "--receipt", _keep(tmp_path, "unsigned", forged), "--public-key", key, event)
    assert code == 1 and "unsigned" in out
    altered = {**checkpoint, "tree_size": checkpoint["tree_size"] - 1}
    code, out = _verify(url, "--receipt", _keep(tmp_path, "altered", altered), "--public-key", key, event)
    assert code == 1 and "does not verify" in out, out
    # an export carries its signed head, checked offline
    exported = _keep(tmp_path, "export", api("GET", f"/events/{event}/export", director, expect=200).json())
    code, out = _verify(url, "--export", exported, "--receipt", kept, "--public-key", key)
    assert code == 0 and "its checkpoint (checkpoint of" in out and out.count("signed by key") == 2, out

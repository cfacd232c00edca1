"""Receipts, checkpoints and proofs of the ledger (wordsvc/ledger/integrity/receipts.py, checkpoints.py, receipt_check.py), on both back ends.

Every write answers a receipt whose root is the RFC 9162 root of the event's
audit entries right after it, however the head was reached: kept in the
process, brought up to date after another process's writes, or rebuilt
after a write that was rolled back or a database restored from an older
copy. Checkpoints are signed with the key given and checked against it;
the proofs the ledger hands out verify with nothing but wordsvc/core/merkle.py;
a log cut short, rewritten or reordered fails a receipt taken before. The
worked example of docs/ledger.md is computed here and its numbers looked
for in the document.
"""

from __future__ import annotations

import base64
import itertools
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import delete, update

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.merkle import consistency_proof, inclusion_proof, root, verify_consistency, verify_inclusion
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger
from wordsvc.ledger._db.canonical import canonical
from wordsvc.ledger._db.schema import audit, tokens
from wordsvc.ledger.integrity.audit import GENESIS, make_entry
from wordsvc.ledger.integrity.checkpoints import KeyFileError, Signer, checkpoint_problems, create_key, message, public_key_from_pem, public_pem
from wordsvc.ledger.integrity.receipt_check import check
from wordsvc.ledger.integrity.receipts import entry_leaf, tree_root

WORDS = ("cat", "dog", "tea", "eat", "the", "rain", "art", "rat")
LEXICON = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))  # the worked example's key: never a real one
_ids = itertools.count()


def play(number: int) -> RoundPlay:
    """A valid round ``number`` for ann and bob: ``number + 2`` cards each, some laid as a word."""
    hand = number + 2
    return RoundPlay((PlayerPlay("ann", (tuple("cat"),), tuple("eeiioouu"[: hand - 3])), PlayerPlay("bob", (), tuple("bdfghjklmn"[:hand]))))


@pytest.fixture(scope="module")
def ledger(database_url: str):
    opened = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))
    yield opened
    opened.close()


@pytest.fixture
def event(ledger: Ledger) -> tuple[str, object]:
    """A fresh event with table t1 (ann, bob): its id and its director."""
    created = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "Receipts", f"rc{next(_ids)}")
    director = ledger.tokens.authenticate(created["director_token"]["token"])
    ledger.games.put_game(director, created["id"], "t1", ["ann", "bob"])
    return created["id"], director


def log_root(ledger: Ledger, event_id: str, size: int | None = None) -> str:
    entries = ledger.trail.log(event_id)
    return tree_root([e["hash"] for e in entries[: size or len(entries)]])


# --- every write answers a receipt of its own entry -------------------------------------------------------


def test_each_write_answers_the_receipt_of_its_entry_in_the_tree_right_after_it(ledger: Ledger, event) -> None:
    event_id, director = event
    answers = [
        ledger.tokens.issue_token(director, event_id, "referee", "t1"),
        ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round,
        ledger.rulings.judge(director, event_id, "t1", 1, ["cat"]),
        ledger.events.accept_lexicon(director, event_id),
    ]
    revoked = ledger.tokens.revoke_token(director, event_id, answers[0]["id"])
    closed = ledger.events.close_event(director, event_id)
    entries = ledger.trail.log(event_id)
    for answer in [*answers[:3], revoked, closed]:
        receipt = answer["receipt"]
        entry = entries[receipt["seq"] - 1]
        assert receipt["entry_hash"] == entry["hash"]
        assert receipt["tree_size"] == receipt["seq"] and receipt["root"] == log_root(ledger, event_id, receipt["seq"])
        assert receipt["checkpoint"] | {"timestamp": None, "signature": None} == {
            "event": event_id, "tree_size": receipt["tree_size"], "root": receipt["root"], "timestamp": None, "key_id": Signer(KEY).key_id, "signature": None,
        }  # fmt: skip
        assert checkpoint_problems(receipt["checkpoint"], [KEY.public_key()]) == []
    assert [entries[a["receipt"]["seq"] - 1]["action"] for a in (*answers[:3], revoked, closed)] == [
        "token.issued", "round.submitted", "judge.ruling", "token.revoked", "event.closed",
    ]  # fmt: skip
    assert answers[3]["receipt"]["seq"] == 1  # the lexicon it already had: the creation's entry, in the tree as it is now
    assert closed["receipt"]["tree_size"] == len(entries)  # the close's checkpoint is the event's final one


def test_a_repeat_answers_the_receipt_of_the_entry_that_made_what_it_answers(ledger: Ledger, event) -> None:
    event_id, director = event
    first = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round["receipt"]
    ledger.rounds.submit_round(director, event_id, "t1", 2, play(2))
    again = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1))
    assert again.status == 200
    receipt = again.round["receipt"]
    assert (receipt["seq"], receipt["entry_hash"]) == (first["seq"], first["entry_hash"])
    assert receipt["tree_size"] == len(ledger.trail.log(event_id)) and receipt["root"] == log_root(ledger, event_id)
    created, seated = ledger.games.put_game(director, event_id, "t1", ["ann", "bob"])
    assert not created and ledger.trail.log(event_id)[seated["receipt"]["seq"] - 1]["action"] == "game.created"
    # GET of a table and of a round: each stored round with its receipt, all in the tree as it is now
    game = ledger.games.game(None, event_id, "t1")
    assert [r["receipt"]["seq"] for r in game["rounds"]] == [first["seq"], first["seq"] + 1]
    assert ledger.rounds.round(None, event_id, "t1", 1)["receipt"]["entry_hash"] == first["entry_hash"]


def test_a_correction_s_receipt_is_of_the_new_revision(ledger: Ledger, event) -> None:
    event_id, director = event
    stored = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round
    corrected = RoundPlay((PlayerPlay("ann", (tuple("eat"),)), PlayerPlay("bob", (), tuple("ttt"))))
    fixed = ledger.rounds.submit_round(director, event_id, "t1", 1, corrected, correction="ann laid EAT", if_match=stored["etag"]).round
    assert fixed["receipt"]["seq"] == stored["receipt"]["seq"] + 1
    assert ledger.trail.log(event_id)[fixed["receipt"]["seq"] - 1]["action"] == "round.corrected"
    assert ledger.rounds.round(None, event_id, "t1", 1)["receipt"]["seq"] == fixed["receipt"]["seq"]


# --- the kept head is a cache, never trusted ---------------------------------------------------------------


def test_two_processes_writing_in_turn_each_answer_the_true_root(ledger: Ledger, event, database_url: str) -> None:
    event_id, director = event
    other = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))  # another worker: its own kept heads
    try:
        for number in range(1, 6):
            writer = ledger if number % 2 else other
            receipt = writer.rounds.submit_round(director, event_id, "t1", number, play(number)).round["receipt"]
            assert receipt["root"] == log_root(ledger, event_id, receipt["tree_size"]) and receipt["tree_size"] == len(ledger.trail.log(event_id))
    finally:
        other.close()


def test_a_write_undone_after_its_entry_leaves_no_trace_in_the_next_receipt(ledger: Ledger, event) -> None:
    event_id, director = event

    def append_then_fail(conn):
        ledger.store.append(conn, event_id, LOCAL, "judge.ruling", {"undone": True})
        raise RuntimeError("undone after the append")

    with pytest.raises(RuntimeError):
        ledger.writer.run(event_id, append_then_fail)
    receipt = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round["receipt"]
    assert receipt["root"] == log_root(ledger, event_id) and receipt["tree_size"] == len(ledger.trail.log(event_id))


def test_a_log_cut_back_under_the_running_service_is_rebuilt_not_believed(ledger: Ledger, event) -> None:
    event_id, director = event
    ledger.rounds.submit_round(director, event_id, "t1", 1, play(1))
    before = ledger.trail.checkpoint(None, event_id)
    with ledger.engine.begin() as conn:  # the newest entry deleted under the service (its row stays: the chain alone shows nothing)
        conn.execute(delete(audit).where(audit.c.chain == event_id, audit.c.seq == before["tree_size"]))
    after = ledger.trail.checkpoint(None, event_id)
    assert after["tree_size"] == before["tree_size"] - 1 and after["root"] == log_root(ledger, event_id)
    assert check(before, event_id, ledger.trail.log(event_id))[0].startswith(f"the log holds {after['tree_size']} entries, fewer than the {before['tree_size']}")


def test_a_chain_with_a_gap_has_no_tree_and_takes_no_write(ledger: Ledger, event, database_url: str) -> None:
    event_id, director = event
    before = ledger.trail.checkpoint(None, event_id)
    with ledger.engine.begin() as conn:  # an entry deleted from the middle: audit verify names it; the service will not build on it
        conn.execute(delete(audit).where(audit.c.chain == event_id, audit.c.seq == 2))
    # the process that holds the tree checks only the newest entry: it goes on signing the tree it holds, which the edited log fails
    assert ledger.trail.checkpoint(None, event_id)["root"] == before["root"]
    assert "found where entry 2 belongs" in check(before, event_id, ledger.trail.log(event_id))[0]
    fresh = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))  # another process reads the chain afresh
    try:
        for attempt in (lambda: fresh.trail.checkpoint(None, event_id), lambda: fresh.rulings.judge(director, event_id, "t1", 1, ["cat"])):
            with pytest.raises(Conflict, match="has a gap before entry 3"):
                attempt()
    finally:
        fresh.close()
    assert len(ledger.trail.log(event_id)) == 2


# --- proofs, as a client checks them ------------------------------------------------------------------------


def test_inclusion_and_consistency_proofs_verify_against_earlier_checkpoints(ledger: Ledger, event) -> None:
    event_id, director = event
    early = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round["receipt"]
    for number in range(2, 5):
        ledger.rounds.submit_round(director, event_id, "t1", number, play(number))
    now = ledger.trail.checkpoint(None, event_id)
    proof = ledger.trail.inclusion_proof(None, event_id, early["seq"], early["tree_size"])
    assert proof["root"] == early["root"] and proof["entry_hash"] == early["entry_hash"]
    path = [bytes.fromhex(p) for p in proof["proof"]]
    assert verify_inclusion(entry_leaf(early["entry_hash"]), early["seq"] - 1, early["tree_size"], path, bytes.fromhex(early["root"]))
    latest = ledger.trail.inclusion_proof(None, event_id, early["seq"])
    assert latest["tree_size"] == now["tree_size"] and latest["root"] == now["root"]
    grown = ledger.trail.consistency_proof(None, event_id, early["tree_size"])
    assert (grown["from"], grown["to"], grown["from_root"], grown["to_root"]) == (early["tree_size"], now["tree_size"], early["root"], now["root"])
    path = [bytes.fromhex(p) for p in grown["proof"]]
    assert verify_consistency(early["tree_size"], now["tree_size"], bytes.fromhex(early["root"]), bytes.fromhex(now["root"]), path)


@pytest.mark.parametrize(
    ("ask", "field"),
    [
        (lambda lg, ev, n: lg.trail.inclusion_proof(None, ev, n + 1), "seq"),
        (lambda lg, ev, n: lg.trail.inclusion_proof(None, ev, 1, n + 1), "tree_size"),
        (lambda lg, ev, n: lg.trail.inclusion_proof(None, ev, 3, 2), "seq"),
        (lambda lg, ev, n: lg.trail.consistency_proof(None, ev, 1, n + 1), "to"),
        (lambda lg, ev, n: lg.trail.consistency_proof(None, ev, 3, 2), "from"),
    ],
)
def test_a_proof_past_the_log_is_a_422_naming_the_field(ledger: Ledger, event, ask, field) -> None:
    event_id, _ = event
    with pytest.raises(InvalidRequest) as raised:
        ask(ledger, event_id, len(ledger.trail.log(event_id)))
    assert list(raised.value.problems) == [field]


# --- checking a receipt against a log, offline -----------------------------------------------------------


def test_a_receipt_fails_against_a_log_cut_rewritten_or_reordered_and_holds_against_a_longer_one(ledger: Ledger, event) -> None:
    event_id, director = event
    receipt = ledger.rounds.submit_round(director, event_id, "t1", 1, play(1)).round["receipt"]
    keys = [KEY.public_key()]
    log = ledger.trail.log(event_id)
    assert check(receipt, event_id, log, keys) == []
    ledger.rounds.submit_round(director, event_id, "t1", 2, play(2))
    assert check(receipt, event_id, ledger.trail.log(event_id), keys) == []  # a longer log extends it
    assert check({"receipt": receipt}, event_id, log, keys) == []  # an answer holding it
    assert check(receipt["checkpoint"], event_id, log, keys) == []  # its checkpoint alone

    assert "entry 4 was deleted" in check(receipt, event_id, log[:-1])[0]
    rewritten = [*log[:2], make_entry(event_id, 3, log[1]["hash"], log[2]["actor"], "game.created", {"game": "t9", "players": ["x"]}, log[2]["at"])]
    for entry in log[3:]:  # the chain recomputed after it: it verifies on its own
        rewritten.append(make_entry(event_id, entry["seq"], rewritten[-1]["hash"], entry["actor"], entry["action"], entry["payload"], entry["at"]))
    assert "consistency proof from 4 to 4 fails" in check(receipt, event_id, rewritten)[0]
    assert "found where entry 2 belongs" in check(receipt, event_id, [log[0], log[2], log[1], *log[3:]])[0]
    assert "not 'elsewhere'" in check(receipt, "elsewhere", log)[0]
    altered = {**receipt, "entry_hash": log[0]["hash"]}
    assert check(altered, event_id, log) == ["entry 4 of the log is not the one the receipt names (inclusion proof fails)"]
    assert "altered" in check({**receipt, "root": "0" * 64}, event_id, log)[0]


def test_a_checkpoint_s_signature_vouches_for_every_field(ledger: Ledger, event) -> None:
    event_id, _ = event
    checkpoint = ledger.trail.checkpoint(None, event_id)
    keys = [KEY.public_key()]
    assert checkpoint_problems(checkpoint, keys) == []
    assert checkpoint_problems(checkpoint) == []  # no key given: not checked
    for field, value in (("tree_size", checkpoint["tree_size"] + 1), ("root", "0" * 64), ("timestamp", "2030-01-01T00:00:00.000000Z"), ("event", "other")):
        assert "does not verify" in checkpoint_problems({**checkpoint, field: value}, keys)[0], field
    assert "not by the public key given" in checkpoint_problems(checkpoint, [Ed25519PrivateKey.generate().public_key()])[0]
    unsigned = Signer().checkpoint(event_id, checkpoint["tree_size"], checkpoint["root"])
    assert unsigned["key_id"] is None and unsigned["signature"] is None
    assert checkpoint_problems(unsigned) == [] and "unsigned" in checkpoint_problems(unsigned, keys)[0]
    assert "does not verify" in checkpoint_problems({**checkpoint, "signature": "not base64!"}, keys)[0]


def test_the_export_carries_the_signed_head_of_its_entries(ledger: Ledger, event) -> None:
    event_id, director = event
    ledger.rounds.submit_round(director, event_id, "t1", 1, play(1))
    document = ledger.transfer.export(director, event_id)
    head = document["checkpoint"]
    assert head["tree_size"] == len(document["audit"]) and head["root"] == tree_root([e["hash"] for e in document["audit"]])
    assert check(head, event_id, document["audit"], [KEY.public_key()]) == []
    assert ledger.standings.standings(None, event_id)["checkpoint"]["root"] == head["root"]


def test_a_revocation_undone_in_the_database_fails_a_receipt_taken_before(ledger: Ledger, event) -> None:
    event_id, director = event
    issued = ledger.tokens.issue_token(director, event_id, "viewer")
    receipt = ledger.tokens.revoke_token(director, event_id, issued["id"])["receipt"]
    with ledger.engine.begin() as conn:  # the revocation and its entry gone, as if it never happened
        conn.execute(update(tokens).where(tokens.c.id == issued["id"]).values(revoked_at=None))
        conn.execute(delete(audit).where(audit.c.chain == event_id, audit.c.seq == receipt["seq"]))
    assert ledger.trail.verify(event_id) == []  # the chain and the rows agree: the chain alone cannot tell
    assert ledger.tokens.authenticate(issued["token"]).token == issued["id"]
    assert f"entry {receipt['seq']} was deleted" in check(receipt, event_id, ledger.trail.log(event_id))[0]


# --- keys ---------------------------------------------------------------------------------------------------


def test_a_key_file_is_made_0600_never_overwritten_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "ledger.key"
    key = create_key(path)
    assert path.stat().st_mode & 0o777 == 0o600
    with pytest.raises(KeyFileError, match="never overwritten"):
        create_key(path)
    signer = Signer.from_file(path)
    assert signer.public_pem() == public_pem(key.public_key())
    assert public_key_from_pem(signer.public_pem() or "").public_bytes_raw() == key.public_key().public_bytes_raw()
    (tmp_path / "bad.key").write_text("not a key")
    with pytest.raises(KeyFileError, match="not an unencrypted PEM private key"):
        Signer.from_file(tmp_path / "bad.key")
    with pytest.raises(KeyFileError, match="No such file"):
        Signer.from_file(tmp_path / "missing.key")
    assert not Signer.from_file(None).signs


# --- docs/ledger.md's worked example -------------------------------------------------------------------


def worked_example() -> dict:
    """Three entries of an event ``example``, their tree, proofs and a checkpoint signed with the key whose 32 bytes are 00 01 ... 1f."""
    actor = {"token": "local", "role": "admin"}
    e1 = make_entry("example", 1, GENESIS, actor, "game.created", {"game": "t1", "players": ["Ann", "Bob"]}, "2025-01-04T18:00:00.000000Z")
    e2 = make_entry("example", 2, e1["hash"], actor, "judge.ruling", {"table": "t1", "round": 1, "words": ["quiz"], "acceptable": True}, "2025-01-04T18:05:00.000000Z")
    e3 = make_entry("example", 3, e2["hash"], actor, "token.revoked", {"id": "0a1b2c3d"}, "2025-01-04T18:10:00.000000Z")
    leaves = [entry_leaf(e["hash"]) for e in (e1, e2, e3)]
    timestamp = "2025-01-04T18:10:01.000000Z"
    return {
        "entry 1 canonical": canonical({k: v for k, v in e1.items() if k != "hash"}),
        "hashes": [e["hash"] for e in (e1, e2, e3)],
        "leaves": [leaf.hex() for leaf in leaves],
        "root 2": root(leaves[:2]).hex(),
        "root 3": root(leaves).hex(),
        "inclusion 2 in 3": [p.hex() for p in inclusion_proof(leaves, 1)],
        "consistency 2 to 3": [p.hex() for p in consistency_proof(leaves, 2)],
        "message": message("example", 3, root(leaves).hex(), timestamp),
        "checkpoint": Signer(KEY).checkpoint("example", 3, root(leaves).hex(), timestamp),
        "public key": public_pem(KEY.public_key()),
        "entries": [e1, e2, e3],
    }


EXAMPLE = {
    "hashes": [
        "4b54ab4477eef22dae65df5511a8d9e788d9158ffa34411c3f42c6fa28790fb1",
        "c508f9e749e13ca7e831678833e3ef60779ffc5bfe98b7fe7b442cfff64e7a55",
        "5cc8e0831cbf50c9d90ff2c479563910e86467f2814400566abc5bd002444a07",
    ],
    "leaves": [
        "14fc17db5e00ef65d10fe12510205d7864f9ab4da3129fdbfac139e926b75f78",
        "79dc5b9cb7fd4b6e6bc8f6f209f1470982427367a32a298565533dc5b6abef77",
        "f2bd19bebeeaa4840b05e5752ffa7986f62aa61fcd5f3a1d2d1711cd039ab8db",
    ],
    "root 2": "db883d55ce4696397e5ce919fa991e18aaf3d6875686e8a5dd5bda7e03e658ae",
    "root 3": "d797f91f3a9d82b28a71d50c544af173d7cebf1ed49ac5ddf8881ec4fa883577",
    "key id": "56475aa75463474c",
    "signature": "wHiMj3TsvEIy51RF94bSi/lPLoarqtjsyyCAh7DF4NHemQfI0O/D5URS5oB4+TKM080LgRYJQGYeFjuWoulMDw==",
    "public key": "MCowBQYDK2VwAyEAA6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=",
}
DOC = (Path(__file__).resolve().parents[1] / "docs" / "ledger.md").read_text(encoding="utf-8")


def test_the_worked_example_s_numbers_are_these_and_the_document_s() -> None:
    example = worked_example()
    assert example["hashes"] == EXAMPLE["hashes"] and example["leaves"] == EXAMPLE["leaves"]
    assert (example["root 2"], example["root 3"]) == (EXAMPLE["root 2"], EXAMPLE["root 3"])
    assert example["inclusion 2 in 3"] == [EXAMPLE["leaves"][0], EXAMPLE["leaves"][2]]
    assert example["consistency 2 to 3"] == [EXAMPLE["leaves"][2]]
    assert example["message"] == f"wordsvc-checkpoint/v1\nexample\n3\n{EXAMPLE['root 3']}\n2025-01-04T18:10:01.000000Z\n".encode("ascii")
    assert len(example["message"]) == 125 and "(125 bytes)" in DOC
    assert (example["checkpoint"]["key_id"], example["checkpoint"]["signature"]) == (EXAMPLE["key id"], EXAMPLE["signature"])
    assert EXAMPLE["public key"] in example["public key"]
    assert base64.b64decode(EXAMPLE["public key"])[-32:].hex() == "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"
    missing = [v for v in [example["entry 1 canonical"], *EXAMPLE["hashes"], *EXAMPLE["leaves"], EXAMPLE["root 2"], EXAMPLE["root 3"], EXAMPLE["key id"], EXAMPLE["signature"], EXAMPLE["public key"]] if v not in DOC]
    assert missing == []


def test_the_worked_example_verifies_as_the_document_s_steps_say() -> None:
    example = worked_example()
    checkpoint = example["checkpoint"]
    receipt = {"event": "example", "seq": 2, "entry_hash": EXAMPLE["hashes"][1], "tree_size": 3, "root": EXAMPLE["root 3"], "checkpoint": checkpoint}
    key = public_key_from_pem(example["public key"])
    assert check(receipt, "example", example["entries"], [key]) == []
    assert "entry 3 was deleted" in check(receipt, "example", example["entries"][:2], [key])[0]

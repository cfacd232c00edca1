"""Entries appended behind the service's back: signed entries and sealed tokens catch each one, on SQLite and PostgreSQL.

The attacker here holds the database and the service's code, not its key:
``intruder`` is the ledger opened on the same database without a key, so
whatever it writes is chain-valid, its rows match their entries, and every
receipt taken before still holds (the log only grew). Each attack the outside
probe made is made this way or in SQL: a correction with its revision (the
standings change), a token with its row, a replayed entry, an admin token
in the house chain. ``wordsvc audit verify`` alone passes each; with the
public key it fails naming the entry; the service refuses to write after it
or sign a head ending with it (409) until an operator accepts the log
(``wordsvc audit accept``), and lets no forged token in.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import insert, select, update

from wordsvc.cli import main
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger, Unauthorized
from wordsvc.ledger._db.schema import audit, tokens
from wordsvc.ledger.integrity.audit import HOUSE, make_entry
from wordsvc.ledger.integrity.checkpoints import Signer, public_pem
from wordsvc.ledger.records.principals import hash_token
from wordsvc.ledger.records.store import audit_row

WORDS = ("cat", "dog", "tea", "eat")
LEXICON = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))
KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
_ids = itertools.count()


def play(number: int, word: str = "cat") -> RoundPlay:
    hand = number + 2
    return RoundPlay((PlayerPlay("ann", (tuple(word),), tuple("eeiioouu"[: hand - len(word)])), PlayerPlay("bob", (), tuple("bdfghjklmn"[:hand]))))


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def intruder(database_url: str) -> Iterator[Ledger]:
    """The service's code on the same database, without the key: what someone holding only the database can write."""
    opened = Ledger.open(database_url, lambda lang: LEXICON)
    yield opened
    opened.close()


@pytest.fixture
def event(ledger: Ledger) -> tuple[str, str]:
    """A fresh event with table t1 (ann, bob) and round 1 stored: its id and its director token."""
    created = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "Signed", f"sg{next(_ids)}")
    token = created["director_token"]["token"]
    director = ledger.tokens.authenticate(token)
    ledger.games.put_game(director, created["id"], "t1", ["ann", "bob"])
    ledger.rounds.submit_round(director, created["id"], "t1", 1, play(1))
    return created["id"], token


@pytest.fixture
def cli(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """``wordsvc ARGS`` in this process on the test's database, with the service's key (``key=True``) or none; ``(exit status, output)``."""
    (tmp_path / "ledger.key").write_bytes(KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    (tmp_path / "public.pem").write_text(public_pem(KEY.public_key()), encoding="ascii")

    def run(*args: str, key: bool = False) -> tuple[int, str]:
        monkeypatch.setenv("WORDSVC_DATABASE_URL", database_url)
        if key:
            monkeypatch.setenv("WORDSVC_LEDGER_KEY_FILE", str(tmp_path / "ledger.key"))
        else:
            monkeypatch.delenv("WORDSVC_LEDGER_KEY_FILE", raising=False)
        capsys.readouterr()
        code = main([a.replace("PUB", str(tmp_path / "public.pem")) for a in args])
        out = capsys.readouterr()
        return code, out.out + out.err

    return run


def _verify_line(out: str, event_id: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(f"event {event_id}:"))


# --- what the service writes carries its signature ------------------------------------------------------------


def test_every_entry_and_token_the_service_writes_carries_its_key_s_signature(ledger: Ledger, event, cli) -> None:
    event_id, token = event
    issued = ledger.tokens.issue_token(ledger.tokens.authenticate(token), event_id, "referee", "t1")
    assert {entry["key_id"] for entry in ledger.trail.log(event_id)} == {Signer(KEY).key_id}
    assert ledger.tokens.authenticate(issued["token"]).role == "referee"
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 0 and _verify_line(out, event_id) == f"event {event_id}: ok (1 round(s) not scored again: lexicon en-US 1 (111111111111) is not loaded here)", out


# --- the probe's three appended entries ---------------------------------------------------------------------


def test_a_correction_appended_without_the_key_fails_verify_naming_it_and_stops_every_write_and_signed_answer(ledger: Ledger, intruder: Ledger, event, cli, database_url) -> None:
    event_id, token = event
    etag = ledger.rounds.round(None, event_id, "t1", 1)["etag"]
    intruder.rounds.submit_round(intruder.tokens.authenticate(token), event_id, "t1", 1, play(1, "tea"), correction="forged", if_match=etag)  # the standings change
    forged = len(ledger.trail.log(event_id))
    code, out = cli("audit", "verify", event_id)
    assert code == 0, out  # the chain and the rows hold: the log only grew
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 1 and f"event {event_id}: FAILED: audit entry {forged}: unsigned" in out, out

    director = ledger.tokens.authenticate(token)
    fresh = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))  # a worker that reads the chain afresh
    try:
        for service in (ledger, fresh):
            for attempt in (
                lambda s: s.rounds.submit_round(director, event_id, "t1", 2, play(2)),
                lambda s: s.rulings.judge(director, event_id, "t1", 1, ["cat"]),
                lambda s: s.trail.checkpoint(None, event_id),
                lambda s: s.standings.standings(None, event_id),
                lambda s: s.transfer.export(director, event_id),
            ):
                with pytest.raises(Conflict, match=f"ends with entry {forged}, which this service did not sign") as refused:
                    attempt(service)
                assert refused.value.status == 409 and refused.value.problems == {"audit": [f"entry {forged} is not signed by the service's key"]}
    finally:
        fresh.close()
    assert len(ledger.trail.log(event_id)) == forged


def test_a_token_minted_in_the_database_lets_nobody_in_and_its_entry_fails_verify(ledger: Ledger, intruder: Ledger, event, cli) -> None:
    event_id, token = event
    minted = intruder.tokens.issue_token(intruder.tokens.authenticate(token), event_id, "director")["token"]  # a token.issued entry and a row whose secret is known
    with pytest.raises(Unauthorized):
        ledger.tokens.authenticate(minted)
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 1 and f"audit entry {len(ledger.trail.log(event_id))}: unsigned" in out, out
    with pytest.raises(Conflict, match="did not sign"):
        ledger.rounds.submit_round(ledger.tokens.authenticate(token), event_id, "t1", 2, play(2))


def test_a_replayed_entry_fails_its_signature_and_stops_the_service(ledger: Ledger, event, cli) -> None:
    event_id, token = event
    log = ledger.trail.log(event_id)
    stored = next(entry for entry in log if entry["action"] == "round.submitted")
    replay = make_entry(event_id, len(log) + 1, log[-1]["hash"], stored["actor"], stored["action"], stored["payload"], stored["at"])
    replay |= {"key_id": stored["key_id"], "signature": stored["signature"]}  # the genuine signature, copied
    with ledger.engine.begin() as conn:
        conn.execute(insert(audit).values(audit_row(replay)))
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 1 and f"audit entry {replay['seq']}: its signature does not verify with key {stored['key_id']}" in out, out
    with pytest.raises(Conflict, match=f"ends with entry {replay['seq']}"):
        ledger.rounds.submit_round(ledger.tokens.authenticate(token), event_id, "t1", 2, play(2))


def test_an_admin_token_minted_in_the_house_chain_lets_nobody_in(ledger: Ledger, intruder: Ledger, cli) -> None:
    ledger.tokens.create_admin_token("the house's own")
    _, minted = intruder.tokens.create_admin_token("minted")
    with pytest.raises(Unauthorized):
        ledger.tokens.authenticate(minted)
    code, out = cli("audit", "verify", "--public-key", "PUB")
    assert code == 1 and "admin tokens: FAILED: audit entry" in out and ": unsigned" in out, out
    with pytest.raises(Conflict, match="The admin tokens' chain ends with entry"):
        ledger.tokens.create_admin_token("another")
    code, out = cli("audit", "accept", "--house", "--upto", str(len(ledger.trail.log(HOUSE))), key=True)  # the operator judges it harmless
    assert code == 0, out
    assert ledger.tokens.authenticate(minted).role == "admin"  # sealed by the decision, which the audit records
    assert ledger.trail.log(HOUSE)[-1]["payload"]["tokens"]


def test_a_real_token_s_hash_replaced_in_its_row_lets_nobody_in(ledger: Ledger, event) -> None:
    event_id, token = event
    issued = ledger.tokens.issue_token(ledger.tokens.authenticate(token), event_id, "referee", "t1")
    known = f"wsv_{issued['id']}_{'A' * 43}"
    with ledger.engine.begin() as conn:
        conn.execute(update(tokens).where(tokens.c.id == issued["id"]).values(secret_sha256=hash_token(known)))
    with pytest.raises(Unauthorized):
        ledger.tokens.authenticate(known)
    assert ledger.trail.check(event_id).problems == [f"token {issued['id']}: its seal does not verify with key {Signer(KEY).key_id}: the row (its hash, role, event or table) was altered"]


# --- the operator's decision ---------------------------------------------------------------------------------


def test_an_operator_accepting_the_log_lets_the_service_write_again_and_the_decision_is_in_the_log(ledger: Ledger, intruder: Ledger, event, cli) -> None:
    event_id, token = event
    etag = ledger.rounds.round(None, event_id, "t1", 1)["etag"]
    intruder.rounds.submit_round(intruder.tokens.authenticate(token), event_id, "t1", 1, play(1, "tea"), correction="forged", if_match=etag)
    forged = len(ledger.trail.log(event_id))
    code, out = cli("audit", "accept", event_id, "--upto", str(forged - 1), key=True)
    assert code == 1 and f"holds {forged} entries, not {forged - 1}" in out, out
    code, out = cli("audit", "accept", event_id, "--upto", str(forged))
    assert code == 1 and "WORDSVC_LEDGER_KEY_FILE" in out, out
    code, out = cli("audit", "accept", event_id, "--upto", str(forged), key=True)
    assert code == 0 and f"event {event_id}: entries 1 to {forged} accepted in entry {forged + 1}" in out, out
    accepted = ledger.trail.log(event_id)[-1]
    assert (accepted["action"], accepted["payload"]["upto"], accepted["key_id"]) == ("audit.accepted", forged, Signer(KEY).key_id)
    director = ledger.tokens.authenticate(token)
    assert ledger.rounds.submit_round(director, event_id, "t1", 2, play(2)).status == 201
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 0 and f"entry {forged} not signed by key {Signer(KEY).key_id}: vouched for by entry {forged + 1} (audit.accepted)" in out, out
    code, out = cli("audit", "accept", event_id, "--upto", str(len(ledger.trail.log(event_id))), key=True)
    assert code == 0 and "nothing to accept" in out


def test_an_acceptance_covers_an_entry_whose_signature_fails_but_never_seals_an_altered_token_again(ledger: Ledger, event, cli) -> None:
    event_id, token = event
    issued = ledger.tokens.issue_token(ledger.tokens.authenticate(token), event_id, "referee", "t1")
    known = f"wsv_{issued['id']}_{'B' * 43}"
    with ledger.engine.begin() as conn:
        conn.execute(update(audit).where(audit.c.chain == event_id, audit.c.seq == 2).values(signature="A" * 86 + "=="))
        conn.execute(update(tokens).where(tokens.c.id == issued["id"]).values(secret_sha256=hash_token(known)))
    code, out = cli("audit", "verify", "--public-key", "PUB", event_id)
    assert code == 1 and "audit entry 2: its signature does not verify" in out, out
    size = len(ledger.trail.log(event_id))
    code, out = cli("audit", "accept", event_id, "--upto", str(size), key=True)
    assert code == 0 and f"entries 1 to {size} accepted in entry {size + 1}" in out, out
    with pytest.raises(Unauthorized):
        ledger.tokens.authenticate(known)
    assert ledger.trail.check(event_id).problems == [f"token {issued['id']}: its seal does not verify with key {Signer(KEY).key_id}: the row (its hash, role, event or table) was altered"]
    ledger.tokens.revoke_token(ledger.tokens.authenticate(token), event_id, issued["id"])  # the director's answer to it
    found = ledger.trail.check(event_id)
    assert found.problems == [] and f"entry 2 not signed by key {Signer(KEY).key_id}: vouched for by entry {size + 1} (audit.accepted)" in found.notes


def test_entries_and_tokens_from_before_signing_wait_for_the_operator_then_work(ledger: Ledger, event, cli, database_url: str) -> None:
    event_id, token = event
    with ledger.engine.begin() as conn:  # as migration 0004 leaves what was written before it
        conn.execute(update(audit).where(audit.c.chain == event_id).values(key_id=None, signature=None))
        conn.execute(update(tokens).where(tokens.c.event_id == event_id).values(key_id=None, signature=None))
    upgraded = Ledger.open(database_url, lambda lang: LEXICON, signer=Signer(KEY))
    try:
        with pytest.raises(Unauthorized):
            upgraded.tokens.authenticate(token)
        with pytest.raises(Conflict, match="did not sign"):
            upgraded.trail.checkpoint(None, event_id)
        _, out = cli("audit", "accept", "--all", key=True)  # every chain of the module's database: this event's line is the one to read
        assert f"event {event_id}: entries 1 to 4 accepted in entry 5" in out, out
        assert upgraded.rounds.submit_round(upgraded.tokens.authenticate(token), event_id, "t1", 2, play(2)).status == 201
    finally:
        upgraded.close()


# --- keys ----------------------------------------------------------------------------------------------------


def test_after_a_rotation_the_old_key_s_entries_count_only_while_its_public_key_is_listed(event, database_url: str) -> None:
    event_id, token = event
    new = Ed25519PrivateKey.generate()
    for signer, writes in ((Signer(new), False), (Signer(new, [KEY.public_key()]), True)):
        rotated = Ledger.open(database_url, lambda lang: LEXICON, signer=signer)
        try:
            if not writes:
                with pytest.raises(Unauthorized):  # the director token is sealed by the old key
                    rotated.tokens.authenticate(token)
                continue
            assert rotated.rounds.submit_round(rotated.tokens.authenticate(token), event_id, "t1", 2, play(2)).status == 201
            assert rotated.trail.log(event_id)[-1]["key_id"] == Signer(new).key_id
            assert rotated.trail.check(event_id).problems == []
        finally:
            rotated.close()


def test_an_export_carries_each_entry_s_signature_and_an_import_checks_those_of_keys_it_trusts(ledger: Ledger, event, tmp_path: Path) -> None:
    event_id, token = event
    exported = ledger.transfer.export(ledger.tokens.authenticate(token), event_id)
    assert all(entry["signature"] for entry in exported["audit"])
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", lambda lang: LEXICON, signer=Signer(KEY))
    try:
        tampered = json.loads(json.dumps(exported))
        tampered["audit"][1]["signature"] = exported["audit"][2]["signature"]
        with pytest.raises(Exception, match="audit entry 2: its signature does not verify"):
            elsewhere.transfer.import_event(LOCAL, tampered)
        elsewhere.transfer.import_event(LOCAL, exported)
        assert elsewhere.trail.check(event_id).problems == []
    finally:
        elsewhere.close()
    other = Ledger.open(f"sqlite:///{tmp_path / 'other.sqlite3'}", lambda lang: LEXICON, signer=Signer(Ed25519PrivateKey.generate()))
    try:  # another service's key: its signatures are not checked here, and its own import entry vouches for them
        other.transfer.import_event(LOCAL, exported)
        found = other.trail.check(event_id)
        assert found.problems == [] and any("vouched for by entry" in note and "(event.imported)" in note for note in found.notes)
    finally:
        other.close()


def test_without_a_key_nothing_is_signed_and_nothing_is_refused(intruder: Ledger) -> None:
    created = intruder.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "Unsigned", f"us{next(_ids)}")
    director = intruder.tokens.authenticate(created["director_token"]["token"])
    intruder.games.put_game(director, created["id"], "t1", ["ann", "bob"])
    assert {(e["key_id"], e["signature"]) for e in intruder.trail.log(created["id"])} == {(None, None)}
    with intruder.engine.connect() as conn:
        assert conn.execute(select(tokens.c.signature).where(tokens.c.event_id == created["id"])).scalar_one() is None


def test_earlier_public_keys_are_read_from_the_files_the_setting_names(tmp_path: Path) -> None:
    from wordsvc.config import Settings
    from wordsvc.ledger.integrity.checkpoints import KeyFileError, key_id

    old = Ed25519PrivateKey.generate()
    (tmp_path / "old.pem").write_text(public_pem(old.public_key()), encoding="ascii")
    (tmp_path / "ledger.key").write_bytes(KEY.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    settings = Settings.from_env({"WORDSVC_LEDGER_KEY_FILE": str(tmp_path / "ledger.key"), "WORDSVC_LEDGER_PUBLIC_KEYS": f" {tmp_path / 'old.pem'} ,"})
    assert settings.ledger_public_keys == (tmp_path / "old.pem",)
    signer = Signer.from_file(settings.ledger_key_file, settings.ledger_public_keys)
    assert set(signer.trusted) == {key_id(KEY.public_key()), key_id(old.public_key())} and signer.key_id == key_id(KEY.public_key())
    with pytest.raises(KeyFileError, match=r"missing\.pem"):
        Signer.from_file(settings.ledger_key_file, [tmp_path / "missing.pem"])

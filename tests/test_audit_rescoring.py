"""What holds results to their plays and an export to its own head, on SQLite and PostgreSQL.

Two players' totals swapped in the database, with the entry rewritten and
every later hash recomputed, pass the chain and the rows; ``audit verify``
scores every round again and names the revision. A round is scored with
the lexicon the event had when it was stored, so an event that accepted a
new lexicon verifies and imports. An export cut short under its own
checkpoint (its newest entries and their rows dropped, the checkpoint kept)
is refused by an import.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterator

import pytest
from sqlalchemy import delete, select, update

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Ledger
from wordsvc.ledger._db.canonical import canonical, sha256_of
from wordsvc.ledger._db.schema import audit, revisions
from wordsvc.ledger.integrity.audit import entry_hash
from wordsvc.ledger.records.store import entry_of

WORDS = ("cat", "dog", "tea", "eat")
OLD = MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))
NEW = MemoryLexicon({w: [()] for w in WORDS if w != "dog"}, LexiconInfo(id="en-US", lang="en-US", version="2", sha256="2" * 64, fold_diacritics=True))
_ids = itertools.count()


class Loaded:
    """The lexicon a service has loaded, swapped as a new build would be."""

    def __init__(self) -> None:
        self.lexicon = OLD

    def __call__(self, lang: str) -> MemoryLexicon:
        return self.lexicon


@pytest.fixture(scope="module")
def loaded() -> Loaded:
    return Loaded()


@pytest.fixture(scope="module")
def ledger(database_url: str, loaded: Loaded) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, loaded)
    yield opened
    opened.close()


@pytest.fixture
def event(ledger: Ledger, loaded: Loaded) -> tuple[str, object]:
    """An event with table t1 (ann, bob) and round 1 stored, ann 9 ahead of bob."""
    loaded.lexicon = OLD
    created = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), OLD, "Scores", f"sc{next(_ids)}")
    director = ledger.tokens.authenticate(created["director_token"]["token"])
    ledger.games.put_game(director, created["id"], "t1", ["ann", "bob"])
    ledger.rounds.submit_round(director, created["id"], "t1", 1, RoundPlay((PlayerPlay("ann", (tuple("cat"),)), PlayerPlay("bob", (tuple("do"),), ("g",)))))
    return created["id"], director


def _rechain(entries: list[dict]) -> list[dict]:
    prev = "0" * 64
    for entry in entries:
        entry["prev"] = prev
        entry["hash"] = prev = entry_hash(entry)
    return entries


def test_totals_swapped_with_the_chain_recomputed_fail_verify_naming_the_revision(ledger: Ledger, event) -> None:
    event_id, _ = event
    with ledger.engine.begin() as conn:
        row = conn.execute(select(revisions).where(revisions.c.event_id == event_id)).one()
        result = json.loads(row.result_json)
        ann, bob = result["players"]
        ann["total"], bob["total"] = bob["total"], ann["total"]
        conn.execute(update(revisions).where(revisions.c.event_id == event_id).values(
            result_json=canonical(result), totals_json=canonical({ann["name"]: ann["total"], bob["name"]: bob["total"]})
        ))  # fmt: skip
        entries = [entry_of(r) for r in conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq))]
        for entry in entries:
            if entry["action"] == "round.submitted":
                entry["payload"]["result_sha256"] = sha256_of(result)
        for entry in _rechain(entries):
            conn.execute(update(audit).where(audit.c.chain == event_id, audit.c.seq == entry["seq"]).values(
                payload_json=canonical(entry["payload"]), prev_hash=entry["prev"], hash=entry["hash"]
            ))  # fmt: skip
    assert ledger.trail.verify(event_id) == ["revision 1 of game t1 round 1: its result is not the score of its play under the event's ruleset and lexicon en-US 1 (111111111111)"]


def test_a_round_is_held_to_the_lexicon_the_event_had_when_it_was_stored(ledger: Ledger, loaded: Loaded, event, tmp_path) -> None:
    event_id, director = event
    ledger.rounds.submit_round(director, event_id, "t1", 2, RoundPlay((PlayerPlay("ann", (tuple("dog"),), ("e",)), PlayerPlay("bob", (), tuple("bcdf")))))
    loaded.lexicon = NEW  # a new build, where DOG is no word
    ledger.events.accept_lexicon(director, event_id)
    ledger.rounds.submit_round(director, event_id, "t1", 3, RoundPlay((PlayerPlay("ann", (tuple("dog"),), ("e", "i")), PlayerPlay("bob", (), tuple("bcdfg")))))
    assert ledger.trail.verify(event_id) == []
    document = ledger.transfer.export(director, event_id)
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", lambda lang: NEW)
    try:
        imported = elsewhere.transfer.import_event(LOCAL, document)  # rounds 1 and 2 under version 1 (not loaded there), round 3 under version 2
        assert elsewhere.trail.verify(imported["id"]) == []
        found = elsewhere.trail.check(imported["id"])
        assert "2 round(s) not scored again: lexicon en-US 1 (111111111111) is not loaded here" in found.notes
        forged = copy.deepcopy(document)
        forged.pop("checkpoint")
        forged["revisions"][-1]["result"]["lexicon"] = OLD.info.stamp()  # round 3 claims the lexicon the event no longer had
        third = Ledger.open(f"sqlite:///{tmp_path / 'third.sqlite3'}", lambda lang: NEW)
        with pytest.raises(InvalidRequest) as refused:
            third.transfer.import_event(LOCAL, forged)
        third.close()
        assert "revisions.2.result.lexicon" in refused.value.problems
    finally:
        elsewhere.close()


def test_an_export_cut_short_under_its_own_checkpoint_is_refused(ledger: Ledger, event, tmp_path) -> None:
    event_id, director = event
    ledger.rounds.submit_round(director, event_id, "t1", 2, RoundPlay((PlayerPlay("ann", (tuple("tea"),), ("e",)), PlayerPlay("bob", (), tuple("bcdf")))))
    document = ledger.transfer.export(director, event_id)
    cut = copy.deepcopy(document)  # round 2 dropped with its entry: what is left verifies
    cut["audit"] = [entry for entry in cut["audit"] if entry["payload"].get("round") != 2]
    cut["revisions"] = [row for row in cut["revisions"] if row["round"] != 2]
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", lambda lang: OLD)
    try:
        with pytest.raises(InvalidRequest, match="the log holds 4 entries, fewer than the 5 its checkpoint") as refused:
            elsewhere.transfer.import_event(LOCAL, cut)
        assert list(refused.value.problems) == ["checkpoint"]
        grown = copy.deepcopy(document)  # an entry added after the export was made
        grown["audit"].append(_rechain([*copy.deepcopy(document["audit"]), {**document["audit"][-1], "seq": 6}])[-1])
        with pytest.raises(InvalidRequest, match="covers 5 entries, the export holds 6"):
            elsewhere.transfer.import_event(LOCAL, grown)
        assert elsewhere.transfer.import_event(LOCAL, document)["id"] == event_id
    finally:
        elsewhere.close()
    with ledger.engine.begin() as conn:  # the cut log in the database passes verify alone: only a checkpoint shows the tail went
        conn.execute(delete(audit).where(audit.c.chain == event_id, audit.c.seq == 5))
        conn.execute(delete(revisions).where(revisions.c.event_id == event_id, revisions.c.round == 2))
    assert ledger.trail.verify(event_id) == []

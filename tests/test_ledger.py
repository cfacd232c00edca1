"""The ledger's rules on both back ends (SQLite and a real PostgreSQL): snapshots, idempotent rounds, corrections,
standings, roles, the audit chain and what tampering with the tables does to it.

Each test makes its own event in the module's database, so the tests do not depend on one another.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete, func, inspect, select, update

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import Challenge, PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets, ruleset_document, ruleset_from_document
from wordsvc.ledger import LOCAL, Conflict, Forbidden, Ledger, NotFound, PreconditionFailed, PreconditionRequired, Principal, Unauthorized, connect
from wordsvc.ledger._db.canonical import canonical
from wordsvc.ledger._db.database import backup, head_revision, upgrade
from wordsvc.ledger._db.schema import audit, events, metadata, revisions, tokens

WORDS = ("cat", "dog", "quiz", "tea", "eat", "ate", "the", "rain", "ran", "art", "rat", "tar")
_ids = itertools.count()


def _lexicon(version: str) -> MemoryLexicon:
    return MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id="en-US", lang="en-US", version=version, sha256=version * 64, fold_diacritics=True))


class Lexicons:
    """The loaded lexicon, which a test can swap as a rebuilt word list would."""

    def __init__(self) -> None:
        self.current = _lexicon("1")

    def __call__(self, lang: str) -> MemoryLexicon:
        return self.current


@pytest.fixture(scope="module")
def rulesets():
    return load_rulesets()


@pytest.fixture(scope="module")
def lexicons() -> Lexicons:
    return Lexicons()


@pytest.fixture(scope="module")
def ledger(database_url: str, lexicons: Lexicons) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lexicons)
    yield opened
    opened.close()


@pytest.fixture
def event(ledger: Ledger, rulesets, lexicons: Lexicons) -> dict:
    """A fresh event with one table (ann, bob, cy) and its director principal."""
    lexicons.current = _lexicon("1")
    view = ledger.events.create_event(LOCAL, rulesets.get("standard"), lexicons.current, "Club night", f"ev{next(_ids)}")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    ledger.games.put_game(director, view["id"], "t1", ["ann", "bob", "cy"])
    return {"id": view["id"], "director": director, "view": view}


def play(*players: tuple[str, list[str], str]) -> RoundPlay:
    """``play(("ann", ["cat"], "e"), ...)``: each player's words (plain letters) and unused cards (a string of letters)."""
    return RoundPlay(tuple(PlayerPlay(name, tuple(tuple(w) for w in words), tuple(unused)) for name, words, unused in players))


ROUND_1 = play(("ann", ["cat"], ""), ("bob", ["do"], "g"), ("cy", [], "tea"))  # 3 cards each in round 1


def referee(ledger: Ledger, event: dict, table: str | None = "t1") -> Principal:
    return ledger.tokens.authenticate(ledger.tokens.issue_token(event["director"], event["id"], "referee", table)["token"])


def test_the_migrations_make_the_schema_the_code_describes(database_url: str) -> None:
    engine = connect(database_url)
    try:
        assert upgrade(engine) == head_revision() == "0005"
        found = inspect(engine)
        for table in metadata.sorted_tables:
            assert {c["name"] for c in found.get_columns(table.name)} == {c.name for c in table.columns}, table.name
            assert set(found.get_pk_constraint(table.name)["constrained_columns"]) == {c.name for c in table.primary_key}, table.name
        assert upgrade(engine) == "0005"  # a second run changes nothing
    finally:
        engine.dispose()


def test_sqlite_runs_in_wal_mode_with_full_sync(tmp_path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    engine.dispose()


def test_an_event_snapshots_its_ruleset_and_lexicon(ledger: Ledger, event: dict, rulesets) -> None:
    view = ledger.events.event(None, event["id"])
    standard = rulesets.get("standard")
    assert view["ruleset"]["snapshot"] == ruleset_document(standard)
    assert ruleset_document(ruleset_from_document("standard", view["ruleset"]["snapshot"])) == view["ruleset"]["snapshot"]
    assert view["lexicon"] == {"id": "en-US", "version": "1", "sha256": "1" * 64}
    assert view["games"] == [{"id": "t1", "players": ["ann", "bob", "cy"], "rounds_played": 0}]


def test_rounds_are_scored_under_the_snapshot_not_the_yaml_on_disk(ledger: Ledger, rulesets, lexicons: Lexicons) -> None:
    document = ruleset_document(rulesets.get("standard"))
    document["deck"]["c"]["value"] = 50  # the YAML on the day the event began; rulesets/ says C is 8 today
    then = ruleset_from_document("standard", document)
    view = ledger.events.create_event(LOCAL, then, lexicons.current, "Snapshot", f"ev{next(_ids)}")
    ledger.games.put_game(LOCAL, view["id"], "t1", ["ann", "bob", "cy"])
    ann = ledger.rounds.submit_round(LOCAL, view["id"], "t1", 1, ROUND_1).round["result"]["players"][0]
    assert rulesets.get("standard").deck.value("c") == 8
    assert ann["word_points"] == 50 + 2 + 3  # C A T under the snapshot


def test_a_round_is_idempotent_and_a_different_play_conflicts(ledger: Ledger, event: dict) -> None:
    ref = referee(ledger, event)
    first = ledger.rounds.submit_round(ref, event["id"], "t1", 1, ROUND_1)
    assert first.status == 201 and first.round["revision"] == 1
    again = ledger.rounds.submit_round(ref, event["id"], "t1", 1, ROUND_1)
    assert again.status == 200 and again.round["result"] == first.round["result"]
    same_cards_other_notation = play(("ann", ["cat"], ""), ("bob", ["do"], "g"), ("cy", [], "tea"))
    assert ledger.rounds.submit_round(ref, event["id"], "t1", 1, same_cards_other_notation).status == 200
    with pytest.raises(Conflict):
        ledger.rounds.submit_round(ref, event["id"], "t1", 1, play(("ann", ["cat"], ""), ("bob", ["dog"], ""), ("cy", [], "tea")))
    assert ledger.rounds.round(None, event["id"], "t1", 1)["revisions"] == 1


def test_the_same_play_sent_in_another_order_is_the_same_play(ledger: Ledger, rulesets, lexicons: Lexicons) -> None:
    """Players, a player's words, the unused cards and the challenges carry no order: a re-send in any order is the repeat (200)."""
    view = ledger.events.create_event(LOCAL, rulesets.get("challenge"), lexicons.current, "Challenges", f"ev{next(_ids)}")
    event = {"id": view["id"], "director": ledger.tokens.authenticate(view["director_token"]["token"])}
    ledger.games.put_game(event["director"], event["id"], "t1", ["ann", "bob", "cy"])
    ref = referee(ledger, event)
    sent = RoundPlay(
        (
            PlayerPlay("ann", (tuple("an"), tuple("at")), ()),
            PlayerPlay("bob", (tuple("do"),), tuple("gs")),
            PlayerPlay("cy", (), tuple("teas")),
        ),
        challenges=(Challenge("bob", "ann", 0),),
    )
    first = ledger.rounds.submit_round(ref, event["id"], "t1", 2, sent)
    assert first.status == 201
    shuffled = RoundPlay(
        (
            PlayerPlay("cy", (), tuple("eats")),
            PlayerPlay("ann", (tuple("at"), tuple("an")), ()),  # AN is now word 1: the challenge follows it
            PlayerPlay("bob", (tuple("do"),), tuple("sg")),
        ),
        challenges=(Challenge("bob", "ann", 1),),
    )
    again = ledger.rounds.submit_round(ref, event["id"], "t1", 2, shuffled)
    assert again.status == 200 and again.round["result"] == first.round["result"] and again.round["etag"] == first.round["etag"]
    other = RoundPlay(shuffled.players, challenges=(Challenge("bob", "ann", 0),))  # the challenge now names AT: another play
    with pytest.raises(Conflict):
        ledger.rounds.submit_round(ref, event["id"], "t1", 2, other)
    stored = ledger.rounds.round(None, event["id"], "t1", 2)
    assert [p["name"] for p in stored["history"][0]["body"]["players"]] == ["ann", "bob", "cy"]  # seat order


def test_if_match_star_corrects_whatever_revision_is_current(ledger: Ledger, event: dict) -> None:
    ledger.rounds.submit_round(referee(ledger, event), event["id"], "t1", 1, ROUND_1)
    fixed = play(("ann", ["cat"], ""), ("bob", ["dog"], ""), ("cy", [], "tea"))
    assert ledger.rounds.submit_round(event["director"], event["id"], "t1", 1, fixed, correction="bob laid DOG", if_match="*").round["revision"] == 2
    with pytest.raises(NotFound):  # no current representation: nothing for * to match
        ledger.rounds.submit_round(event["director"], event["id"], "t1", 2, ROUND_2, correction="none yet", if_match="*")


def _meanwhile(ledger: Ledger, monkeypatch: pytest.MonkeyPatch, other: Callable[[], object]) -> None:
    """Run ``other`` (another request's write) once, right after the next submission has read the table and before it writes."""
    read = ledger.readers.read
    pending = [other]

    def read_then_write_elsewhere(query):  # type: ignore[no-untyped-def]
        found = read(query)
        if pending:
            pending.pop()()
        return found

    monkeypatch.setattr(ledger.readers, "read", read_then_write_elsewhere)


ROUND_2 = play(("ann", ["rain"], ""), ("bob", ["eat"], "s"), ("cy", [], "tart"))


def test_a_round_written_while_another_round_of_the_table_was_stored_counts_it(ledger: Ledger, event: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, ev = referee(ledger, event), event["id"]
    _meanwhile(ledger, monkeypatch, lambda: ledger.rounds.submit_round(ref, ev, "t1", 1, ROUND_1))
    second = ledger.rounds.submit_round(ref, ev, "t1", 2, ROUND_2)
    assert second.status == 201
    assert second.round["running_totals"] == ledger.rounds.round(None, ev, "t1", 2)["running_totals"]
    first = ledger.rounds.round(None, ev, "t1", 1)["result"]["players"]
    assert [line["total"] for line in second.round["running_totals"]] == [a["total"] + b["total"] for a, b in zip(first, second.round["result"]["players"], strict=True)]


def test_a_round_stored_by_another_request_meanwhile_is_answered_as_a_repeat_or_a_conflict(ledger: Ledger, event: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    ref, ev = referee(ledger, event), event["id"]
    _meanwhile(ledger, monkeypatch, lambda: ledger.rounds.submit_round(ref, ev, "t1", 1, ROUND_1))
    same = ledger.rounds.submit_round(ref, ev, "t1", 1, ROUND_1)
    assert same.status == 200 and same.round["revision"] == 1
    _meanwhile(ledger, monkeypatch, lambda: ledger.rounds.submit_round(ref, ev, "t1", 2, ROUND_2))
    with pytest.raises(Conflict):
        ledger.rounds.submit_round(ref, ev, "t1", 2, play(("ann", ["rain"], ""), ("bob", ["eats"], ""), ("cy", [], "tart")))
    assert [r["revisions"] for r in ledger.games.game(None, ev, "t1")["rounds"]] == [1, 1]
    assert ledger.trail.verify(ev) == []


def test_a_correction_keeps_the_old_revision_and_moves_every_later_total(ledger: Ledger, event: dict) -> None:
    director, ev = event["director"], event["id"]
    ledger.rounds.submit_round(director, ev, "t1", 1, ROUND_1)
    round_2 = play(("ann", ["rain"], ""), ("bob", ["eat"], "s"), ("cy", [], "tart"))
    ledger.rounds.submit_round(director, ev, "t1", 2, round_2)
    before = {row["player"]: row["total"] for row in ledger.standings.standings(None, ev)["standings"]}
    etag = ledger.rounds.round(None, ev, "t1", 1)["etag"]
    corrected = play(("ann", ["cat"], ""), ("bob", ["dog"], ""), ("cy", [], "tea"))
    with pytest.raises(PreconditionRequired):
        ledger.rounds.submit_round(director, ev, "t1", 1, corrected, "bob laid dog", None)
    with pytest.raises(PreconditionFailed):
        ledger.rounds.submit_round(director, ev, "t1", 1, corrected, "bob laid dog", '"0000"')
    with pytest.raises(Forbidden):
        ledger.rounds.submit_round(referee(ledger, event), ev, "t1", 1, corrected, "bob laid dog", etag)
    done = ledger.rounds.submit_round(director, ev, "t1", 1, corrected, "bob laid dog", etag)
    assert done.status == 200 and done.round["revision"] == 2 and done.round["etag"] != etag
    history = ledger.rounds.round(None, ev, "t1", 1)["history"]
    assert [h["revision"] for h in history] == [1, 2] and history[1]["reason"] == "bob laid dog"
    after = {row["player"]: row["total"] for row in ledger.standings.standings(None, ev)["standings"]}
    bob_gain = ledger.rounds.round(None, ev, "t1", 1)["result"]["players"][1]["total"] - history[0]["result"]["players"][1]["total"]
    assert bob_gain != 0 and after["bob"] == before["bob"] + bob_gain
    assert ledger.rounds.round(None, ev, "t1", 2)["running_totals"][1]["total"] == after["bob"]  # round 2's running total follows
    with pytest.raises(PreconditionFailed):  # the old ETag is stale now
        ledger.rounds.submit_round(director, ev, "t1", 1, ROUND_1, "back", etag)
    with pytest.raises(InvalidRequest, match="changes nothing"):
        ledger.rounds.submit_round(director, ev, "t1", 1, corrected, "again", done.round["etag"])
    assert ledger.trail.verify(ev) == []


def test_a_round_the_table_cannot_have_played_lists_every_problem(ledger: Ledger, event: dict) -> None:
    bad = play(("ann", ["cat"], "e"), ("zed", ["dog"], ""), ("cy", [], "zzzz"))
    with pytest.raises(InvalidRequest) as err:
        ledger.rounds.submit_round(event["director"], event["id"], "t1", 1, bad)
    problems = err.value.problems
    assert "holds 4 card(s); round 1 deals 3" in problems["players.0"][0]
    assert "not seated at table t1" in problems["players.1.name"][0]
    assert any("bob is seated" in m for m in problems["players"]) and any("Z cards in play" in m for m in problems["players"])
    assert ledger.games.game(None, event["id"], "t1")["rounds"] == []


def test_standings_rank_ties_together(ledger: Ledger, event: dict) -> None:
    ev = event["id"]
    ledger.games.put_game(event["director"], ev, "t2", ["dee", "eve"])
    ledger.rounds.submit_round(event["director"], ev, "t1", 1, play(("ann", ["cat"], ""), ("bob", ["cat"], ""), ("cy", [], "tea")))
    ledger.rounds.submit_round(event["director"], ev, "t2", 1, play(("dee", ["tea"], ""), ("eve", [], "dog")))
    rows = ledger.standings.standings(None, ev)["standings"]
    ranks = {(r["player"], r["table"]): (r["rank"], r["total"], r["rounds"]) for r in rows}
    assert [r["total"] for r in rows] == sorted((r["total"] for r in rows), reverse=True)
    assert ranks[("dee", "t2")] == (1, 27, 1)  # tea (T 3, E 2, A 2) and, the only word at a table of two, both bonuses
    assert ranks[("ann", "t1")][:2] == ranks[("bob", "t1")][:2] == (2, 13)  # cat and cat (C 8, A 2, T 3), bonuses tied: second, both
    assert ranks[("eve", "t2")][0] == ranks[("cy", "t1")][0] == 4  # after two tied for second comes fourth


def test_who_may_do_what(ledger: Ledger, event: dict, rulesets, lexicons: Lexicons) -> None:
    ev, director = event["id"], event["director"]
    ledger.games.put_game(director, ev, "t2", ["dee", "eve"])
    t2_referee, viewer = referee(ledger, event, "t2"), ledger.tokens.authenticate(ledger.tokens.issue_token(director, ev, "viewer")["token"])
    other = ledger.events.create_event(LOCAL, rulesets.get("standard"), lexicons.current, "Other", f"ev{next(_ids)}")
    other_director = ledger.tokens.authenticate(other["director_token"]["token"])
    with pytest.raises(Unauthorized):
        ledger.rounds.submit_round(None, ev, "t1", 1, ROUND_1)
    for actor in (t2_referee, viewer, other_director):
        with pytest.raises(Forbidden):
            ledger.rounds.submit_round(actor, ev, "t1", 1, ROUND_1)
    for actor in (director, viewer, t2_referee):
        with pytest.raises(Forbidden):
            ledger.events.create_event(actor, rulesets.get("standard"), lexicons.current, "Mine")
    with pytest.raises(Forbidden):
        ledger.tokens.issue_token(t2_referee, ev, "referee")
    with pytest.raises(Forbidden):
        ledger.transfer.export(viewer, ev)
    assert ledger.rounds.submit_round(referee(ledger, event, None), ev, "t1", 1, ROUND_1).status == 201  # an any-table referee


def test_private_events_need_a_token_of_the_event(ledger: Ledger, rulesets, lexicons: Lexicons) -> None:
    view = ledger.events.create_event(LOCAL, rulesets.get("standard"), lexicons.current, "Closed", f"ev{next(_ids)}", private=True)
    ev, director = view["id"], ledger.tokens.authenticate(view["director_token"]["token"])
    viewer = ledger.tokens.authenticate(ledger.tokens.issue_token(director, ev, "viewer")["token"])
    with pytest.raises(Unauthorized):
        ledger.standings.standings(None, ev)
    other = ledger.events.create_event(LOCAL, rulesets.get("standard"), lexicons.current, "Other", f"ev{next(_ids)}")
    with pytest.raises(Forbidden):
        ledger.games.game(ledger.tokens.authenticate(other["director_token"]["token"]), ev, "t1")
    assert ledger.standings.standings(viewer, ev)["standings"] == []


def test_tokens_are_stored_as_hashes_and_die_when_revoked(ledger: Ledger, event: dict) -> None:
    issued = ledger.tokens.issue_token(event["director"], event["id"], "referee", "t1")
    with ledger.engine.connect() as conn:
        stored = conn.execute(select(tokens).where(tokens.c.id == issued["id"])).one()
    assert issued["token"] not in canonical(list(stored)) and len(issued["token"]) >= 43
    assert ledger.tokens.authenticate(issued["token"]).role == "referee"
    ledger.tokens.revoke_token(event["director"], event["id"], issued["id"])
    for token in (issued["token"], issued["token"][:-1] + "A", "wsv_00000000_" + "A" * 43, "not a token"):
        with pytest.raises(Unauthorized) as err:
            ledger.tokens.authenticate(token)
        assert err.value.detail == "The bearer token is not valid."  # one answer, whether the id exists or not


def test_a_changed_lexicon_blocks_submissions_until_a_director_accepts_it(ledger: Ledger, event: dict, lexicons: Lexicons) -> None:
    ev = event["id"]
    lexicons.current = _lexicon("2")
    with pytest.raises(Conflict) as err:
        ledger.rounds.submit_round(event["director"], ev, "t1", 1, ROUND_1)
    assert err.value.problems["lexicon"] == [f"event: {canonical(_lexicon('1').info.stamp())}", f"loaded: {canonical(_lexicon('2').info.stamp())}"]
    with pytest.raises(Conflict):
        ledger.rulings.judge(event["director"], ev, "t1", 1, ["cat"])
    with pytest.raises(Forbidden):
        ledger.events.accept_lexicon(referee(ledger, event), ev)
    assert ledger.events.accept_lexicon(event["director"], ev)["lexicon"]["version"] == "2"
    assert ledger.rounds.submit_round(event["director"], ev, "t1", 1, ROUND_1).status == 201
    actions = [e["action"] for e in ledger.trail.audit_entries(None, ev)["entries"]]
    assert "lexicon.accepted" in actions and ledger.trail.verify(ev) == []


def test_a_closed_event_keeps_its_lexicon(ledger: Ledger, event: dict, lexicons: Lexicons) -> None:
    ev = event["id"]
    ledger.events.close_event(event["director"], ev)
    assert ledger.events.accept_lexicon(event["director"], ev)["lexicon"]["version"] == "1"  # the same lexicon: nothing to accept, no 409
    lexicons.current = _lexicon("2")
    with pytest.raises(Conflict) as err:
        ledger.events.accept_lexicon(event["director"], ev)
    assert err.value.problems == {"event": ["closed"]}
    assert ledger.events.event(None, ev)["lexicon"]["version"] == "1"
    assert [e["action"] for e in ledger.trail.audit_entries(None, ev)["entries"]][-1] == "event.closed"


def test_judge_rulings_are_recorded_and_never_say_which_word_failed(ledger: Ledger, event: dict) -> None:
    ruling = ledger.rulings.judge(referee(ledger, event), event["id"], "t1", 2, ["cat", "xyzzy"])
    assert ruling["acceptable"] is False and ruling["count"] == 2
    assert "xyzzy" not in canonical(ruling)
    entry = ledger.trail.audit_entries(None, event["id"])["entries"][-1]
    assert entry["action"] == "judge.ruling" and entry["payload"]["words"] == ["cat", "xyzzy"] and entry["seq"] == ruling["audit_seq"]
    with pytest.raises(InvalidRequest):
        ledger.rulings.judge(event["director"], event["id"], "t9", 99, ["cat"])


def test_export_then_import_rebuilds_the_event(ledger: Ledger, event: dict, database_url: str, lexicons: Lexicons, tmp_path) -> None:
    ev = event["id"]
    ledger.rounds.submit_round(event["director"], ev, "t1", 1, ROUND_1)
    document = ledger.transfer.export(event["director"], ev)
    assert "secret" not in canonical(document) and "wsv_" not in canonical(document)
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", lexicons)
    third = Ledger.open(f"sqlite:///{tmp_path / 'third.sqlite3'}", lexicons)
    with pytest.raises(Forbidden):
        elsewhere.transfer.import_event(event["director"], document)
    imported = elsewhere.transfer.import_event(LOCAL, document)
    assert imported["director_token"]["token"].startswith("wsv_")
    here, there = ledger.standings.standings(None, ev), elsewhere.standings.standings(None, ev)
    assert there["standings"] == here["standings"]
    assert there["checkpoint"]["tree_size"] > here["checkpoint"]["tree_size"]  # the import's own entries extend the same log
    assert elsewhere.rounds.round(None, ev, "t1", 1)["result"] == ledger.rounds.round(None, ev, "t1", 1)["result"]
    assert elsewhere.trail.verify(ev) == []
    with pytest.raises(Conflict):
        elsewhere.transfer.import_event(LOCAL, document)
    document["revisions"][0]["result"]["players"][0]["total"] += 1
    with pytest.raises(InvalidRequest, match="no write of the API") as refused:  # a total its play does not score
        third.transfer.import_event(LOCAL, document)
    assert sorted(refused.value.problems) == ["revisions.0.result", "revisions.0.totals"]
    document["revisions"][0]["result"]["players"][0]["total"] -= 1
    document["revisions"][0]["reason"] = "edited"  # within what a write allows, but not what the chain says
    with pytest.raises(InvalidRequest, match="does not verify"):
        third.transfer.import_event(LOCAL, document)
    elsewhere.close()
    third.close()


def test_a_backup_taken_while_rounds_are_stored_is_a_ledger_that_verifies(ledger: Ledger, event: dict, database_url: str, lexicons: Lexicons, tmp_path) -> None:
    """``wordsvc db backup``: SQLite's online backup, one consistent copy while another thread stores rounds; PostgreSQL's is pg_dump."""
    copy = tmp_path / "backup.sqlite3"
    if not database_url.startswith("sqlite"):
        with pytest.raises(ValueError, match="pg_dump"):
            backup(database_url, copy)
        assert not copy.exists()
        return
    ev, director = event["id"], event["director"]
    tables = [f"b{k}" for k in range(40)]
    for table in tables:
        ledger.games.put_game(director, ev, table, ["ann", "bob", "cy"])
    stored: list[str] = []

    def store() -> None:
        for table in tables:
            ledger.rounds.submit_round(director, ev, table, 1, ROUND_1)
            stored.append(table)

    writer = threading.Thread(target=store)
    writer.start()
    while not stored and writer.is_alive():
        time.sleep(0.001)
    done = backup(database_url, copy)
    writer.join()
    assert done.path == copy and done.bytes == copy.stat().st_size and done.revision == head_revision()
    assert not Path(f"{copy}-wal").exists()  # one self-contained file
    with pytest.raises(FileExistsError):
        backup(database_url, copy)
    copied = Ledger.open(f"sqlite:///{copy}", lexicons)
    try:
        assert copied.trail.verify(ev) == []
        kept, now = copied.transfer.export(LOCAL, ev), ledger.transfer.export(LOCAL, ev)
        assert kept["audit"] == now["audit"][: len(kept["audit"])]  # what was committed when the copy began, and nothing half-written
        assert all(revision in now["revisions"] for revision in kept["revisions"])
        submitted = [entry for entry in kept["audit"] if entry["action"] == "round.submitted"]
        assert len(kept["revisions"]) == len(submitted) >= 1
    finally:
        copied.close()


def _tamper(ledger: Ledger, change: Callable) -> None:
    with ledger.engine.begin() as conn:
        change(conn)


@pytest.mark.parametrize(
    "what, change, named",
    [
        (
            "an audit payload edited",
            lambda ev: lambda c: c.execute(update(audit).where(audit.c.chain == ev, audit.c.seq == 3).values(payload_json='{"game":"t1","players":["x"]}')),
            "audit entry 3: its hash does not match",
        ),
        ("an audit entry deleted", lambda ev: lambda c: c.execute(delete(audit).where(audit.c.chain == ev, audit.c.seq == 2)), "audit entry 3: expected entry 2"),
        (
            "two entries swapped",
            lambda ev: lambda c: [
                c.execute(update(audit).where(audit.c.chain == ev, audit.c.seq == 2).values(seq=-2)),
                c.execute(update(audit).where(audit.c.chain == ev, audit.c.seq == 3).values(seq=2)),
                c.execute(update(audit).where(audit.c.chain == ev, audit.c.seq == -2).values(seq=3)),
            ],
            "audit entry 2: prev does not name",
        ),
        (
            "a stored result edited",
            lambda ev: lambda c: c.execute(
                update(revisions).where(revisions.c.event_id == ev).values(result_json=func.replace(revisions.c.result_json, '"total":', '"total":1'))
            ),
            "revision 1 of game t1 round 1: its result differs from audit entry",
        ),
        (
            "a round deleted",
            lambda ev: lambda c: c.execute(delete(revisions).where(revisions.c.event_id == ev)),
            "revision 1 of game t1 round 1: stored in audit entry",
        ),
        (
            "a token promoted",
            lambda ev: lambda c: c.execute(update(tokens).where(tokens.c.event_id == ev, tokens.c.role == "referee").values(role="director")),
            "role or table differs",
        ),
        (
            "a token deleted",
            lambda ev: lambda c: c.execute(delete(tokens).where(tokens.c.event_id == ev, tokens.c.role == "referee")),
            "issued in audit entry",
        ),
        ("the event's lexicon swapped", lambda ev: lambda c: c.execute(update(events).where(events.c.id == ev).values(lexicon_json="{}")), "lexicon differs"),
        (
            "the totals standings add up edited",
            lambda ev: lambda c: c.execute(update(revisions).where(revisions.c.event_id == ev).values(totals_json='{"ann":99,"bob":0,"cy":0}')),
            "its totals (what standings add up) differ",
        ),
    ],
)
def test_verify_names_the_first_sign_of_tampering(ledger: Ledger, event: dict, what: str, change: Callable, named: str) -> None:
    ledger.rounds.submit_round(referee(ledger, event), event["id"], "t1", 1, ROUND_1)
    assert ledger.trail.verify(event["id"]) == []
    _tamper(ledger, change(event["id"]))
    problems = ledger.trail.verify(event["id"])
    assert problems and named in problems[0], (what, problems)


def test_verify_holds_the_admin_tokens_to_the_house_chain(ledger: Ledger) -> None:
    """An admin token made or dropped in the table, not through the ledger, makes ``wordsvc audit verify`` fail."""
    tid, _ = ledger.tokens.create_admin_token("head referee")
    assert ledger.trail.verify_house() == []
    forged = {"id": "f0f0f0f0", "secret_sha256": "0" * 64, "role": "admin", "event_id": None, "table_id": None, "label": None, "created_at": "2026-01-01T00:00:00Z"}
    _tamper(ledger, lambda c: c.execute(tokens.insert().values(forged)))
    try:
        assert "token f0f0f0f0: no audit entry issued it" in ledger.trail.verify_house()
    finally:
        _tamper(ledger, lambda c: c.execute(delete(tokens).where(tokens.c.id == "f0f0f0f0")))
    with ledger.engine.connect() as conn:
        row = conn.execute(select(tokens).where(tokens.c.id == tid)).one()
    _tamper(ledger, lambda c: c.execute(delete(tokens).where(tokens.c.id == tid)))
    try:
        assert any(problem.startswith(f"token {tid}: issued in audit entry") for problem in ledger.trail.verify_house())
    finally:
        _tamper(ledger, lambda c: c.execute(tokens.insert().values(row._asdict())))
    assert ledger.trail.verify_house() == []


def test_unknown_things_are_not_found(ledger: Ledger, event: dict) -> None:
    with pytest.raises(NotFound):
        ledger.events.event(None, "nope")
    with pytest.raises(NotFound):
        ledger.games.game(None, event["id"], "t9")
    with pytest.raises(NotFound):
        ledger.rounds.round(None, event["id"], "t1", 5)
    with pytest.raises(NotFound):
        ledger.rounds.submit_round(event["director"], event["id"], "t9", 1, ROUND_1)
    with pytest.raises(NotFound):  # nothing to correct yet
        ledger.rounds.submit_round(event["director"], event["id"], "t1", 1, ROUND_1, "why", '"x"')

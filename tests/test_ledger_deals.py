"""Seeded events (commit, deal, reveal), duplicate events and their matchpoints, on SQLite and PostgreSQL.

The deals are checked against docs/deals.md's own construction (core/deal.py
with the revealed seed), and the matchpoints against a count written here.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update

from wordsvc.core.deal import deal, table_seed
from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Forbidden, Ledger, NotFound
from wordsvc.ledger._db.canonical import canonical
from wordsvc.ledger._db.schema import revisions

ROOT = Path(__file__).resolve().parents[1]
_ids = itertools.count()
LEXICON = MemoryLexicon({w: [()] for w in ("cat", "dog", "tea", "eat", "ate")}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64))


@pytest.fixture(scope="module")
def rulesets():
    return load_rulesets()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lambda lang: LEXICON)
    yield opened
    opened.close()


def _event(ledger: Ledger, rulesets, tables: dict[str, list[str]], duplicate: bool = False) -> tuple[str, object]:
    view = ledger.events.create_event(LOCAL, rulesets.get("standard"), LEXICON, "Seeded night", f"sd{next(_ids)}", deals="seeded", duplicate=duplicate)
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for table, players in tables.items():
        ledger.games.put_game(director, view["id"], table, players)
    return view["id"], director


def _play_of(dealt_seats: list[dict], lay: int = 0) -> RoundPlay:
    """The dealt hands played as they are: the first ``lay`` cards of each hand as one word, the rest unused."""
    players = []
    for seat in dealt_seats:
        cards = tuple(face.lower() for face in seat["hand"])
        words = (cards[:lay],) if lay >= 2 else ()
        players.append(PlayerPlay(seat["player"], words, cards[lay:] if lay >= 2 else cards))
    return RoundPlay(tuple(players))


def test_a_seeded_event_commits_deals_each_round_when_due_and_reveals_on_close(ledger: Ledger, rulesets, tmp_path: Path) -> None:
    event, director = _event(ledger, rulesets, {"t1": ["ann", "bob", "cy"], "t2": ["dee", "eve"]})
    shown = ledger.events.event(None, event)
    commitment = shown["deals"]["commitment"]
    assert shown["deals"] == {"mode": "seeded", "duplicate": False, "commitment": commitment, "seed": None} and len(commitment) == 64
    referee = ledger.tokens.authenticate(ledger.tokens.issue_token(director, event, "referee", "t1")["token"])
    first = ledger.deals.round_deal(referee, event, "t1", 1)
    assert first["deal_id"] is None and [len(s["hand"]) for s in first["seats"]] == [3, 3, 3] and first["dealer"] == 0
    with pytest.raises(Forbidden):  # round 2 only once round 1 is stored
        ledger.deals.round_deal(referee, event, "t1", 2)
    with pytest.raises(Forbidden):  # another table's referee, a viewer, nobody
        ledger.deals.round_deal(ledger.tokens.authenticate(ledger.tokens.issue_token(director, event, "referee", "t2")["token"]), event, "t1", 1)
    with pytest.raises(Forbidden):
        ledger.deals.round_deal(ledger.tokens.authenticate(ledger.tokens.issue_token(director, event, "viewer")["token"]), event, "t1", 1)
    kiosk = ledger.tokens.authenticate(ledger.tokens.issue_token(director, event, "kiosk", "t1")["token"])
    with pytest.raises(Forbidden):  # the judge kiosk of that very table: it stands where players reach it
        ledger.deals.round_deal(kiosk, event, "t1", 1)
    assert ledger.rulings.judge(kiosk, event, "t1", 1, ["cat"])["acceptable"] is True  # rulings are all it records
    ahead = ledger.deals.round_deal(director, event, "t1", 5)  # a director may ask sooner
    stored = ledger.rounds.submit_round(referee, event, "t1", 1, _play_of(first["seats"]))
    assert stored.round["deal_digest"] == first["digest"]
    second = ledger.deals.round_deal(referee, event, "t1", 2)
    assert second["dealer"] == 1 and second["digest"] != first["digest"]
    ledger.rounds.submit_round(referee, event, "t1", 2, _play_of(second["seats"]))
    t2 = ledger.deals.round_deal(director, event, "t2", 1)
    ledger.rounds.submit_round(director, event, "t2", 1, _play_of(t2["seats"]))

    before = canonical([ledger.events.event(None, event), ledger.games.game(None, event, "t1"), ledger.trail.audit_entries(None, event), ledger.transfer.export(director, event), first, ahead])
    seed = _secret(ledger, event)
    for secret in (seed, table_seed(seed, "t1"), table_seed(seed, "t2")):
        assert secret not in before  # nothing a player can see before the reveal computes a future deal

    closed = ledger.events.close_event(director, event)
    assert closed["status"] == "closed" and closed["deals"]["seed"] == seed and hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    with pytest.raises(Conflict):
        ledger.rounds.submit_round(director, event, "t1", 3, _play_of(ledger.deals.round_deal(None, event, "t1", 3)["seats"]))
    public = ledger.deals.round_deal(None, event, "t1", 5)  # after the reveal anyone may look, with the deal id
    independent = deal(rulesets.get("standard"), 3, 5, table_seed(seed, "t1"))
    assert public["deal_id"] == independent.id and public["digest"] == ahead["digest"] == independent.digest()
    assert [s["hand"] for s in public["seats"]] == [[f.upper() for f in h] for h in independent.hands]

    export = tmp_path / "event.json"
    export.write_text(json.dumps(ledger.transfer.export(director, event)))
    done = _wordsvc("deal", "verify", str(export))
    assert done.returncode == 0 and "ok: 3 deal(s)" in done.stdout, done.stdout + done.stderr
    with ledger.engine.begin() as conn:  # a stored deal swapped for another
        conn.execute(update(revisions).where(revisions.c.event_id == event, revisions.c.game_id == "t2").values(deal_digest="0" * 64))
    export.write_text(json.dumps(ledger.transfer.export(director, event)))
    done = _wordsvc("deal", "verify", str(export))
    assert done.returncode == 1 and "revision 1 of game t2 round 1: its deal differs from audit entry" in done.stdout, done.stdout


def _secret(ledger: Ledger, event: str) -> str:
    from wordsvc.ledger.records.deals import SEED

    return ledger.readers.read(lambda reader: SEED.first(reader, {"event": event}))[0]


def _wordsvc(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wordsvc.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_an_open_event_cannot_be_verified_yet_and_unseeded_events_have_no_deals(ledger: Ledger, rulesets, tmp_path: Path) -> None:
    event, director = _event(ledger, rulesets, {"t1": ["ann", "bob"]})
    export = tmp_path / "open.json"
    export.write_text(json.dumps(ledger.transfer.export(director, event)))
    done = _wordsvc("deal", "verify", str(export))
    assert done.returncode == 1 and "not revealed yet" in done.stdout
    plain = ledger.events.create_event(LOCAL, rulesets.get("standard"), LEXICON, "Plain", f"pl{next(_ids)}")
    ledger.games.put_game(LOCAL, plain["id"], "t1", ["ann", "bob"])
    with pytest.raises(NotFound):
        ledger.deals.round_deal(LOCAL, plain["id"], "t1", 1)


def independent_matchpoints(scores: dict[tuple[str, str], list[int]], seats: dict[tuple[str, str], int]) -> dict[tuple[str, str], int]:
    """Duplicate bridge's count: for each round, compare with everyone who held the same seat; 2 a player beaten, 1 a tie."""
    out = dict.fromkeys(scores, 0)
    for me, mine in scores.items():
        for other, theirs in scores.items():
            if other == me or seats[other] != seats[me]:
                continue
            for a, b in zip(mine, theirs, strict=True):
                out[me] += 2 if a > b else 1 if a == b else 0
    return out


def test_a_duplicate_event_of_four_tables_deals_every_table_alike_and_ranks_by_matchpoints(ledger: Ledger, rulesets) -> None:
    tables = {f"t{i}": [f"p{i}a", f"p{i}b", f"p{i}c"] for i in range(1, 5)}
    event, director = _event(ledger, rulesets, tables, duplicate=True)
    with pytest.raises(InvalidRequest, match="seats 3 players"):
        ledger.games.put_game(director, event, "t5", ["x", "y"])
    scores: dict[tuple[str, str], list[int]] = {(t, p): [] for t, ps in tables.items() for p in ps}
    for number in (1, 2, 3):
        deals = {t: ledger.deals.round_deal(director, event, t, number) for t in tables}
        assert len({canonical([s["hand"] for s in d["seats"]]) for d in deals.values()}) == 1  # seat for seat the same cards
        for i, table in enumerate(tables):
            lay = (i + number) % 3 + 1  # tables play the same cards differently
            result = ledger.rounds.submit_round(director, event, table, number, _play_of(deals[table]["seats"], lay)).round["result"]
            for player in result["players"]:
                scores[(table, player["name"])].append(player["total"])
    seats = {(t, p): ps.index(p) for t, ps in tables.items() for p in ps}
    want = independent_matchpoints(scores, seats)
    standings = ledger.standings.standings(None, event)
    got = {(line["table"], line["player"]): line["matchpoints"] for line in standings["duplicate"]}
    assert got == want and any(want.values())
    assert [line["matchpoints"] for line in standings["duplicate"]] == sorted(want.values(), reverse=True)
    assert all(line["rounds"] == 3 for line in standings["duplicate"])
    assert {(line["table"], line["player"]): line["total"] for line in standings["standings"]} == {k: sum(v) for k, v in scores.items()}
    assert ledger.trail.verify(event) == []


def test_an_open_seeded_event_imported_elsewhere_keeps_its_secret_and_cannot_deal(ledger: Ledger, rulesets, tmp_path: Path) -> None:
    event, director = _event(ledger, rulesets, {"t1": ["ann", "bob"]})
    document = ledger.transfer.export(director, event)
    assert document["event"]["deal_seed"] is None
    elsewhere = Ledger.open(f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}", lambda lang: LEXICON)
    elsewhere.transfer.import_event(LOCAL, document)
    with pytest.raises(Conflict, match="without its seed"):
        elsewhere.deals.round_deal(LOCAL, event, "t1", 1)
    elsewhere.close()

"""Imports are writes: a crafted export whose audit chain is valid is still held to what the API's writes allow.

The attacker of this test rewrites rows of a real export, mirrors each change
into the audit entries that record it and recomputes the whole chain, so the
chain verifies; the import must then refuse the document with a 422 listing
what no write could have stored, and never answer 500 or store a state the
API could not reach (tests/test_ledger.py covers the chain's own checks).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger
from wordsvc.ledger._db.canonical import canonical, sha256_of
from wordsvc.ledger.integrity.audit import entry_hash
from wordsvc.ledger.records.events import event_payload as _event_payload
from wordsvc.ledger.transfer.export import event_row_of as _event_row_of

LEXICON = MemoryLexicon({w: [()] for w in ("cat", "do", "dog", "tea", "eat", "at", "an", "rain", "tart")}, LexiconInfo(
    id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True
))  # fmt: skip
_ids = itertools.count()


@pytest.fixture(scope="module")
def ledger(database_url: str) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lambda lang: LEXICON)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def export(ledger: Ledger) -> dict[str, Any]:
    """A real event's export: two tables, rounds stored and one corrected, a referee token."""
    view = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "Source", "source-event")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    ledger.games.put_game(director, "source-event", "t1", ["ann", "bob"])
    ledger.games.put_game(director, "source-event", "t2", ["cy", "dee"])
    ledger.tokens.issue_token(director, "source-event", "referee", "t1")
    one = RoundPlay((PlayerPlay("ann", (tuple("cat"),)), PlayerPlay("bob", (tuple("do"),), ("g",))))
    ledger.rounds.submit_round(director, "source-event", "t1", 1, one)
    ledger.rounds.submit_round(director, "source-event", "t2", 1, RoundPlay((PlayerPlay("cy", (tuple("tea"),)), PlayerPlay("dee", (), tuple("eat")))))
    etag = ledger.rounds.round(None, "source-event", "t1", 1)["etag"]
    fixed = RoundPlay((PlayerPlay("ann", (tuple("cat"),)), PlayerPlay("bob", (tuple("dog"),))))
    ledger.rounds.submit_round(director, "source-event", "t1", 1, fixed, correction="bob laid DOG", if_match=etag)
    return ledger.transfer.export(director, "source-event")


def forge(document: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """``document`` with ``change`` made to its rows, mirrored into the audit entries that record them, and the chain rehashed."""
    forged = copy.deepcopy(document)
    forged.pop("checkpoint", None)  # the export's own head no longer fits its entries: a crafter leaves it out (an import checks it when present)
    before = copy.deepcopy(forged)
    change(forged)
    event = forged["event"]
    games = {repr(g0.get("id")) if isinstance(g0, dict) else None: g for g0, g in zip(before["games"], forged["games"], strict=False)}
    revisions = {
        repr((r0.get("game"), r0.get("round"), r0.get("revision"))) if isinstance(r0, dict) else None: r
        for r0, r in zip(before["revisions"], forged["revisions"], strict=False)
    }
    prev = "0" * 64
    for entry in forged["audit"]:
        entry["chain"] = event.get("id") if isinstance(event, dict) else entry["chain"]
        payload = entry["payload"]
        try:
            if entry["action"] == "event.created":
                entry["payload"] = _event_payload(_event_row_of(event))
            elif entry["action"] == "game.created" and isinstance(games.get(repr(payload["game"])), dict):
                game = games[repr(payload["game"])]
                entry["payload"] = {"game": game.get("id"), "players": game.get("players")}
            elif entry["action"] in ("round.submitted", "round.corrected"):
                row = revisions.get(repr((payload["game"], payload["round"], payload["revision"])))
                if isinstance(row, dict):
                    row["body_sha256"] = sha256_of(row.get("body"))
                    payload.update(game=row.get("game"), round=row.get("round"), revision=row.get("revision"), body=row.get("body"))
                    payload.update(body_sha256=row["body_sha256"], result_sha256=sha256_of(row.get("result")))
        except (KeyError, TypeError, AttributeError, ValueError):
            pass  # a change the mirror cannot follow: the chain still verifies, the rows may not
        entry["prev"] = prev
        entry["hash"] = prev = entry_hash(entry)
    return forged


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


#: What the outside probe sent, and more: each a change no API write could make.
HOSTILE: dict[str, Callable[[dict[str, Any]], None]] = {
    "round 2^63": _set(("revisions", 0, "round"), 2**63),
    "round 0": _set(("revisions", 0, "round"), 0),
    "round -5": _set(("revisions", 0, "round"), -5),
    "round past the ruleset": _set(("revisions", 0, "round"), 9),
    "a revision gap": _set(("revisions", 0, "revision"), 3),
    "a result with no players": _set(("revisions", 0, "result", "players"), []),
    "a total its play does not score": _set(("revisions", 0, "result", "players", 0, "total"), 999),
    "a play of other players": _set(("revisions", 0, "body", "players", 0, "name"), "zed"),
    "a game id with a slash": _set(("games", 0, "id"), "a/b"),
    "an over-long game id": _set(("games", 0, "id"), "g" * 65),
    "an over-long event id": _set(("event", "id"), "e" * 65),
    "an over-long event name": _set(("event", "name"), "n" * 1000),
    "an over-long player name": _set(("games", 1, "players", 0), "p" * 300),
    "a NUL in a name": _set(("games", 1, "players", 0), "c\x00y"),
    "an invisible twin": _set(("games", 1, "players"), ["cy", "cy\u200b"]),
    "a Cyrillic twin": _set(("games", 1, "players"), ["ann", "\u0430nn"]),
    "one player": _set(("games", 1, "players"), ["cy"]),
    "a snapshot with no rounds": _set(("event", "ruleset", "rounds"), []),
    "a snapshot that is no ruleset": _set(("event", "ruleset"), {"name": 1}),
    "private as text": _set(("event", "private"), "yes"),
    "rated as a list": _set(("event", "rated"), [None]),
    "an admin token": _set(("tokens", 0, "role"), "admin"),
    "a token for no table": _set(("tokens", 0, "table"), "t9"),
}


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_chain_valid_crafted_import_is_refused_listing_what_no_write_could_store(ledger: Ledger, export: dict[str, Any], case: str) -> None:
    forged = forge(export, HOSTILE[case])
    forged["event"]["id"] = forged["event"]["id"] if case == "an over-long event id" else f"crafted-{next(_ids)}"
    forged = forge(forged, lambda document: None)  # the new id through the chain too
    with pytest.raises(InvalidRequest) as refused:
        ledger.transfer.import_event(LOCAL, forged)
    assert refused.value.detail.startswith("The import holds what no write of the API could have stored"), (case, refused.value.detail, refused.value.problems)


def test_the_untouched_export_imports(ledger: Ledger, export: dict[str, Any]) -> None:
    forged = forge(export, _set(("event", "id"), f"copy-{next(_ids)}"))
    imported = ledger.transfer.import_event(LOCAL, forged)
    assert ledger.trail.verify(imported["id"]) == []


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | st.text(max_size=80) | st.sampled_from(["", "a/b", "x" * 300, "\x00", "Аnn"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key)
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield (*path, i)
            yield from _paths(value, (*path, i))


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@settings(max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_value_anywhere_in_a_chain_valid_export_is_a_422_or_an_event_every_read_can_serve(ledger: Ledger, export: dict[str, Any], data: st.DataObject) -> None:
    rows = [p for p in _paths({k: export[k] for k in ("event", "games", "revisions", "tokens")}) if len(p) > 1 and p[:2] != ("event", "id")]
    path = data.draw(st.sampled_from(rows))
    value = data.draw(_JSON)
    forged = forge(export, _set(path, value))
    forged["event"]["id"] = f"fuzzed-{next(_ids)}"
    forged = forge(forged, lambda document: None)
    try:
        imported = ledger.transfer.import_event(LOCAL, forged)
    except (InvalidRequest, Conflict):
        return
    event_id = imported["id"]  # taken: every read of the event works, and it verifies
    assert ledger.trail.verify(event_id) == []
    ledger.standings.standings(None, event_id)
    for game in ledger.events.event(None, event_id)["games"]:
        for number in range(1, game["rounds_played"] + 1):
            ledger.rounds.round(None, event_id, game["id"], number)
    assert canonical(ledger.transfer.export(LOCAL, event_id)["revisions"]) == canonical(forged["revisions"])


@pytest.fixture(scope="module")
def tournament_export(ledger: Ledger) -> dict[str, Any]:
    """A real tournament's export: six players, one of them withdrawn, a random session at two tables of 3, one round stored."""
    view = ledger.events.create_event(LOCAL, load_rulesets().get("standard"), LEXICON, "League", "source-league")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for i, name in enumerate(("ann", "bob", "cy", "dee", "eve", "fay")):
        ledger.players.register(director, "source-league", f"p{i}", name, club="Club" if i % 2 else None, rating_id=f"r{i}", checked_in=True)
    _, session = ledger.sessions.create(director, "source-league", {"method": "random", "size": {"target": 3}})
    names = [seat["name"] for seat in session["tables"][0]["seats"]]
    lays = [tuple("cat"), tuple("dog"), tuple("tea")]
    ledger.rounds.submit_round(director, "source-league", "s1-t1", 1, RoundPlay(tuple(PlayerPlay(name, (lay,)) for name, lay in zip(names, lays, strict=True))))
    ledger.players.withdraw(director, "source-league", "p5")
    return ledger.transfer.export(director, "source-league")


def test_the_untouched_tournament_export_imports_and_reads_back_the_same(ledger: Ledger, tournament_export: dict[str, Any]) -> None:
    forged = forge(tournament_export, lambda document: None)
    forged["event"]["id"] = "league-copy"
    forged = forge(forged, lambda document: None)  # the chain rehashed under the new id
    imported = ledger.transfer.import_event(LOCAL, forged)
    again = ledger.transfer.export(LOCAL, imported["id"])
    assert all(again[key] == forged[key] for key in ("players", "sessions", "seats", "schedule", "games"))
    assert ledger.trail.verify(imported["id"]) == []


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@settings(max_examples=120, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_value_anywhere_in_a_tournament_s_rows_is_a_422_or_an_event_every_read_can_serve(
    ledger: Ledger, tournament_export: dict[str, Any], data: st.DataObject
) -> None:
    rows = [p for p in _paths({k: tournament_export[k] for k in ("players", "sessions", "seats", "games")}) if len(p) > 1 or p[0] != "games"]
    path = data.draw(st.sampled_from(rows))
    forged = forge(tournament_export, _set(path, data.draw(_JSON)))
    forged["event"]["id"] = f"fuzzed-{next(_ids)}"
    forged = forge(forged, lambda document: None)
    try:
        imported = ledger.transfer.import_event(LOCAL, forged)
    except (InvalidRequest, Conflict):
        return
    event_id = imported["id"]
    assert ledger.trail.verify(event_id) == []
    ledger.standings.standings(None, event_id)
    ledger.sessions.sessions(None, event_id)
    ledger.players.players(None, event_id)
    ledger.tournament_standings.crosstable(None, event_id)

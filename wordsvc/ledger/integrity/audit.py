"""The audit chain: entries hashed one onto the next, and the check that the tables still match it.

An entry is ``{chain, seq, at, actor, action, payload, prev}``; its hash is
SHA-256 of its canonical JSON, and ``prev`` is the hash of the entry before
(64 zeros for the first). :func:`verify` works on plain records (an export
document, or the rows read back from the database), so ``wordsvc audit
verify`` and ``POST /events/import`` run the same check.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .._db.canonical import sha256_of
from .tournament_trail import tournament_problems

__all__ = ["GENESIS", "HOUSE", "Records", "entry_hash", "make_entry", "token_problems", "verify", "verify_chain"]

GENESIS = "0" * 64
#: The chain of what belongs to no event (admin tokens).
HOUSE = "*"
_ENTRY_KEYS = ("chain", "seq", "at", "actor", "action", "payload", "prev")


def entry_hash(entry: dict[str, Any]) -> str:
    return sha256_of({key: entry[key] for key in _ENTRY_KEYS})


def make_entry(chain: str, seq: int, prev: str, actor: dict[str, str], action: str, payload: dict[str, Any], at: str) -> dict[str, Any]:
    entry = {"chain": chain, "seq": seq, "at": at, "actor": actor, "action": action, "payload": payload, "prev": prev}
    entry["hash"] = entry_hash(entry)
    return entry


@dataclass
class Records:
    """An event as an export document holds it: its row, its games, revisions and tokens, and its chain."""

    event: dict[str, Any]
    games: list[dict[str, Any]] = field(default_factory=list)
    revisions: list[dict[str, Any]] = field(default_factory=list)
    tokens: list[dict[str, Any]] = field(default_factory=list)
    audit: list[dict[str, Any]] = field(default_factory=list)
    # a tournament's (docs/tournaments.md); an export of an event without players has none
    players: list[dict[str, Any]] = field(default_factory=list)
    sessions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    schedule: dict[str, Any] | None = None


def verify(records: Records) -> list[str]:
    """Every way ``records`` departs from their chain, the first bad entry or row first; ``[]`` when all is well."""
    problems = verify_chain(records.event["id"], records.audit)
    if problems:
        return problems  # a broken chain cannot vouch for any row
    return _row_problems(records)


def verify_chain(chain: str, entries: Iterable[dict[str, Any]]) -> list[str]:
    """The first break in a chain: a gap, a reordering, an edited entry; ``[]`` when it holds."""
    prev, expected = GENESIS, 1
    for entry in entries:
        seq = entry.get("seq")
        where = f"audit entry {seq}"
        if entry.get("chain") != chain:
            return [f"{where}: belongs to chain {entry.get('chain')!r}, not {chain!r}"]
        if seq != expected:
            return [f"{where}: expected entry {expected} here (an entry was deleted, inserted or reordered)"]
        if entry.get("prev") != prev:
            return [f"{where}: prev does not name the hash of entry {expected - 1} (an entry was deleted, inserted or reordered)"]
        try:
            computed = entry_hash(entry)
        except (KeyError, TypeError, ValueError):
            return [f"{where}: not a complete audit entry"]
        if entry.get("hash") != computed:
            return [f"{where}: its hash does not match its contents (the entry was edited)"]
        prev, expected = computed, expected + 1
    if expected == 1:
        return ["the audit chain is empty"]
    return []


def _row_problems(records: Records) -> list[str]:
    problems: list[str] = []
    by_action: dict[str, list[dict[str, Any]]] = {}
    for entry in records.audit:
        by_action.setdefault(entry["action"], []).append(entry)

    created = (by_action.get("event.created") or [None])[0]
    if created is None or created["seq"] != 1:
        return ["audit entry 1: is not the event's creation"]
    expected_event = dict(created["payload"])
    for accepted in by_action.get("lexicon.accepted", []):
        expected_event["lexicon"] = accepted["payload"]["to"]
    event = records.event
    for key, value in expected_event.items():
        if event.get(key) != value:
            problems.append(f"event {event['id']}: {key} differs from audit entry {created['seq']} and the lexicon acceptances after it")
    if sha256_of(event.get("ruleset")) != event.get("ruleset_sha256"):
        problems.append(f"event {event['id']}: the ruleset snapshot does not match its sha256")
    closed = (by_action.get("event.closed") or [None])[0]
    if (closed is not None) != (event.get("status", "open") == "closed"):
        problems.append(f"event {event['id']}: its status differs from the audit (closed only by an event.closed entry)")
    elif closed is not None and event.get("deal_seed") is not None:
        if event["deal_seed"] != closed["payload"]["seed"]:
            problems.append(f"event {event['id']}: its seed differs from the one revealed in audit entry {closed['seq']}")
        elif hashlib.sha256(bytes.fromhex(event["deal_seed"])).hexdigest() != event.get("deal_commitment"):
            problems.append(f"event {event['id']}: the revealed seed does not match the commitment published at creation")

    seated = sorted(by_action.get("game.created", []) + by_action.get("game.reseated", []), key=lambda entry: entry["seq"])
    games = {entry["payload"]["game"]: entry for entry in seated}  # a session's table may be reseated before it starts: the last entry says
    seen_games = set()
    for game in records.games:
        entry = games.get(game["id"])
        seen_games.add(game["id"])
        if entry is None:
            problems.append(f"game {game['id']}: no audit entry created it")
        elif entry["payload"]["players"] != game["players"]:
            problems.append(f"game {game['id']}: players differ from audit entry {entry['seq']}")
    problems += [f"game {name}: created in audit entry {entry['seq']} but missing" for name, entry in games.items() if name not in seen_games]

    rounds = {}
    for entry in by_action.get("round.submitted", []) + by_action.get("round.corrected", []):
        p = entry["payload"]
        rounds[(p["game"], p["round"], p["revision"])] = entry
    seen_rounds = set()
    for row in records.revisions:
        key = (row["game"], row["round"], row["revision"])
        seen_rounds.add(key)
        where = f"revision {row['revision']} of game {row['game']} round {row['round']}"
        entry = rounds.get(key)
        if entry is None:
            problems.append(f"{where}: no audit entry stored it")
            continue
        p = entry["payload"]
        if row["body"] != p["body"] or row["body_sha256"] != p["body_sha256"] or sha256_of(row["body"]) != row["body_sha256"]:
            problems.append(f"{where}: its play differs from audit entry {entry['seq']}")
        if sha256_of(row["result"]) != p["result_sha256"]:
            problems.append(f"{where}: its result differs from audit entry {entry['seq']}")
        elif "totals" in row and row["totals"] != {player["name"]: player["total"] for player in row["result"]["players"]}:
            problems.append(f"{where}: its totals (what standings add up) differ from its result")
        if row.get("deal_digest") != p.get("deal_digest"):
            problems.append(f"{where}: its deal differs from audit entry {entry['seq']}")
        if row.get("reason") != p.get("reason") or row.get("actor") != entry["actor"]["token"]:
            problems.append(f"{where}: its reason or actor differs from audit entry {entry['seq']}")
    for key, entry in rounds.items():
        if key not in seen_rounds:
            problems.append(f"revision {key[2]} of game {key[0]} round {key[1]}: stored in audit entry {entry['seq']} but missing")

    problems += tournament_problems(records.event, records.audit, records.players, records.sessions, records.seats, records.schedule)
    imported = max((entry["seq"] for entry in by_action.get("event.imported", [])), default=0)
    return problems + token_problems(records.audit, records.tokens, imported)


def token_problems(entries: Iterable[dict[str, Any]], tokens: Iterable[dict[str, Any]], imported: int = 0) -> list[str]:
    """The token rows of a chain against its ``token.issued`` and ``token.revoked`` entries: each row issued with its role and
    table, revoked if the audit revoked it, and none the audit issued missing, except those issued before entry ``imported``
    (an import carries no tokens: they stay with the ledger they were issued by)."""
    issued: dict[str, dict[str, Any]] = {}
    revoked: set[str] = set()
    for entry in entries:
        if entry["action"] == "token.issued":
            issued[entry["payload"]["id"]] = entry
        elif entry["action"] == "token.revoked":
            revoked.add(entry["payload"]["id"])
    problems, seen = [], set()
    for token in tokens:
        seen.add(token["id"])
        entry = issued.get(token["id"])
        if entry is None:
            problems.append(f"token {token['id']}: no audit entry issued it")
        elif (token["role"], token.get("table")) != (entry["payload"]["role"], entry["payload"]["table"]):
            problems.append(f"token {token['id']}: role or table differs from audit entry {entry['seq']}")
        elif token["id"] in revoked and not token.get("revoked_at"):
            problems.append(f"token {token['id']}: revoked in the audit but usable in the table")
    missing = [(tid, entry["seq"]) for tid, entry in issued.items() if tid not in seen and entry["seq"] > imported]
    return problems + [f"token {tid}: issued in audit entry {seq} but missing" for tid, seq in missing]

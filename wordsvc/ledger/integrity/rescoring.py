"""Every stored round scored again: what holds a result to its play when the chain and the rows were both rewritten.

The audit chain holds each revision's play and the sha256 of its result, so
:func:`~wordsvc.ledger.integrity.audit.verify` catches a result edited alone. Whoever
rewrites the result *and* its entry, and recomputes the chain, passes it: the
totals of two players swapped, say. Scoring the play again under the event's
ruleset snapshot and the lexicon the round was scored with catches that, as
an import always did; ``wordsvc audit verify`` (of the database or of an
export) and ``POST /events/import`` run the same comparison (:func:`rescore`).

A round is scored with the lexicon the event had when its entry was written:
the creation's, then each ``lexicon.accepted`` entry's ``to``
(:func:`lexicon_at`). Its result names that lexicon's stamp, and re-scoring
needs that very lexicon (the same sha256) loaded; a round whose lexicon is
not loaded here is counted and said, not passed silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import WordsvcError
from ...core.lexicon import Lexicon
from ...core.ruleset import Ruleset
from ...core.scoring import score_round
from ...data.rulesets import ruleset_from_document
from .._db.canonical import canonical
from .._db.plays import play_from_document
from .audit import Records

__all__ = ["Rescored", "lexicon_at", "rescore", "score_problems"]

ROUND_ACTIONS = ("round.submitted", "round.corrected")


def lexicon_at(entries: Iterable[Mapping[str, Any]]) -> Callable[[tuple[Any, Any, Any]], dict[str, Any] | None]:
    """``(game, round, revision)`` -> the lexicon stamp the event had when the entry that stored that revision was written (``None``: no such entry).

    Reads what it can of entries that may be malformed (an import not yet checked): what it cannot read it skips.
    """
    stamp: dict[str, Any] | None = None
    at: dict[tuple[Any, Any, Any], dict[str, Any] | None] = {}
    for entry in entries:
        payload = entry.get("payload") if isinstance(entry, Mapping) else None
        if not isinstance(payload, dict):
            continue
        action = entry.get("action")
        if action == "event.created" and isinstance(payload.get("lexicon"), dict):
            stamp = payload["lexicon"]
        elif action == "lexicon.accepted" and isinstance(payload.get("to"), dict):
            stamp = payload["to"]
        elif action in ROUND_ACTIONS:
            key = (payload.get("game"), payload.get("round"), payload.get("revision"))
            if all(isinstance(part, str | int) for part in key):
                at[key] = stamp
    return lambda key: at.get(key) if all(isinstance(part, str | int) for part in key) else None


def rescore(
    row: Mapping[str, Any], ruleset: Ruleset, stamp: Mapping[str, Any] | None, lexicon_of: Callable[[dict[str, Any]], Lexicon | None]
) -> tuple[str, str] | None:
    """What is wrong with a revision's result, as ``(field, message)``, given the stamp in effect when it was stored; ``None`` if nothing is
    or if its lexicon is not loaded (:func:`lexicon_of` gives ``None``: nothing to score with).

    ``field`` is ``result`` (not the score of the play) or ``result.lexicon``
    (a stamp other than the event's at the time).
    """
    result = row.get("result")
    if not isinstance(result, dict):
        return "result", "must be the round's result"
    if stamp is not None and result.get("lexicon") != stamp:
        return "result.lexicon", f"must be the lexicon the event had when the round was stored ({_named(stamp)})"
    lexicon = lexicon_of(dict(stamp)) if stamp is not None else None
    if lexicon is None:
        return None
    try:
        scored = score_round(play_from_document(row["body"], row["round"]), ruleset, lexicon).to_dict()
    except (WordsvcError, KeyError, TypeError, ValueError, AttributeError):
        return "body", "is not a play that scores under the event's ruleset"
    if canonical(scored) != canonical(result):
        return "result", f"is not the score of its play under the event's ruleset and lexicon {_named(stamp)}"  # type: ignore[arg-type]
    return None


@dataclass
class Rescored:
    """What scoring an event's rounds again found: problems, and the rounds that could not be scored for want of their lexicon."""

    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def score_problems(records: Records, lexicon_of: Callable[[dict[str, Any]], Lexicon | None]) -> Rescored:
    """Every revision of ``records`` (a chain and rows that verify) scored again, each result held to its score."""
    found = Rescored()
    if not records.revisions:
        return found
    try:
        ruleset = ruleset_from_document(records.event["ruleset_id"], records.event["ruleset"])
    except Exception as err:  # a snapshot the reader cannot take is the records' fault
        found.problems.append(f"event {records.event.get('id')}: its ruleset snapshot does not read back as a ruleset ({type(err).__name__})")
        return found
    stamp_of = lexicon_at(records.audit)
    missing: dict[str, int] = {}
    for row in records.revisions:
        stamp = stamp_of((row["game"], row["round"], row["revision"]))
        problem = rescore(row, ruleset, stamp, lexicon_of)
        where = f"revision {row['revision']} of game {row['game']} round {row['round']}"
        if problem is not None:
            found.problems.append(f"{where}: its {problem[0].replace('.', ' ')} {problem[1]}")
        elif stamp is None or lexicon_of(dict(stamp)) is None:
            name = _named(stamp) if stamp is not None else "unknown"
            missing[name] = missing.get(name, 0) + 1
    found.notes += [f"{count} round(s) not scored again: lexicon {name} is not loaded here" for name, count in missing.items()]
    return found


def _named(stamp: Mapping[str, Any]) -> str:
    return f"{stamp.get('id')} {stamp.get('version')} ({str(stamp.get('sha256'))[:12]})"

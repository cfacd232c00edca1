"""An export document checked as the writes that made it would have been: every problem at once, before anything is stored.

An import's audit chain vouches that its rows are the ones its entries
name (:func:`~wordsvc.ledger.integrity.audit.verify`), but a chain can be recomputed
by whoever crafts the document. So an import is held to what the API's own
writes allow, row by row (:func:`check_import`): ids and names as the
schemas take them, sizes that fit the columns of either back end, a ruleset
snapshot that reads back as a ruleset, tables seated within its player
range with names people can tell apart, rounds numbered within its rounds,
each table's revisions counted from 1, every play valid at its table under
the snapshot, and each result the score of its play under the lexicon the
event had when it was stored (:mod:`..integrity.rescoring`, where that lexicon is
loaded; else at least the result of the table's players, with the totals it
says). What fails is a 422 listing every problem by its path in
the document (``games.3.players.1``), never a 500 and never stored.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from ...core import problem_codes as codes
from ...core.deal import DealError, deal, table_seed
from ...core.errors import InvalidRequest, Problems, RulesetError
from ...core.ids import EXPORT_FORMAT, is_id
from ...core.lexicon import Lexicon
from ...core.names import confusable_pairs, invisible_problem
from ...core.ruleset import Ruleset
from ...core.scoring import check_round
from ...data.names import mixed_script, skeleton
from ...data.rulesets import ruleset_from_document
from .._db.canonical import canonical, sha256_of
from .._db.plays import play_from_document
from ..integrity.audit import Records
from ..integrity.rescoring import lexicon_at, rescore
from ..records.principals import ROLES
from .tournament_imports import check_tournament

__all__ = ["check_import", "check_shape", "records_from"]

_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEY_ID, _SIGNATURE = re.compile(r"[0-9a-f]{16}"), re.compile(r"[A-Za-z0-9+/]{86}==")
#: How a row's lexicon is found: the stamp the event had when the row was stored, and the loaded lexicon of a stamp.
_Lexicons = tuple[Callable[[dict[str, Any]], dict[str, Any] | None], Callable[[dict[str, Any]], Lexicon | None]]
#: Player names as the API takes them (wordsvc/schemas/common.py): at most this many characters.
MAX_PLAYER_NAME = 64
#: What the columns hold on both back ends (wordsvc/ledger/_db/schema.py).
_TIME, _ACTOR, _DEAL_ID, _LABEL, _EVENT_NAME = 32, 16, 300, 200, 200


def check_import(document: Any, lexicon_of: Callable[[dict[str, Any]], Lexicon | None]) -> tuple[Records, Ruleset]:
    """The document's :class:`Records` and its ruleset snapshot, or :class:`InvalidRequest` (422) naming every problem.

    ``lexicon_of(stamp)``: the loaded lexicon with that stamp, or ``None``.
    """
    check_shape(document)
    problems = Problems(code=codes.INVALID_EXPORT)
    event = document["event"]
    ruleset = _event(event, problems)
    seats = _games(document["games"], ruleset, problems)
    check_tournament(document, seats, ruleset, problems)
    stamp_of = lexicon_at(document["audit"])
    current = event["lexicon"] if isinstance(event.get("lexicon"), dict) else None

    def stamp(row: dict[str, Any]) -> dict[str, Any] | None:
        """The lexicon the event had when the row was stored, as its entry says (the event's own if no entry does: verify refuses that)."""
        return stamp_of((row.get("game"), row.get("round"), row.get("revision"))) or current

    _revisions(document["revisions"], seats, ruleset, (stamp, lexicon_of), problems, event)
    _tokens(document["tokens"], seats, problems)
    for i, entry in enumerate(document["audit"]):
        if not isinstance(entry, dict):
            problems.add(f"audit.{i}", "must be an object")
        elif (entry.get("key_id"), entry.get("signature")) != (None, None) and not (
            isinstance(entry.get("key_id"), str)
            and _KEY_ID.fullmatch(entry["key_id"])
            and isinstance(entry.get("signature"), str)
            and _SIGNATURE.fullmatch(entry["signature"])
        ):
            problems.add(f"audit.{i}.signature", "must be null with key_id null, or an Ed25519 signature in base64 with its key id (16 hex digits)")
    problems.raise_if_any("The import holds what no write of the API could have stored; see errors.")
    assert ruleset is not None
    return records_from(document), ruleset


def check_shape(document: Any) -> None:
    """422 unless ``document`` has an export's parts, each of its kind (what is in them is :func:`check_import`'s)."""
    problems = Problems(code=codes.INVALID_EXPORT)
    if not isinstance(document, dict):
        raise InvalidRequest("An import is an export document: a JSON object.", {"body": ["must be an object"]}, code=codes.INVALID_EXPORT)
    if document.get("format") != EXPORT_FORMAT:
        problems.add("format", f"must be {EXPORT_FORMAT!r}")
    for key, kind in (("event", dict), ("games", list), ("revisions", list), ("tokens", list), ("audit", list)):
        if not isinstance(document.get(key), kind):
            problems.add(key, f"must be {'an object' if kind is dict else 'a list'}")
    problems.raise_if_any("The import is not an export document; see errors.")


def records_from(document: dict[str, Any]) -> Records:
    """An export document of the right shape (:func:`check_shape`) as :class:`Records`; a tournament's parts are empty when it has none."""
    return Records(
        document["event"],
        document["games"],
        document["revisions"],
        document["tokens"],
        document["audit"],
        document.get("players") or [],
        document.get("sessions") or [],
        document.get("seats") or [],
        document.get("schedule"),
    )


def _text(problems: Problems, where: str, value: Any, most: int, optional: bool = False) -> bool:
    if value is None and optional:
        return True
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        problems.add(where, f"must be text of 1 to {most} characters")
        return False
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        problems.add(where, "must not contain control characters")
        return False
    return True


def _hex(problems: Problems, where: str, value: Any, optional: bool = False) -> None:
    if not (value is None and optional) and not (isinstance(value, str) and _HEX64.fullmatch(value)):
        problems.add(where, "must be 64 lowercase hex digits")


def _name(problems: Problems, where: str, value: Any) -> None:
    if not _text(problems, where, value, MAX_PLAYER_NAME):
        return
    if value != value.strip() or value != unicodedata.normalize("NFC", value):
        problems.add(where, "must be in NFC with no white space at either end, as the API stores names")
    problem = invisible_problem(value)
    if problem:
        problems.add(where, problem)
    if mixed_script(value):
        problems.add(where, "mixes scripts a reader cannot tell apart")


def _event(event: dict[str, Any], problems: Problems) -> Ruleset | None:
    if not is_id(event.get("id")):
        problems.add("event.id", "must be 1 to 64 lowercase letters, digits, - or _")
    _text(problems, "event.name", event.get("name"), _EVENT_NAME)
    for key in ("private", "duplicate", "rated"):  # private always; duplicate and rated when the export has them
        if key in event or key == "private":
            if not isinstance(event.get(key), bool):
                problems.add(f"event.{key}", "must be true or false")
    _text(problems, "event.created_at", event.get("created_at"), _TIME)
    _text(problems, "event.closed_at", event.get("closed_at"), _TIME, optional=True)
    if event.get("deals", "none") not in ("none", "seeded"):
        problems.add("event.deals", "must be none or seeded")
    if event.get("status", "open") not in ("open", "closed"):
        problems.add("event.status", "must be open or closed")
    _hex(problems, "event.deal_seed", event.get("deal_seed"), optional=True)
    _hex(problems, "event.deal_commitment", event.get("deal_commitment"), optional=True)
    _hex(problems, "event.ruleset_sha256", event.get("ruleset_sha256"))
    stamp = event.get("lexicon")
    if not isinstance(stamp, dict) or not all(isinstance(stamp.get(k), str) and stamp[k] for k in ("id", "version", "sha256")):
        problems.add("event.lexicon", "must be a lexicon stamp: id, version and sha256")
    ruleset_id = event.get("ruleset_id")
    if not is_id(ruleset_id):
        problems.add("event.ruleset_id", "must be a ruleset id")
        return None
    try:
        ruleset = ruleset_from_document(ruleset_id, event.get("ruleset"))
    except RulesetError as err:
        for message in err.problems.get("ruleset", [err.detail]):
            problems.add("event.ruleset", message)
        return None
    except Exception as err:  # a snapshot shaped beyond what the reader expects is still the document's fault
        problems.add("event.ruleset", f"not a ruleset snapshot ({type(err).__name__})")
        return None
    if isinstance(event.get("ruleset_sha256"), str) and sha256_of(event["ruleset"]) != event["ruleset_sha256"]:
        problems.add("event.ruleset_sha256", "is not the sha256 of the ruleset snapshot")
    return ruleset


def _games(rows: list[Any], ruleset: Ruleset | None, problems: Problems) -> dict[str, list[str]]:
    seats: dict[str, list[str]] = {}
    for i, game in enumerate(rows):
        where = f"games.{i}"
        if not isinstance(game, dict):
            problems.add(where, "must be an object")
            continue
        gid = game.get("id")
        if not is_id(gid):
            problems.add(f"{where}.id", "must be 1 to 64 lowercase letters, digits, - or _")
            continue
        if gid in seats:  # an id (checked above): hashable
            problems.add(f"{where}.id", f"table {gid!r} is listed twice")
            continue
        _text(problems, f"{where}.created_at", game.get("created_at"), _TIME)
        players = game.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            problems.add(f"{where}.players", "must be a list of names")
            continue
        if ruleset is not None and not ruleset.players_min <= len(players) <= ruleset.players_max:
            problems.add(f"{where}.players", f"{len(players)} player(s); the ruleset is for {ruleset.players_min} to {ruleset.players_max}")
        for j, name in enumerate(players):
            _name(problems, f"{where}.players.{j}", name)
        for a, b in confusable_pairs(players, skeleton):
            problems.add(f"{where}.players.{b}", f"{players[b]!r} is the same name as, or looks like, {players[a]!r} (seat {a})")
        seats[gid] = players
    return seats


def _revisions(
    rows: list[Any], seats: dict[str, list[str]], ruleset: Ruleset | None, lexicon: _Lexicons, problems: Problems, event: dict[str, Any] | None = None
) -> None:
    counted: dict[tuple[str, int], list[int]] = {}
    event = event or {}
    seed = event.get("deal_seed") if event.get("deals") == "seeded" and event.get("status") == "closed" else None

    def revealed(number: int, game: str, players: int) -> str | None:
        """The id of the deal a closed seeded event's seed gives this round (what its export names), else ``None``."""
        if seed is None or ruleset is None or not isinstance(seed, str) or not _HEX64.fullmatch(seed):
            return None
        try:
            return deal(ruleset, players, number, table_seed(seed, None if event.get("duplicate") else game)).id
        except DealError:
            return None

    rounds = len(ruleset.rounds) if ruleset is not None else 0
    for i, row in enumerate(rows):
        where = f"revisions.{i}"
        if not isinstance(row, dict):
            problems.add(where, "must be an object")
            continue
        game, number, revision = row.get("game"), row.get("round"), row.get("revision")
        if not isinstance(game, str) or game not in seats:
            problems.add(f"{where}.game", f"no table {game!r} in the import")
            continue
        if type(number) is not int or not 1 <= number <= max(rounds, 1):
            problems.add(f"{where}.round", f"must be a round of the ruleset: 1 to {rounds}")
            continue
        if type(revision) is not int or not 1 <= revision <= len(rows):
            problems.add(f"{where}.revision", "must be a revision number from 1")
            continue
        counted.setdefault((game, number), []).append(revision)
        for key, most in (("actor", _ACTOR), ("created_at", _TIME)):
            _text(problems, f"{where}.{key}", row.get(key), most)
        _text(problems, f"{where}.reason", row.get("reason"), 10_000, optional=True)
        _text(problems, f"{where}.deal_id", row.get("deal_id"), _DEAL_ID, optional=True)
        if row.get("deal_id") is not None and row["deal_id"] != revealed(number, game, len(seats[game])):
            problems.add(f"{where}.deal_id", "must be null, or the deal the revealed seed gives: only a closed seeded event's export names its deals")
        _hex(problems, f"{where}.deal_digest", row.get("deal_digest"), optional=True)
        _hex(problems, f"{where}.body_sha256", row.get("body_sha256"))
        _play(row, where, game, number, seats[game], ruleset, lexicon, problems)
    for (game, number), found in counted.items():
        if sorted(found) != list(range(1, len(found) + 1)):
            problems.add("revisions", f"table {game} round {number}: revisions {sorted(found)}, not 1 to {len(found)}")


def _play(row: dict[str, Any], where: str, game: str, number: int, seated: list[str], ruleset: Ruleset | None, lexicon: _Lexicons, problems: Problems) -> None:
    try:
        play = play_from_document(row["body"], number)
    except (KeyError, TypeError, ValueError, AttributeError):
        problems.add(f"{where}.body", "is not a round's play")
        return
    if not isinstance(row.get("body"), dict) or canonical(row["body"]) != canonical(_document(row["body"])):
        problems.add(f"{where}.body", "holds more than a round's play")
        return
    names = [p.name for p in play.players]
    if not all(isinstance(name, str) for name in names) or sorted(names) != sorted(seated):
        problems.add(f"{where}.body.players", f"must be the table's players ({', '.join(seated)}), each once")
        return
    if ruleset is None:
        return
    found = Problems()
    try:
        check_round(play, ruleset, found)
    except Exception:  # a play shaped beyond what the rules expect (a card that is not text, say)
        problems.add(f"{where}.body", "is not a valid play")
        return
    for path, messages in found.items.items():
        for message in messages:
            problems.add(f"{where}.body.{path}", message)
    if found.items:
        return
    result = row.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("players"), list):
        problems.add(f"{where}.result", "must be the round's result")
        return
    lines = result["players"]
    if sorted(str(p.get("name")) if isinstance(p, dict) else "" for p in lines) != sorted(seated) or not all(
        isinstance(p, dict) and type(p.get("total")) is int for p in lines
    ):
        problems.add(f"{where}.result.players", "must be a line with a whole-number total for each of the table's players")
        return
    stamp, lexicon_of = lexicon
    wrong = rescore(row, ruleset, stamp(row), lexicon_of)
    if wrong is not None:
        problems.add(f"{where}.{wrong[0]}", wrong[1])
    if "totals" in row and canonical(row["totals"]) != canonical({p["name"]: p["total"] for p in lines}):
        problems.add(f"{where}.totals", "must be its result's totals, player by player")


def _document(body: dict[str, Any]) -> dict[str, Any]:
    """A play document as the ledger writes it, from ``body``: what it may hold and nothing more."""
    from .._db.plays import play_document

    return play_document(play_from_document(body, 1))


def _tokens(rows: list[Any], seats: dict[str, list[str]], problems: Problems) -> None:
    for i, token in enumerate(rows):
        where = f"tokens.{i}"
        if not isinstance(token, dict):
            problems.add(where, "must be an object")
            continue
        _text(problems, f"{where}.id", token.get("id"), _ACTOR)
        if token.get("role") not in ROLES or token.get("role") == "admin":
            problems.add(f"{where}.role", "must be director, referee, kiosk or viewer")
        table = token.get("table")
        if table is not None and (not isinstance(table, str) or table not in seats):
            problems.add(f"{where}.table", f"no table {table!r} in the import")
        _text(problems, f"{where}.label", token.get("label"), _LABEL, optional=True)

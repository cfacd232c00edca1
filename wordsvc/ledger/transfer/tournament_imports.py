"""An export's tournament rows checked as the writes that made them would have been (docs/tournaments.md, "Transfer").

The players, sessions, seats and schedule of an export are held to what
the API's writes allow before anything is stored: ids and names as the
schemas take them, numbers in range, every seat's player, session and
table present, each player seated once per session and only while active,
tables within the ruleset's player range and seated with the players'
names in seat order. The audit chain then vouches that the rows are the
ones its entries made (:mod:`..integrity.tournament_trail`). Every problem is named by
its path in the document; nothing here can raise past a 422.
"""

from __future__ import annotations

from typing import Any

from ...core.errors import Problems
from ...core.ids import is_id
from ...core.ruleset import Ruleset

__all__ = ["check_tournament"]

#: What the columns hold (wordsvc/ledger/_db/schema.py) and the API allows (wordsvc/schemas/tournaments.py).
_TIME, _CLUB, _NAME, _MOST_SESSIONS = 32, 200, 64, 64


def _int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _text(value: Any, most: int) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= most and not any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value)


def check_tournament(document: dict[str, Any], games: dict[str, list[str]], ruleset: Ruleset | None, problems: Problems) -> None:
    """Add to ``problems`` every way the document's tournament rows depart from what the API could have stored."""
    for key, kind in (("players", list), ("sessions", list), ("seats", list)):
        if document.get(key) is not None and not isinstance(document[key], kind):
            problems.add(key, "must be a list")
            return
    if document.get("schedule") is not None and not isinstance(document["schedule"], dict):
        problems.add("schedule", "must be an object or null")
    people = _players(document.get("players") or [], problems)
    numbers = _sessions(document.get("sessions") or [], problems)
    game_sessions = _game_sessions(document.get("games") or [], numbers, problems)
    _seats(document.get("seats") or [], people, numbers, games, game_sessions, ruleset, problems)


def _players(rows: list[Any], problems: Problems) -> dict[str, dict[str, Any]]:
    people: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        where = f"players.{i}"
        if not isinstance(row, dict):
            problems.add(where, "must be an object")
            continue
        ok = True
        if not is_id(row.get("id")):
            problems.add(f"{where}.id", "must be 1 to 64 lowercase letters, digits, - or _")
            ok = False
        elif row["id"] in people:
            problems.add(f"{where}.id", f"player {row['id']!r} is listed twice")
            ok = False
        if not _text(row.get("name"), _NAME) or row["name"] != row["name"].strip():
            problems.add(f"{where}.name", f"must be a name of 1 to {_NAME} characters")
        if row.get("club") is not None and not _text(row["club"], _CLUB):
            problems.add(f"{where}.club", f"must be text of 1 to {_CLUB} characters or null")
        if row.get("rating_id") is not None and not is_id(row["rating_id"]):
            problems.add(f"{where}.rating_id", "must be an id or null")
        if not isinstance(row.get("checked_in"), bool):
            problems.add(f"{where}.checked_in", "must be true or false")
        if not _int(row.get("joined"), 1, _MOST_SESSIONS + 1):
            problems.add(f"{where}.joined", f"must be a session number, 1 to {_MOST_SESSIONS + 1}")
            ok = False
        if row.get("withdrawn") is not None and not _int(row["withdrawn"], 1, _MOST_SESSIONS + 1):
            problems.add(f"{where}.withdrawn", f"must be a session number, 1 to {_MOST_SESSIONS + 1}, or null")
            ok = False
        if not _text(row.get("created_at"), _TIME):
            problems.add(f"{where}.created_at", f"must be a time of at most {_TIME} characters")
        if ok:
            people[row["id"]] = row
    return people


def _sessions(rows: list[Any], problems: Problems) -> set[int]:
    numbers: set[int] = set()
    for i, row in enumerate(rows):
        where = f"sessions.{i}"
        if not isinstance(row, dict):
            problems.add(where, "must be an object")
            continue
        if not _int(row.get("number"), 1, _MOST_SESSIONS) or row["number"] in numbers:
            problems.add(f"{where}.number", f"must be a session number of 1 to {_MOST_SESSIONS}, each once")
            continue
        request = row.get("request")
        if not isinstance(request, dict) or request.get("method") not in ("random", "standings", "swiss", "schedule", "manual"):
            problems.add(f"{where}.request", "must name a seating method")
        if not _int(row.get("draws"), 1, 2**31 - 1):
            problems.add(f"{where}.draws", "must be a count from 1")
        if not isinstance(row.get("unfinished"), bool):
            problems.add(f"{where}.unfinished", "must be true or false")
        if not _text(row.get("created_at"), _TIME):
            problems.add(f"{where}.created_at", f"must be a time of at most {_TIME} characters")
        numbers.add(row["number"])
    if numbers and numbers != set(range(1, max(numbers) + 1)):
        problems.add("sessions", "must be numbered 1, 2, 3, ... with none missing")
    return numbers


def _game_sessions(rows: list[Any], numbers: set[int], problems: Problems) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, game in enumerate(rows):
        if not isinstance(game, dict) or game.get("session") is None:
            continue
        if not _int(game["session"], 1, _MOST_SESSIONS) or game["session"] not in numbers:
            problems.add(f"games.{i}.session", "must be the number of a session of the export, or null")
        elif is_id(game.get("id")):
            out[game["id"]] = game["session"]
    return out


def _seats(
    rows: list[Any],
    people: dict[str, dict[str, Any]],
    numbers: set[int],
    games: dict[str, list[str]],
    game_sessions: dict[str, int],
    ruleset: Ruleset | None,
    problems: Problems,
) -> None:
    taken: set[tuple[int, str]] = set()
    tables: dict[str, dict[int, str]] = {}
    for i, row in enumerate(rows):
        where = f"seats.{i}"
        if not isinstance(row, dict):
            problems.add(where, "must be an object")
            continue
        number, player, game, seat = row.get("session"), row.get("player"), row.get("game"), row.get("seat")
        if not _int(number, 1, _MOST_SESSIONS) or number not in numbers:
            problems.add(f"{where}.session", "must be the number of a session of the export")
            continue
        if not isinstance(player, str) or player not in people:
            problems.add(f"{where}.player", "must be a player of the export")
            continue
        if not isinstance(game, str) or game_sessions.get(game) != number:
            problems.add(f"{where}.game", f"must be a table of session {number}")
            continue
        if not _int(seat, 0, 15):
            problems.add(f"{where}.seat", "must be a seat number from 0")
            continue
        if (number, player) in taken:
            problems.add(f"{where}.player", f"player {player!r} is seated twice in session {number}")
            continue
        if seat in tables.setdefault(game, {}):
            problems.add(f"{where}.seat", f"seat {seat} of table {game} is taken twice")
            continue
        entrant = people[player]
        if entrant["joined"] > number or (entrant.get("withdrawn") is not None and entrant["withdrawn"] <= number) or not entrant["checked_in"]:
            problems.add(f"{where}.player", f"player {player!r} was not active in session {number}")
        taken.add((number, player))
        tables[game][seat] = player
    for game, number in game_sessions.items():
        held = tables.get(game, {})
        if sorted(held) != list(range(len(held))) or not held:
            problems.add("seats", f"table {game} of session {number}: seats must run 0, 1, 2, ... with none missing")
            continue
        names = [people[held[seat]]["name"] for seat in sorted(held)]
        if (games.get(game) or [])[: len(names)] != names:  # any names after them are the bots of a table hosted short of players (docs/play.md)
            problems.add("seats", f"table {game}: its players are not the seated players' names in seat order")
        if ruleset is not None and not ruleset.players_min <= len(held) <= ruleset.players_max:
            problems.add("seats", f"table {game}: {len(held)} players; the ruleset is for {ruleset.players_min} to {ruleset.players_max}")

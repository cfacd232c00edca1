"""A tournament rebuilt from its audit chain alone, and compared with the rows (docs/tournaments.md).

Every tournament write appends an entry that carries its whole result: a
registration the player as stored, a deletion the player gone, a session or a reseating every table's
players, a schedule the whole schedule. Folding the entries in order
therefore gives the players, sessions, seats and schedule the rows must
hold, and :func:`tournament_problems` says where they differ: what
``wordsvc audit verify`` and an import check, as they check games and rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["TOURNAMENT_ACTIONS", "Expected", "expected", "tournament_problems"]

TOURNAMENT_ACTIONS = (
    "player.registered",
    "player.checked_in",
    "player.withdrawn",
    "player.deleted",
    "session.created",
    "session.reseated",
    "schedule.published",
    "ratings.changed",
)


@dataclass
class Expected:
    """What the chain says the rows hold."""

    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    sessions: dict[int, dict[str, Any]] = field(default_factory=dict)
    seats: dict[tuple[int, str], tuple[str, int]] = field(default_factory=dict)  # (session, player) -> (game, seat)
    schedule: dict[str, Any] | None = None
    rated: bool = True


def expected(entries: Iterable[dict[str, Any]]) -> Expected:
    """Fold the chain's tournament entries, oldest first, into the rows they made."""
    out = Expected()
    for entry in entries:
        action, p = entry["action"], entry["payload"]
        if action == "player.registered":
            out.players[p["player"]] = {key: p[key] for key in ("name", "club", "rating_id", "checked_in", "joined")} | {"withdrawn": None}
        elif action == "player.checked_in" and p["player"] in out.players:
            out.players[p["player"]].update(checked_in=True, joined=p["joined"])
        elif action == "player.withdrawn" and p["player"] in out.players:
            out.players[p["player"]]["withdrawn"] = p["from"]
        elif action == "player.deleted":
            out.players.pop(p["player"], None)
        elif action in ("session.created", "session.reseated"):
            number = p["session"]
            if action == "session.created":
                out.sessions[number] = {"request": p["request"], "unfinished": p["unfinished"]}
            out.sessions.setdefault(number, {})["draws"] = p["draws"]
            for key in [key for key in out.seats if key[0] == number]:
                del out.seats[key]
            for table in p["tables"]:
                for seat, player in enumerate(table["players"]):
                    out.seats[(number, player)] = (table["game"], seat)
        elif action == "schedule.published":
            out.schedule = p
        elif action == "ratings.changed":
            out.rated = p["rated"]
    return out


def tournament_problems(
    event: dict[str, Any],
    entries: list[dict[str, Any]],
    players: list[dict[str, Any]],
    sessions: list[dict[str, Any]],
    seats: list[dict[str, Any]],
    schedule: dict[str, Any] | None,
) -> list[str]:
    """Every way the tournament's rows depart from their chain; ``[]`` when they agree."""
    want = expected(entries)
    problems: list[str] = []
    got_players = {row["id"]: row for row in players}
    for pid, fields in want.players.items():
        row = got_players.get(pid)
        if row is None:
            problems.append(f"player {pid}: registered in the audit but missing")
        elif any(row.get(key) != value for key, value in fields.items()):
            problems.append(f"player {pid}: differs from the audit entries that registered, checked in or withdrew them")
    problems += [f"player {pid}: no audit entry registered them" for pid in got_players if pid not in want.players]

    got_sessions = {row["number"]: row for row in sessions}
    for number, fields in want.sessions.items():
        row = got_sessions.get(number)
        if row is None:
            problems.append(f"session {number}: created in the audit but missing")
        elif any(row.get(key) != value for key, value in fields.items()):
            problems.append(f"session {number}: differs from the audit entries that created or reseated it")
    problems += [f"session {number}: no audit entry created it" for number in got_sessions if number not in want.sessions]

    got_seats = {(row["session"], row["player"]): (row["game"], row["seat"]) for row in seats}
    if got_seats != want.seats:
        wrong = sorted({key for key in got_seats.keys() | want.seats.keys() if got_seats.get(key) != want.seats.get(key)})
        problems += [f"seat of player {player} in session {number}: differs from the audit" for number, player in wrong[:20]]

    stored = {key: value for key, value in schedule.items() if key != "created_at"} if schedule is not None else None
    if stored != want.schedule:
        problems.append("schedule: differs from the audit entry that published it")
    if bool(event.get("rated", True)) != want.rated:
        problems.append(f"event {event['id']}: whether it is rated differs from the audit")
    return problems

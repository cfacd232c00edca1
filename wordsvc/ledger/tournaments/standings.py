"""Standings: every seated player of an event by total, and a duplicate event's matchpoints.

Read from each round's current revision only (a correction replaces what
it corrects); equal values share a rank (1, 2, 2, 4). A tournament's
tables are ranked within their session only (a line per player and
table names its ``session``): a session-2 table not yet played never
ranks beside a game of session 1; across sessions, the tournament's
``overall`` standings rank one line a player. The answer carries
the event's checkpoint, so a standings sheet can be held to the log it
was read from.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import bindparam, select

from .._db.prepared import Prepared
from .._db.schema import games, revisions
from ..records.access import require_read
from ..records.principals import Principal
from ..records.store import Store
from .tournament_standings import TournamentStandings

__all__ = ["Standings"]


class Standings:
    """An event's standings."""

    def __init__(self, store: Store, tournament: TournamentStandings):
        self.store = store
        self.tournament = tournament

    def standings(self, actor: Principal | None, event_id: str, session: int | None = None) -> dict[str, Any]:
        """Every seated player by total, highest first; equal totals share a rank (1, 2, 2, 4); a session's tables ranked within it.

        A tournament (an event with registered players) adds ``overall``: every
        player ranked across sessions by the event's format, after session
        ``session`` when one is named (docs/standings.md).
        """
        store = self.store
        event = store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with store.engine.connect() as conn:
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rows = _EVENT_TOTALS.all(conn, {"event": event_id})
            overall = self.tournament.overall(conn, event_id, session)
        current: dict[tuple[str, int], str] = {(r.game_id, r.round): r.totals_json for r in rows}  # ordered by revision: the last one wins
        per_game: dict[str, list[dict[str, int]]] = {}
        for (gid, _), text in current.items():
            per_game.setdefault(gid, []).append(json.loads(text))
        by_session: dict[int | None, list[dict[str, Any]]] = {}
        for game in game_rows:
            results = per_game.get(game.id, [])
            for name in json.loads(game.players_json):
                line = {
                    "player": name,
                    "table": game.id,
                    "session": game.session,
                    "rounds": len(results),
                    "total": sum(totals.get(name, 0) for totals in results),
                }
                by_session.setdefault(game.session, []).append(line)
        ranked = [line for number in sorted(by_session, key=lambda n: (n is not None, n or 0)) for line in _ranked(by_session[number], "total")]
        answer: dict[str, Any] = {"event": event_id, "standings": ranked}
        if overall is not None:
            answer["overall"] = overall
        if event.duplicate:
            answer["duplicate"] = _ranked(_matchpoints(game_rows, current), "matchpoints")
        answer["checkpoint"] = store.receipts.checkpoint(event_id)
        return answer


def _ranked(lines: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """``lines`` by ``key``, highest first; equal values share a rank (1, 2, 2, 4)."""
    lines = sorted(lines, key=lambda line: (-line[key], line["player"], line["table"]))
    ranked: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        rank = ranked[-1]["rank"] if ranked and ranked[-1][key] == line[key] else i + 1
        ranked.append({"rank": rank, **line})
    return ranked


def _matchpoints(game_rows: Sequence[Any], current: dict[tuple[str, int], str]) -> list[dict[str, Any]]:
    """Duplicate scoring: in each round, each player against everyone who held the same seat's cards: 2 per player beaten, 1 per tie."""
    held: dict[tuple[int, int], list[tuple[str, str, int]]] = {}  # (round, seat) -> (table, player, round total)
    for game in game_rows:
        for seat, name in enumerate(json.loads(game.players_json)):
            for (gid, number), text in current.items():
                if gid == game.id:
                    held.setdefault((number, seat), []).append((game.id, name, json.loads(text).get(name, 0)))
    points: dict[tuple[str, str], list[int]] = {}
    for game in game_rows:
        for seat, name in enumerate(json.loads(game.players_json)):
            points[(game.id, name)] = [seat, 0, 0]  # seat, matchpoints, rounds
    for group in held.values():
        for table, name, total in group:
            mine = points[(table, name)]
            mine[1] += sum(2 if total > other else 1 if total == other else 0 for t, n, other in group if (t, n) != (table, name))
            mine[2] += 1
    return [{"player": name, "table": table, "seat": seat, "rounds": rounds, "matchpoints": mp} for (table, name), (seat, mp, rounds) in points.items()]


_EVENT_TOTALS = Prepared(
    select(revisions.c.game_id, revisions.c.round, revisions.c.totals_json)
    .where(revisions.c.event_id == bindparam("event"))
    .order_by(revisions.c.game_id, revisions.c.round, revisions.c.revision)
)

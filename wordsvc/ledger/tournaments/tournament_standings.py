"""A tournament's standings across sessions, its crosstable, and the games both are read from (docs/standings.md).

A session's game counts once all its rounds are stored: its final scores
are the sums of each round's current revision (a correction replaces what
it corrects). Each seat's registered player comes from the ``seats`` rows,
so two players of one name in different sessions stay two players. The
ranking itself is :mod:`wordsvc.core.standings`' under the event's format
snapshot (``formats/``), never the YAML on disk once the event has one.
The entrants are the players who checked in (a no-show has no line), and
the crosstable lists them in the order of the overall standings.

A seat a bot played at a hosted table (a bot seat of a table short of
players, or a player's seat handed to a bot: absent, resigned, out of time)
counts for nobody: the bot is no entrant, and the player whose seat it was
has no game there (docs/tournaments.md, "Sessions played online"); the
others' scores count as at any table.

The standings are **provisional** until the tournament's last session is
complete: the event closed, or every session of its published schedule
seated and complete (a tournament without a schedule cannot know its last
session before the director closes it). ``completed`` is the last session
``k`` with every game of sessions 1 to ``k`` complete: what a printed
document calls "after session k".
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, func, select

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.standings import Entrant, Format, Game, crosstable, standings
from ...data.formats import DEFAULT_FORMAT, format_from_snapshot, known_formats
from .._db.schema import events, games, hosted_seats, players, revisions, schedules, seats, sessions
from ..records.access import require_read
from ..records.principals import Principal
from ..records.store import Store

__all__ = ["TournamentStandings", "bot_seats", "complete_games", "completed_sessions", "entrants", "last_session_known"]


class TournamentStandings:
    """The overall standings of an event's players, after any session, and who met whom."""

    def __init__(self, store: Store):
        self.store = store

    def overall(self, conn: Connection, event_id: str, through: int | None) -> dict[str, Any] | None:
        """``{"format", "through", "completed", "provisional", "lines"}`` for a tournament (an event with registered players), else ``None``; a line per entrant.

        ``completed``: the last session complete in sequence, at most ``through``;
        ``provisional``: false only for the standings after the tournament's last
        session once it is complete (see the module's docstring).
        """
        if conn.execute(select(func.count()).select_from(players).where(players.c.event_id == event_id)).scalar_one() == 0:
            return None
        people = entrants(conn, event_id)
        fmt = event_format(conn, event_id)
        last = int(conn.execute(select(func.coalesce(func.max(sessions.c.number), 0)).where(sessions.c.event_id == event_id)).scalar_one())
        if through is not None and through > last:
            raise InvalidRequest(
                f"Event {event_id} has seated {last} session(s): there are no standings after session {through} yet.",
                {"session": [f"must be 1 to {last}"]},
                code=codes.STANDINGS_NOT_YET,
            )
        counted = last if through is None else through
        played = complete_games(conn, event_id, self._rounds(event_id))
        completed = min(completed_sessions(conn, event_id, played), counted)
        final = counted == last and completed == last and last_session_known(conn, event_id, last)
        return {
            "format": fmt.document(),
            "through": counted,
            "completed": completed,
            "provisional": not final,
            "lines": standings(fmt, people, played, counted),
        }

    def ranking(self, conn: Connection, event_id: str, through: int) -> list[str]:
        """The player ids in standings order after session ``through`` (0: before the first, in id order)."""
        people = entrants(conn, event_id)
        if through < 1:
            return sorted(entrant.id for entrant in people)
        lines = standings(event_format(conn, event_id), people, complete_games(conn, event_id, self._rounds(event_id)), through)
        return [line["player"] for line in lines]

    def crosstable(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            people = entrants(conn, event_id)
            played = complete_games(conn, event_id, self._rounds(event_id))
            fmt = event_format(conn, event_id)
        place = {line["player"]: rank for rank, line in enumerate(standings(fmt, people, played))}
        table = crosstable(sorted(people, key=lambda entrant: place[entrant.id]), played)  # in the order of the overall standings
        return {"event": event_id, **table, "checkpoint": self.store.receipts.checkpoint(event_id)}

    def _rounds(self, event_id: str) -> int:
        return len(self.store.ruleset(self.store.event_row(event_id)).rounds)


def event_format(conn: Connection, event_id: str) -> Format:
    """The event's format snapshot; an event created before formats existed ranks by the default format."""
    snapshot = conn.execute(select(events.c.format_json).where(events.c.id == event_id)).scalar_one()
    return format_from_snapshot(json.loads(snapshot)) if snapshot else known_formats()[DEFAULT_FORMAT]


def completed_sessions(conn: Connection, event_id: str, played: list[Game]) -> int:
    """The last session ``k`` such that every game of sessions 1 to ``k`` is complete (0 when session 1 is not)."""
    tables: dict[int, int] = {}
    for number in conn.execute(select(games.c.session).where(games.c.event_id == event_id, games.c.session.is_not(None))).scalars():
        tables[number] = tables.get(number, 0) + 1
    done: dict[int, int] = {}
    for game in played:
        done[game.session] = done.get(game.session, 0) + 1
    k = 0
    while tables.get(k + 1) and done.get(k + 1, 0) == tables[k + 1]:
        k += 1
    return k


def last_session_known(conn: Connection, event_id: str, last: int) -> bool:
    """Whether session ``last`` is the tournament's last: the event is closed, or its published schedule has ``last`` sessions."""
    if conn.execute(select(events.c.status).where(events.c.id == event_id)).scalar_one() == "closed":
        return True
    plan = conn.execute(select(schedules.c.document_json).where(schedules.c.event_id == event_id)).scalar_one_or_none()
    return plan is not None and last >= 1 and len(json.loads(plan)["schedule"]) == last


def entrants(conn: Connection, event_id: str) -> list[Entrant]:
    """The standings' entrants, by id: every registered player who checked in (a late entry and a withdrawn player too, never a no-show)."""
    rows = conn.execute(
        select(players.c.id, players.c.name, players.c.joined, players.c.withdrawn)
        .where(players.c.event_id == event_id, players.c.checked_in.is_(True))
        .order_by(players.c.id)
    )
    return [Entrant(row.id, row.name, row.joined, row.withdrawn) for row in rows]


def complete_games(conn: Connection, event_id: str, rounds: int) -> list[Game]:
    """Every session game of the event with all ``rounds`` rounds stored: each seat's player and final score, in seat order."""
    seated: dict[str, list[tuple[int, str, int]]] = {}
    names: dict[str, list[str]] = {}
    query = select(games.c.id, games.c.session, games.c.players_json).where(games.c.event_id == event_id, games.c.session.is_not(None))
    for row in conn.execute(query):
        names[row.id] = json.loads(row.players_json)
        seated[row.id] = []
    bots = bot_seats(conn, event_id)
    for row in conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.player_id, seats.c.session).where(seats.c.event_id == event_id)):
        if row.game_id in seated and row.seat not in bots.get(row.game_id, ()):
            seated[row.game_id].append((row.seat, row.player_id, row.session))
    current: dict[tuple[str, int], dict[str, int]] = {}
    query = select(revisions.c.game_id, revisions.c.round, revisions.c.totals_json).where(revisions.c.event_id == event_id).order_by(revisions.c.revision)
    for row in conn.execute(query):
        if row.game_id in seated:
            current[(row.game_id, row.round)] = json.loads(row.totals_json)  # by revision: the last one wins
    finals: dict[str, dict[str, int]] = {}
    played: dict[str, int] = {}
    for (game, _), totals in current.items():
        played[game] = played.get(game, 0) + 1
        final = finals.setdefault(game, {})
        for name, total in totals.items():
            final[name] = final.get(name, 0) + total
    out = []
    for game, seat_rows in seated.items():
        if played.get(game, 0) < rounds or not seat_rows:
            continue
        ordered = sorted(seat_rows)
        scores = tuple((player, finals[game].get(names[game][seat], 0)) for seat, player, _ in ordered)
        out.append(Game(ordered[0][2], game, scores))
    return sorted(out, key=lambda g: (g.session, int(g.table.rsplit("-t", 1)[1])))


def bot_seats(conn: Connection, event_id: str) -> dict[str, set[int]]:
    """The seats a bot played at the event's hosted tables, by table: from the start, or once its player's seat was handed over."""
    found: dict[str, set[int]] = {}
    query = select(hosted_seats.c.game_id, hosted_seats.c.seat).where(hosted_seats.c.event_id == event_id, hosted_seats.c.kind == "bot")
    for row in conn.execute(query):
        found.setdefault(row.game_id, set()).add(row.seat)
    return found

"""Sessions: seating every active player at the tables of a tournament's round, and changing that seating before it starts.

A session's tables are games (``s<session>-t<table>``) seated with the
players' display names in seat order, so rounds, corrections, rulings and
seeded deals work on them unchanged; the ``seats`` rows tie each seat to a
registered player, and their primary key (event, session, player) makes a
player at two tables of one session impossible in the database itself.

The seating is computed inside the write's transaction from what it reads
there (players, earlier seatings, standings, the schedule), by the pure
:func:`~wordsvc.core.seating.sessions.plan_session`; the ``session.created`` entry
then records the whole seating, so the chain alone rebuilds it
(:mod:`..integrity.tournament_trail`). Until a round of the session is stored a
director may swap two players or draw the session again; after that the
seating is fixed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.seating import SeatingError, repeat_meetings, round_robin_schedule
from ...core.seating.sessions import History, Registration, active, history, plan_session, sizes_for
from .._db.canonical import canonical, now
from .._db.schema import events, games, hosted, players, revisions, schedules, seats, sessions
from ..errors import Conflict, NotFound
from ..integrity.receipts import Appended
from ..records.access import require_director, require_read
from ..records.principals import Principal
from ..records.store import Store, refuse_if_closed
from .players import last_session

__all__ = ["Sessions", "game_id_of"]

#: ``ranking(conn, event_id, through)``: the player ids in standings order after session ``through``.
Ranking = Callable[[Connection, str, int], list[str]]


def game_id_of(session: int, table: int) -> str:
    """The game id of table ``table`` (1 first) of session ``session``."""
    return f"s{session}-t{table}"


class Sessions:
    """Creating, reading and reseating an event's sessions, and publishing its schedule."""

    def __init__(self, store: Store, ranking: Ranking):
        self.store = store
        self.ranking = ranking

    # --- writes -----------------------------------------------------------------------------------

    def create(self, actor: Principal | None, event_id: str, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        """Seat the next session; ``(created, session)``. With ``number`` named, a retry of the same request is ``(False, session)``."""
        event = self.store.event_row(event_id)
        actor = require_director(actor, event_id)
        ruleset = self.store.ruleset(event)
        smallest, largest = ruleset.players_min, ruleset.players_max
        request = _request_of(body)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            last = last_session(conn, event_id)
            asked = body.get("number")
            if asked is not None and asked <= last:
                stored = conn.execute(select(sessions.c.request_json).where(sessions.c.event_id == event_id, sessions.c.number == asked)).scalar_one()
                if json.loads(stored) != request:
                    raise Conflict(
                        f"Session {asked} of event {event_id} was seated by another request.",
                        {"number": [f"session {asked} exists"]},
                        code=codes.SESSION_CONFLICT,
                    )
                return self.store.receipts.find(conn, event_id, ("session.created",), lambda p: p.get("session") == asked)
            number = last + 1
            if asked is not None and asked != number:
                raise Conflict(
                    f"The next session of event {event_id} is {number}, not {asked}.", {"number": [f"must be {number}"]}, code=codes.SESSION_CONFLICT
                )
            refuse_if_closed(conn, event_id, "no more sessions can be seated")
            unfinished = self._unfinished(conn, event_id, last, len(ruleset.rounds))
            if unfinished and body.get("unfinished") != "allow":
                raise Conflict(
                    f'Session {last} has tables with rounds missing ({", ".join(unfinished)}); finish them, or send "unfinished": "allow" to seat session {number} anyway.',
                    {"unfinished": unfinished},  # the tables, as data: a page names them in its own language
                    code=codes.SESSION_CONFLICT,
                )
            tables = self._plan(conn, event_id, number, body, smallest, largest, draw=1)
            if event.duplicate and len({len(table) for table in tables}) > 1:
                raise InvalidRequest(
                    f"Every table of duplicate event {event_id} must seat as many players; these sizes differ: {sorted({len(t) for t in tables})}.",
                    {"size": ["tables of one size only in a duplicate event"]},
                    code=codes.SEATING_IMPOSSIBLE,
                )
            conn.execute(
                insert(sessions).values(
                    event_id=event_id, number=number, request_json=canonical(request), draws=1, unfinished=bool(unfinished), created_at=now()
                )
            )
            names = _names(conn, event_id)
            payload = {"session": number, "request": request, "draws": 1, "unfinished": bool(unfinished), "tables": _tables_payload(number, tables)}
            done = self.store.append(conn, event_id, actor, "session.created", payload)
            for index, table in enumerate(tables, start=1):
                game = game_id_of(number, index)
                if self.store.game_row(conn, event_id, game) is not None:
                    raise Conflict(
                        f"Event {event_id} already has a table {game!r}, seated by name.", {"number": [f"table {game} is taken"]}, code=codes.TABLE_CONFLICT
                    )
                seated = [names[player] for player in table]
                conn.execute(insert(games).values(event_id=event_id, id=game, players_json=canonical(seated), created_at=now(), session=number))
                self._insert_seats(conn, event_id, number, game, table)
                done = self.store.append(conn, event_id, actor, "game.created", {"game": game, "players": seated, "session": number})
            return done

        done = self.store.writer.run(event_id, work)
        with self.store.engine.connect() as conn:
            number = body.get("number") or last_session(conn, event_id)
            view = self._view(conn, event_id, number, len(ruleset.rounds))
        return isinstance(done, Appended), {**view, "receipt": self.store.receipt(event_id, done)}

    def swap(self, actor: Principal | None, event_id: str, number: int, first: str, second: str) -> dict[str, Any]:
        """Exchange the seats of two players of session ``number``, before its first round is stored (audited)."""
        if first == second:
            raise InvalidRequest("A swap needs two different players.", {"players": ["the same player twice"]}, code=codes.SEATING_IMPOSSIBLE)

        def change(conn: Connection, tables: list[list[str]], request: dict[str, Any], draws: int) -> tuple[list[list[str]], int]:
            where = {player: (t, s) for t, table in enumerate(tables) for s, player in enumerate(table)}
            for player in (first, second):
                if player not in where:
                    raise InvalidRequest(
                        f"Player {player!r} is not seated in session {number}.",
                        {"players": [f"{player!r} is not seated in session {number}"]},
                        code=codes.PLAYER_NOT_FOUND,
                    )
            (t1, s1), (t2, s2) = where[first], where[second]
            tables[t1][s1], tables[t2][s2] = second, first
            return tables, draws

        return self._reseat(actor, event_id, number, change)

    def redraw(self, actor: Principal | None, event_id: str, number: int) -> dict[str, Any]:
        """Seat session ``number``'s players again by its method, a new draw for ``random``, before its first round (audited)."""
        event = self.store.event_row(event_id)
        ruleset = self.store.ruleset(event)

        def change(conn: Connection, tables: list[list[str]], request: dict[str, Any], draws: int) -> tuple[list[list[str]], int]:
            if request["method"] == "manual":
                raise InvalidRequest(
                    "A manual seating is the director's own: change it with swaps.", {"method": ["manual: nothing to draw"]}, code=codes.SEATING_IMPOSSIBLE
                )
            seated = sorted(player for table in tables for player in table)
            sizes = [len(table) for table in tables]
            again = self._plan(conn, event_id, number, request, ruleset.players_min, ruleset.players_max, draw=draws + 1, only=seated, sizes=sizes)
            return again, draws + 1

        return self._reseat(actor, event_id, number, change)

    def publish_schedule(self, actor: Principal | None, event_id: str, count: int, size: dict[str, Any] | None = None) -> tuple[bool, dict[str, Any]]:
        """Publish the whole schedule for the checked-in players, before the first session; the same request again is ``(False, schedule)``."""
        event = self.store.event_row(event_id)
        actor = require_director(actor, event_id)
        ruleset = self.store.ruleset(event)
        request = {"sessions": count, "size": size}

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            stored = conn.execute(select(schedules.c.document_json).where(schedules.c.event_id == event_id)).scalar_one_or_none()
            if stored is not None:
                if {key: json.loads(stored)[key] for key in request} != request:
                    raise Conflict(f"Event {event_id} has published another schedule.", {"sessions": ["a schedule is published"]}, code=codes.SCHEDULE_CONFLICT)
                return self.store.receipts.find(conn, event_id, ("schedule.published",), lambda p: True)
            refuse_if_closed(conn, event_id, "no schedule can be published")
            if last_session(conn, event_id):
                raise Conflict(
                    f"Event {event_id} has seated sessions: a schedule is published before the first.",
                    {"sessions": ["sessions are seated"]},
                    code=codes.SCHEDULE_CONFLICT,
                )
            field = active(_entrants(conn, event_id), 1)
            seed = _seed(conn, event_id)
            if seed is None:
                raise Conflict(
                    f"Event {event_id} has no seed (it was created before every event drew one): it cannot draw a schedule.",
                    {"event": ["no seed"]},
                    code=codes.NO_SEED,
                )
            try:
                sizes = sizes_for(len(field), (size or {}).get("target"), (size or {}).get("remainder", "smaller"), ruleset.players_min, ruleset.players_max)
                plan = round_robin_schedule(field, sizes, count, seed)
            except SeatingError as err:
                raise InvalidRequest(f"No schedule: {err.message}.", {err.field: [err.message]}, code=codes.SEATING_IMPOSSIBLE) from None
            document = {**request, "players": field, "schedule": plan}
            conn.execute(insert(schedules).values(event_id=event_id, document_json=canonical(document), created_at=now()))
            return self.store.append(conn, event_id, actor, "schedule.published", document)

        done = self.store.writer.run(event_id, work)
        return isinstance(done, Appended), {**self.schedule(actor, event_id), "receipt": self.store.receipt(event_id, done)}

    # --- reads ------------------------------------------------------------------------------------

    def session(self, actor: Principal | None, event_id: str, number: int) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        rounds = len(self.store.ruleset(event).rounds)
        with self.store.engine.connect() as conn:
            return self._view(conn, event_id, number, rounds)

    def sessions(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        rounds = len(self.store.ruleset(event).rounds)
        with self.store.engine.connect() as conn:
            numbers = range(1, last_session(conn, event_id) + 1)
            return {"event": event_id, "sessions": [self._view(conn, event_id, number, rounds) for number in numbers]}

    def schedule(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            stored = conn.execute(select(schedules.c.document_json).where(schedules.c.event_id == event_id)).scalar_one_or_none()
        if stored is None:
            raise NotFound(f"Event {event_id} has published no schedule.", {"schedule": ["none published"]}, code=codes.SCHEDULE_NOT_FOUND)
        return {"event": event_id, **json.loads(stored)}

    # --- inside ------------------------------------------------------------------------------------

    def _plan(
        self,
        conn: Connection,
        event_id: str,
        number: int,
        request: dict[str, Any],
        smallest: int,
        largest: int,
        draw: int,
        only: list[str] | None = None,
        sizes: list[int] | None = None,
    ) -> list[list[str]]:
        """Session ``number``'s tables by ``request``'s method, from what the transaction reads; 422 naming the field at fault."""
        entrants = _entrants(conn, event_id)
        field = only if only is not None else active(entrants, number)
        method = request["method"]
        past = _past(conn, event_id, number)
        size = request.get("size") or {}
        try:
            if method == "manual":
                if request.get("tables") is None:
                    raise SeatingError("tables", "the manual method needs the tables")
                sizes = [len(table) for table in request["tables"]]
            elif sizes is None:
                sizes = sizes_for(len(field), size.get("target"), size.get("remainder", "smaller"), smallest, largest)
            ranked = self.ranking(conn, event_id, number - 1) if method in ("standings", "swiss") else []
            planned = None
            if method == "schedule":
                stored = conn.execute(select(schedules.c.document_json).where(schedules.c.event_id == event_id)).scalar_one_or_none()
                plan = json.loads(stored)["schedule"] if stored is not None else []
                planned = plan[number - 1] if number <= len(plan) else None
            seed = _seed(conn, event_id) if method == "random" else None
            return plan_session(
                method, number, field, sizes, smallest, largest, past, seed=seed, draw=draw, ranked=ranked, manual=request.get("tables"), planned=planned
            )
        except SeatingError as err:
            raise InvalidRequest(f"Session {number} cannot be seated: {err.message}.", {err.field: [err.message]}, code=codes.SEATING_IMPOSSIBLE) from None

    def _reseat(self, actor: Principal | None, event_id: str, number: int, change: Callable[..., tuple[list[list[str]], int]]) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        actor = require_director(actor, event_id)
        rounds = len(self.store.ruleset(event).rounds)

        def work(conn: Connection) -> Appended:
            row = conn.execute(select(sessions).where(sessions.c.event_id == event_id, sessions.c.number == number)).first()
            if row is None:
                raise NotFound(f"Event {event_id} has no session {number}.", {"session": [f"no session {number}"]}, code=codes.SESSION_NOT_FOUND)
            refuse_if_closed(conn, event_id, "its seating is final")
            if self._started(conn, event_id, number):
                raise Conflict(f"Session {number} has a stored round: its seating is fixed.", {"session": ["started"]}, code=codes.SESSION_CONFLICT)
            ids = [game_id_of(number, index) for index in range(1, len(_seating(conn, event_id, number)) + 1)]
            if conn.execute(select(hosted.c.game_id).where(hosted.c.event_id == event_id, hosted.c.game_id.in_(ids)).limit(1)).first() is not None:
                raise Conflict(  # its players hold their seats' links: a reseat would play the game under other names
                    f"Session {number} is played online: its seating is fixed.", {"session": ["hosted online"]}, code=codes.SESSION_CONFLICT
                )
            before = _seating(conn, event_id, number)
            after, draws = change(conn, [list(table) for table in before], json.loads(row.request_json), row.draws)
            names = _names(conn, event_id)
            conn.execute(delete(seats).where(seats.c.event_id == event_id, seats.c.session == number))
            conn.execute(update(sessions).where(sessions.c.event_id == event_id, sessions.c.number == number).values(draws=draws))
            done = self.store.append(conn, event_id, actor, "session.reseated", {"session": number, "draws": draws, "tables": _tables_payload(number, after)})
            for index, (old, new) in enumerate(zip(before, after, strict=True), start=1):
                game = game_id_of(number, index)
                self._insert_seats(conn, event_id, number, game, new)
                if old != new:
                    seated = [names[player] for player in new]
                    conn.execute(update(games).where(games.c.event_id == event_id, games.c.id == game).values(players_json=canonical(seated)))
                    done = self.store.append(conn, event_id, actor, "game.reseated", {"game": game, "players": seated, "session": number})
            return done

        done = self.store.writer.run(event_id, work)
        with self.store.engine.connect() as conn:
            view = self._view(conn, event_id, number, rounds)
        return {**view, "receipt": self.store.receipt(event_id, done)}

    def _insert_seats(self, conn: Connection, event_id: str, number: int, game: str, table: Sequence[str]) -> None:
        conn.execute(insert(seats), [{"event_id": event_id, "session": number, "player_id": p, "game_id": game, "seat": s} for s, p in enumerate(table)])

    def _started(self, conn: Connection, event_id: str, number: int) -> bool:
        ids = [game_id_of(number, t) for t in range(1, len(_seating(conn, event_id, number)) + 1)]
        return conn.execute(select(func.count()).select_from(revisions).where(revisions.c.event_id == event_id, revisions.c.game_id.in_(ids))).scalar_one() > 0

    def _unfinished(self, conn: Connection, event_id: str, number: int, rounds: int) -> list[str]:
        """The tables of session ``number`` with fewer than ``rounds`` rounds stored."""
        if number == 0:
            return []
        played = dict(
            conn.execute(
                select(revisions.c.game_id, func.count(func.distinct(revisions.c.round)))
                .join(games, (games.c.event_id == revisions.c.event_id) & (games.c.id == revisions.c.game_id))
                .where(revisions.c.event_id == event_id, games.c.session == number)
                .group_by(revisions.c.game_id)
            ).all()
        )
        tables = conn.execute(select(games.c.id).where(games.c.event_id == event_id, games.c.session == number).order_by(games.c.id)).scalars()
        return [game for game in tables if played.get(game, 0) < rounds]

    def _view(self, conn: Connection, event_id: str, number: int, rounds: int) -> dict[str, Any]:
        row = conn.execute(select(sessions).where(sessions.c.event_id == event_id, sessions.c.number == number)).first()
        if row is None:
            raise NotFound(f"Event {event_id} has no session {number}.", {"session": [f"no session {number}"]}, code=codes.SESSION_NOT_FOUND)
        request = json.loads(row.request_json)
        tables = _seating(conn, event_id, number)
        names = _names(conn, event_id)
        ids = [game_id_of(number, t) for t in range(1, len(tables) + 1)]
        played = dict(
            conn.execute(
                select(revisions.c.game_id, func.count(func.distinct(revisions.c.round)))
                .where(revisions.c.event_id == event_id, revisions.c.game_id.in_(ids))
                .group_by(revisions.c.game_id)
            ).all()
        )
        online = dict(conn.execute(select(hosted.c.game_id, hosted.c.status).where(hosted.c.event_id == event_id, hosted.c.game_id.in_(ids))).all())
        past = _past(conn, event_id, number)
        return {
            "event": event_id,
            "number": number,
            "method": request["method"],
            "size": request.get("size"),
            "draws": row.draws,
            "unfinished": bool(row.unfinished),
            "started": any(played.get(game, 0) for game in ids),
            "complete": all(played.get(game, 0) >= rounds for game in ids),
            "tables": [
                {
                    "game": game,
                    "seats": [{"seat": s, "player": p, "name": names[p]} for s, p in enumerate(table)],
                    "rounds_played": played.get(game, 0),
                    "online": online.get(game),
                }
                for game, table in zip(ids, tables, strict=True)
            ],
            "repeat_meetings": repeat_meetings(tables, past.met),
        }


def _request_of(body: dict[str, Any]) -> dict[str, Any]:
    """What a session was asked for, as stored and audited (the method, the size policy, a manual seating)."""
    request = {"method": body["method"], "size": body.get("size")}
    if body.get("tables") is not None:
        request["tables"] = [list(table) for table in body["tables"]]
    return request


def _tables_payload(number: int, tables: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    return [{"game": game_id_of(number, t), "players": list(table)} for t, table in enumerate(tables, start=1)]


def _entrants(conn: Connection, event_id: str) -> list[Registration]:
    rows = conn.execute(select(players.c.id, players.c.checked_in, players.c.joined, players.c.withdrawn).where(players.c.event_id == event_id))
    return [Registration(row.id, bool(row.checked_in), row.joined, row.withdrawn) for row in rows]


def _names(conn: Connection, event_id: str) -> dict[str, str]:
    return dict(conn.execute(select(players.c.id, players.c.name).where(players.c.event_id == event_id)).all())


def _seed(conn: Connection, event_id: str) -> str | None:
    return conn.execute(select(events.c.deal_seed).where(events.c.id == event_id)).scalar_one()  # type: ignore[no-any-return]


def seatings(conn: Connection, event_id: str) -> dict[int, list[list[str]]]:
    """Every session's tables in seat order (player ids), by session number."""
    out: dict[int, dict[str, list[tuple[int, str]]]] = {}
    rows = conn.execute(select(seats.c.session, seats.c.game_id, seats.c.seat, seats.c.player_id).where(seats.c.event_id == event_id))
    for row in rows:
        out.setdefault(row.session, {}).setdefault(row.game_id, []).append((row.seat, row.player_id))
    return {
        number: [[player for _, player in sorted(tables[game])] for game in sorted(tables, key=lambda g: int(g.rsplit("-t", 1)[1]))]
        for number, tables in out.items()
    }


def _seating(conn: Connection, event_id: str, number: int) -> list[list[str]]:
    return seatings(conn, event_id).get(number, [])


def _past(conn: Connection, event_id: str, number: int) -> History:
    every = seatings(conn, event_id)
    return history([every[k] for k in sorted(every) if k < number])

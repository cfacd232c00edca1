"""People leaving a hosted table, and a table played again: resign, abort, rematch (docs/play.md, "Leaving, aborting, rematch").

- **Resign**: a seat's player leaves; a bot plays the seat to the game's end
  and the game counts as the player's forfeit (``play.handed``, as when
  its time runs out twice in a row).
- **Abort**: a seat or the director ends a game before its first round is
  scored (before it has a result, so nothing is rated); the server seed is
  revealed, as at any end.
- **Rematch**: once the game is over, each person seat accepts; the first
  acceptance makes the next table of the event (``table`` -> ``table-2``),
  with the same setup, a new server seed, and every seat one place to the
  left (the old seat 0 sits at seat 1), the bots at their rotated seats (a
  seat whose player left is a bot's there too).
  Each person takes their reserved seat by accepting; the game starts when
  the last has.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import Connection, insert, select, update

from ...core import problem_codes as codes
from ...core.play.fairness import commitment
from .._db.canonical import canonical, now
from .._db.schema import hosted, hosted_seats, revisions
from ..errors import Conflict, Forbidden
from ..records.access import require_director
from ..records.principals import Principal
from ..records.store import Store
from .plays import HANDOVER_LEVEL, Plays
from .tables import BOT_NAME, Tables, hosted_row, rematch_id, seat_rows

__all__ = ["Endings"]


class Endings:
    """Resigning, aborting and playing again at hosted tables."""

    def __init__(self, store: Store, tables: Tables, plays: Plays):
        self.store = store
        self.tables = tables
        self.plays = plays

    def resign(self, actor: Principal, seat: int, event_id: str, game_id: str) -> dict[str, Any]:
        """``seat``'s player leaves: a bot plays the seat from now on, and the game is the player's forfeit."""

        def work(conn: Connection) -> None:
            row = _playing(conn, event_id, game_id)
            if _row_of(conn, event_id, game_id, seat).kind == "bot":
                raise Conflict(f"Seat {seat} is played by a bot already.", {"seat": ["a bot's"]}, code=codes.SEAT_HANDED_OVER)
            _hand_over(conn, row, seat)
            self.store.append(conn, event_id, actor, "play.handed", {"game": game_id, "seat": seat, "reason": "resigned", "forfeit": True})

        self.store.writer.run(event_id, work)
        return self.tables.table(None, event_id, game_id, check=False)

    def abort(self, actor: Principal, event_id: str, game_id: str) -> dict[str, Any]:
        """End the game with no result: a seat of the table or the event's director, before the first round is scored."""
        if actor.role != "player":
            require_director(actor, event_id, "abort a hosted game")
        elif (actor.event, actor.table) != (event_id, game_id):
            raise Forbidden(f"This seat token is for another table, not {game_id}.", {"authorization": ["a seat of another table"]}, code=codes.NOT_A_SEAT)

        def work(conn: Connection) -> None:
            row = hosted_row(conn, event_id, game_id)
            if row is None:
                raise Conflict(f"Event {event_id} hosts no table {game_id!r}.", {"game": ["not hosted"]}, code=codes.NOT_HOSTED)
            if row.status in ("over", "aborted"):
                raise Conflict(f"Table {game_id}'s game is {row.status} already.", {"game": [row.status]}, code=codes.GAME_ENDED)
            if row.status == "playing" and _rounds_scored(conn, event_id, game_id):
                raise Conflict("A game can be aborted only before its first round is scored.", {"game": ["a round is scored"]}, code=codes.ABORT_TOO_LATE)
            conn.execute(_table(update(hosted), event_id, game_id).values(status="aborted", deadline_ms=None))
            self.store.append(conn, event_id, actor, "play.aborted", {"game": game_id, "server_seed": row.server_seed, "seed": row.seed})

        self.store.writer.run(event_id, work)
        return self.tables.table(None, event_id, game_id, check=False)

    def rematch(self, actor: Principal, seat: int, event_id: str, game_id: str) -> dict[str, Any]:
        """``seat``'s player accepts to play again: its seat at the next table (made by the first to accept), with a token of its own, once."""
        following = rematch_id(game_id)

        def work(conn: Connection) -> tuple[int, str, str]:
            row = hosted_row(conn, event_id, game_id)
            if row is None or row.status != "over":
                raise Conflict("A rematch follows a game that is over.", {"game": ["not over"]}, code=codes.GAME_NOT_OVER)
            old = seat_rows(conn, event_id, game_id)
            if old[seat].kind != "person" or old[seat].handed is not None:
                raise Conflict(f"Seat {seat} was handed to a bot: its player left the table.", {"seat": ["a bot's"]}, code=codes.SEAT_HANDED_OVER)
            size = len(old)
            if hosted_row(conn, event_id, following) is None:
                self._make(conn, actor, row, old, following)
            mine = (seat + 1) % size
            placed = seat_rows(conn, event_id, following)[mine]
            if placed.kind != "reserved":
                raise Conflict(f"Seat {seat} has accepted the rematch already.", {"seat": ["accepted"]}, code=codes.SEAT_TAKEN)
            tid, token = self.tables.tokens.insert(conn, "player", event_id, following, f"seat {mine}")
            self.store.append(conn, event_id, actor, "token.issued", {"id": tid, "role": "player", "table": following})
            conn.execute(_seat(update(hosted_seats), event_id, following, mine).values(kind="person", token_id=tid))
            self.store.append(conn, event_id, actor, "play.seated", {"game": following, "seat": mine, "name": placed.name, "kind": "person", "nonce": None})
            if not any(s.kind == "reserved" for s in seat_rows(conn, event_id, following)):
                self.tables.start(conn, actor, event_id, following)
            return mine, tid, token

        mine, tid, token = self.store.writer.run(event_id, work)
        return {"seat": mine, "token": token, "token_id": tid, "table": self.tables.table(None, event_id, following, check=False)}

    def _make(self, conn: Connection, actor: Principal, row: Any, old: list[Any], following: str) -> None:
        """The rematch's table: the same setup, a new server seed, every seat one place to the left."""
        setup = json.loads(row.setup_json)
        size = len(old)
        bots = {str((s.seat + 1) % size): s.level for s in old if s.kind == "bot"}
        setup = {**setup, "bots": dict(sorted(bots.items(), key=lambda item: int(item[0])))}
        server_seed = secrets.token_hex(32)
        conn.execute(
            insert(hosted).values(
                event_id=row.event_id, game_id=following, setup_json=canonical(setup), server_seed=server_seed,
                commitment=commitment(server_seed), status="waiting", created_at=now(),
            )
        )  # fmt: skip
        seats = []
        for s in old:
            seat = (s.seat + 1) % size
            if s.kind != "bot":
                moved = {"seat": seat, "kind": "reserved", "name": s.name, "level": None}
            else:  # a bot's seat, or one a player left: a bot's at the next table
                name = s.name if s.handed is None else BOT_NAME.format(seat=seat + 1, level=s.level)
                moved = {"seat": seat, "kind": "bot", "name": name, "level": s.level}
            conn.execute(insert(hosted_seats).values(event_id=row.event_id, game_id=following, **moved))
            seats.append(moved)
        seats.sort(key=lambda s: s["seat"])
        self.store.append(
            conn,
            row.event_id,
            actor,
            "play.created",
            {"game": following, "setup": setup, "commitment": commitment(server_seed), "seats": seats, "rematch_of": row.game_id},
        )


def _hand_over(conn: Connection, row: Any, seat: int) -> None:
    conn.execute(_seat(update(hosted_seats), row.event_id, row.game_id, seat).values(kind="bot", level=HANDOVER_LEVEL, handed="resigned"))


def _playing(conn: Connection, event_id: str, game_id: str) -> Any:
    row = hosted_row(conn, event_id, game_id)
    if row is None:
        raise Conflict(f"Event {event_id} hosts no table {game_id!r}.", {"game": ["not hosted"]}, code=codes.NOT_HOSTED)
    if row.status != "playing":
        code = codes.GAME_NOT_STARTED if row.status == "waiting" else codes.GAME_ENDED
        raise Conflict(f"Table {game_id}'s game is {row.status}.", {"game": [row.status]}, code=code)
    return row


def _row_of(conn: Connection, event_id: str, game_id: str, seat: int) -> Any:
    return seat_rows(conn, event_id, game_id)[seat]


def _rounds_scored(conn: Connection, event_id: str, game_id: str) -> bool:
    return conn.execute(select(revisions.c.round).where(revisions.c.event_id == event_id, revisions.c.game_id == game_id).limit(1)).first() is not None


def _table(statement: Any, event_id: str, game_id: str) -> Any:
    return statement.where(hosted.c.event_id == event_id, hosted.c.game_id == game_id)


def _seat(statement: Any, event_id: str, game_id: str, seat: int) -> Any:
    return statement.where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.seat == seat)

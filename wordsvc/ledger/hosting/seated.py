"""A table the director has seated, hosted online: a tournament session's tables played on the players' phones (docs/play.md, "Seated tables").

A seated table (a session's ``s2-t3``, or one seated by name) already is a
game of the event with its players in seat order. Hosting it adds the hosted
table around that game: a new server seed and its commitment, and a seat
for each seated player, in seat order, whose token the director gets once
to hand out (a seat link). The director decides for the seats nobody will
take: a seat of a player who has not come is played by the server's bot
(``handed: absent``), and a table short of players gets bot seats after the
players' (the game's players then end with the bots' names:
``game.reseated``). Every seat is then taken, so the game starts at once
(``play.started``), its seed derived from the committed server seed (the
players add no nonce: their seats were taken for them).

A bot counts for nobody: a seat a bot played (from the start, or once its
player was handed over) is left out of the standings, the crosstable and
the ratings (:mod:`wordsvc.ledger.tournaments.tournament_standings`), and a
game with a bot seat is never rated. All of it in one write, under the
event's chain lock.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import Connection, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.play import Knobs
from ...core.play.fairness import commitment
from .._db.canonical import canonical, now
from .._db.schema import games, hosted, hosted_seats, revisions, seats, tokens
from ..errors import Conflict, Forbidden, NotFound
from ..records.access import require_director
from ..records.principals import Principal
from ..records.store import Store, refuse_if_closed
from .plays import HANDOVER_LEVEL
from .setup import TableSetup
from .tables import BOT_NAME, Tables, hosted_row, seat_rows

__all__ = ["ABSENT", "SeatedTables"]

#: Why a seat of a seated table is a bot's: its player did not come (at hosting, or handed over by the director later).
ABSENT = "absent"


class SeatedTables:
    """Hosting a seated table of an event, a seat's link issued again, and a seat whose player is absent handed to a bot."""

    def __init__(self, store: Store, tables: Tables):
        self.store = store
        self.tables = tables

    def host(
        self, actor: Principal | None, event_id: str, game_id: str, bots: dict[int, int], knobs: Knobs, clock: dict[str, Any]
    ) -> dict[str, Any]:
        """Host seated table ``game_id`` (a director's): the table, and each person seat's ``token`` (once) with its player's name and id.

        ``bots``: seat -> the level of the bot that plays it: a seat of the
        table's players (that player is absent) or the seats after the last
        player's, in order (a table short of players).
        """
        store = self.store
        event = store.event_row(event_id)
        actor = require_director(actor, event_id, "host a seated table")
        ruleset = store.ruleset(event)
        server_seed = secrets.token_hex(32)

        def work(conn: Connection) -> list[dict[str, Any]]:
            refuse_if_closed(conn, event_id, "no more tables can be hosted")
            game = store.game_row(conn, event_id, game_id)
            if game is None:
                raise NotFound(f"Event {event_id} has no table {game_id!r} seated.", {"game": [f"no table {game_id!r}"]}, code=codes.TABLE_NOT_FOUND)
            if hosted_row(conn, event_id, game_id) is not None:
                raise Conflict(f"Table {game_id} is hosted already.", {"game": ["hosted"]}, code=codes.ALREADY_HOSTED)
            if conn.execute(select(revisions.c.round).where(revisions.c.event_id == event_id, revisions.c.game_id == game_id).limit(1)).first():
                raise Conflict(
                    f"Table {game_id} has rounds stored by its referee: it is played at the table.", {"game": ["rounds stored"]}, code=codes.TABLE_HAS_ROUNDS
                )
            players = json.loads(game.players_json)
            size = _check_bots(players, bots, ruleset.players_min, ruleset.players_max)
            ids = dict(conn.execute(select(seats.c.seat, seats.c.player_id).where(seats.c.event_id == event_id, seats.c.game_id == game_id)).all())
            names = players + [BOT_NAME.format(seat=seat + 1, level=bots[seat]) for seat in range(len(players), size)]
            taken = {name.casefold() for name in players}
            for seat in range(len(players), size):
                if names[seat].casefold() in taken:
                    raise Conflict(f"Seat {seat}'s bot would be named {names[seat]!r}, a player's name.", {"bots": ["a player's name"]}, code=codes.NAME_TAKEN)
            setup = TableSetup(size, dict(bots), knobs, clock, rated=not bots, public=not event.private)
            conn.execute(
                insert(hosted).values(
                    event_id=event_id, game_id=game_id, setup_json=canonical(setup.to_dict()), server_seed=server_seed,
                    commitment=commitment(server_seed), status="waiting", created_at=now(),
                )
            )  # fmt: skip
            rows, handed = [], []
            for seat, name in enumerate(names):
                level = bots.get(seat)
                row = {"seat": seat, "kind": "bot" if level else "person", "name": name, "level": level}
                conn.execute(insert(hosted_seats).values(event_id=event_id, game_id=game_id, handed=ABSENT if level and seat < len(players) else None, **row))
                rows.append(row)
                if level and seat < len(players):
                    handed.append(seat)
            store.append(conn, event_id, actor, "play.created", {"game": game_id, "setup": setup.to_dict(), "commitment": commitment(server_seed), "seats": rows})
            if size > len(players):
                conn.execute(update(games).where(games.c.event_id == event_id, games.c.id == game_id).values(players_json=canonical(names)))
                session = conn.execute(select(games.c.session).where(games.c.event_id == event_id, games.c.id == game_id)).scalar_one()
                store.append(conn, event_id, actor, "game.reseated", {"game": game_id, "players": names, "session": session})
            issued = []
            for row in rows:
                if row["kind"] != "person":
                    continue
                tid, token = self.tables.tokens.insert(conn, "player", event_id, game_id, f"seat {row['seat']}")
                store.append(conn, event_id, actor, "token.issued", {"id": tid, "role": "player", "table": game_id})
                conn.execute(_seat(update(hosted_seats), event_id, game_id, row["seat"]).values(token_id=tid))
                store.append(conn, event_id, actor, "play.seated", {"game": game_id, "seat": row["seat"], "name": row["name"], "kind": "person", "nonce": None})
                issued.append({"seat": row["seat"], "name": row["name"], "player": ids.get(row["seat"]), "token": token, "token_id": tid})
            for seat in handed:
                store.append(conn, event_id, actor, "play.handed", {"game": game_id, "seat": seat, "reason": ABSENT, "forfeit": True})
            self.tables.start(conn, actor, event_id, game_id, seated=True)
            return issued

        issued = store.writer.run(event_id, work)
        return {"table": self.tables.table(None, event_id, game_id, check=False), "seats": issued}

    def reissue(self, actor: Principal | None, event_id: str, game_id: str, seat: int) -> dict[str, Any]:
        """A new token for person seat ``seat`` (its link was lost, or seen by someone else): the old one revoked, the new one answered once.

        The director's act, or the seat's own: a device that takes the seat over from another (one device plays a seat
        at a time) replaces the token both held, so the other device's reads and moves are refused from then on.
        """
        self.store.event_row(event_id)
        if actor is not None and actor.role == "player":
            if self.tables.seat_of(actor, event_id, game_id) != seat:
                raise Forbidden(f"A seat's token replaces its own seat's token only, not seat {seat}'s.", {"seat": ["another seat"]}, code=codes.NOT_A_SEAT)
        else:
            actor = require_director(actor, event_id, "issue a seat's link again")

        def work(conn: Connection) -> dict[str, Any]:
            row = _live(conn, event_id, game_id)
            found = _seat_row(conn, event_id, game_id, seat)
            if found.kind != "person":
                raise Conflict(f"Seat {seat} is not a person's: it has no link.", {"seat": [found.kind]}, code=codes.SEAT_HANDED_OVER)
            if found.token_id is not None:
                conn.execute(update(tokens).where(tokens.c.id == found.token_id, tokens.c.revoked_at.is_(None)).values(revoked_at=now()))
                self.store.append(conn, event_id, actor, "token.revoked", {"id": found.token_id})
            tid, token = self.tables.tokens.insert(conn, "player", event_id, row.game_id, f"seat {seat}")
            self.store.append(conn, event_id, actor, "token.issued", {"id": tid, "role": "player", "table": game_id})
            conn.execute(_seat(update(hosted_seats), event_id, game_id, seat).values(token_id=tid))
            player = conn.execute(select(seats.c.player_id).where(seats.c.event_id == event_id, seats.c.game_id == game_id, seats.c.seat == seat)).scalar()
            return {"seat": seat, "name": found.name, "player": player, "token": token, "token_id": tid}

        return self.store.writer.run(event_id, work)  # type: ignore[no-any-return]

    def hand(self, actor: Principal | None, event_id: str, game_id: str, seat: int, level: int = HANDOVER_LEVEL) -> dict[str, Any]:
        """The director hands seat ``seat`` to the server's bot (its player is absent): the bot plays it to the end; the seat counts for nobody."""
        self.store.event_row(event_id)
        actor = require_director(actor, event_id, "hand a seat to a bot")

        def work(conn: Connection) -> None:
            _live(conn, event_id, game_id)
            if _seat_row(conn, event_id, game_id, seat).kind == "bot":
                raise Conflict(f"Seat {seat} is played by a bot already.", {"seat": ["a bot's"]}, code=codes.SEAT_HANDED_OVER)
            conn.execute(_seat(update(hosted_seats), event_id, game_id, seat).values(kind="bot", level=level, handed=ABSENT))
            self.store.append(conn, event_id, actor, "play.handed", {"game": game_id, "seat": seat, "reason": ABSENT, "forfeit": True})

        self.store.writer.run(event_id, work)
        return self.tables.table(None, event_id, game_id, check=False)


def _check_bots(players: list[str], bots: dict[int, int], fewest: int, most: int) -> int:
    """The table's size once its bots sit: 422 for a bot seat that is neither a player's nor the next after the players', or a size the ruleset refuses."""
    extra = sorted(seat for seat in bots if seat >= len(players))
    if extra != list(range(len(players), len(players) + len(extra))):
        raise InvalidRequest(
            f"bots sit at the players' seats (0 to {len(players) - 1}) or at the seats after them, in order, from {len(players)}",
            {"bots": [f"seats after the players' start at {len(players)}"]},
            code=codes.NO_SUCH_SEAT,
        )
    size = len(players) + len(extra)
    if not fewest <= size <= most:
        raise InvalidRequest(f"{size} seat(s); the ruleset is for {fewest} to {most} players", {"bots": [f"{fewest} to {most} seats"]}, code=codes.PLAYER_COUNT)
    if all(seat in bots for seat in range(size)):
        raise InvalidRequest("every seat would be a bot's: a hosted seated table needs a player", {"bots": ["no player left"]}, code=codes.PLAYER_COUNT)
    return size


def _live(conn: Connection, event_id: str, game_id: str) -> Any:
    """The hosted table's row, being played (404 ``not_hosted``; 409 ``game_ended`` once over or aborted)."""
    row = hosted_row(conn, event_id, game_id)
    if row is None:
        raise NotFound(f"Event {event_id} hosts no table {game_id!r}.", {"game": [f"no hosted table {game_id!r}"]}, code=codes.NOT_HOSTED)
    if row.status in ("over", "aborted"):
        raise Conflict(f"Table {game_id}'s game is {row.status}.", {"game": [row.status]}, code=codes.GAME_ENDED)
    return row


def _seat_row(conn: Connection, event_id: str, game_id: str, seat: int) -> Any:
    found = [s for s in seat_rows(conn, event_id, game_id) if s.seat == seat]
    if not found:
        raise InvalidRequest(f"no seat {seat} at table {game_id}", {"seat": ["no such seat"]}, code=codes.NO_SUCH_SEAT)
    return found[0]


def _seat(statement: Any, event_id: str, game_id: str, seat: int) -> Any:
    return statement.where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.seat == seat)

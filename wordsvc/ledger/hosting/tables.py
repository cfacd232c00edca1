"""A hosted table created, its seats taken, and the game started when the last seat is (docs/play.md, "The protocol").

Creating a table draws the server seed and publishes its commitment; the
server's bots sit at once. A person (or an outside program, shown as a bot)
takes an open seat with a name and, if it likes, a nonce, and gets the
seat's bearer token (role ``player``, for this table; the ledger keeps only
its hash). When the last seat is taken, the game's seed is derived from the
server seed and the nonces (:mod:`wordsvc.core.play.fairness`), the table is
seated in the event as a referee's table would be (``game.created``), and
the game starts. All of it in one write each, under the event's chain lock.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.play.clocks import Clock, deadline
from ...core.play.fairness import commitment, game_seed
from ...core.ruleset import Ruleset
from .._db.canonical import canonical, now
from .._db.prepared import Prepared
from .._db.schema import games, hosted, hosted_seats
from ..errors import Conflict, Forbidden, NotFound
from ..integrity.receipts import Appended
from ..records.access import require_director, require_read
from ..records.principals import OPEN, Principal
from ..records.store import Store, check_id, refuse_if_closed
from ..records.tokens import Tokens
from .setup import TableSetup

__all__ = ["BOT_NAME", "PRESENT_MS", "SEEN_EVERY_MS", "Tables", "check_setup", "hosted_row", "rematch_id", "seat_rows"]

#: A seat is present when its token was used this recently (a client that follows its table reads the state after each move), in ms;
#: each process writes a seat's presence at most every SEEN_EVERY_MS.
PRESENT_MS, SEEN_EVERY_MS = 90_000, 30_000
#: The name a server's bot sits under: its seat, counted from 1, and its level.
BOT_NAME = "Bot {seat} (level {level})"


class Tables:
    """Hosting a table, taking its seats, reading who sits where."""

    def __init__(self, store: Store, tokens: Tokens, clock: Callable[[], int]):
        """``clock``: the time in milliseconds since the epoch (a game's clocks start when it does)."""
        self.store = store
        self.tokens = tokens
        self.clock = clock
        self._seen: dict[tuple[str, str, int], int] = {}  # what this process last wrote of each seat's presence

    def create(self, actor: Principal | None, event_id: str, game_id: str, setup: TableSetup) -> dict[str, Any]:
        """Host table ``game_id`` of the event (a director's): 201's body, the table as a spectator sees it."""
        store = self.store
        event = store.event_row(event_id)
        actor = require_director(actor, event_id, "host a table")
        check_id(game_id, "game")
        check_setup(store.ruleset(event), setup)
        server_seed = secrets.token_hex(32)

        def work(conn: Connection) -> Appended:
            refuse_if_closed(conn, event_id, "no more tables can be hosted")
            if store.game_row(conn, event_id, game_id) is not None or hosted_row(conn, event_id, game_id) is not None:
                raise Conflict(f"Event {event_id} has a table {game_id} already.", {"game": ["taken"]}, code=codes.TABLE_CONFLICT)
            conn.execute(
                insert(hosted).values(
                    event_id=event_id,
                    game_id=game_id,
                    setup_json=canonical(setup.to_dict()),
                    server_seed=server_seed,
                    commitment=commitment(server_seed),
                    status="waiting",
                    created_at=now(),
                )
            )
            seats = []
            for seat in range(setup.seats):
                level = setup.bots.get(seat)
                row = {"seat": seat, "kind": "bot" if level else "open", "name": BOT_NAME.format(seat=seat + 1, level=level) if level else None, "level": level}
                conn.execute(insert(hosted_seats).values(event_id=event_id, game_id=game_id, **row))
                seats.append(row)
            done = store.append(
                conn, event_id, actor, "play.created", {"game": game_id, "setup": setup.to_dict(), "commitment": commitment(server_seed), "seats": seats}
            )
            if not any(row["kind"] == "open" for row in seats):
                done = self.start(conn, actor, event_id, game_id)
            return done

        store.writer.run(event_id, work)
        return self.table(actor, event_id, game_id)

    def sit(
        self, actor: Principal | None, event_id: str, game_id: str, seat: int | None, name: str, nonce: str | None, outside_bot: bool = False
    ) -> dict[str, Any]:
        """Take seat ``seat`` (``None``: the first open one) as ``name``; the answer carries the seat's token, once.

        A public table's seats are open to anyone; a private one's are handed out by its director (a director token).
        """
        store = self.store
        event = store.event_row(event_id)
        if event.private:
            require_director(actor, event_id, "seat a player at a private table")
        else:
            require_read(actor, event_id, event.private)
        folded = name.casefold()

        def work(conn: Connection) -> tuple[int, str, str]:
            table = _table(conn, event_id, game_id)
            if table.status != "waiting":
                raise Conflict(f"Table {game_id} has started: its seats are taken.", {"seat": ["the game has started"]}, code=codes.TABLE_FULL)
            rows = seat_rows(conn, event_id, game_id)
            for row in rows:
                if row.name is not None and row.name.casefold() == folded:
                    raise Conflict(
                        f"Seat {row.seat} is {row.name!r}: choose a name the table can tell apart.", {"name": ["taken at this table"]}, code=codes.NAME_TAKEN
                    )
            open_seats = [row.seat for row in rows if row.kind == "open"]
            if seat is None:
                if not open_seats:
                    raise Conflict(f"Every seat of table {game_id} is taken.", {"seat": ["none open"]}, code=codes.TABLE_FULL)
                chosen = open_seats[0]
            elif not 0 <= seat < len(rows):
                raise InvalidRequest(f"no seat {seat}: seats are 0 to {len(rows) - 1}", {"seat": ["no such seat"]}, code=codes.NO_SUCH_SEAT)
            elif seat not in open_seats:
                raise Conflict(f"Seat {seat} of table {game_id} is taken.", {"seat": ["taken"]}, code=codes.SEAT_TAKEN)
            else:
                chosen = seat
            tid, token = self.tokens.insert(conn, "player", event_id, game_id, f"seat {chosen}")
            seated = actor or OPEN
            store.append(conn, event_id, seated, "token.issued", {"id": tid, "role": "player", "table": game_id})
            kind = "outside" if outside_bot else "person"
            conn.execute(
                update(hosted_seats)
                .where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.seat == chosen)
                .values(kind=kind, name=name, token_id=tid, nonce=nonce, seen_ms=self.clock())
            )
            store.append(conn, event_id, seated, "play.seated", {"game": game_id, "seat": chosen, "name": name, "kind": kind, "nonce": nonce})
            if len(open_seats) == 1:
                self.start(conn, seated, event_id, game_id)
            return chosen, tid, token

        chosen, tid, token = store.writer.run(event_id, work)
        return {"seat": chosen, "token": token, "token_id": tid, "table": self.table(None, event_id, game_id, check=False)}

    def start(self, conn: Connection, actor: Principal, event_id: str, game_id: str, seated: bool = False) -> Appended:
        """Every seat is taken: the seed derived, the table seated in the event (``seated``: the director seated it already), the game started."""
        table = _table(conn, event_id, game_id)
        rows = seat_rows(conn, event_id, game_id)
        nonces = [row.nonce for row in rows]
        seed = game_seed(table.server_seed, nonces)
        names = [row.name for row in rows]
        clock = Clock.from_dict(json.loads(table.setup_json)["clock"])
        moment, first = self.clock(), 1 % len(rows)  # round 1: seat 0 deals, the seat at its left plays first
        if clock.turn_ms is not None:
            of_table = (hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id)
            conn.execute(update(hosted_seats).where(*of_table).values(bank_ms=clock.bank_ms))
            conn.execute(update(hosted_seats).where(*of_table, hosted_seats.c.seat == first).values(clock_from_ms=moment))
        ends = deadline(clock, moment, clock.bank_ms)
        conn.execute(update(hosted).where(hosted.c.event_id == event_id, hosted.c.game_id == game_id).values(status="playing", seed=seed, deadline_ms=ends))
        if not seated:
            conn.execute(insert(games).values(event_id=event_id, id=game_id, players_json=canonical(names), created_at=now()))
            self.store.append(conn, event_id, actor, "game.created", {"game": game_id, "players": names})
        return self.store.append(conn, event_id, actor, "play.started", {"game": game_id, "players": names, "nonces": nonces, "commitment": table.commitment})

    def table(self, actor: Principal | None, event_id: str, game_id: str, check: bool = True) -> dict[str, Any]:
        """The table as anyone who may read the event sees it: setup, status, commitment, seats (never a token or a secret)."""
        if check:
            event = self.store.event_row(event_id)
            require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            row = _table(conn, event_id, game_id)
            rows = seat_rows(conn, event_id, game_id)
            following = rematch_id(game_id)
            rematch = following if row.status == "over" and hosted_row(conn, event_id, following) is not None else None
        return table_view(row, rows, rematch, self.clock())

    def seen(self, event_id: str, game_id: str, seat: int) -> None:
        """Seat ``seat``'s token was used (a read, a move, a stream opened): it is present. Written at most every :data:`SEEN_EVERY_MS` a process."""
        moment = self.clock()
        key = (event_id, game_id, seat)
        if moment - self._seen.get(key, 0) < SEEN_EVERY_MS:
            return
        self._seen[key] = moment
        if len(self._seen) > 65_536:
            self._seen.clear()

        def work(conn: Connection) -> None:
            conn.execute(
                update(hosted_seats)
                .where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.seat == seat)
                .values(seen_ms=moment)
            )

        self.store.writer.run(event_id, work)

    def seat_of(self, actor: Principal | None, event_id: str, game_id: str) -> int | None:
        """The seat ``actor``'s token plays at this table; ``None`` for any other reader (403 for a player token of another table)."""
        if actor is None or actor.role != "player":
            return None
        if actor.event != event_id or actor.table != game_id:
            raise Forbidden(f"This seat token is for another table, not {game_id}.", {"authorization": ["a seat of another table"]}, code=codes.NOT_A_SEAT)
        with self.store.engine.connect() as conn:
            row = _SEAT_OF.first(conn, {"event": event_id, "game": game_id, "token": actor.token})
        if row is None:  # pragma: no cover - a player token is only ever issued with its seat
            raise Forbidden("This token holds no seat.", {"authorization": ["no seat"]}, code=codes.NOT_A_SEAT)
        return int(row.seat)

    def overdue(self, moment: int) -> list[tuple[str, str]]:
        """The tables being played whose deadline is at or before ``moment``, as ``(event, game)``."""
        with self.store.engine.connect() as conn:
            return [(row.event_id, row.game_id) for row in _OVERDUE.all(conn, {"moment": moment})]

    def status_of(self, event_id: str, game_id: str) -> str | None:
        """The table's status (``waiting``, ``playing``, ``over``, ``aborted``); ``None`` for a table not hosted."""
        with self.store.engine.connect() as conn:
            row = hosted_row(conn, event_id, game_id)
        return None if row is None else str(row.status)

    def deadline_of(self, event_id: str, game_id: str) -> int | None:
        """The table's deadline (ms since the epoch): when the first turn on the clock runs out; ``None`` without one."""
        with self.store.engine.connect() as conn:
            row = hosted_row(conn, event_id, game_id)
        return None if row is None or row.status != "playing" or row.deadline_ms is None else int(row.deadline_ms)

    def playing(self) -> list[tuple[str, str]]:
        """Every table being played, as ``(event, game)``."""
        with self.store.engine.connect() as conn:
            return [(row.event_id, row.game_id) for row in _PLAYING.all(conn, {})]

    def bot_seats(self, event_id: str, game_id: str) -> dict[int, int]:
        """The seats the server's bots play, with their levels."""
        with self.store.engine.connect() as conn:
            return {row.seat: row.level for row in seat_rows(conn, event_id, game_id) if row.kind == "bot"}

    def open_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """Public tables waiting for players, newest first."""
        with self.store.engine.connect() as conn:
            rows = _OPEN.all(conn, {"limit": limit})
            found = []
            for row in rows:
                setup = json.loads(row.setup_json)
                if not setup.get("public", True):
                    continue
                found.append(table_view(row, seat_rows(conn, row.event_id, row.game_id), None, self.clock()))
        return found


def check_setup(ruleset: Ruleset, setup: TableSetup) -> None:
    """422 unless ``setup`` can be played under ``ruleset``: its seat count, its bots' seats."""
    if not ruleset.players_min <= setup.seats <= ruleset.players_max:
        raise InvalidRequest(
            f"{setup.seats} seat(s); ruleset {ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players",
            {"seats": [f"must be {ruleset.players_min} to {ruleset.players_max}"]},
            code=codes.PLAYER_COUNT,
        )
    for seat in setup.bots:
        if not 0 <= seat < setup.seats:
            raise InvalidRequest(f"no seat {seat}: seats are 0 to {setup.seats - 1}", {"bots": [f"no seat {seat}"]}, code=codes.NO_SUCH_SEAT)


def rematch_id(game_id: str) -> str:
    """The id of the table that plays ``game_id`` again: ``table`` -> ``table-2`` -> ``table-3``."""
    found = re.fullmatch(r"(.*)-(\d+)", game_id)
    return f"{found.group(1)}-{int(found.group(2)) + 1}" if found else f"{game_id}-2"


def table_view(row: Any, seats: list[Any], rematch: str | None, moment: int) -> dict[str, Any]:
    clock = Clock.from_dict(json.loads(row.setup_json)["clock"])

    def ends(seat: Any) -> int | None:
        return deadline(clock, seat.clock_from_ms, seat.bank_ms or 0) if seat.clock_from_ms is not None and row.status == "playing" else None

    view = {
        "event": row.event_id,
        "game": row.game_id,
        "status": row.status,
        "setup": json.loads(row.setup_json),
        "commitment": row.commitment,
        "created_at": row.created_at,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "nonce": s.nonce,
                "bank_ms": s.bank_ms,
                "deadline_ms": ends(s),
                "timeouts": s.timeouts,
                "handed": s.handed,
                "present": s.kind == "bot" or (s.seen_ms is not None and moment - s.seen_ms < PRESENT_MS),
            }
            for s in seats
        ],
    }
    if rematch is not None:
        view["rematch"] = rematch
    if row.status in ("over", "aborted"):  # revealed once the game is over: anyone can replay it (docs/play.md, "Verifiable deals")
        view["server_seed"], view["seed"] = row.server_seed, row.seed
    return view


def hosted_row(conn: Connection, event_id: str, game_id: str) -> Any:
    return _HOSTED.first(conn, {"event": event_id, "game": game_id})


def seat_rows(conn: Connection, event_id: str, game_id: str) -> list[Any]:
    return list(_SEATS.all(conn, {"event": event_id, "game": game_id}))


def _table(conn: Connection, event_id: str, game_id: str) -> Any:
    row = hosted_row(conn, event_id, game_id)
    if row is None:
        raise NotFound(f"Event {event_id} hosts no table {game_id!r}.", {"game": [f"no hosted table {game_id!r} in event {event_id}"]}, code=codes.NOT_HOSTED)
    return row


_OF_TABLE = (hosted.c.event_id == bindparam("event"), hosted.c.game_id == bindparam("game"))
_HOSTED = Prepared(select(hosted).where(*_OF_TABLE))
_SEATS = Prepared(
    select(hosted_seats).where(hosted_seats.c.event_id == bindparam("event"), hosted_seats.c.game_id == bindparam("game")).order_by(hosted_seats.c.seat)
)
_SEAT_OF = Prepared(
    select(hosted_seats.c.seat).where(
        hosted_seats.c.event_id == bindparam("event"), hosted_seats.c.game_id == bindparam("game"), hosted_seats.c.token_id == bindparam("token")
    )
)
_PLAYING = Prepared(select(hosted.c.event_id, hosted.c.game_id).where(hosted.c.status == "playing"))
_OVERDUE = Prepared(select(hosted.c.event_id, hosted.c.game_id).where(hosted.c.status == "playing", hosted.c.deadline_ms <= bindparam("moment")))
_OPEN = Prepared(select(hosted).where(hosted.c.status == "waiting").order_by(hosted.c.created_at.desc()).limit(bindparam("limit")))

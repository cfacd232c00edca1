"""A move played at a hosted table: checked by the engine, stored as move ``n``, audited as a spectator sees it, its round stored when it ends one.

One write a move, under the event's chain lock, on SQLite and PostgreSQL
alike (docs/play.md, "The protocol"):

- the table's moves are counted again in the write: a move that quotes
  another count than the stored one is 409 ``stale_move`` (the answer
  carries the mover's current projection), so two processes or replicas
  take one move as move ``n``, and the key of ``moves`` holds it anyway;
- a move id the table has seen is answered as it was, never applied twice
  (the same id for another move is 409 ``move_id_reused``);
- the engine refuses an illegal move with its code (422); nothing is written;
- the move's row keeps the engine's move (card ids: secret until the game is
  over) and, for a draw, the face drawn (its seat's stream shows it); the
  audit entry ``move.played`` holds only the spectator's view of the move;
- a move that ends a round stores the round as the table's round exactly as
  a referee's submission would (``round.submitted``: the same body, result
  and totals), with ``moves_sha256``, the hash of the round's moves, so the
  round's receipt covers them; the game's end reveals the server seed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.play import GameState, IllegalMove, Move, MoveFormatError, apply, move_to_dict
from ...core.play.clocks import Clock, bank_used, deadline, handed_to_bot, on_clock, timed_out, timeout_moves, turns_started
from ...core.play.views import project, project_move, public_refusal, resolve
from ...core.scoring import score_round
from .._db.canonical import canonical, now
from .._db.plays import in_order, play_document
from .._db.prepared import Prepared
from .._db.schema import audit, hosted, hosted_seats, moves
from ..errors import Conflict, LedgerError
from ..records.principals import Principal
from ..records.store import INSERT_REVISION, Store
from .states import Game, States
from .tables import Tables, hosted_row, seat_rows

__all__ = ["HOST", "IllegalPlay", "Played", "Plays", "StaleMove", "wall_ms"]

#: The level of the bot a seat is handed to when its player has left (timeouts in a row, or a resignation).
HANDOVER_LEVEL = 2
#: Who the server's own moves are made by in the audit: a bot's, or the clock's for a seat out of time.
HOST = Principal("host", "referee")


class StaleMove(Conflict):
    """409: the move quoted another move count than the table's; ``state`` is the mover's current projection."""

    code = codes.STALE_MOVE

    def __init__(self, detail: str, state: dict[str, Any]):
        super().__init__(detail, {"seq": [f"the table is at move {state['seq']}"]}, code=codes.STALE_MOVE)
        self.state = state


class IllegalPlay(LedgerError):
    """422: the rules refuse the move (``refusal``: the engine's, its cards named by face); nothing changed."""

    status = 422

    def __init__(self, refusal: IllegalMove):
        super().__init__(str(refusal), {"move": [str(refusal)]}, code=refusal.code)
        self.refusal = refusal


@dataclass(frozen=True)
class Played:
    """A move's answer: ``seq`` the move's number, ``repeat`` whether it was taken before (a retry), ``state`` the mover's projection."""

    seq: int
    repeat: bool
    state: dict[str, Any]


class Plays:
    """Moves at hosted tables, and the games' states as each viewer may see them."""

    def __init__(self, store: Store, tables: Tables, states: States | None = None, clock: Callable[[], int] | None = None):
        """``clock``: the time in milliseconds since the epoch (the system's by default; the tests give their own)."""
        self.store = store
        self.tables = tables
        self.states = states or States()
        self.clock = clock or wall_ms

    def game(self, event_id: str, game_id: str) -> Game:
        """The table's game with every stored move (409 ``game_not_started`` before its last seat is taken)."""
        event = self.store.event_row(event_id)
        ruleset, lexicon = self.store.ruleset(event), self.store.event_lexicon(event)
        with self.store.engine.connect() as conn:
            row = _started(conn, event_id, game_id)
            return self.states.at(conn, row, ruleset, lexicon)

    def view(self, viewer: int | None, event_id: str, game_id: str) -> dict[str, Any]:
        """The game as ``viewer`` (a seat, or ``None``: a spectator) may see it."""
        return project(self.game(event_id, game_id).state, viewer)

    def move(self, actor: Principal, seat: int, event_id: str, game_id: str, seq: int, move_id: str, move: dict[str, Any], by: str = "seat") -> Played:
        """Play ``move`` (cards named by face) for ``seat``, quoting ``seq``, the move count its sender saw.

        A seat whose time ran out has its turn played by the clock first
        (:meth:`time_out`, a write of its own), so a move sent after its
        deadline finds the table moved on: 409 ``stale_move``.
        """
        moment = self.clock()
        self.time_out(event_id, game_id, moment)  # its own write: a refused move must not undo the clock's
        store = self.store
        event = store.event_row(event_id)
        ruleset, lexicon = store.ruleset(event), store.event_lexicon(event)

        def work(conn: Connection) -> tuple[Game, bool, int]:
            row = _started(conn, event_id, game_id)
            if row.status == "aborted":
                raise Conflict(f"Table {game_id}'s game was aborted.", {"game": ["aborted"]}, code=codes.GAME_ENDED)
            known = _BY_ID.first(conn, {"event": event_id, "game": game_id, "move_id": move_id})
            game = self.states.at(conn, row, ruleset, lexicon)
            if known is not None:
                if known.seat != seat:
                    raise Conflict(
                        f"Move id {move_id!r} was used for another move at this table.", {"move_id": ["used for another move"]}, code=codes.MOVE_ID_REUSED
                    )
                return game, True, int(known.seq)
            if by == "seat" and _seat(conn, event_id, game_id, seat).kind == "bot":
                raise Conflict(
                    f"Seat {seat} has been handed to a bot: it plays the rest of the game.",
                    {"authorization": ["the seat is a bot's now"]},
                    code=codes.SEAT_HANDED_OVER,
                )
            state = game.state
            if seq != state.moves:
                raise StaleMove(f"The table is at move {state.moves}, not {seq}: read the state and play again.", project(state, seat))
            try:
                engine_move = resolve(state, seat, move)
                after = game.after(_apply(game, engine_move))
            except MoveFormatError as err:
                raise InvalidRequest(f"The move is malformed: {err}", {"move": [str(err)]}, code=codes.MOVE_MALFORMED) from None
            except IllegalMove as refusal:
                raise IllegalPlay(public_refusal(refusal)) from None
            if by == "seat":  # the seat moved itself: present, and no longer counting timeouts
                conn.execute(_seat_where(update(hosted_seats), event_id, game_id, seat).values(timeouts=0, seen_ms=moment))
            self._record(conn, actor, row, game, engine_move, after, move_id, by, moment)
            return after, False, after.state.moves

        game, repeat, number = store.writer.run(event_id, work)
        if not repeat:
            self.states.remember(game)
        return Played(number, repeat, project(game.state, seat))

    def time_out(self, event_id: str, game_id: str, moment: int | None = None) -> int:
        """Play the turns of the seats at this table whose time has run out at ``moment`` (now); the moves made (0: none was due)."""
        moment = self.clock() if moment is None else moment
        kept = self.states.peek(event_id, game_id)
        if kept is not None and kept.setup.clock.get("kind", "none") == "none":
            return 0  # a table without a clock has no deadline: no read (its setup never changes)
        ends = self.tables.deadline_of(event_id, game_id)
        if ends is None or ends > moment:
            return 0  # nothing due: no write
        store = self.store
        event = store.event_row(event_id)
        ruleset, lexicon = store.ruleset(event), store.event_lexicon(event)

        def work(conn: Connection) -> tuple[Game, int]:
            row = _started(conn, event_id, game_id)
            game = self.states.at(conn, row, ruleset, lexicon)
            after = self._timeouts(conn, row, game, moment)
            return after, after.state.moves - game.state.moves

        game, made = store.writer.run(event_id, work)
        self.states.remember(game)
        return made

    def resume_clocks(self) -> int:
        """At a process's start: every turn whose deadline passed while no process was there to see it starts again now; the count.

        A restart never costs a player time: the server cannot tell how long
        it was away, so the turn's whole limit is given again.
        """
        moment = self.clock()
        resumed = 0
        for event_id, game_id in self.tables.overdue(moment):

            def work(conn: Connection, event_id: str = event_id, game_id: str = game_id) -> int:
                row = hosted_row(conn, event_id, game_id)
                if row is None or row.status != "playing" or row.deadline_ms is None or row.deadline_ms > moment:
                    return 0
                conn.execute(
                    update(hosted_seats)
                    .where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.clock_from_ms.is_not(None))
                    .values(clock_from_ms=moment)
                )
                self._set_deadline(conn, row, moment)
                return 1

            resumed += self.store.writer.run(event_id, work)
        return resumed

    def _timeouts(self, conn: Connection, row: Any, game: Game, moment: int) -> Game:
        """``game`` after the clock has played every turn whose deadline is at or before ``moment`` (each timeout counted, a seat handed to a bot at the limit)."""
        clock = Clock.from_dict(game.setup.clock)
        if clock.turn_ms is None:
            return game
        while game.state.current is not None:
            seats = {s.seat: s for s in seat_rows(conn, row.event_id, row.game_id)}
            due = [seat for seat in on_clock(game.state) if timed_out(clock, _from(seats[seat], moment), seats[seat].bank_ms or 0, moment)]
            if not due:
                return game
            seat = due[0]
            moves, _ = timeout_moves(game.state, seat, game.ruleset, game.lexicon)
            for engine_move in moves:
                after = game.after(_apply(game, engine_move))
                self._record(conn, HOST, row, game, engine_move, after, f"clock-{after.state.moves}-{seat}", "clock", moment)
                game = after
            count = (seats[seat].timeouts or 0) + 1
            values: dict[str, Any] = {"timeouts": count}
            if handed_to_bot(count) and seats[seat].kind != "bot":
                values.update(kind="bot", level=HANDOVER_LEVEL, handed="timeouts")
                self.store.append(conn, row.event_id, HOST, "play.handed", {"game": row.game_id, "seat": seat, "reason": "timeouts", "forfeit": True})
            conn.execute(_seat_where(update(hosted_seats), row.event_id, row.game_id, seat).values(**values))
        return game

    def _record(self, conn: Connection, actor: Principal, row: Any, game: Game, engine_move: Move, after: Game, move_id: str, by: str, moment: int) -> None:
        """Store move ``after.state.moves``: its row, its audit entry as a spectator sees it, its clocks; the round it ended; the game's end."""
        store, event_id, game_id = self.store, row.event_id, row.game_id
        state, seat = game.state, engine_move.seat
        drawn = project_move(state, engine_move, after.state, seat).get("card") if engine_move.kind == "draw" else None
        _INSERT.execute(
            conn,
            {
                "event_id": event_id,
                "game_id": game_id,
                "seq": after.state.moves,
                "seat": seat,
                "move_json": canonical(move_to_dict(engine_move)),
                "move_id": move_id,
                "drawn": drawn,
                "by": by,
                "created_at": now(),
            },
        )
        public = project_move(state, engine_move, after.state, None)
        store.append(conn, event_id, actor, "move.played", {"game": game_id, **public})
        self._clocks(conn, row, game, after, moment)
        if len(after.state.finished) > len(state.finished):
            self._store_round(conn, actor, event_id, game_id, game, after.state)
        if after.state.over:
            conn.execute(update(hosted).where(hosted.c.event_id == event_id, hosted.c.game_id == game_id).values(status="over", deadline_ms=None))
            store.append(
                conn, event_id, actor, "play.ended", {"game": game_id, "totals": list(after.state.totals), "server_seed": row.server_seed, "seed": row.seed}
            )

    def _clocks(self, conn: Connection, row: Any, game: Game, after: Game, moment: int) -> None:
        """The clocks after a move: each turn it ended charged to its seat's bank, each turn it began started at ``moment``, the deadline stored."""
        clock = Clock.from_dict(game.setup.clock)
        if clock.turn_ms is None:
            return
        started = set(turns_started(game.state, after.state))
        seats = {s.seat: s for s in seat_rows(conn, row.event_id, row.game_id)}
        for seat in on_clock(game.state):
            if seat not in on_clock(after.state) or seat in started:  # its turn is over: what it took beyond the limit comes off its bank
                used = bank_used(clock, _from(seats[seat], moment), moment)
                conn.execute(
                    _seat_where(update(hosted_seats), row.event_id, row.game_id, seat).values(
                        bank_ms=max(0, (seats[seat].bank_ms or 0) - used), clock_from_ms=None
                    )
                )
        for seat in started:
            conn.execute(_seat_where(update(hosted_seats), row.event_id, row.game_id, seat).values(clock_from_ms=moment))
        self._set_deadline(conn, row, moment)

    def _set_deadline(self, conn: Connection, row: Any, moment: int) -> None:
        """The table's deadline: the earliest of its seats' on the clock (what the runner waits for)."""
        setup_clock = Clock.from_dict(json.loads(row.setup_json)["clock"])
        ends = [deadline(setup_clock, s.clock_from_ms, s.bank_ms or 0) for s in seat_rows(conn, row.event_id, row.game_id) if s.clock_from_ms is not None]
        found = [end for end in ends if end is not None]
        conn.execute(update(hosted).where(hosted.c.event_id == row.event_id, hosted.c.game_id == row.game_id).values(deadline_ms=min(found) if found else None))

    def _store_round(self, conn: Connection, actor: Principal, event_id: str, game_id: str, before: Game, state: GameState) -> None:
        """The round just scored, stored as the table's round as a referee's would be, with its moves' hash."""
        finished = state.finished[-1]
        players = list(state.players)
        play = in_order(finished.play(state.players, state.knobs.bonus_choice), players)
        body = play_document(play)
        body_text = canonical(body)
        body_sha = hashlib.sha256(body_text.encode("utf-8")).hexdigest()
        result = score_round(play, before.ruleset, before.lexicon).to_dict()
        result_text = canonical(result)
        totals = {p["name"]: p["total"] for p in result["players"]}
        logged = [
            json.loads(text) for (text,) in _ROUND_MOVES.all(conn, {"event": event_id, "game": game_id, "after": before.round_start, "upto": state.moves})
        ]
        moves_sha = hashlib.sha256(canonical(logged).encode("utf-8")).hexdigest()
        INSERT_REVISION.execute(
            conn,
            {
                "event_id": event_id,
                "game_id": game_id,
                "round": finished.number,
                "revision": 1,
                "body_json": body_text,
                "body_sha256": body_sha,
                "result_json": result_text,
                "totals_json": canonical(totals),
                "reason": None,
                "actor": actor.token,
                "created_at": now(),
                "deal_digest": None,
                "deal_id": None,
            },
        )
        payload = {
            "game": game_id,
            "round": finished.number,
            "revision": 1,
            "body": body,
            "body_sha256": body_sha,
            "result_sha256": hashlib.sha256(result_text.encode("utf-8")).hexdigest(),
            "moves_sha256": moves_sha,
        }
        self.store.append(conn, event_id, actor, "round.submitted", payload)

    def moves_of(self, event_id: str, game_id: str) -> list[dict[str, Any]]:
        """Every stored move in the engine's form (card ids): only for a game that is over."""
        with self.store.engine.connect() as conn:
            return [json.loads(text) for (text,) in _ROUND_MOVES.all(conn, {"event": event_id, "game": game_id, "after": 0, "upto": 2**31 - 1})]

    def public_moves(self, event_id: str, game_id: str) -> list[dict[str, Any]]:
        """Every move of the table as a spectator saw it (the payloads of its ``move.played`` entries), in order."""
        with self.store.engine.connect() as conn:
            rows = _PLAYED.all(conn, {"chain": event_id})
        found = [json.loads(text) for (text,) in rows]
        return [{k: v for k, v in p.items() if k != "game"} for p in found if p.get("game") == game_id]

    def drawn(self, event_id: str, game_id: str, seat: int, seqs: list[int]) -> dict[int, str]:
        """The faces ``seat`` drew at moves ``seqs`` (what its stream adds to its own draws)."""
        if not seqs:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(_DRAWN, {"event": event_id, "game": game_id, "seat": seat, "seqs": seqs}).all()
        return {int(row.seq): row.drawn for row in rows}


def wall_ms() -> int:
    """The system's time in milliseconds since the epoch."""
    return time.time_ns() // 1_000_000


def _from(seat: Any, moment: int) -> int:
    """When ``seat``'s turn on the clock began (``moment`` for a seat whose start was not stored: a clock that starts now)."""
    return int(seat.clock_from_ms) if seat.clock_from_ms is not None else moment


def _seat(conn: Connection, event_id: str, game_id: str, seat: int) -> Any:
    return next(s for s in seat_rows(conn, event_id, game_id) if s.seat == seat)


def _seat_where(statement: Any, event_id: str, game_id: str, seat: int) -> Any:
    return statement.where(hosted_seats.c.event_id == event_id, hosted_seats.c.game_id == game_id, hosted_seats.c.seat == seat)


def _apply(game: Game, move: Move) -> GameState:
    return apply(game.state, move, game.ruleset, game.lexicon)


def _started(conn: Connection, event_id: str, game_id: str) -> Any:
    row = hosted_row(conn, event_id, game_id)
    if row is None:
        raise Conflict(f"Event {event_id} hosts no table {game_id!r}.", {"game": ["not hosted"]}, code=codes.NOT_HOSTED)
    if row.status == "waiting":
        raise Conflict(f"Table {game_id} starts when every seat is taken.", {"game": ["waiting for players"]}, code=codes.GAME_NOT_STARTED)
    return row


_PLAYED = Prepared(select(audit.c.payload_json).where(audit.c.chain == bindparam("chain"), audit.c.action == "move.played").order_by(audit.c.seq))
_OF_TABLE = (moves.c.event_id == bindparam("event"), moves.c.game_id == bindparam("game"))
_BY_ID = Prepared(select(moves.c.seq, moves.c.seat).where(*_OF_TABLE, moves.c.move_id == bindparam("move_id")))
_INSERT = Prepared(insert(moves).values({c.name: bindparam(c.name) for c in moves.c}))
_ROUND_MOVES = Prepared(select(moves.c.move_json).where(*_OF_TABLE, moves.c.seq > bindparam("after"), moves.c.seq <= bindparam("upto")).order_by(moves.c.seq))
_DRAWN = select(moves.c.seq, moves.c.drawn).where(
    moves.c.event_id == bindparam("event"), moves.c.game_id == bindparam("game"), moves.c.seat == bindparam("seat"),
    moves.c.seq.in_(bindparam("seqs", expanding=True)), moves.c.drawn.is_not(None),
)  # fmt: skip

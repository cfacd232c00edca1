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
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.play import GameState, IllegalMove, Move, MoveFormatError, apply, move_to_dict
from ...core.play.views import project, project_move, public_refusal, resolve
from ...core.scoring import score_round
from .._db.canonical import canonical, now
from .._db.plays import in_order, play_document
from .._db.prepared import Prepared
from .._db.schema import audit, hosted, moves
from ..errors import Conflict, LedgerError
from ..records.principals import Principal
from ..records.store import INSERT_REVISION, Store
from .states import Game, States
from .tables import Tables, hosted_row

__all__ = ["HOST", "IllegalPlay", "Played", "Plays", "StaleMove"]

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

    def __init__(self, store: Store, tables: Tables, states: States | None = None):
        self.store = store
        self.tables = tables
        self.states = states or States()

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
        """Play ``move`` (cards named by face) for ``seat``, quoting ``seq``, the move count its sender saw."""
        store = self.store
        event = store.event_row(event_id)
        ruleset, lexicon = store.ruleset(event), store.event_lexicon(event)

        def work(conn: Connection) -> tuple[Game, bool, int]:
            row = _started(conn, event_id, game_id)
            known = _BY_ID.first(conn, {"event": event_id, "game": game_id, "move_id": move_id})
            game = self.states.at(conn, row, ruleset, lexicon)
            if known is not None:
                if known.seat != seat:
                    raise Conflict(
                        f"Move id {move_id!r} was used for another move at this table.", {"move_id": ["used for another move"]}, code=codes.MOVE_ID_REUSED
                    )
                return game, True, int(known.seq)
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
            number = after.state.moves
            drawn = project_move(state, engine_move, after.state, seat).get("card") if engine_move.kind == "draw" else None
            _INSERT.execute(
                conn,
                {
                    "event_id": event_id,
                    "game_id": game_id,
                    "seq": number,
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
            if len(after.state.finished) > len(state.finished):
                self._store_round(conn, actor, event_id, game_id, game, after.state)
            if after.state.over:
                conn.execute(update(hosted).where(hosted.c.event_id == event_id, hosted.c.game_id == game_id).values(status="over"))
                store.append(
                    conn, event_id, actor, "play.ended", {"game": game_id, "totals": list(after.state.totals), "server_seed": row.server_seed, "seed": row.seed}
                )
            return after, False, number

        game, repeat, number = store.writer.run(event_id, work)
        if not repeat:
            self.states.remember(game)
        return Played(number, repeat, project(game.state, seat))

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

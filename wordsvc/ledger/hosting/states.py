"""A hosted table's game state, rebuilt from its moves: the engine replayed, kept per process, caught up when behind.

The moves table is the truth: another worker or replica may have taken a
move since this process last looked, so every read and every move first
counts the table's moves and applies those it has not seen, in order. A
process keeps the newest :data:`KEPT` tables' states (least recently used
go first); a table it forgot is replayed whole, which is the same state
byte for byte (docs/play.md, "State").
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection, bindparam, select

from ...core.lexicon import Lexicon
from ...core.play import GameState, apply, move_from_dict, new_game
from ...core.ruleset import Ruleset
from .._db.prepared import Prepared
from .._db.schema import hosted_seats, moves
from .setup import TableSetup

__all__ = ["KEPT", "Game", "States"]

#: Tables whose states a process keeps at most.
KEPT = 4096


@dataclass(frozen=True)
class Game:
    """A table's state and what it is played under. ``round_start``: the moves made before the current round began."""

    event: str
    game: str
    setup: TableSetup
    ruleset: Ruleset
    lexicon: Lexicon
    state: GameState
    round_start: int = 0

    def after(self, state: GameState) -> Game:
        """This game once ``state`` is reached by one more move (a new round starts when one was scored)."""
        start = state.moves if len(state.finished) > len(self.state.finished) else self.round_start
        return replace(self, state=state, round_start=start)


class States:
    """The games this process has seen, by table; safe across threads."""

    def __init__(self, kept: int = KEPT):
        self._kept = kept
        self._games: OrderedDict[tuple[str, str], Game] = OrderedDict()
        self._lock = threading.Lock()

    def forget(self, event_id: str, game_id: str) -> None:
        with self._lock:
            self._games.pop((event_id, game_id), None)

    def remember(self, game: Game) -> None:
        """Keep ``game`` unless a newer state of its table is kept already."""
        key = (game.event, game.game)
        with self._lock:
            known = self._games.get(key)
            if known is None or known.state.moves <= game.state.moves:
                self._games[key] = game
            self._games.move_to_end(key)
            while len(self._games) > self._kept:
                self._games.popitem(last=False)

    def peek(self, event_id: str, game_id: str) -> Game | None:
        """The game kept for this table, as it was last seen (perhaps behind the moves table), else ``None``."""
        with self._lock:
            return self._games.get((event_id, game_id))

    def __len__(self) -> int:
        return len(self._games)

    def at(self, conn: Connection, row: Any, ruleset: Ruleset, lexicon: Lexicon) -> Game:
        """The game of hosted table ``row`` (started) with every move stored, as ``conn`` sees them."""
        key = (row.event_id, row.game_id)
        with self._lock:
            game = self._games.get(key)
        if game is None or game.state.seed != row.seed:
            setup = TableSetup.from_dict(json.loads(row.setup_json))
            names = [seat.name for seat in _SEATS.all(conn, {"event": row.event_id, "game": row.game_id})]
            game = Game(row.event_id, row.game_id, setup, ruleset, lexicon, new_game(ruleset, row.seed, names, lexicon, setup.knobs))
        for (text,) in _AFTER.all(conn, {"event": row.event_id, "game": row.game_id, "after": game.state.moves}):
            game = game.after(apply(game.state, move_from_dict(json.loads(text)), ruleset, lexicon))
        self.remember(game)
        return game


_SEATS = Prepared(
    select(hosted_seats.c.seat, hosted_seats.c.name)
    .where(hosted_seats.c.event_id == bindparam("event"), hosted_seats.c.game_id == bindparam("game"))
    .order_by(hosted_seats.c.seat)
)
_AFTER = Prepared(
    select(moves.c.move_json)
    .where(moves.c.event_id == bindparam("event"), moves.c.game_id == bindparam("game"), moves.c.seq > bindparam("after"))
    .order_by(moves.c.seq)
)

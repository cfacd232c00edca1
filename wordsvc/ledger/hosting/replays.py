"""A hosted game as it stood after any of its moves: the page that replays a game move by move (docs/pages.md, "The table").

The engine is a pure function of the setup and the moves, so the state after
move ``n`` is the first ``n`` moves replayed from the deal. What leaves is the
one projection (``views.project``): the requester's view, a seat's own hand
and nobody else's; once the game is over its seeds are revealed and anyone can
replay it whole offline, so every hand and the draw pile are shown too.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import bindparam, select

from ...core.play import apply, move_from_dict, new_game
from ...core.play.dealing import face_of
from ...core.play.views import project
from .._db.prepared import Prepared
from .._db.schema import moves
from .plays import Plays

__all__ = ["state_after"]

_FIRST = Prepared(
    select(moves.c.move_json)
    .where(moves.c.event_id == bindparam("event"), moves.c.game_id == bindparam("game"), moves.c.seq <= bindparam("upto"))
    .order_by(moves.c.seq)
)


def state_after(plays: Plays, viewer: int | None, event_id: str, game_id: str, upto: int) -> dict[str, Any]:
    """The game after its first ``upto`` moves (at most the moves played) as ``viewer`` may see it.

    ``hands`` and ``draw_pile`` (faces, the pile top first) only once the game is over.
    """
    game = plays.game(event_id, game_id)
    played = game.state
    upto = min(upto, played.moves)
    state = new_game(game.ruleset, played.seed, list(played.players), game.lexicon, game.setup.knobs)
    with plays.store.engine.connect() as conn:
        for (text,) in _FIRST.all(conn, {"event": event_id, "game": game_id, "upto": upto}):
            state = apply(state, move_from_dict(json.loads(text)), game.ruleset, game.lexicon)
    shown: dict[str, Any] = {"at": upto, "moves": played.moves, "state": project(state, viewer), "hands": None, "draw_pile": None}
    if played.over and state.current is not None:
        shown["hands"] = [[face_of(card) for card in hand] for hand in state.current.hands]
        shown["draw_pile"] = [face_of(card) for card in state.current.draw_pile]
    return shown

"""A hosted game replayed move by move over HTTP (docs/play.md, "Replays"): the table page's history."""

from __future__ import annotations

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...ledger.hosting.replays import state_after
from ...schemas.play import ReplayOut, ReplayQuery
from ..endpoints import PUBLIC, Endpoint, Resource
from ..ledger_problems import ACCESS
from ..parameters import EVENT, GAME
from ..requests import query_args
from .ledger_access import ledger, principal

__all__ = ["bp"]

bp = Resource("play_replay", __name__)
REPLAY_QUERY = ReplayQuery()


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/play/replay",
        operation_id="getPlayReplay",
        tag="play",
        summary="A hosted game after any of its moves",
        description="The game after its first `at` moves, as the requester may see it (a seat's token: its own hand; anyone else: the spectator's view). "
        "Once the game is over its seed is revealed, and `hands` and `draw_pile` show every card.",
        parameters=[EVENT, GAME],
        query=ReplayQuery,
        answers={200: ReplayOut},
        errors=(401, 403, 404, 409, 422),
        access=PUBLIC,
        problems=(*ACCESS, codes.NOT_HOSTED, codes.GAME_NOT_STARTED, codes.LEXICON_CHANGED),
    )
)
def replay(event: str, game: str) -> Response:
    query = REPLAY_QUERY.load(query_args())
    book = ledger()
    actor = principal()
    book.tables.table(actor, event, game)
    seat = book.tables.seat_of(actor, event, game)
    return jsonify(state_after(book.plays, seat, event, game, query["at"]))

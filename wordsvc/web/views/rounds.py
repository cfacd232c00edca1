"""``POST /score-round`` and ``POST /score-game``: a round's and a whole game's scores."""

from __future__ import annotations

from flask import Response, g, jsonify

from ...core import problem_codes as codes
from ...schemas.rounds import GameRequest, GameResultOut, RoundRequest, RoundResultOut, load_round_request
from ..admission import heavy
from ..endpoint_codes import CARDS, RESOLVE, SCORING
from ..endpoints import Endpoint, Resource
from ..requests import read_json, service

__all__ = ["bp"]

bp = Resource("rounds", __name__)

ROUND_REQUEST, GAME_REQUEST = RoundRequest(), GameRequest()


@bp.declare(
    Endpoint(
        method="post",
        path="/score-round",
        operation_id="scoreRound",
        tag="scoring",
        summary="Score a round",
        description="Each player's words, unused cards, challenges, bonuses and total.",
        body=RoundRequest,
        answers={200: RoundResultOut},
        errors=(400, 404, 413, 415, 422),
        problems=(*RESOLVE, *CARDS, *SCORING, codes.NO_WORD_LIST),
    )
)
def score_round() -> Response:
    body = load_round_request(read_json(), ROUND_REQUEST)
    result = service().score_round(body["play"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))


@bp.declare(
    Endpoint(
        method="post",
        path="/score-game",
        operation_id="scoreGame",
        tag="scoring",
        summary="Score a game",
        description="Each round's result, running totals and the winner(s).",
        body=GameRequest,
        answers={200: GameResultOut},
        errors=(400, 404, 413, 415, 422),
        problems=(*RESOLVE, *CARDS, *SCORING, codes.GAME_MISMATCH, codes.NO_WORD_LIST),
    )
)
@heavy
def score_game() -> Response:
    body = GAME_REQUEST.load(read_json())
    result = service().score_game(body["players"], body["rounds"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))

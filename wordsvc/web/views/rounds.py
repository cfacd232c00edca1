"""``POST /score-round`` and ``POST /score-game``: a round's and a whole game's scores."""

from __future__ import annotations

from flask import Blueprint, Response, g, jsonify

from ...schemas.rounds import GameRequest, RoundRequest, load_round_request
from ..admission import heavy
from ..requests import read_json, service

__all__ = ["bp"]

bp = Blueprint("rounds", __name__)

ROUND_REQUEST, GAME_REQUEST = RoundRequest(), GameRequest()


@bp.post("/score-round")
def score_round() -> Response:
    body = load_round_request(read_json(), ROUND_REQUEST)
    result = service().score_round(body["play"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))


@bp.post("/score-game")
@heavy
def score_game() -> Response:
    body = GAME_REQUEST.load(read_json())
    result = service().score_game(body["players"], body["rounds"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))

"""A ledger event's tables and rounds over HTTP: seating a table, submitting, previewing and reading a round, a seeded round's deal (docs/ledger.md).

A round's submission is the body of ``/score-round`` without ruleset or
language; a correction is a director's, with ``If-Match`` (the round's
``ETag``). As every ledger view: the token first, then the body.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...ledger import require_director, require_referee
from ...schemas.events import (
    GameBody,
    GameOut,
    PreviewOut,
    RoundDealOut,
    RoundDetailOut,
    RoundOut,
    RoundSubmission,
    load_round_submission,
)
from ..endpoint_codes import CARDS, RESOLVE, SCORING
from ..endpoints import PUBLIC, TOKEN, Endpoint, Resource
from ..ledger_problems import ACCESS, INTEGRITY, ROUNDS, WRITE
from ..parameters import EVENT, GAME, IF_MATCH, ROUND
from ..requests import read_json
from .ledger_access import created_response, ledger, principal, writer

__all__ = ["bp"]

bp = Resource("games", __name__)

GAME_BODY, ROUND_BODY = GameBody(), RoundSubmission()


@bp.declare(
    Endpoint(
        method="put",
        path="/events/{event}/games/{game}",
        operation_id="seatTable",
        tag="ledger",
        summary="Seat a table",
        description="Director token. Players in seat order; 201 the first time, 200 for the same players again, 409 for others.",
        parameters=[EVENT, GAME],
        body=GameBody,
        answers={201: GameOut, 200: GameOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *ROUNDS, *RESOLVE, codes.PLAYER_NOT_FOUND, codes.INVALID_ID),
    )
)
def put_game(event: str, game: str) -> Response:
    actor = require_director(writer(), event)
    body = GAME_BODY.load(read_json())
    created, view = ledger().games.put_game(actor, event, game, body["players"])
    return created_response(view, f"/events/{event}/games/{game}") if created else jsonify(view)


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}",
        operation_id="getTable",
        tag="ledger",
        summary="A table",
        description="Each round's current revision, result and running totals; the table's totals.",
        parameters=[EVENT, GAME],
        answers={200: GameOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*ACCESS, *INTEGRITY, codes.TABLE_NOT_FOUND, codes.LEXICON_CHANGED),
    )
)
def show_game(event: str, game: str) -> Response:
    return jsonify(ledger().games.game(principal(), event, game))


@bp.declare(
    Endpoint(
        method="put",
        path="/events/{event}/games/{game}/rounds/{round}",
        operation_id="submitRound",
        tag="ledger",
        summary="Submit a round",
        description="Referee or director token. The body of /score-round without ruleset or language. First time 201; the same play again 200 with the stored result; "
        "another play 409, unless a director sends `correction` with If-Match: the round's ETag (a stale one is 412, none is 428).",
        parameters=[EVENT, GAME, ROUND, IF_MATCH],
        body=RoundSubmission,
        answers={201: RoundOut, 200: RoundOut},
        errors=(400, 401, 403, 404, 409, 412, 413, 415, 422, 428),
        access=TOKEN,
        roles=("referee", "director"),
        problems=(
            *WRITE,
            *ROUNDS,
            *RESOLVE,
            *CARDS,
            *SCORING,
            codes.ROUND_DIFFERS,
            codes.TABLE_HOSTED,
            codes.NOT_CORRECTABLE,
            codes.REVISION_STALE,
            codes.IF_MATCH_REQUIRED,
            codes.NO_WORD_LIST,
            *INTEGRITY,
        ),
    )
)
def put_round(event: str, game: str, round: int) -> Response:
    actor = require_referee(writer(), event, game)  # a correction also needs a director: the ledger checks that once it has read the body
    body = _round_body(round)
    submitted = ledger().rounds.submit_round(actor, event, game, round, body["play"], body["correction"], request.headers.get("If-Match"))
    response = jsonify(submitted.round)
    response.status_code = submitted.status
    response.headers["ETag"] = submitted.round["etag"]
    if submitted.status == 201:
        response.headers["Location"] = f"/events/{event}/games/{game}/rounds/{round}"
    return response


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/rounds/{round}/preview",
        operation_id="previewRound",
        tag="ledger",
        summary="Preview a round",
        description="Referee or director token. The submission's body without `correction`: every check a submission makes, the result under the event's snapshot "
        "and the running totals with it; nothing is stored or audited.",
        parameters=[EVENT, GAME, ROUND],
        body=RoundSubmission,
        answers={200: PreviewOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("referee", "director"),
        problems=(*WRITE, *ROUNDS, *RESOLVE, *CARDS, *SCORING, codes.ROUND_DIFFERS, codes.NOT_CORRECTABLE, codes.NO_WORD_LIST),
    )
)
def preview_round(event: str, game: str, round: int) -> Response:
    actor = require_referee(writer(), event, game)
    body = _round_body(round)
    if body["correction"] is not None:
        raise InvalidRequest(
            "A preview stores nothing, so it has nothing to correct: leave correction out.",
            {"correction": ["not part of a preview"]},
            code=codes.NOT_CORRECTABLE,
        )
    return jsonify(ledger().rounds.preview_round(actor, event, game, round, body["play"]))


def _round_body(number: int) -> dict[str, Any]:
    """A submission's body (``play``, ``correction``) for round ``number``: a round named in the body must be the path's."""
    body = load_round_submission(read_json(), ROUND_BODY)
    named = body["play"].round
    if named is not None and named != number:
        raise InvalidRequest(
            f"The body says round {named}; the path says {number}.",
            {"round": [f"must be {number}, the round in the path, or left out"]},
            code=codes.ROUND_OUT_OF_RANGE,
        )
    return body


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/rounds/{round}",
        operation_id="getRound",
        tag="ledger",
        summary="A round",
        description="Its current revision with ETag, running totals and every revision kept.",
        parameters=[EVENT, GAME, ROUND],
        answers={200: RoundDetailOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*ACCESS, codes.TABLE_NOT_FOUND, codes.ROUND_NOT_FOUND, codes.LEXICON_CHANGED, *INTEGRITY),
    )
)
def show_round(event: str, game: str, round: int) -> Response:
    view = ledger().rounds.round(principal(), event, game, round)
    response = jsonify(view)
    response.headers["ETag"] = view["etag"]
    return response


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/rounds/{round}/deal",
        operation_id="getRoundDeal",
        tag="ledger",
        summary="A seeded event's deal",
        description="The round's cards by seat, face-up card and draw pile (docs/deals.md). Before the event is closed: the table's referee once the round "
        "before is stored, a director at any time; after closing: anyone who may read the event, with the deal id.",
        parameters=[EVENT, GAME, ROUND],
        answers={200: RoundDealOut},
        errors=(401, 403, 404, 422),
        access=PUBLIC,
        problems=(*ACCESS, codes.TABLE_NOT_FOUND, codes.ROUND_OUT_OF_RANGE, codes.NOT_YET, codes.DEALS_NOT_FOUND, codes.INVALID_DEAL),
    )
)
def round_deal(event: str, game: str, round: int) -> Response:
    return jsonify(ledger().deals.round_deal(principal(), event, game, round))

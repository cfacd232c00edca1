"""``GET /deal``: a round dealt from a seed by the q1 specification (docs/deals.md)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...core.deal import Deal, DealError, deal, new_seed
from ...core.errors import InvalidRequest
from ...schemas.deals import DealOut, DealQuery
from ..endpoint_codes import RESOLVE
from ..endpoints import Endpoint, Resource, query
from ..requests import query_args, service

__all__ = ["bp", "deal_view"]

bp = Resource("deals", __name__)
DEAL_QUERY = DealQuery()


def deal_view(dealt: Deal, ruleset_id: str, deck_size: int) -> dict[str, Any]:
    """A deal as the API answers it: faces in upper case, as every answer gives cards."""
    return {
        "spec": "q1",
        "deal_id": dealt.id,
        "ruleset": ruleset_id,
        "players": dealt.players,
        "round": dealt.round,
        "seed": dealt.seed,
        "dealer": dealt.dealer,
        "hands": [[face.upper() for face in hand] for hand in dealt.hands],
        "face_up": dealt.face_up.upper(),
        "draw_pile": [face.upper() for face in dealt.draw_pile],
        "deck": {"size": deck_size, "fingerprint": dealt.fingerprint},
        "digest": dealt.digest(),
    }


@bp.declare(
    Endpoint(
        method="get",
        path="/deal",
        operation_id="dealRound",
        tag="deals",
        summary="Deal a round from a seed",
        description="The round's hands (seat order; the dealer passes left each round), face-up card and draw pile, dealt by the q1 specification "
        "(docs/deals.md) that any language can reproduce: SHA-256 counter stream, rejection sampling, Fisher-Yates. "
        "Too many players for the deck, a round the ruleset does not have or a malformed seed: 422 naming the field.",
        parameters=[
            query("ruleset", "Ruleset id (default `standard`): its deck and hand sizes."),
            query("players", "Seats."),
            query("round", "Round, 1 first."),
            query("seed", "64 hex digits; random when left out."),
        ],
        query=DealQuery,
        answers={200: DealOut},
        errors=(400, 404, 422),
        problems=(*RESOLVE, codes.PLAYER_COUNT, codes.ROUND_OUT_OF_RANGE, codes.INVALID_DEAL),
    )
)
def get_deal() -> Response:
    query = DEAL_QUERY.load(query_args())
    ruleset = service().ruleset(query["ruleset"])
    try:
        dealt = deal(ruleset, query["players"], query["round"], query["seed"] or new_seed())
    except DealError as err:
        raise InvalidRequest(f"No deal: {err}.", {err.field: [str(err)]}, code=codes.INVALID_DEAL) from None
    return jsonify(deal_view(dealt, ruleset.id, ruleset.deck.size))

"""``GET /deal``: a round dealt from a seed by the q1 specification (docs/deals.md)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from ...core import problem_codes as codes
from ...core.deal import Deal, DealError, deal, new_seed
from ...core.errors import InvalidRequest
from ...schemas.deals import DealQuery
from ..requests import query_args, service

__all__ = ["bp", "deal_view"]

bp = Blueprint("deals", __name__)
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


@bp.get("/deal")
def get_deal() -> Response:
    query = DEAL_QUERY.load(query_args())
    ruleset = service().ruleset(query["ruleset"])
    try:
        dealt = deal(ruleset, query["players"], query["round"], query["seed"] or new_seed())
    except DealError as err:
        raise InvalidRequest(f"No deal: {err}.", {err.field: [str(err)]}, code=codes.INVALID_DEAL) from None
    return jsonify(deal_view(dealt, ruleset.id, ruleset.deck.size))

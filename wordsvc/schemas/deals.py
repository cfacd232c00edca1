"""``GET /deal``: the query of a seeded deal, and its answer (docs/deals.md)."""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.deal import SPEC
from .common import MAX_PLAYERS, Strict, ruleset_field
from .rounds import MAX_ROUNDS

SEED_PATTERN = r"^[0-9a-f]{64}$"


class DealQuery(Strict):
    ruleset = ruleset_field("Ruleset id (default `standard`): its deck.")
    players = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_PLAYERS), metadata={"description": "Seats at the table."})
    round = fields.Integer(required=True, validate=validate.Range(min=1, max=MAX_ROUNDS), metadata={"description": "The round, 1 first."})
    seed = fields.String(
        load_default=None,
        validate=[validate.Length(equal=64), validate.Regexp(SEED_PATTERN, error="must be 64 lowercase hex digits (32 bytes)")],
        metadata={"description": "64 lowercase hex digits; a random one when left out (the answer gives it)."},
    )


class DeckPrintOut(Strict):
    size = fields.Integer(required=True)
    fingerprint = fields.String(required=True, metadata={"description": "SHA-256 of the deck's canonical order (docs/deals.md, section 1)."})


class DealOut(Strict):
    spec = fields.String(required=True, metadata={"description": f"The deal specification: {SPEC}."})
    deal_id = fields.String(required=True, metadata={"description": "q1.<fingerprint>.<players>.<hand size>.<round>.<seed>: reproduces the deal."})
    ruleset = fields.String(required=True)
    players = fields.Integer(required=True)
    round = fields.Integer(required=True)
    seed = fields.String(required=True)
    dealer = fields.Integer(required=True, metadata={"description": "The dealer's seat; the first card goes to the seat on their left."})
    hands = fields.List(fields.List(fields.String()), required=True, metadata={"description": "Each seat's hand, in the order its cards were dealt."})
    face_up = fields.String(required=True)
    draw_pile = fields.List(fields.String(), required=True, metadata={"description": "Top card first."})
    deck = fields.Nested(DeckPrintOut, required=True)
    digest = fields.String(required=True, metadata={"description": "SHA-256 of the deal's canonical JSON (section 8)."})

"""marshmallow schemas of ``POST /best-meld``: the request into arguments, and the answer's shape.

The request schema is shared by the HTTP API and ``wordsvc best``; the
response schemas document the API (for the OpenAPI document) and tests check
real answers against them.
"""

from __future__ import annotations

from marshmallow import fields, validate

from ..core.solver.solver import MAX_ALTERNATIVES
from .common import MAX_FACE, CardsField, LexiconStamp, Strict, StrictBoolean, check_text, lang_field, ruleset_field

__all__ = ["MAX_HAND_CARDS", "BestMeldOut", "BestMeldRequest", "PickupOut", "PlayOut", "SolverWordOut"]

#: Longest hand the schema reads; the ruleset's own limit (largest deal plus
#: one) is checked with the deck, with the other card problems.
MAX_HAND_CARDS = 64


class BestMeldRequest(Strict):
    hand = CardsField(max_cards=MAX_HAND_CARDS, required=True, metadata={"description": "The cards held, e.g. `[\"A\",\"CL\",\"G\"]` or `\"a(cl)g\"`."})
    ruleset = ruleset_field()
    lang = lang_field()
    discard = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={"description": "The hand has drawn: exactly one card is discarded (scores nothing). Default: true only for a hand larger than any deal."},
    )
    top = fields.Integer(
        load_default=0,
        strict=True,
        validate=validate.Range(min=0, max=MAX_ALTERNATIVES),
        metadata={"description": "Also the next-best plays, and the best plays for the longest word and for the most words."},
    )
    face_up = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=MAX_FACE), check_text],
        metadata={"description": "The card on top of the discard pile: whether taking it beats the hand as it is."},
    )


# ---- responses (documentation, and checked against real answers by the tests)


class SolverWordOut(Strict):
    word = fields.String(required=True, metadata={"description": "The word as judged: the cards' letters."})
    cards = fields.List(fields.String(), required=True)
    points = fields.Integer(required=True)
    letters = fields.Integer(required=True)
    anagrams = fields.List(fields.String(), required=True, metadata={"description": "Other valid words the same cards lay."})


class PlayOut(Strict):
    score = fields.Integer(required=True, metadata={"description": "Points of the words minus the unused cards (before bonuses and floor)."})
    words = fields.List(fields.Nested(SolverWordOut), required=True)
    unused = fields.List(fields.String(), required=True)
    discard = fields.String(allow_none=True, required=True)
    goes_out = fields.Boolean(required=True, metadata={"description": "Every card laid but the discard."})
    longest = fields.Integer(required=True, metadata={"description": "The longest word, in the ruleset's measure."})


class PickupOut(Strict):
    card = fields.String(required=True)
    take = fields.Boolean(required=True, metadata={"description": "Taking the card scores more than the hand as it is."})
    gain = fields.Integer(required=True)
    keep_score = fields.Integer(required=True)
    take_score = fields.Integer(required=True)
    discard = fields.String(allow_none=True, required=True)
    gives_up = fields.String(allow_none=True, required=True, metadata={"description": "With a drawn hand: the card the face-up card replaces."})
    play = fields.Nested(PlayOut, required=True)


class BestMeldOut(Strict):
    hand = fields.List(fields.String(), required=True)
    ruleset = fields.String(required=True)
    score = fields.Integer(required=True)
    words = fields.List(fields.Nested(SolverWordOut), required=True)
    unused = fields.List(fields.String(), required=True)
    discard = fields.String(allow_none=True, required=True)
    goes_out = fields.Boolean(required=True)
    longest = fields.Integer(required=True)
    can_go_out = fields.Boolean(required=True, metadata={"description": "Some play lays every card but the discard."})
    go_out = fields.Nested(PlayOut, allow_none=True, required=True, metadata={"description": "The best such play."})
    alternatives = fields.List(fields.Nested(PlayOut), required=True, metadata={"description": "The next-best distinct plays (top)."})
    longest_word = fields.Nested(PlayOut, allow_none=True, required=True)
    most_words = fields.Nested(PlayOut, allow_none=True, required=True)
    face_up = fields.Nested(PickupOut, allow_none=True, required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)

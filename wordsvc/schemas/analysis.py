"""marshmallow schemas of the post-round analysis: its request is ``POST /score-round``'s, and the answers' shapes.

``POST /analyse-round`` reads the very body ``/score-round`` reads, through
the same :func:`~wordsvc.schemas.rounds.load_round_request`, so the two refuse
the same input with the same field paths. The response schemas document the
API (OpenAPI) and the tests check real answers against them.
"""

from __future__ import annotations

from marshmallow import fields

from .best_meld import SolverWordOut
from .common import LexiconStamp, Strict
from .rounds import RoundRequest, load_round_request

__all__ = ["EventRoundAnalysisOut", "PlayerAnalysisOut", "RoundAnalysisOut", "RoundRequest", "load_round_request"]


class PlayerAnalysisOut(Strict):
    name = fields.String(required=True)
    cards = fields.List(
        fields.String(), required=True, metadata={"description": "The cards the player ended with: their words' cards, then their unused cards."}
    )
    played = fields.Integer(
        required=True,
        metadata={
            "description": "What the player scored from those cards: the round's word_points - unused_points (an invalid word counts as unused "
            "cards unless it stood unchallenged), before bonuses, the floor and challenge penalties."
        },
    )
    best = fields.Integer(required=True, metadata={"description": "The best score of exactly those cards, no discard: words' points minus unused cards."})
    best_words = fields.List(fields.Nested(SolverWordOut), required=True, metadata={"description": "The best play's words, as /best-meld gives them."})
    best_unused = fields.List(fields.String(), required=True, metadata={"description": "The cards the best play leaves unused."})
    missed = fields.Integer(required=True, metadata={"description": "best - played; 0 when an unchallenged invalid word scored more than any valid play."})
    could_go_out = fields.Boolean(required=True, metadata={"description": "The best play lays every card."})


class RoundAnalysisOut(Strict):
    ruleset = fields.String(required=True)
    round = fields.Integer(allow_none=True, required=True)
    players = fields.List(fields.Nested(PlayerAnalysisOut), required=True, metadata={"description": "In the round's order."})
    lexicon = fields.Nested(LexiconStamp, required=True)


class DealtAnalysisOut(Strict):
    name = fields.String(required=True)
    cards = fields.List(fields.String(), required=True, metadata={"description": "The cards the seat was dealt."})
    best = fields.Integer(required=True, metadata={"description": "The best score of the dealt cards as dealt, no draw and no discard."})
    best_words = fields.List(fields.Nested(SolverWordOut), required=True)
    best_unused = fields.List(fields.String(), required=True)


class EventRoundAnalysisOut(RoundAnalysisOut):
    dealt = fields.List(
        fields.Nested(DealtAnalysisOut),
        metadata={"description": "A seeded event's: each seat's dealt cards and their best play, to whoever may see the round's deal."},
    )
    event = fields.String(required=True)
    game = fields.String(required=True)
    revision = fields.Integer(required=True, metadata={"description": "The round's current revision, the one analysed."})

"""Solitaire's documents: a layout, a move, a solve request, and their answers (wordsvc/core/solitaire.py)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from ..core import problem_codes as codes
from ..core.problem_codes import coded
from ..core.solitaire import Layout, Pile
from .common import BoundedList, BoundedNested, CardsField, Strict, lang_field, ruleset_field
from .deals import SEED_PATTERN
from .words import UNITS_PER_MS

#: Piles a layout holds at most, and cards a pile (8 piles of 6 is the game).
MAX_PILES, MAX_DEPTH = 16, 16
#: The most work a solve may spend, in units of about a microsecond on the reference machine (wordsvc/core/work.py), and its default.
MAX_SOLVE, DEFAULT_SOLVE = 10_000_000, 2_000_000
#: The deprecated ``budget_ms`` reads as ``budget_ms * UNITS_PER_MS`` units.
MAX_SOLVE_MS = MAX_SOLVE // UNITS_PER_MS


class PileSchema(Strict):
    cards = CardsField(allow_empty=True, max_cards=MAX_DEPTH, required=True, metadata={"description": "Bottom card first; the last is the top."})
    face_down = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_DEPTH), metadata={"description": "How many of the bottom cards are face down."})

    @validates_schema
    def _top_is_up(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["cards"] and data["face_down"] >= len(data["cards"]):
            raise ValidationError(coded(codes.VALUE_OUT_OF_RANGE, "a pile's top card is face up: face_down must be below the number of cards"), "face_down")
        if not data["cards"] and data["face_down"]:
            raise ValidationError(coded(codes.VALUE_OUT_OF_RANGE, "an empty pile has no face-down cards"), "face_down")

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> Pile:
        return Pile(tuple(data["cards"]), data["face_down"])


class LayoutSchema(Strict):
    piles = BoundedNested(PileSchema, many=True, required=True, validate=validate.Length(min=1, max=MAX_PILES))

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> Layout:
        return Layout(tuple(data["piles"]))


class RebuildSchema(Strict):
    to = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_PILES - 1))
    from_ = fields.Integer(required=True, strict=True, data_key="from", validate=validate.Range(min=0, max=MAX_PILES - 1))


class DealLayoutQuery(Strict):
    ruleset = ruleset_field("Ruleset id (default `standard`): its deck.")
    seed = fields.String(load_default=None, validate=[validate.Length(equal=64), validate.Regexp(SEED_PATTERN, error="must be 64 lowercase hex digits")])
    piles = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_PILES), metadata={"description": "Default: the ruleset's (8)."})
    depth = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_DEPTH), metadata={"description": "Default: the ruleset's (6)."})


class MoveBody(Strict):
    ruleset = ruleset_field()
    lang = lang_field()
    layout = fields.Nested(LayoutSchema, required=True)
    word = BoundedList(
        fields.Integer(strict=True, validate=validate.Range(min=0, max=MAX_PILES - 1)),
        load_default=None,
        validate=validate.Length(min=1, max=MAX_PILES),
        metadata={"description": "The piles whose top cards make the word, in the word's order."},
    )
    cards = CardsField(load_default=None, max_cards=MAX_PILES, metadata={"description": "Or the word as the top cards it takes, e.g. `(qu)it`."})
    rebuild = fields.Nested(RebuildSchema, load_default=None)

    @validates_schema
    def _one_move(self, data: dict[str, Any], **kwargs: Any) -> None:
        given = [key for key in ("word", "cards", "rebuild") if data.get(key) is not None]
        if len(given) != 1:
            raise ValidationError(coded(codes.CONFLICTING_FIELDS, "give one move: a word as pile indices (word) or as cards (cards), or a rebuild"), "word")


class SolveBody(Strict):
    ruleset = ruleset_field()
    lang = lang_field()
    layout = fields.Nested(LayoutSchema, required=True)
    budget = fields.Integer(
        load_default=None,
        strict=True,
        validate=validate.Range(min=1, max=MAX_SOLVE),
        metadata={
            "description": f"Work to spend, in units of about a microsecond on the reference machine, counted, not timed, 1 to {MAX_SOLVE:,} "
            f"(default {DEFAULT_SOLVE:,}): each layout searched and each word search in it; the same layout gets the same answer anywhere."
        },
    )
    budget_ms = fields.Integer(
        load_default=None,
        strict=True,
        validate=validate.Range(min=1, max=MAX_SOLVE_MS),
        metadata={"description": f"Deprecated: read as `budget` = `budget_ms` × {UNITS_PER_MS}; not with `budget`.", "deprecated": True},
    )

    @validates_schema
    def _one_budget(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("budget") is not None and data.get("budget_ms") is not None:
            raise ValidationError(coded(codes.CONFLICTING_FIELDS, "give budget or the deprecated budget_ms, not both"), "budget_ms")

    @post_load
    def _units(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        ms = data.pop("budget_ms", None)
        if data.get("budget") is None:
            data["budget"] = DEFAULT_SOLVE if ms is None else ms * UNITS_PER_MS
        return data


# --- answers


class PileOut(Strict):
    cards = fields.List(fields.String(), required=True)
    face_down = fields.Integer(required=True)


class LayoutOut(Strict):
    piles = fields.List(fields.Nested(PileOut), required=True)


class DealtLayoutOut(Strict):
    ruleset = fields.String(required=True)
    seed = fields.String(required=True)
    layout = fields.Nested(LayoutOut, required=True)


class MoveOut(Strict):
    valid = fields.Boolean(required=True)
    word = fields.String(allow_none=True, required=True)
    cards = fields.List(fields.String(), required=True)
    piles = fields.List(fields.Integer(), required=True, metadata={"description": "The piles the word took its cards from, in the word's order."})
    reason = fields.Dict(allow_none=True, required=True, metadata={"description": "Why the word is refused (a verdict's reason), else null."})
    layout = fields.Nested(LayoutOut, required=True, metadata={"description": "The layout after the move (unchanged when it is refused)."})
    won = fields.Boolean(required=True)
    cards_left = fields.Integer(required=True)


class SolutionMoveOut(Strict):
    word = fields.List(fields.Integer(), metadata={"description": "Piles, in word order."})
    cards = fields.List(fields.String())
    rebuild = fields.Dict(metadata={"description": "{to, from}: a top card moved onto an emptied pile."})


class SolutionOut(Strict):
    won = fields.Boolean(required=True, metadata={"description": "The layout can be cleared (and moves clear it)."})
    cards_laid = fields.Integer(required=True, metadata={"description": "The most cards the moves lay (all of them when won)."})
    cards_left = fields.Integer(required=True)
    moves = fields.List(fields.Nested(SolutionMoveOut), required=True)
    truncated = fields.Boolean(required=True, metadata={"description": "The budget ran out: the answer is the best found, not proven best."})
    states = fields.Integer(required=True)

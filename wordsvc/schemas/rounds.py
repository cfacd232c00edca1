"""Rounds and games: ``POST /score-round`` and ``POST /score-game`` bodies into core objects, and their answers."""

from __future__ import annotations

import unicodedata
from typing import Any

from marshmallow import ValidationError, fields, post_load, validate

from ..core.ruleset import BONUS_KINDS
from ..core.scoring import Challenge, PlayerPlay, RoundPlay
from .common import (
    MAX_PLAYERS,
    MAX_WORDS,
    BoundedList,
    BoundedNested,
    CardsField,
    LexiconStamp,
    Strict,
    StrictBoolean,
    WordsField,
    lang_field,
    load_cards,
    load_words,
    name_field,
    name_problem,
    ruleset_field,
)
from .validate import ReasonOut

#: Rounds in a game, and the highest round number.
MAX_ROUNDS = 64


class PlayerSchema(Strict):
    name = name_field()
    words = WordsField(load_default=(), metadata={"description": "The words laid, each as card faces or compact notation."})
    unused = CardsField(allow_empty=True, load_default=(), metadata={"description": "Cards left in hand: a list of faces or compact notation."})
    went_out = StrictBoolean(load_default=False)

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> PlayerPlay:
        return PlayerPlay(data["name"], data["words"], data["unused"], data["went_out"])


class ChallengeSchema(Strict):
    by = name_field()
    player = name_field()
    word = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_WORDS))

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> Challenge:
        return Challenge(**data)


class RoundBody(Strict):
    """A round without ruleset or language (as a game's rounds are given)."""

    round = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=MAX_ROUNDS))
    players = BoundedNested(PlayerSchema, many=True, required=True, validate=validate.Length(min=1, max=MAX_PLAYERS))
    challenges = BoundedList(fields.Nested(ChallengeSchema), load_default=list, validate=validate.Length(max=MAX_WORDS))
    bonus_choice = fields.String(load_default=None, validate=validate.OneOf(BONUS_KINDS))

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> RoundPlay:
        return RoundPlay(tuple(data["players"]), data["round"], tuple(data["challenges"]), data["bonus_choice"])

class RoundRequest(RoundBody):
    ruleset = ruleset_field()
    lang = lang_field()

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:  # type: ignore[override]
        play = RoundPlay(tuple(data["players"]), data["round"], tuple(data["challenges"]), data["bonus_choice"])
        return {"play": play, "ruleset": data["ruleset"], "lang": data["lang"]}


_ROUND_KEYS = frozenset(RoundRequest().fields)
_PLAYER_KEYS = frozenset(PlayerSchema().fields)
_ABSENT = object()


def load_round_request(data: Any, schema: RoundRequest | None = None) -> dict[str, Any]:
    """What ``RoundRequest().load(data)`` gives, read directly when the request is plainly well formed.

    Scoring a round is the service's busiest request, and marshmallow spends
    more time reading its nested players than the round takes to score. The
    direct reading accepts only requests the schema accepts and builds the
    same objects (a property test holds the two to the same answers); any
    request it is unsure of (an unknown key, a wrong type, challenges) goes
    to the schema, which names every problem, so errors have one source.
    """
    direct = read_round(data)
    if direct is not None:
        return direct
    return (schema or RoundRequest()).load(data)  # type: ignore[no-any-return]


def read_round(data: Any) -> dict[str, Any] | None:
    """The direct reading of a plainly well-formed round (see :func:`load_round_request`); ``None`` when unsure."""
    if type(data) is not dict or not data.keys() <= _ROUND_KEYS:
        return None
    ruleset = data.get("ruleset")
    lang = data.get("lang")
    number = data.get("round")
    choice = data.get("bonus_choice")
    challenges = data.get("challenges", _ABSENT)
    if (
        (ruleset is not None and (type(ruleset) is not str or not 1 <= len(ruleset) <= 64))
        or (lang is not None and (type(lang) is not str or not 1 <= len(lang) <= 35))
        or (number is not None and (type(number) is not int or not 1 <= number <= MAX_ROUNDS))
        or (choice is not None and (type(choice) is not str or choice not in BONUS_KINDS))
        or (challenges is not _ABSENT and challenges != [])
    ):
        return None
    given = data.get("players")
    if type(given) is not list or not 1 <= len(given) <= MAX_PLAYERS:
        return None
    players = []
    for player in given:
        if type(player) is not dict or not player.keys() <= _PLAYER_KEYS:
            return None
        name = player.get("name")
        went_out = player.get("went_out", False)
        if type(name) is not str or name_problem(name) is not None or type(went_out) is not bool:
            return None
        try:
            words = load_words(player["words"]) if "words" in player else ()
            unused = load_cards(player["unused"], allow_empty=True) if "unused" in player else ()
        except ValidationError:
            return None
        players.append(PlayerPlay(unicodedata.normalize("NFC", name), words, unused, went_out))
    return {"play": RoundPlay(tuple(players), number, (), choice), "ruleset": ruleset, "lang": lang}


class GameRequest(Strict):
    ruleset = ruleset_field()
    lang = lang_field()
    players = BoundedList(name_field(), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS))
    rounds = BoundedList(fields.Nested(RoundBody), required=True, validate=validate.Length(min=1, max=MAX_ROUNDS))

class WordScoreOut(Strict):
    word = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)
    letters = fields.Integer(required=True)
    points = fields.Integer(required=True, metadata={"description": "The cards' values plus the word's length bonus."})
    length_bonus = fields.Integer(required=True, metadata={"description": "The ruleset's bonus for the word's letters (0 in most rulesets)."})
    valid = fields.Boolean(required=True)
    counted = fields.Boolean(required=True)
    reason = fields.Nested(ReasonOut, allow_none=True, required=True)
    challenged_by = fields.String(allow_none=True, required=True)


class PlayerBonusOut(Strict):
    kind = fields.String(required=True)
    points = fields.Integer(required=True)


class PlayerScoreOut(Strict):
    name = fields.String(required=True)
    words = fields.List(fields.Nested(WordScoreOut), required=True)
    word_points = fields.Integer(required=True)
    unused_points = fields.Integer(required=True)
    challenge_penalty = fields.Integer(required=True)
    bonuses = fields.List(fields.Nested(PlayerBonusOut), required=True)
    total = fields.Integer(required=True)
    went_out_valid = fields.Boolean(allow_none=True, required=True)


class BonusOut(Strict):
    kind = fields.String(required=True)
    points = fields.Integer(required=True)
    winner = fields.String(allow_none=True, required=True)
    winners = fields.List(fields.String(), required=True)
    tied = fields.List(fields.String(), required=True)


class RoundResultOut(Strict):
    ruleset = fields.String(required=True)
    round = fields.Integer(allow_none=True, required=True)
    players = fields.List(fields.Nested(PlayerScoreOut), required=True)
    bonuses = fields.List(fields.Nested(BonusOut), required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)


class GamePlayerOut(Strict):
    name = fields.String(required=True)
    round_totals = fields.List(fields.Integer(), required=True)
    running_totals = fields.List(fields.Integer(), required=True)
    total = fields.Integer(required=True)


class GameResultOut(Strict):
    ruleset = fields.String(required=True)
    rounds = fields.List(fields.Nested(RoundResultOut), required=True)
    players = fields.List(fields.Nested(GamePlayerOut), required=True)
    winners = fields.List(fields.String(), required=True)
    tie = fields.Boolean(required=True)
    complete = fields.Boolean(required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)

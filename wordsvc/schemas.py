"""marshmallow schemas: JSON requests into core objects, and the shape of every response.

The request schemas are used by the HTTP API and the CLI alike; the response
schemas document the API (OpenAPI is generated from them) and a test checks
real responses against them, so the document cannot drift from the service.
"""

from __future__ import annotations

import re
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, pre_load, validate

from .core.cards import CardSyntaxError, format_cards, parse_cards
from .core.ruleset import BONUS_KINDS
from .core.scoring import Challenge, PlayerPlay, RoundPlay

MAX_PLAYERS = 16
MAX_WORDS = 100
MAX_FACE = 8
MAX_TEXT = 256


#: Unicode's control characters (category Cc): U+0000-U+001F and U+007F-U+009F.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")


def check_text(value: str) -> None:
    """Control characters (NUL, newlines, ...) are never part of a word or a name."""
    if _CONTROL.search(value):
        raise ValidationError("must not contain control characters")


class Strict(Schema):
    class Meta:
        unknown = RAISE


class StrictBoolean(fields.Boolean):
    """JSON true or false only: not "yes", not 1 (1 == True in a Python set)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _face_problem(face: Any) -> str:
    """What is wrong with one card face of a list, or '' when nothing is."""
    if not isinstance(face, str) or not face.strip():
        return "must be a card face (one or more letters)"
    if len(face) > MAX_FACE:
        return f"a card face has at most {MAX_FACE} letters"
    if _CONTROL.search(face):
        return "must not contain control characters"
    return ""


CARDS_HINT = "must be a list of card faces or a compact string such as (qu)iz"


def load_cards(value: Any, allow_empty: bool = False, max_cards: int = MAX_TEXT) -> tuple[str, ...]:
    """Cards given as ``["QU","I","Z"]`` or ``"(qu)iz"``, as normalized faces; ValidationError (per card) if not."""
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            raise ValidationError(f"at most {MAX_TEXT} characters")
        check_text(value)
    elif isinstance(value, list):
        if len(value) > max_cards:
            raise ValidationError(f"at most {max_cards} cards")
        bad = {i: [_face_problem(face)] for i, face in enumerate(value) if _face_problem(face)}
        if bad:
            raise ValidationError(bad)  # type: ignore[arg-type]  # per card: players.0.unused.3
    else:
        raise ValidationError(CARDS_HINT)
    try:
        faces = parse_cards(value)
    except CardSyntaxError as err:
        raise ValidationError(str(err)) from err
    if not faces and not allow_empty:
        raise ValidationError("needs at least one card")
    if len(faces) > max_cards:
        raise ValidationError(f"at most {max_cards} cards")
    return faces


class CardsField(fields.Field):
    """A word's cards: ``["QU","I","Z"]`` or compact ``"(qu)iz"``; loads to a tuple of faces."""

    def __init__(self, *, allow_empty: bool = False, max_cards: int = MAX_TEXT, **kwargs: Any):
        super().__init__(**kwargs)
        self.allow_empty = allow_empty
        self.max_cards = max_cards

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[str, ...]:
        return load_cards(value, self.allow_empty, self.max_cards)


def load_words(value: Any) -> tuple[tuple[str, ...], ...]:
    """A player's words, each read by :func:`load_cards`; ValidationError per word and card if not."""
    if not isinstance(value, list):
        raise ValidationError("must be a list of words")
    if len(value) > MAX_WORDS:
        raise ValidationError(f"at most {MAX_WORDS} words")
    words, errors = [], {}
    for i, word in enumerate(value):
        try:
            words.append(load_cards(word))
        except ValidationError as err:
            errors[i] = err.messages
    if errors:
        raise ValidationError(errors)  # type: ignore[arg-type]
    return tuple(words)


class WordsField(fields.Field):
    """A player's words, each as :class:`CardsField` reads it: one field for the list, errors still per word and card."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[tuple[str, ...], ...]:
        return load_words(value)


class WordField(fields.Field):
    """A word to judge: plain letters, compact notation, or a card list (judged as that laying)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        if isinstance(value, str):
            if len(value) > MAX_TEXT:
                raise ValidationError(f"at most {MAX_TEXT} characters")
            check_text(value)
            return value
        if isinstance(value, list) and value and len(value) <= MAX_TEXT and all(isinstance(f, str) and 0 < len(f) <= MAX_FACE for f in value):
            check_text("".join(value))
            try:
                return format_cards(parse_cards(value))
            except CardSyntaxError as err:
                raise ValidationError(str(err)) from err
        raise ValidationError("must be a word (string) or a list of card faces")


def _name() -> fields.String:
    return fields.String(required=True, validate=[validate.Length(min=1, max=64), check_text])


class PlayerSchema(Strict):
    name = _name()
    words = WordsField(load_default=(), metadata={"type": "array", "items": {"description": "A word: card faces or compact notation."}})
    unused = CardsField(allow_empty=True, load_default=(), metadata={"description": "Cards left in hand: a list of faces or compact notation."})
    went_out = StrictBoolean(load_default=False)

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> PlayerPlay:
        return PlayerPlay(data["name"], data["words"], data["unused"], data["went_out"])


class ChallengeSchema(Strict):
    by = _name()
    player = _name()
    word = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_WORDS))

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> Challenge:
        return Challenge(**data)


class RoundBody(Strict):
    """A round without ruleset or language (as a game's rounds are given)."""

    round = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=1, max=64))
    players = fields.Nested(PlayerSchema, many=True, required=True, validate=validate.Length(min=1, max=MAX_PLAYERS))
    challenges = fields.List(fields.Nested(ChallengeSchema), load_default=list, validate=validate.Length(max=MAX_WORDS))
    bonus_choice = fields.String(load_default=None, validate=validate.OneOf(BONUS_KINDS))

    @post_load
    def _make(self, data: dict[str, Any], **kwargs: Any) -> RoundPlay:
        return RoundPlay(tuple(data["players"]), data["round"], tuple(data["challenges"]), data["bonus_choice"])


def _ruleset_field() -> fields.String:
    return fields.String(load_default="standard", validate=validate.Length(min=1, max=64))


def _lang_field() -> fields.String:
    return fields.String(load_default=None, validate=validate.Length(min=1, max=35))


class RoundRequest(RoundBody):
    ruleset = _ruleset_field()
    lang = _lang_field()

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
    direct = _read_round(data)
    if direct is not None:
        return direct
    return (schema or RoundRequest()).load(data)  # type: ignore[no-any-return]


def _read_round(data: Any) -> dict[str, Any] | None:
    if type(data) is not dict or not data.keys() <= _ROUND_KEYS:
        return None
    ruleset = data.get("ruleset", "standard")
    lang = data.get("lang")
    number = data.get("round")
    choice = data.get("bonus_choice")
    challenges = data.get("challenges", _ABSENT)
    if (
        type(ruleset) is not str
        or not 1 <= len(ruleset) <= 64
        or (lang is not None and (type(lang) is not str or not 1 <= len(lang) <= 35))
        or (number is not None and (type(number) is not int or not 1 <= number <= 64))
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
        if type(name) is not str or not 1 <= len(name) <= 64 or _CONTROL.search(name) or type(went_out) is not bool:
            return None
        try:
            words = load_words(player["words"]) if "words" in player else ()
            unused = load_cards(player["unused"], allow_empty=True) if "unused" in player else ()
        except ValidationError:
            return None
        players.append(PlayerPlay(name, words, unused, went_out))
    return {"play": RoundPlay(tuple(players), number, (), choice), "ruleset": ruleset, "lang": lang}


class GameRequest(Strict):
    ruleset = _ruleset_field()
    lang = _lang_field()
    players = fields.List(_name(), required=True, validate=validate.Length(min=1, max=MAX_PLAYERS))
    rounds = fields.List(fields.Nested(RoundBody), required=True, validate=validate.Length(min=1, max=64))


class ValidateQuery(Strict):
    word = WordField(required=True)
    ruleset = _ruleset_field()
    lang = _lang_field()
    locale = fields.String(load_default=None, validate=validate.Length(max=35))
    suggest = StrictBoolean(load_default=True, metadata={"description": "Add `suggestions` to a refused word's verdict."})

    @pre_load
    def _query_booleans(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """A query string has no JSON booleans: `true` and `false` are read as such, nothing else."""
        value = data.get("suggest")
        if value in ("true", "false"):
            data = {**data, "suggest": value == "true"}
        return data


_QUERY_KEYS = frozenset(ValidateQuery().fields)


def load_validate_query(args: dict[str, str], schema: ValidateQuery | None = None) -> dict[str, Any]:
    """What ``ValidateQuery().load(args)`` gives, read directly when the query is plainly well formed.

    The same bargain as :func:`load_round_request`: the direct reading takes
    only queries the schema takes, to the same values (a property test
    holds them together); the schema reads, and explains, the rest.
    """
    direct = _read_query(args)
    if direct is not None:
        return direct
    return (schema or ValidateQuery()).load(args)  # type: ignore[no-any-return]


def _read_query(args: dict[str, str]) -> dict[str, Any] | None:
    if type(args) is not dict or not args.keys() <= _QUERY_KEYS:
        return None
    word = args.get("word")
    ruleset = args.get("ruleset", "standard")
    lang = args.get("lang")
    locale = args.get("locale")
    suggest = args.get("suggest", "true")
    if (
        type(word) is not str
        or len(word) > MAX_TEXT
        or _CONTROL.search(word)
        or type(ruleset) is not str
        or not 1 <= len(ruleset) <= 64
        or (lang is not None and (type(lang) is not str or not 1 <= len(lang) <= 35))
        or (locale is not None and (type(locale) is not str or len(locale) > 35))
        or suggest not in ("true", "false")
    ):
        return None
    return {"word": word, "ruleset": ruleset, "lang": lang, "locale": locale, "suggest": suggest == "true"}


class ValidateBody(Strict):
    words = fields.List(WordField(), required=True, validate=validate.Length(min=1, max=100))
    ruleset = _ruleset_field()
    lang = _lang_field()
    judge = StrictBoolean(load_default=False)


# ---- responses (documentation, and checked against real responses by a test)


class LexiconStamp(Strict):
    id = fields.String(required=True)
    version = fields.String(required=True)
    sha256 = fields.String(required=True)


class ReasonOut(Strict):
    code = fields.String(required=True, metadata={"description": "Stable reason code."})
    message = fields.String(required=True)
    class_ = fields.String(data_key="class", metadata={"description": "The banned class (banned_class only)."})


class SpellingOut(Strict):
    cards = fields.List(fields.String(), required=True)
    points = fields.Integer(required=True)


class VerdictOut(Strict):
    word = fields.String(required=True, metadata={"description": "The word as sent."})
    normalized = fields.String(required=True, metadata={"description": "The word as judged (NFC, case-folded)."})
    lang = fields.String(required=True)
    ruleset = fields.String(required=True)
    valid = fields.Boolean(required=True)
    reasons = fields.List(fields.Nested(ReasonOut), required=True)
    classes = fields.List(fields.String(), required=True)
    spellings = fields.List(fields.Nested(SpellingOut), required=True, metadata={"description": "Every way to lay the word, best points first."})
    lexicon = fields.Nested(LexiconStamp, required=True)
    suggestions = fields.List(
        fields.Nested(lambda: _suggestion_out()),
        metadata={"description": "GET /validate only, for a refused word (unless suggest=false): close playable words."},
    )


def _suggestion_out() -> type[Schema]:
    from .web.search import SuggestionOut  # the search module imports this one

    return SuggestionOut


class VerdictsOut(Strict):
    valid = fields.Boolean(required=True)
    verdicts = fields.List(fields.Nested(VerdictOut), required=True)


class JudgeOut(Strict):
    acceptable = fields.Boolean(required=True)
    count = fields.Integer(required=True)
    ruleset = fields.String(required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)


class WordScoreOut(Strict):
    word = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)
    letters = fields.Integer(required=True)
    points = fields.Integer(required=True)
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


class ProblemOut(Strict):
    type = fields.String(required=True)
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), required=True)
    request_id = fields.String(required=True)

"""Word search: the ``/words``, ``/anagrams`` and ``/suggest`` queries, and their answers."""

from __future__ import annotations

from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, pre_load, validate, validates_schema

from ..core import problem_codes as codes
from ..core.cards import CardSyntaxError, parse_cards
from ..core.lexicon import KNOWN_CLASSES
from ..core.problem_codes import coded
from ..core.wordsearch.queries import MAX_PATTERN_CHARS, ORDINARY, PatternError, compile_pattern
from .common import FACE_PATTERN, CodedSchema, LexiconStamp, ascii_integers, check_text, ruleset_field

MAX_LIMIT = 500
MAX_HAND_CARDS = 20
MAX_SUGGESTIONS = 10
#: The largest work budget a query may ask for: about half a second of work on the reference machine.
MAX_BUDGET = 500_000
#: The deprecated ``budget_ms`` reads as ``budget_ms * UNITS_PER_MS`` units of work (a unit is about a microsecond).
UNITS_PER_MS = 1000
MAX_BUDGET_MS = MAX_BUDGET // UNITS_PER_MS
BUDGET_DESCRIPTION = (
    f"Work to spend, in units of about a microsecond on the reference machine, counted, not timed, 1 to {MAX_BUDGET:,} "
    "(default: the endpoint's); when it is spent the answer is what was found, `truncated`. The same query gives the same answer "
    "on any machine under any load (docs/search.md#work-budgets)."
)
BUDGET_MS_DESCRIPTION = f"Deprecated: read as `budget` = `budget_ms` × {UNITS_PER_MS}, 1 to {MAX_BUDGET_MS}; not with `budget`."
CLASS_NAMES = sorted({*KNOWN_CLASSES, ORDINARY})
#: A cursor is unpadded base64url (:func:`~wordsvc.core.wordsearch.queries.encode_cursor`); anything else is no cursor.
CURSOR_PATTERN = r"^[A-Za-z0-9_-]+$"
CURSOR_REFUSAL = "not a cursor of this query: pass next_cursor back unchanged, with the same pattern, filters, ruleset and language"
_CLASS = "(?:" + "|".join(CLASS_NAMES) + ")"
#: What :class:`ClassesField` takes, as an OpenAPI pattern: known class names, comma-separated, at least one.
CLASSES_PATTERN = rf"^[\s,]*{_CLASS}(?:\s*,[\s,]*{_CLASS})*[\s,]*$"


class _Query(CodedSchema):
    class Meta:
        unknown = RAISE

    ruleset = ruleset_field()
    lang = fields.String(load_default=None, validate=validate.Length(min=1, max=35))
    locale = fields.String(load_default=None, validate=validate.Length(max=35))
    budget = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_BUDGET), metadata={"description": BUDGET_DESCRIPTION})
    budget_ms = fields.Integer(
        load_default=None,
        validate=validate.Range(min=1, max=MAX_BUDGET_MS),
        metadata={"description": BUDGET_MS_DESCRIPTION, "deprecated": True},
    )

    @pre_load
    def _ascii_integers(self, data: Any, **kwargs: Any) -> Any:
        return ascii_integers(self, data)

    @validates_schema
    def _one_budget(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("budget") is not None and data.get("budget_ms") is not None:
            raise ValidationError(coded(codes.CONFLICTING_FIELDS, "give budget or the deprecated budget_ms, not both"), "budget_ms")

    @post_load
    def _units(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """``budget``: the units asked for, from either field (``None``: the endpoint's default)."""
        ms = data.pop("budget_ms", None)
        if ms is not None:
            data["budget"] = ms * UNITS_PER_MS
        return data


#: The grammar of a /words pattern, as the API documents it (ABNF; :func:`~wordsvc.core.wordsearch.queries.compile_pattern` reads it).
PATTERN_GRAMMAR = (
    'pattern = [WS] 1*item [WS], at most 32 characters; item = letter / "\'" / "-" / "?" / "*" / "[" ["^" / "!"] 1*letter "]"; '
    "letter = a Unicode letter or mark (categories L and M). `?` is one letter, `*` any run of letters (also none), "
    "`[aeiou]` one letter of the set, `[^aeiou]` one not in it; `'` and `-` stand for themselves and no wildcard matches them."
)
#: The parameter's OpenAPI ``pattern``: not only white space and no control character. The grammar itself is in
#: :data:`PATTERN_GRAMMAR`, as text: as a regular expression it is more than schema-based generators can read, and
#: ECMA-262 has no letter class every validator reads.
PATTERN_SHAPE = FACE_PATTERN


class PatternField(fields.String):
    """A search pattern, loaded as a compiled :class:`~wordsvc.core.wordsearch.queries.Pattern`."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        check_text(text)
        try:
            return compile_pattern(text)
        except PatternError as err:
            raise ValidationError([coded(codes.INVALID_PATTERN, message) for message in err.problems]) from err

    def openapi_schema(self) -> dict[str, Any]:
        return {"maxLength": MAX_PATTERN_CHARS, "pattern": PATTERN_SHAPE}


class ClassesField(fields.String):
    """Comma-separated class names (``proper_noun,ordinary``), loaded as a frozenset."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        names = {name.strip() for name in text.split(",") if name.strip()}
        unknown = sorted(names - set(CLASS_NAMES))
        if not names or unknown:
            raise ValidationError(coded(codes.NOT_ONE_OF, f"unknown class {', '.join(map(repr, unknown))}; known: {', '.join(CLASS_NAMES)}" if unknown else "name a class"))
        return frozenset(names)

    def openapi_schema(self) -> dict[str, Any]:
        return {"pattern": CLASSES_PATTERN}


class HandField(fields.String):
    """Cards as compact notation (``(qu)izt``) or separated by commas (``QU,I,Z,T``), loaded as faces."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        check_text(text)
        try:
            faces = parse_cards([part for part in text.split(",") if part.strip()] if "," in text else text)
        except CardSyntaxError as err:
            raise ValidationError(coded(err.code, str(err))) from err
        if not faces:
            raise ValidationError(coded(codes.INVALID_CARDS, "give at least one card"))
        if len(faces) > MAX_HAND_CARDS:
            raise ValidationError(coded(codes.LENGTH_OUT_OF_RANGE, f"at most {MAX_HAND_CARDS} cards (got {len(faces)})"))
        return faces

    def openapi_schema(self) -> dict[str, Any]:
        return {"pattern": FACE_PATTERN}  # not only white space; at most MAX_HAND_CARDS cards, which no string length says


class WordsQuery(_Query):
    pattern = PatternField(required=True, metadata={"description": PATTERN_GRAMMAR})
    min_len = fields.Integer(load_default=None, validate=validate.Range(min=1, max=64), metadata={"description": "Fewest letters."})
    max_len = fields.Integer(load_default=None, validate=validate.Range(min=1, max=64), metadata={"description": "Most letters."})
    classes = ClassesField(
        load_default=None,
        metadata={"description": "Instead of playable words: forms with a reading of one of these classes (`ordinary`: no class), playable or not."},
    )
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=MAX_LIMIT))
    cursor = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=1024), validate.Regexp(CURSOR_PATTERN, error=CURSOR_REFUSAL)],
        metadata={"description": "`next_cursor` of the previous page."},
    )

    @validates_schema
    def _lengths(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("min_len") and data.get("max_len") and data["min_len"] > data["max_len"]:
            raise ValidationError(coded(codes.VALUE_OUT_OF_RANGE, "must be at least min_len"), "max_len")


class AnagramsQuery(_Query):
    cards = HandField(required=True, metadata={"description": "The cards: `(qu)izt` or `QU,I,Z,T`."})
    any_subset = fields.Boolean(load_default=False, data_key="all", metadata={"description": "Words from any of the cards, not only all of them."})


class SuggestQuery(_Query):
    word = fields.String(required=True, validate=[validate.Length(min=1, max=64), check_text])
    limit = fields.Integer(load_default=MAX_SUGGESTIONS, validate=validate.Range(min=1, max=MAX_SUGGESTIONS))


WORDS_QUERY, ANAGRAMS_QUERY, SUGGEST_QUERY = WordsQuery(), AnagramsQuery(), SuggestQuery()


# ---------------------------------------------------------------- response schemas


class _Out(Schema):
    class Meta:
        unknown = RAISE


class WordHitOut(_Out):
    word = fields.String(required=True)
    letters = fields.Integer(required=True)
    points = fields.Integer(required=True, allow_none=True, metadata={"description": "Best points laid within the largest hand; null if it cannot be."})
    cards = fields.List(fields.String(), required=True, allow_none=True, metadata={"description": "The laying worth `points`."})
    classes = fields.List(fields.String(), required=True)
    rank = fields.Integer(required=True, allow_none=True, metadata={"description": "Commonness: smaller is more common; null if unknown."})
    valid = fields.Boolean(required=True, metadata={"description": "The verdict under the ruleset (always true without `classes`)."})


class WordsOut(_Out):
    pattern = fields.String(required=True)
    lang = fields.String(required=True)
    ruleset = fields.String(required=True)
    classes = fields.List(fields.String(), required=True, allow_none=True)
    count = fields.Integer(required=True)
    words = fields.List(fields.Nested(WordHitOut), required=True, metadata={"description": "By commonness, then alphabet (code point)."})
    next_cursor = fields.String(required=True, allow_none=True)
    truncated = fields.Boolean(required=True, metadata={"description": "The work budget was spent before the page was full; go on with next_cursor."})
    lexicon = fields.Nested(LexiconStamp, required=True)


class AnagramHitOut(_Out):
    word = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)
    points = fields.Integer(required=True)
    letters = fields.Integer(required=True)
    rank = fields.Integer(required=True, allow_none=True)


class AnagramsOut(_Out):
    cards = fields.List(fields.String(), required=True)
    lang = fields.String(required=True)
    ruleset = fields.String(required=True)
    all = fields.Boolean(required=True)
    count = fields.Integer(required=True)
    words = fields.List(fields.Nested(AnagramHitOut), required=True, metadata={"description": "Best points first."})
    truncated = fields.Boolean(required=True, metadata={"description": "The work budget was spent before every laying was judged."})
    lexicon = fields.Nested(LexiconStamp, required=True)


class SuggestionOut(_Out):
    word = fields.String(required=True)
    distance = fields.Integer(required=True, metadata={"description": "Edits (deletion, insertion, substitution, swap of neighbours)."})
    rank = fields.Integer(required=True, allow_none=True)
    points = fields.Integer(required=True, allow_none=True)
    cards = fields.List(fields.String(), required=True, allow_none=True)


class SuggestOut(_Out):
    word = fields.String(required=True)
    normalized = fields.String(required=True)
    valid = fields.Boolean(required=True, metadata={"description": "Whether the word itself is playable."})
    lang = fields.String(required=True)
    ruleset = fields.String(required=True)
    suggestions = fields.List(fields.Nested(SuggestionOut), required=True, metadata={"description": "By distance, then commonness, then alphabet."})
    max_distance = fields.Integer(required=True, metadata={"description": "The most edits tried."})
    truncated = fields.Boolean(required=True, metadata={"description": "The work budget was spent before two edits were tried in full."})
    lexicon = fields.Nested(LexiconStamp, required=True)

"""Word verdicts: the ``/validate`` query and body, and the verdicts answered."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, pre_load, validate

from .common import CONTROL, MAX_TEXT, BoundedList, LexiconStamp, Strict, StrictBoolean, WordField, lang_field, ruleset_field
from .words import SuggestionOut

#: Words one POST /validate judges at most.
MAX_VERDICTS = 100


class ValidateQuery(Strict):
    word = WordField(required=True)
    ruleset = ruleset_field()
    lang = lang_field()
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
    ruleset = args.get("ruleset")
    lang = args.get("lang")
    locale = args.get("locale")
    suggest = args.get("suggest", "true")
    if (
        type(word) is not str
        or len(word) > MAX_TEXT
        or CONTROL.search(word)
        or (ruleset is not None and (type(ruleset) is not str or not 1 <= len(ruleset) <= 64))
        or (lang is not None and (type(lang) is not str or not 1 <= len(lang) <= 35))
        or (locale is not None and (type(locale) is not str or len(locale) > 35))
        or suggest not in ("true", "false")
    ):
        return None
    return {"word": word, "ruleset": ruleset, "lang": lang, "locale": locale, "suggest": suggest == "true"}


class ValidateBody(Strict):
    words = BoundedList(WordField(), required=True, validate=validate.Length(min=1, max=MAX_VERDICTS))
    ruleset = ruleset_field()
    lang = lang_field()
    judge = StrictBoolean(load_default=False)


class RulesetHint(Strict):
    ruleset = fields.String(required=True, metadata={"description": "The id of the lexicon's own ruleset, whose deck lays the word."})


class ReasonOut(Strict):
    code = fields.String(required=True, metadata={"description": "Stable reason code."})
    message = fields.String(required=True)
    class_ = fields.String(data_key="class", metadata={"description": "The banned class (banned_class only)."})
    hint = fields.Nested(
        RulesetHint,
        metadata={
            "description": "not_spellable only: the ruleset whose deck can lay the word, when the lexicon is played with another "
            "ruleset than the one asked (`schön` with `lang=de` and `ruleset=standard`: `deutsch`)."
        },
    )


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
    classes = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Every class any reading of the word has in the lexicon (`proper_noun`, `abbreviation`, ...), banned or not: "
            "Icelandic `hestur` is a common noun and a place name, so it is valid with `proper_noun` here. A word is refused for a "
            "class (`banned_class`) only when every reading is of a banned class."
        },
    )
    spellings = fields.List(fields.Nested(SpellingOut), required=True, metadata={"description": "Every way to lay the word, best points first."})
    lexicon = fields.Nested(LexiconStamp, required=True)
    suggestions = fields.List(
        fields.Nested(SuggestionOut),
        metadata={"description": "GET /validate only, for a refused word (unless suggest=false): close playable words."},
    )

class VerdictsOut(Strict):
    valid = fields.Boolean(required=True)
    verdicts = fields.List(fields.Nested(VerdictOut), required=True)


class JudgeOut(Strict):
    acceptable = fields.Boolean(required=True)
    count = fields.Integer(required=True)
    ruleset = fields.String(required=True)
    lexicon = fields.Nested(LexiconStamp, required=True)

"""Lexicon comparison: the ``/lexicons/diff`` query (and ``wordsvc lexicon diff``), and its answer."""

from __future__ import annotations

from marshmallow import fields, validate

from .common import LexiconStamp, Strict, check_text

__all__ = ["DIFF_QUERY", "MAX_DIFF_LIMIT", "MAX_DIFF_OFFSET", "DiffQuery", "LexiconDiffOut"]

#: Forms one page lists at most, of each side (added, removed).
MAX_DIFF_LIMIT = 1000
#: The farthest page: more than any lexicon holds (Icelandic has 3.7 million forms).
MAX_DIFF_OFFSET = 10_000_000
DEFAULT_DIFF_LIMIT = 100


def _lexicon_field(description: str, data_key: str | None = None) -> fields.String:
    return fields.String(required=True, data_key=data_key, validate=[validate.Length(min=1, max=35), check_text], metadata={"description": description})


class DiffQuery(Strict):
    from_ = _lexicon_field("The lexicon before: an id or BCP 47 tag of a word-list lexicon (`GET /languages`).", data_key="from")
    to = _lexicon_field("The lexicon after.")
    ruleset = fields.String(
        load_default=None,
        validate=[validate.Length(min=1, max=64), check_text],
        metadata={"description": "Compare only the forms this ruleset accepts as words (its banned classes and house lists); default: every form."},
    )
    limit = fields.Integer(
        load_default=DEFAULT_DIFF_LIMIT,
        validate=validate.Range(min=0, max=MAX_DIFF_LIMIT),
        metadata={"description": f"Forms listed of each side, at most {MAX_DIFF_LIMIT} (default {DEFAULT_DIFF_LIMIT}; 0: the counts only)."},
    )
    offset = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_DIFF_OFFSET),
        metadata={"description": "Forms of each side to skip: the next page starts at offset + limit."},
    )
    locale = fields.String(load_default=None, validate=validate.Length(max=35))


DIFF_QUERY = DiffQuery()


class DiffSideOut(Strict):
    count = fields.Integer(required=True, metadata={"description": "Forms on this side in all."})
    forms = fields.List(fields.String(), required=True, metadata={"description": "This page of them, in code-point order."})
    more = fields.Boolean(required=True, metadata={"description": "Forms past this page remain: ask again with offset + limit."})


class DiffLexiconOut(LexiconStamp):
    entries = fields.Integer(required=True, metadata={"description": "Distinct forms in the lexicon."})


class LexiconDiffOut(Strict):
    from_ = fields.Nested(DiffLexiconOut, required=True, data_key="from")
    to = fields.Nested(DiffLexiconOut, required=True)
    ruleset = fields.String(required=True, allow_none=True, metadata={"description": "The ruleset whose accepted forms were compared; null: every form."})
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)
    added = fields.Nested(DiffSideOut, required=True, metadata={"description": "Forms `to` has and `from` has not."})
    removed = fields.Nested(DiffSideOut, required=True, metadata={"description": "Forms `from` has and `to` has not."})

"""Word search over HTTP: ``GET /words``, ``GET /anagrams``, ``GET /suggest``.

Each view loads its query with a schema of :mod:`wordsvc.schemas.words`, calls
:class:`~wordsvc.data.wordsearch.WordSearch` and dumps the result. The
schemas document the endpoints (:data:`OPENAPI_SCHEMAS`,
:data:`OPENAPI_ENDPOINTS` are in the shape :mod:`wordsvc.web.openapi` lists
its own). :func:`suggestions` is what a ``/validate`` verdict calls for a
refused word.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Blueprint, Response, current_app, g, jsonify
from marshmallow import Schema

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.lexicon import Lexicon
from ...core.ruleset import Ruleset
from ...core.verdict import judge
from ...core.wordsearch.queries import MAX_PATTERN_CHARS, CursorError, WordQuery, decode_cursor, encode_cursor
from ...data.anagram_index import AnagramIndexes
from ...data.wordsearch import Budgets, SearchUnavailable, WordSearch
from ...schemas.words import (
    ANAGRAMS_QUERY,
    BUDGET_DESCRIPTION,
    BUDGET_MS_DESCRIPTION,
    CLASS_NAMES,
    MAX_BUDGET,
    MAX_BUDGET_MS,
    MAX_LIMIT,
    MAX_SUGGESTIONS,
    PATTERN_GRAMMAR,
    PATTERN_SHAPE,
    SUGGEST_QUERY,
    WORDS_QUERY,
    AnagramsOut,
    SuggestionOut,
    SuggestOut,
    WordsOut,
)
from ..admission import heavy
from ..problems import problem
from ..requests import query_args, service

__all__ = ["OPENAPI_ENDPOINTS", "OPENAPI_SCHEMAS", "bp", "searcher", "suggestions"]

bp = Blueprint("words", __name__)


def searcher() -> WordSearch:
    """The app's :class:`WordSearch`, made on first use (indexes open lazily, memory-mapped)."""
    found = current_app.extensions.get("wordsvc.search")
    if found is None:
        settings = current_app.extensions.get("wordsvc.settings")
        indexes = AnagramIndexes(settings.data_dir) if settings is not None else None
        budgets = Budgets(safety=settings.work_safety_seconds) if settings is not None else Budgets()
        found = current_app.extensions["wordsvc.search"] = WordSearch(indexes, budgets)
    return found  # type: ignore[no-any-return]


def suggestions(word: str, ruleset: Ruleset, lexicon: Lexicon, limit: int = MAX_SUGGESTIONS) -> list[dict[str, object]]:
    """Up to ``limit`` playable words close to ``word``, as JSON: for the ``suggestions`` of a refused verdict.

    Runs on a small budget (:attr:`~wordsvc.data.wordsearch.Budgets.verdict_suggest`)
    and never fails for want of an index. Needs an app context.
    """
    search = searcher()
    result = search.suggest(word, ruleset, lexicon, limit, budget=search.budgets.verdict_suggest)
    return [s.to_dict() for s in result.suggestions]


# ---------------------------------------------------------------- views


@bp.get("/words")
@heavy
def words() -> Response:
    q = WORDS_QUERY.load(query_args())
    ruleset, lexicon = service().resolve(q["ruleset"], q["lang"])
    query = WordQuery(q["pattern"], q["min_len"], q["max_len"], q["classes"], q["limit"])
    scope = query.scope(ruleset, lexicon)
    if q["cursor"]:
        try:
            query = replace(query, start=decode_cursor(q["cursor"], scope))
        except CursorError as err:
            raise InvalidRequest("The cursor does not belong to this query; see errors.", {"cursor": [str(err)]}, code=codes.INVALID_CURSOR) from None
    page = searcher().words(query, ruleset, lexicon, q["budget"])
    return jsonify(
        {
            "pattern": query.pattern.text,
            "lang": lexicon.info.lang,
            "ruleset": ruleset.id,
            "classes": sorted(query.classes) if query.classes is not None else None,
            "count": len(page.hits),
            "words": [hit.to_dict() for hit in page.hits],
            "next_cursor": encode_cursor(page.next, scope) if page.next is not None else None,
            "truncated": page.truncated,
            "lexicon": lexicon.info.stamp(),
        }
    )


@bp.get("/anagrams")
@heavy
def anagrams() -> Response:
    q = ANAGRAMS_QUERY.load(query_args())
    ruleset, lexicon = service().resolve(q["ruleset"], q["lang"])
    result = searcher().anagrams(q["cards"], ruleset, lexicon, not q["any_subset"], q["budget"])
    return jsonify(
        {
            "cards": [face.upper() for face in result.cards],
            "lang": lexicon.info.lang,
            "ruleset": ruleset.id,
            "all": q["any_subset"],
            "count": len(result.hits),
            "words": [hit.to_dict() for hit in result.hits],
            "truncated": result.truncated,
            "lexicon": lexicon.info.stamp(),
        }
    )


@bp.get("/suggest")
@heavy
def suggest() -> Response:
    q = SUGGEST_QUERY.load(query_args())
    ruleset, lexicon = service().resolve(q["ruleset"], q["lang"])
    result = searcher().suggest(q["word"], ruleset, lexicon, q["limit"], q["budget"])
    verdict = judge(q["word"], ruleset, lexicon)
    return jsonify(
        {
            "word": q["word"],
            "normalized": result.word,
            "valid": verdict.valid,
            "lang": lexicon.info.lang,
            "ruleset": ruleset.id,
            "suggestions": [s.to_dict() for s in result.suggestions],
            "max_distance": result.max_distance,
            "truncated": result.truncated,
            "lexicon": lexicon.info.stamp(),
        }
    )


@bp.errorhandler(SearchUnavailable)
def _unavailable(err: SearchUnavailable) -> Response:
    return problem(503, str(err), {}, getattr(g, "locale", "en"), code=codes.INDEX_MISSING)


# ---------------------------------------------------------------- OpenAPI


def _q(name: str, description: str, required: bool = False, schema: dict[str, Any] | None = None, deprecated: bool = False) -> dict[str, Any]:
    found = {"name": name, "in": "query", "required": required, "description": description, "schema": schema or {"type": "string"}}
    if deprecated:
        found["deprecated"] = True
    return found


def _budget(default: int) -> list[dict[str, Any]]:
    return [
        _q("budget", f"{BUDGET_DESCRIPTION} Default {default:,}.", schema={"type": "integer", "minimum": 1, "maximum": MAX_BUDGET}),
        _q("budget_ms", BUDGET_MS_DESCRIPTION, schema={"type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS}, deprecated=True),
    ]


_COMMON = [
    _q("ruleset", "Ruleset id; default: the ruleset `lang`'s lexicon is played with (`deutsch` for `de`), else `standard`."),
    _q("lang", "BCP 47 language tag of the lexicon (default: the ruleset's language); alone, it also picks its own ruleset and deck."),
    _q("locale", "Language of messages (`en`, `et`, `is`); else Accept-Language."),
]

#: (name, schema) pairs for ``api.components.schema``.
OPENAPI_SCHEMAS: list[tuple[str, type[Schema]]] = [
    ("Words", WordsOut),
    ("Anagrams", AnagramsOut),
    ("Suggest", SuggestOut),
    ("Suggestion", SuggestionOut),
]

#: Entries in the shape of :data:`wordsvc.web.openapi.ENDPOINTS`.
OPENAPI_ENDPOINTS: list[tuple[str, str, str, str, list[dict[str, Any]], str | None, str | None, tuple[int, ...]]] = [
    (
        "get",
        "/words",
        "Words matching a pattern",
        "Playable forms matching the pattern (unless `classes` asks for forms of given classes), each with its best points; "
        "by commonness, then alphabet; paged with `next_cursor`. A query that spends its work budget returns what it found "
        "with `truncated: true`.",
        [
            _q("pattern", PATTERN_GRAMMAR, True, {"type": "string", "maxLength": MAX_PATTERN_CHARS, "pattern": PATTERN_SHAPE}),
            _q("min_len", "Fewest letters.", schema={"type": "integer", "minimum": 1}),
            _q("max_len", "Most letters.", schema={"type": "integer", "minimum": 1}),
            _q("classes", f"Comma-separated classes: {', '.join(CLASS_NAMES)}."),
            _q("limit", "Words per page, at most 500 (default 50).", schema={"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}),
            _q("cursor", "`next_cursor` of the previous page, unchanged."),
            *_budget(Budgets.words),
            *_COMMON,
        ],
        None,
        "Words",
        (400, 404, 422, 503),
    ),
    (
        "get",
        "/anagrams",
        "Words these cards lay",
        "Every valid word that can be laid from the cards (double-letter cards as cards: `(qu)izt` lays QUIZ as QU-I-Z), "
        "with the cards used and points, best first; `all=true`: from any of the cards, else from every one.",
        [
            _q("cards", "`(qu)izt` or `QU,I,Z,T`; at most 20 cards.", True),
            _q("all", "Any subset of the cards (default false: every card).", schema={"type": "boolean"}),
            *_budget(Budgets.anagrams),
            *_COMMON,
        ],
        None,
        "Anagrams",
        (400, 404, 422, 503),
    ),
    (
        "get",
        "/suggest",
        "Playable words close to a word",
        "Up to 10 playable words one edit away, then two, by distance, commonness and alphabet.",
        [_q("word", "The word.", True), _q("limit", "At most 10 (default 10).", schema={"type": "integer", "minimum": 1, "maximum": 10}), *_budget(Budgets.suggest), *_COMMON],
        None,
        "Suggest",
        (400, 404, 422),
    ),
]

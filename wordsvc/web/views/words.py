"""Word search over HTTP: ``GET /words``, ``GET /anagrams``, ``GET /suggest``.

Each view loads its query with a schema of :mod:`wordsvc.schemas.words`, calls
:class:`~wordsvc.data.wordsearch.WordSearch` and dumps the result. The
schemas document the endpoints, each declared on its view.
:func:`suggestions` is what a ``/validate`` verdict calls for a
refused word.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Response, current_app, g, jsonify

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.lexicon import Lexicon
from ...core.ruleset import Ruleset
from ...core.verdict import judge
from ...core.wordsearch.queries import CursorError, WordQuery, decode_cursor, encode_cursor
from ...data.anagram_index import AnagramIndexes
from ...data.wordsearch import Budgets, SearchUnavailable, WordSearch
from ...schemas.words import (
    ANAGRAMS_QUERY,
    BUDGET_DESCRIPTION,
    BUDGET_MS_DESCRIPTION,
    CLASS_NAMES,
    MAX_SUGGESTIONS,
    PATTERN_GRAMMAR,
    SUGGEST_QUERY,
    WORDS_QUERY,
    AnagramsOut,
    AnagramsQuery,
    SuggestOut,
    SuggestQuery,
    WordsOut,
    WordsQuery,
)
from ..admission import heavy
from ..endpoint_codes import CARDS, RESOLVE
from ..endpoints import Endpoint, Resource, query
from ..parameters import COMMON_QUERY
from ..problems import problem
from ..requests import query_args, service

__all__ = ["bp", "searcher", "suggestions"]

bp = Resource("words", __name__)


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


def _budget(default: int) -> list[dict[str, Any]]:
    """The work budget's query parameters, with the endpoint's default budget in their prose."""
    return [
        query("budget", f"{BUDGET_DESCRIPTION} Default {default:,}."),
        query("budget_ms", BUDGET_MS_DESCRIPTION, deprecated=True),
    ]


# ---------------------------------------------------------------- views


@bp.declare(
    Endpoint(
        method="get",
        path="/words",
        operation_id="findWords",
        tag="words",
        summary="Words matching a pattern",
        description="Playable forms matching the pattern (unless `classes` asks for forms of given classes), each with its best points; "
        "by commonness, then alphabet; paged with `next_cursor`. A query that spends its work budget returns what it found "
        "with `truncated: true`.",
        parameters=[
            query("pattern", PATTERN_GRAMMAR),
            query("min_len", "Fewest letters."),
            query("max_len", "Most letters."),
            query("classes", f"Comma-separated classes: {', '.join(CLASS_NAMES)}."),
            query("limit", "Words per page, at most 500 (default 50)."),
            query("cursor", "`next_cursor` of the previous page, unchanged."),
            *_budget(Budgets.words),
            *COMMON_QUERY,
        ],
        query=WordsQuery,
        answers={200: WordsOut},
        errors=(400, 404, 422, 503),
        problems=(*RESOLVE, *CARDS, codes.INVALID_PATTERN, codes.INVALID_CURSOR, codes.CONFLICTING_FIELDS, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
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


@bp.declare(
    Endpoint(
        method="get",
        path="/anagrams",
        operation_id="findAnagrams",
        tag="words",
        summary="Words these cards lay",
        description="Every valid word that can be laid from the cards (double-letter cards as cards: `(qu)izt` lays QUIZ as QU-I-Z), "
        "with the cards used and points, best first; `all=true`: from any of the cards, else from every one.",
        parameters=[
            query("cards", "`(qu)izt` or `QU,I,Z,T`; at most 20 cards."),
            query("all", "Any subset of the cards (default false: every card)."),
            *_budget(Budgets.anagrams),
            *COMMON_QUERY,
        ],
        query=AnagramsQuery,
        answers={200: AnagramsOut},
        errors=(400, 404, 422, 503),
        problems=(*RESOLVE, *CARDS, codes.INVALID_CURSOR, codes.CONFLICTING_FIELDS, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
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


@bp.declare(
    Endpoint(
        method="get",
        path="/suggest",
        operation_id="suggestWords",
        tag="words",
        summary="Playable words close to a word",
        description="Up to 10 playable words one edit away, then two, by distance, commonness and alphabet.",
        parameters=[query("word", "The word."), query("limit", "At most 10 (default 10)."), *_budget(Budgets.suggest), *COMMON_QUERY],
        query=SuggestQuery,
        answers={200: SuggestOut},
        errors=(400, 404, 422),
        problems=(*RESOLVE, *CARDS, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
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

"""``GET /validate`` and ``POST /validate``: the verdict on a word, or on a whole play (judge mode)."""

from __future__ import annotations

from flask import Response, g, jsonify

from ...core import problem_codes as codes
from ...core.text import normalize
from ...schemas.validate import ValidateBody, ValidateQuery, VerdictOut, load_validate_query
from ..endpoints import Endpoint, Resource, query
from ..openapi_schemas import VERDICTS_OR_JUDGE
from ..parameters import COMMON_QUERY
from ..requests import in_pool, query_args, read_json, service
from .words import suggestions

__all__ = ["bp"]

bp = Resource("validate", __name__)

#: What judging words refuses as misuse rather than as a verdict: cards that are not notation, or a card the deck does not hold.
VERDICT_PROBLEMS = (codes.INVALID_CARDS, codes.UNBALANCED_PARENTHESIS, codes.UNKNOWN_CARD, codes.EMPTY_WORD, codes.NO_WORD_LIST)

# Schemas are stateless once built; building one per request costs more than judging the word.
VALIDATE_QUERY, VALIDATE_BODY = ValidateQuery(), ValidateBody()


@bp.declare(
    Endpoint(
        method="get",
        path="/validate",
        operation_id="validateWord",
        tag="words",
        summary="Judge one word",
        description="The verdict on a word: plain letters (every way to lay it) or compact cards such as `(qu)iz`; a refused word also gets `suggestions`.",
        parameters=[query("word", "The word."), *COMMON_QUERY, query("suggest", "`false`: no suggestions for a refused word.")],
        query=ValidateQuery,
        answers={200: VerdictOut},
        errors=(400, 404, 422),
        problems=(codes.UNKNOWN_RULESET, codes.UNKNOWN_LANGUAGE, *VERDICT_PROBLEMS),
    )
)
def validate_word() -> Response:
    query = load_validate_query(query_args(), VALIDATE_QUERY)
    ruleset, lexicon = service().resolve(query["ruleset"], query["lang"])
    if not lexicon.at_hand(normalize(query["word"])):
        in_pool()  # an analyser's miss may wait for the analyser, which a solver may hold: never on the event loop
    verdict = service().judge(query["word"], ruleset, lexicon)
    out = verdict.to_dict(g.locale)
    if not verdict.valid and query["suggest"]:
        in_pool()  # a search on a budget of milliseconds: never on the event loop
        out["suggestions"] = suggestions(query["word"], ruleset, lexicon)
    return jsonify(out)


@bp.declare(
    Endpoint(
        method="post",
        path="/validate",
        operation_id="validateWords",
        tag="words",
        summary="Judge many words",
        description="Verdicts in request order and whether all are valid; with `judge: true`, only whether the whole play is acceptable.",
        body=ValidateBody,
        answers={200: VERDICTS_OR_JUDGE},
        errors=(400, 404, 413, 415, 422),
        problems=(codes.UNKNOWN_RULESET, codes.UNKNOWN_LANGUAGE, *VERDICT_PROBLEMS),
    )
)
def validate_words() -> Response:
    body = VALIDATE_BODY.load(read_json())
    verdicts = service().verdicts(body["words"], body["ruleset"], body["lang"])
    valid = all(v.valid for v in verdicts)
    if body["judge"]:
        return jsonify({"acceptable": valid, "count": len(verdicts), "ruleset": verdicts[0].ruleset, "lexicon": dict(verdicts[0].lexicon)})
    return jsonify({"valid": valid, "verdicts": [v.to_dict(g.locale) for v in verdicts]})

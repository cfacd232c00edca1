"""``GET /lexicons/diff``: the forms added and removed between two lexicons, paged.

The view loads the query with :data:`~wordsvc.schemas.lexicons.DIFF_QUERY`,
asks the app's :class:`~wordsvc.data.lexicon_diff.DiffCache` (a diff takes up
to about two seconds, so it runs under the heavy-request admission and the
next page of it comes from the cache) and dumps one page of each side (:meth:`~wordsvc.data.lexicon_diff.LexiconDiff.to_dict`).
"""

from __future__ import annotations

from flask import Response, current_app, jsonify

from ...core import problem_codes as codes
from ...data.lexicon_diff import DiffCache, resolve_sides
from ...schemas.lexicons import DIFF_QUERY, MAX_DIFF_LIMIT, DiffQuery, LexiconDiffOut
from ..admission import heavy
from ..endpoint_codes import RESOLVE
from ..endpoints import Endpoint, Resource, query
from ..requests import query_args, service

__all__ = ["bp", "diffs"]

bp = Resource("lexicons", __name__)


def diffs() -> DiffCache:
    """The app's :class:`DiffCache`, made on first use."""
    found = current_app.extensions.get("wordsvc.diffs")
    if found is None:
        found = current_app.extensions["wordsvc.diffs"] = DiffCache()
    return found  # type: ignore[no-any-return]


@bp.declare(
    Endpoint(
        method="get",
        path="/lexicons/diff",
        operation_id="diffLexicons",
        tag="words",
        summary="What changed between two lexicons",
        description="The forms `to` has and `from` has not (`added`) and the reverse (`removed`), each counted and listed in code-point order, "
        f"a page of at most {MAX_DIFF_LIMIT} of each side from `offset`; with `ruleset`, only the forms it accepts as words, so a form "
        "newly banned by class shows as removed. An analyser lexicon (`et`) cannot list its forms: 422 naming the side. "
        "A first diff of two large lexicons takes up to about 2 s (a heavy request); its further pages are answered from a cache.",
        parameters=[
            query("from", "The lexicon before (id or tag, `GET /languages`)."),
            query("to", "The lexicon after."),
            query("ruleset", "Compare only the forms this ruleset accepts (default: every form)."),
            query("limit", f"Forms listed of each side, 0 to {MAX_DIFF_LIMIT} (default 100; 0: counts only)."),
            query("offset", "Forms of each side to skip (default 0)."),
            query("locale", "Language of messages (`en`, `et`, `is`); else Accept-Language."),
        ],
        query=DiffQuery,
        answers={200: LexiconDiffOut},
        errors=(400, 404, 422, 503),
        problems=(*RESOLVE, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
@heavy(lane="long")
def diff() -> Response:
    q = DIFF_QUERY.load(query_args())
    svc = service()
    ruleset = svc.ruleset(q["ruleset"]) if q["ruleset"] is not None else None
    source, target = resolve_sides(svc.languages, q["from_"], q["to"])
    return jsonify(diffs().get(source, target, ruleset).to_dict(q["offset"], q["limit"]))

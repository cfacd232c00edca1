"""``GET /lexicons/diff``: the forms added and removed between two lexicons, paged.

The view loads the query with :data:`~wordsvc.schemas.lexicons.DIFF_QUERY`,
asks the app's :class:`~wordsvc.data.lexicon_diff.DiffCache` (a diff takes up
to about two seconds, so it runs under the heavy-request admission and the
next page of it comes from the cache) and dumps one page of each side (:meth:`~wordsvc.data.lexicon_diff.LexiconDiff.to_dict`).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify

from ...data.lexicon_diff import DiffCache, resolve_sides
from ...schemas.lexicons import DIFF_QUERY
from ..admission import heavy
from ..requests import query_args, service

__all__ = ["bp", "diffs"]

bp = Blueprint("lexicons", __name__)


def diffs() -> DiffCache:
    """The app's :class:`DiffCache`, made on first use."""
    found = current_app.extensions.get("wordsvc.diffs")
    if found is None:
        found = current_app.extensions["wordsvc.diffs"] = DiffCache()
    return found  # type: ignore[no-any-return]


@bp.get("/lexicons/diff")
@heavy(lane="long")
def diff() -> Response:
    q = DIFF_QUERY.load(query_args())
    svc = service()
    ruleset = svc.ruleset(q["ruleset"]) if q["ruleset"] is not None else None
    source, target = resolve_sides(svc.languages, q["from_"], q["to"])
    return jsonify(diffs().get(source, target, ruleset).to_dict(q["offset"], q["limit"]))

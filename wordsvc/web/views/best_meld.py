"""``POST /best-meld``: the best play of a hand (:mod:`wordsvc.core.solver`).

Register with ``app.register_blueprint(bp)``. The solvers live in
``app.extensions["wordsvc.solvers"]`` (a :class:`~wordsvc.service.solvers.Solvers`),
made on first use from the service and the data folder; a test may put its
own there first. A lexicon without an anagram index answers 503.
"""

from __future__ import annotations

from flask import Response, current_app, g, jsonify

from ...core import problem_codes as codes
from ...data.anagram_index import AnagramIndexError
from ...schemas.best_meld import BestMeldOut, BestMeldRequest
from ...service.solvers import Solvers
from ..admission import heavy
from ..endpoint_codes import CARDS, RESOLVE
from ..endpoints import Endpoint, Resource
from ..problems import problem
from ..requests import read_json

__all__ = ["bp", "solvers"]

bp = Resource("best_meld", __name__)
BEST_MELD_BODY = BestMeldRequest()  # one for every request: a schema made per request is a cycle of fields left to the GC


def solvers() -> Solvers:
    found = current_app.extensions.get("wordsvc.solvers")
    if found is None:
        settings = current_app.extensions["wordsvc.settings"]
        found = current_app.extensions.setdefault("wordsvc.solvers", Solvers.from_data_dir(current_app.extensions["wordsvc"], settings.data_dir))
    return found  # type: ignore[no-any-return]


@bp.declare(
    Endpoint(
        method="post",
        path="/best-meld",
        operation_id="bestMeld",
        tag="scoring",
        summary="Best play for a hand",
        description="The exact best arrangement of a hand into words (points of words minus unused cards), with the discard chosen when the hand "
        "has drawn; `top` next-best plays, the best longest-word and most-words plays; `face_up` advice on taking the discard pile's card.",
        body=BestMeldRequest,
        answers={200: BestMeldOut},
        errors=(400, 404, 413, 415, 422, 503),
        problems=(*RESOLVE, *CARDS, codes.HAND_SIZE, codes.ROUND_OUT_OF_RANGE, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
@heavy
def best_meld() -> Response:
    body = BEST_MELD_BODY.load(read_json())
    solution = solvers().solve(body["hand"], body["ruleset"], body["lang"], body["discard"], body["top"], body["face_up"])
    return jsonify(solution.to_dict())


@bp.errorhandler(AnagramIndexError)
def _no_index(err: AnagramIndexError) -> Response:
    current_app.logger.error("best-meld: %s", err)
    return problem(503, f"The solver has no word index for this lexicon: {err}", {}, getattr(g, "locale", "en"), code=codes.INDEX_MISSING)

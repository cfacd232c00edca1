"""Post-round analysis: ``POST /analyse-round`` and ``GET /events/{event}/games/{game}/rounds/{n}/analysis``.

Each player's best possible play with the cards they ended with, against what
they scored (:mod:`wordsvc.service.analysis`). The first reads a
``/score-round`` body and solves under the loaded ruleset; the second
analyses a stored round's current revision under the event's snapshot
ruleset and lexicon, readable by whoever may read the event (in a seeded
event, to whoever may see the round's deal, it adds ``dealt``: the best play
of each seat's dealt cards); its ``played``
is rescored from the stored play under that lexicon (the stored result's,
unless a director has accepted another lexicon since), so that the best play
and the play it is measured against are judged alike. Both run the
solver once per player, so both are heavy requests (:func:`~..admission.heavy`),
and a lexicon without an anagram index answers 503, as ``/best-meld`` does.

Register with ``app.register_blueprint(bp)``; it registers the ``event`` path
converter itself, so it does not depend on coming after :mod:`.events`.
"""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, g, jsonify

from ...core import problem_codes as codes
from ...core.solver.solver import Solver
from ...data.anagram_index import AnagramIndexError
from ...ledger import Forbidden, NotFound, Principal, Unauthorized, play_from_document
from ...schemas.analysis import EventRoundAnalysisOut, RoundAnalysisOut, RoundRequest, load_round_request
from ...service.analysis import SnapshotSolvers, analyse_round
from ..admission import heavy
from ..endpoint_codes import CARDS, RESOLVE, SCORING
from ..endpoints import PUBLIC, Endpoint, Resource
from ..ledger_problems import ACCESS, INTEGRITY
from ..parameters import EVENT, GAME, ROUND
from ..problems import problem
from ..requests import read_json
from .best_meld import solvers
from .ledger_access import ledger, principal

__all__ = ["bp", "snapshot_solvers"]

bp = Resource("analysis", __name__)

ROUND_REQUEST = RoundRequest()


def snapshot_solvers() -> SnapshotSolvers:
    """The app's solvers for event snapshots, made on first use over :func:`.best_meld.solvers`."""
    extensions = current_app.extensions
    found = extensions.get("wordsvc.snapshot_solvers")
    if found is None:
        found = extensions.setdefault("wordsvc.snapshot_solvers", SnapshotSolvers(solvers()))
    return found  # type: ignore[no-any-return]


@bp.declare(
    Endpoint(
        method="post",
        path="/analyse-round",
        operation_id="analyseRound",
        tag="scoring",
        summary="Analyse a round",
        description="For each player, in order: the cards they ended with (their words' cards, then their unused cards), `played` (what they scored from them: "
        "the round's word_points - unused_points, before bonuses, the floor and challenge penalties), `best` (the exact solver's best play of exactly "
        "those cards, no discard), `missed` (best - played; 0 when an unchallenged invalid word scored more) and `could_go_out` (the best play lays "
        "every card). The body of /score-round; a heavy request.",
        body=RoundRequest,
        answers={200: RoundAnalysisOut},
        errors=(400, 404, 413, 415, 422, 503),
        problems=(*RESOLVE, *CARDS, *SCORING, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
@heavy(lane="long")
def analyse() -> Response:
    body = load_round_request(read_json(), ROUND_REQUEST)
    return jsonify(analyse_round(body["play"], solvers().get(body["ruleset"], body["lang"])).to_dict())


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/rounds/{round}/analysis",
        operation_id="analyseStoredRound",
        tag="ledger",
        summary="Analyse a stored round",
        description="The /analyse-round answer for the round's current revision (with event, game, revision), under the event's ruleset snapshot and lexicon; "
        "played is rescored from the stored play under that lexicon. 409 while the loaded lexicon is not the event's. A heavy request.",
        parameters=[EVENT, GAME, ROUND],
        answers={200: EventRoundAnalysisOut},
        errors=(401, 403, 404, 409, 503),
        access=PUBLIC,
        problems=(*ACCESS, *INTEGRITY, codes.TABLE_NOT_FOUND, codes.ROUND_NOT_FOUND, codes.LEXICON_CHANGED, codes.INDEX_MISSING),
    )
)
@heavy(lane="long")
def stored_round(event: str, game: str, round: int) -> Response:
    actor = principal()
    stored = ledger().rounds.round(actor, event, game, round)
    ruleset, lexicon = ledger().events.scoring_context(actor, event)
    solver = snapshot_solvers().get(ruleset, lexicon)
    analysis = analyse_round(play_from_document(stored["history"][-1]["body"], round), solver)
    answer = {"event": event, "game": game, "revision": stored["revision"], **analysis.to_dict()}
    dealt = _dealt(actor, event, game, round)
    if dealt is not None:
        answer["dealt"] = [
            {"name": seat["player"], "cards": seat["hand"], **_best(solver, tuple(face.lower() for face in seat["hand"]))} for seat in dealt["seats"]
        ]
    return jsonify(answer)


def _dealt(actor: Principal | None, event: str, game: str, number: int) -> dict[str, Any] | None:
    """The round's deal in a seeded event, to whoever may see it (its table's referee and the director before the reveal, readers after)."""
    try:
        return ledger().deals.round_deal(actor, event, game, number)
    except (NotFound, Forbidden, Unauthorized):
        return None


def _best(solver: Solver, cards: tuple[str, ...]) -> dict[str, Any]:
    best = solver.solve(cards, discard=False).best
    return {"best": best.score, "best_words": [word.to_dict() for word in best.words], "best_unused": [face.upper() for face in best.unused]}


@bp.errorhandler(AnagramIndexError)
def _no_index(err: AnagramIndexError) -> Response:
    current_app.logger.error("analysis: %s", err)
    return problem(503, f"The solver has no word index for this lexicon: {err}", {}, getattr(g, "locale", "en"), code=codes.INDEX_MISSING)

"""Solitaire: ``GET /solitaire/deal``, ``POST /solitaire/move``, ``POST /solitaire/solve`` (wordsvc/core/solitaire.py).

Stateless, like the rest of the API outside the ledger: the client holds the
layout and sends it with each move. A word is judged as a laying of the
piles' top cards in the order given (valid or not, with the verdict's
reason); the solver asks the word search for the words the top cards can
make (``/anagrams?all=true``), every search on the solve's one work budget. The layout's size and
the rebuilding knobs are the ruleset's (its ``solitaire`` section).
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...core.deal import new_seed
from ...core.errors import InvalidRequest, Problems
from ...core.ruleset import Ruleset
from ...core.solitaire import Layout, SolitaireError, deal_layout, solve
from ...core.verdict import judge_cards
from ...schemas.solitaire import DealLayoutQuery, DealtLayoutOut, MoveBody, MoveOut, SolutionOut, SolveBody
from ..admission import heavy
from ..endpoint_codes import CARDS, RESOLVE
from ..endpoints import Endpoint, Resource, query
from ..requests import query_args, read_json, service
from .words import searcher

__all__ = ["bp"]

bp = Resource("solitaire", __name__)
DEAL_QUERY, MOVE_BODY, SOLVE_BODY = DealLayoutQuery(), MoveBody(), SolveBody()


def layout_view(layout: Layout) -> dict[str, Any]:
    return {"piles": [{"cards": [face.upper() for face in p.cards], "face_down": p.down} for p in layout.piles]}


def _check_cards(layout: Layout, ruleset: Ruleset) -> None:
    """Every card of the layout is a card of the ruleset's deck (422 naming each that is not)."""
    problems = Problems()
    for i, pile in enumerate(layout.piles):
        for j, face in enumerate(pile.cards):
            if face not in ruleset.deck:
                problems.add(f"layout.piles.{i}.cards.{j}", f"no card {face.upper()!r} in the deck of ruleset {ruleset.id}", code=codes.UNKNOWN_CARD)
    problems.raise_if_any("The layout holds cards the deck does not; see errors.")


def _refused(err: SolitaireError) -> InvalidRequest:
    return InvalidRequest(f"That move is not allowed: {err}.", {err.field: [str(err)]}, code=codes.INVALID_PLAY)


@bp.declare(
    Endpoint(
        method="get",
        path="/solitaire/deal",
        operation_id="dealSolitaire",
        tag="solitaire",
        summary="Deal a solitaire layout",
        description="8 piles of 6 (5 face down, the top face up; `piles` and `depth` for other sizes) from the q1 shuffle of a seed (docs/deals.md, section 9).",
        parameters=[
            query("ruleset", "Ruleset id (default `standard`): its deck."),
            query("seed", "64 hex digits; random when left out."),
            query("piles", "Piles (default 8)."),
            query("depth", "Cards a pile (default 6)."),
        ],
        query=DealLayoutQuery,
        answers={200: DealtLayoutOut},
        errors=(400, 404, 422),
        problems=(*RESOLVE, *CARDS, codes.INVALID_DEAL, codes.INVALID_PLAY),
    )
)
def deal() -> Response:
    q = DEAL_QUERY.load(query_args())
    ruleset = service().ruleset(q["ruleset"])
    seed = q["seed"] or new_seed()
    try:
        layout = deal_layout(ruleset, seed, q["piles"], q["depth"])
    except SolitaireError as err:
        raise _refused(err) from None
    return jsonify({"ruleset": ruleset.id, "seed": seed, "layout": layout_view(layout)})


@bp.declare(
    Endpoint(
        method="post",
        path="/solitaire/move",
        operation_id="playSolitaireMove",
        tag="solitaire",
        summary="Play a solitaire move",
        description="A word (the piles whose face-up top cards make it, in the word's order): valid or not with the verdict's reason, and the layout after it "
        "(the card under each used one turned up; unchanged when the word is refused). Or a rebuild: the top card of pile `from` onto the empty pile `to`.",
        body=MoveBody,
        answers={200: MoveOut},
        errors=(400, 404, 413, 415, 422),
        problems=(*RESOLVE, *CARDS, codes.INVALID_PLAY, codes.NO_WORD_LIST),
    )
)
def move() -> Response:
    body = MOVE_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    layout: Layout = body["layout"]
    _check_cards(layout, ruleset)
    try:
        if body["rebuild"] is not None:
            after = layout.rebuild(body["rebuild"]["to"], body["rebuild"]["from_"], ruleset.solitaire)
            return jsonify(
                {
                    "valid": True,
                    "word": None,
                    "cards": [],
                    "piles": [],
                    "reason": None,
                    "layout": layout_view(after),
                    "won": after.won,
                    "cards_left": after.cards_left,
                }
            )
        piles = body["word"] if body["word"] is not None else layout.piles_of(body["cards"])
        after = layout.lay(piles)
    except SolitaireError as err:
        raise _refused(err) from None
    cards = tuple(layout.piles[i].top for i in piles)
    verdict = judge_cards(cards, ruleset, lexicon)  # type: ignore[arg-type]
    shown = after if verdict.valid else layout
    reason = verdict.reasons[0].to_dict() if verdict.reasons else None
    return jsonify(
        {
            "valid": verdict.valid,
            "word": verdict.normalized,
            "cards": [face.upper() for face in cards if face],
            "piles": list(piles),
            "reason": reason,
            "layout": layout_view(shown),
            "won": shown.won,
            "cards_left": shown.cards_left,
        }
    )


@bp.declare(
    Endpoint(
        method="post",
        path="/solitaire/solve",
        operation_id="solveSolitaire",
        tag="solitaire",
        summary="Solve a solitaire layout",
        description="Whether the layout can be cleared and a way to do it, else the most cards some sequence of moves lays; exact within `budget_ms`, "
        "`truncated` past it (the full 48 cards usually are). A heavy request.",
        body=SolveBody,
        answers={200: SolutionOut},
        errors=(400, 404, 413, 415, 422, 503),
        problems=(*RESOLVE, *CARDS, codes.INVALID_PLAY, codes.NO_WORD_LIST, codes.INDEX_MISSING),
    )
)
@heavy(lane="long")
def solve_layout() -> Response:
    body = SOLVE_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    search = searcher()
    layout: Layout = body["layout"]
    _check_cards(layout, ruleset)
    work = search.budgets.work(body["budget"], "solitaire_solve")
    found = solve(layout, search.solitaire_words(ruleset, lexicon, work), ruleset.solitaire, work)
    moves = [
        {"word": list(m.piles), "cards": [f.upper() for f in m.cards]} if m.rebuild is None else {"rebuild": {"to": m.rebuild[0], "from": m.rebuild[1]}}
        for m in found.moves
    ]
    return jsonify(
        {
            "won": found.won,
            "cards_laid": found.cards_laid,
            "cards_left": layout.cards_left,
            "moves": moves,
            "truncated": found.truncated,
            "states": found.states,
        }
    )

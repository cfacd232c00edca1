"""``GET /rulesets``, ``GET /rulesets/{id}`` and ``GET /languages``: what the service can judge with."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...core.ruleset import Ruleset
from ...data.rulesets import ruleset_document
from ..endpoints import Endpoint, Resource
from ..openapi_schemas import LANGUAGE_LIST, RULESET, RULESET_LIST
from ..requests import service

__all__ = ["bp", "ruleset_detail", "ruleset_summary"]

bp = Resource("catalogue", __name__)


@bp.declare(
    Endpoint(
        method="get",
        path="/rulesets",
        operation_id="listRulesets",
        tag="catalogue",
        summary="List rulesets",
        description="Id, name, description, language and parent of every ruleset.",
        answers={200: RULESET_LIST},
        problems=(),
    )
)
def list_rulesets() -> Response:
    return jsonify({"rulesets": [ruleset_summary(r) for r in service().rulesets]})


@bp.declare(
    Endpoint(
        method="get",
        path="/rulesets/{ruleset_id}",
        operation_id="getRuleset",
        tag="catalogue",
        summary="Show a ruleset",
        description="The fully resolved ruleset, deck included.",
        parameters=[{"name": "ruleset_id", "in": "path", "required": True, "schema": {"type": "string"}}],
        answers={200: RULESET},
        errors=(404,),
        problems=(codes.UNKNOWN_RULESET,),
    )
)
def show_ruleset(ruleset_id: str) -> Response:
    return jsonify(ruleset_detail(service().ruleset(ruleset_id)))


@bp.declare(
    Endpoint(
        method="get",
        path="/languages",
        operation_id="listLanguages",
        tag="catalogue",
        summary="List lexicons",
        description="Every loaded lexicon: id, tags, version, sha256, entries, source, licence, attribution, and the ruleset it is played with.",
        answers={200: LANGUAGE_LIST},
        problems=(),
    )
)
def list_languages() -> Response:
    svc = service()
    out = []
    for lang in svc.languages:
        info = svc.languages.lexicons[lang.id].info
        out.append(
            {
                "id": info.id,
                "name": lang.name,
                "tags": [lang.id, *lang.aliases],
                "version": info.version,
                "sha256": info.sha256,
                "entries": info.entries,
                "source": info.source,
                "licence": info.licence,
                "attribution": info.attribution,
                "ruleset": svc.ruleset_id(None, lang.id),
            }
        )
    return jsonify({"languages": out})


def ruleset_summary(ruleset: Ruleset) -> dict[str, Any]:
    return {"id": ruleset.id, "name": ruleset.name, "description": ruleset.description, "language": ruleset.language, "extends": ruleset.extends}


def ruleset_detail(ruleset: Ruleset) -> dict[str, Any]:
    """The resolved ruleset: its knobs as a ruleset file writes them (:func:`ruleset_document`), its deck as a list of cards."""
    document = ruleset_document(ruleset)
    return {
        **ruleset_summary(ruleset),
        "players": document["players"],
        "rounds": document["rounds"],
        "deck": {
            "cards": [{"face": c.face.upper(), "count": c.count, "value": c.value} for c in ruleset.deck.cards.values()],
            "size": ruleset.deck.size,
            "total_value": ruleset.deck.total_value,
        },
        "words": document["words"],
        "bonuses": document["bonuses"],
        "floor": document["floor"],
        "unused": document["unused"],
        "solitaire": document["solitaire"],
    }

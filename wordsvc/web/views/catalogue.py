"""``GET /rulesets``, ``GET /rulesets/{id}`` and ``GET /languages``: what the service can judge with."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from ...core.ruleset import Ruleset
from ...data.rulesets import ruleset_document
from ..requests import service

__all__ = ["bp", "ruleset_detail", "ruleset_summary"]

bp = Blueprint("catalogue", __name__)


@bp.get("/rulesets")
def list_rulesets() -> Response:
    return jsonify({"rulesets": [ruleset_summary(r) for r in service().rulesets]})


@bp.get("/rulesets/<ruleset_id>")
def show_ruleset(ruleset_id: str) -> Response:
    return jsonify(ruleset_detail(service().ruleset(ruleset_id)))


@bp.get("/languages")
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

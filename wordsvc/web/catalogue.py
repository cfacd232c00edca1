"""``GET /rulesets``, ``GET /rulesets/{id}`` and ``GET /languages``: what the service can judge with."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from ..core.ruleset import Ruleset
from .requests import service

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
            }
        )
    return jsonify({"languages": out})


def ruleset_summary(ruleset: Ruleset) -> dict[str, Any]:
    return {"id": ruleset.id, "name": ruleset.name, "description": ruleset.description, "language": ruleset.language, "extends": ruleset.extends}


def ruleset_detail(ruleset: Ruleset) -> dict[str, Any]:
    return {
        **ruleset_summary(ruleset),
        "players": {"min": ruleset.players_min, "max": ruleset.players_max},
        "rounds": list(ruleset.rounds),
        "deck": {
            "cards": [{"face": c.face.upper(), "count": c.count, "value": c.value} for c in ruleset.deck.cards.values()],
            "size": ruleset.deck.size,
            "total_value": ruleset.deck.total_value,
        },
        "words": {
            "min_cards": ruleset.min_cards,
            "min_letters": ruleset.min_letters,
            "banned_classes": sorted(ruleset.banned_classes),
            "house_allow": sorted(ruleset.house_allow),
            "house_refuse": sorted(ruleset.house_refuse),
            "check": ruleset.word_check.value,
        },
        "bonuses": {
            **ruleset.bonus_points,
            "longest_measure": ruleset.longest_measure.value,
            "tie": ruleset.bonus_tie.value,
            "two_players": ruleset.two_players.value,
            "length": {str(letters): points for letters, points in ruleset.length_bonus},
        },
        "floor": ruleset.floor.value,
        "unused": ruleset.unused.value,
    }

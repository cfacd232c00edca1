"""The endpoints. Each view loads its input, calls the service, dumps the result."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, g, jsonify

from ..core.ruleset import Ruleset
from ..core.verdict import judge
from ..schemas import GameRequest, RoundRequest, ValidateBody, ValidateQuery, load_round_request, load_validate_query
from .app import query_args, read_json, service
from .search import suggestions

bp = Blueprint("api", __name__)

# Schemas are stateless once built; building one per request costs more than judging the word.
VALIDATE_QUERY, VALIDATE_BODY, ROUND_REQUEST, GAME_REQUEST = ValidateQuery(), ValidateBody(), RoundRequest(), GameRequest()


@bp.get("/validate")
def validate_word() -> Response:
    query = load_validate_query(query_args(), VALIDATE_QUERY)
    ruleset, lexicon = service().resolve(query["ruleset"], query["lang"])
    verdict = judge(query["word"], ruleset, lexicon)
    out = verdict.to_dict(g.locale)
    if not verdict.valid and query["suggest"]:
        out["suggestions"] = suggestions(query["word"], ruleset, lexicon)
    return jsonify(out)


@bp.post("/validate")
def validate_words() -> Response:
    body = VALIDATE_BODY.load(read_json())
    verdicts = service().verdicts(body["words"], body["ruleset"], body["lang"])
    valid = all(v.valid for v in verdicts)
    if body["judge"]:
        return jsonify({"acceptable": valid, "count": len(verdicts), "ruleset": body["ruleset"], "lexicon": dict(verdicts[0].lexicon)})
    return jsonify({"valid": valid, "verdicts": [v.to_dict(g.locale) for v in verdicts]})


@bp.post("/score-round")
def score_round() -> Response:
    body = load_round_request(read_json(), ROUND_REQUEST)
    result = service().score_round(body["play"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))


@bp.post("/score-game")
def score_game() -> Response:
    body = GAME_REQUEST.load(read_json())
    result = service().score_game(body["players"], body["rounds"], body["ruleset"], body["lang"])
    return jsonify(result.to_dict(g.locale))


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


@bp.get("/health")
def health() -> Response:
    return jsonify({"status": "ok"})


@bp.get("/ready")
def ready() -> Response:
    svc = service()
    loaded = sorted(svc.languages.lexicons)
    if not loaded:
        from .problems import problem

        return problem(503, "No lexicon is loaded; run `wordsvc build`.", {}, g.locale)
    return jsonify({"status": "ready", "languages": loaded, "rulesets": len(svc.rulesets.rulesets)})


@bp.get("/openapi.json")
def openapi() -> Response:
    from .openapi import spec

    return jsonify(spec())


@bp.get("/docs")
def docs() -> Response:
    from .openapi import docs_html

    return Response(docs_html(), mimetype="text/html")


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
        },
        "floor": ruleset.floor.value,
    }

"""``GET /health`` (the process is up) and ``GET /ready`` (lexicons loaded): what an orchestrator probes."""

from __future__ import annotations

from flask import Blueprint, Response, g, jsonify

from .problems import problem
from .requests import service

__all__ = ["bp"]

bp = Blueprint("health", __name__)


@bp.get("/health")
def health() -> Response:
    return jsonify({"status": "ok"})


@bp.get("/ready")
def ready() -> Response:
    svc = service()
    loaded = sorted(svc.languages.lexicons)
    if not loaded:
        return problem(503, "No lexicon is loaded; run `wordsvc build`.", {}, g.locale)
    return jsonify({"status": "ready", "languages": loaded, "rulesets": len(svc.rulesets.rulesets)})

"""``GET /health`` (the process is up) and ``GET /ready`` (it should get traffic): what an orchestrator probes.

``/ready`` is 503 while no lexicon is loaded, and from the moment the server
starts to drain (SIGTERM): the server's :class:`~wordsvc.server.hosting.Hosting`
in each request's WSGI environ says so. While ``wordsvc build`` is still
building languages, ``/ready`` is 200 for those that are loaded and lists
the others under ``building``.
"""

from __future__ import annotations

from flask import Response, g, jsonify, request

from ...core import problem_codes as codes
from ...server.hosting import hosting_of
from ..endpoints import Endpoint, Resource
from ..openapi_schemas import HEALTH, READY
from ..problems import problem
from ..requests import service

__all__ = ["bp"]

bp = Resource("health", __name__)


@bp.declare(
    Endpoint(
        method="get",
        path="/health",
        operation_id="getHealth",
        tag="service",
        summary="Process is up",
        description="Constant answer; also the bare endpoint of the HTTP benchmark.",
        answers={200: HEALTH},
        problems=(),
    )
)
def health() -> Response:
    return jsonify({"status": "ok"})


@bp.declare(
    Endpoint(
        method="get",
        path="/ready",
        operation_id="getReady",
        tag="service",
        summary="Ready for traffic",
        description="200 once a lexicon is loaded (languages still building are listed under `building`); 503 while none is, and from SIGTERM on.",
        answers={200: READY},
        errors=(503,),
        problems=(),
    )
)
def ready() -> Response:
    hosting = hosting_of(request.environ)
    if hosting is not None and hosting.draining():
        return problem(503, "The server is shutting down: requests already accepted are being finished.", {}, g.locale, code=codes.NOT_READY)
    languages = service().languages
    languages.refresh()
    loaded, building = sorted(languages.lexicons), sorted(languages.building)
    if not loaded:
        detail = f"No lexicon is loaded yet; building: {', '.join(building)}." if building else "No lexicon is loaded; run `wordsvc build`."
        return problem(503, detail, {"languages": [f"{lang}: building" for lang in building]}, g.locale, code=codes.NOT_READY)
    return jsonify({"status": "ready", "languages": loaded, "building": building, "rulesets": len(service().rulesets.rulesets)})

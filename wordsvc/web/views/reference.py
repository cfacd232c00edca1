"""``GET /openapi.json`` and ``GET /docs``: the API described, for machines and for people.

The document is built from every view's declaration, this module's
included, so the factory hands it in (:class:`Reference`, in the app's
extensions) rather than this view importing what imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, current_app, jsonify

from ..endpoints import HTML, Endpoint, Resource

__all__ = ["Reference", "bp"]


@dataclass(frozen=True)
class Reference:
    """What the factory gives these views: the OpenAPI document and the /docs page (:mod:`wordsvc.web.openapi`)."""

    spec: Callable[[], dict[str, Any]]
    page: Callable[[], str]


bp = Resource("reference", __name__)


@bp.declare(
    Endpoint(
        method="get",
        path="/openapi.json",
        operation_id="getOpenapi",
        tag="service",
        summary="This document",
        description="OpenAPI 3.0 description of the API.",
        problems=(),
    )
)
def openapi() -> Response:
    return jsonify(current_app.extensions["wordsvc.reference"].spec())


@bp.declare(
    Endpoint(
        method="get",
        path="/docs",
        operation_id="getDocs",
        tag="service",
        summary="Human-readable docs",
        description="This API as an HTML page that needs no internet access.",
        answers={200: HTML},
        problems=(),
    )
)
def docs() -> Response:
    return Response(current_app.extensions["wordsvc.reference"].page(), mimetype="text/html")

"""``GET /openapi.json`` and ``GET /docs``: the API described, for machines and for people."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..openapi import docs_html, spec

__all__ = ["bp"]

bp = Blueprint("reference", __name__)


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(spec())


@bp.get("/docs")
def docs() -> Response:
    return Response(docs_html(), mimetype="text/html")

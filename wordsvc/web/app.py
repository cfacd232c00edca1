"""The Flask app factory: ``create_app(settings=None, service=None)``.

Importing this module loads nothing; :func:`create_app` loads the rulesets
and opens the compiled lexicons (memory-mapped, milliseconds). Request ids,
CORS, the body limit, JSON parsing and the one error handler live here; the
views live in :mod:`wordsvc.web.views`.
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, current_app, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException

from ..config import Settings
from ..core.errors import InvalidRequest, UnknownLanguage, UnknownRuleset, WordsvcError
from ..service import Service
from .locale import negotiate
from .problems import flatten_errors, problem

__all__ = ["BadBody", "create_app"]

log = logging.getLogger("wordsvc")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # only escapes can put a lone surrogate in decoded text


class BadBody(Exception):
    """The body is not JSON we can read (400), or not JSON at all (415)."""

    def __init__(self, detail: str, status: int = 400, errors: dict[str, list[str]] | None = None):
        super().__init__(detail)
        self.detail, self.status, self.errors = detail, status, errors or {"body": [detail]}


def create_app(settings: Settings | None = None, service: Service | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask("wordsvc")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body
    app.json.ensure_ascii = False  # type: ignore[attr-defined]
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["wordsvc"] = service or Service.from_settings(settings)
    app.extensions["wordsvc.settings"] = settings

    from .best import bp as best_bp
    from .search import bp as search_bp
    from .views import bp

    app.register_blueprint(bp)
    app.register_blueprint(best_bp)
    app.register_blueprint(search_bp)
    _install_hooks(app, settings)
    _install_errors(app)
    return app


def read_json() -> Any:
    """The request body as JSON, or :class:`BadBody`: never a 500 for what a client sends."""
    mimetype = request.mimetype
    if mimetype and mimetype != "application/json" and not mimetype.endswith("+json"):
        raise BadBody(f"Send JSON (Content-Type: application/json), not {mimetype}.", 415)
    raw = request.get_data(cache=True)
    if request.content_length is None:
        request.stream.read(1)  # a chunked body is cut at the limit; one more byte raises 413 if more was sent
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadBody(f"The body is not valid UTF-8 (byte {err.start}).") from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadBody("The JSON body is nested too deeply.") from None
    except ValueError as err:
        raise BadBody(f"The body is not valid JSON: {err}.") from None
    if _SURROGATE_ESCAPE.search(text) and _has_surrogate(data):
        raise BadBody("The body holds an unpaired UTF-16 surrogate escape, which is not Unicode text.")
    return data


def service() -> Service:
    """The app's :class:`Service` (rulesets and lexicons, loaded by :func:`create_app`)."""
    return current_app.extensions["wordsvc"]  # type: ignore[no-any-return]


def query_args() -> dict[str, str]:
    """The query parameters; one given twice is an error, not a silent first-wins."""
    args = request.args
    repeated = {key: ["given more than once"] for key in args if len(args.getlist(key)) > 1}
    if repeated:
        raise ValidationError(repeated)
    return args.to_dict()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _has_surrogate(data: Any) -> bool:
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= ch <= "\udfff" for ch in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _install_hooks(app: Flask, settings: Settings) -> None:
    origins = settings.cors_origins

    @app.before_request
    def _start() -> Response | None:
        sent = request.headers.get("X-Request-ID", "")
        g.request_id = sent if _REQUEST_ID.match(sent) else uuid.uuid4().hex
        try:
            unquote_to_bytes(request.query_string).decode("utf-8")
        except UnicodeDecodeError:
            g.locale = "en"
            return problem(400, "The query string is not valid UTF-8.", {"query": ["not valid UTF-8"]})
        g.locale = negotiate(request.args.get("locale"), request.headers.get("Accept-Language"))
        return None

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers["X-Request-ID"] = getattr(g, "request_id", "")
        origin = request.headers.get("Origin")
        if origin and ("*" in origins or origin in origins):
            response.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else origin
            response.headers["Access-Control-Expose-Headers"] = "X-Request-ID"
            if "*" not in origins:
                response.vary.add("Origin")
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = "GET, POST, OPTIONS"
                response.headers["Access-Control-Allow-Headers"] = "Content-Type, Accept-Language, X-Request-ID"
                response.headers["Access-Control-Max-Age"] = "86400"
        return response


def _install_errors(app: Flask) -> None:
    def locale() -> str:
        return getattr(g, "locale", "en")

    @app.errorhandler(BadBody)
    def _bad_body(err: BadBody) -> Response:
        return problem(err.status, err.detail, err.errors, locale())

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        errors = flatten_errors(err.messages)
        return problem(422, f"The request has {len(errors)} invalid field(s); see errors.", errors, locale())

    @app.errorhandler(InvalidRequest)
    def _integrity(err: InvalidRequest) -> Response:
        return problem(422, err.detail, err.problems, locale())

    @app.errorhandler(UnknownRuleset)
    @app.errorhandler(UnknownLanguage)
    def _unknown(err: WordsvcError) -> Response:
        return problem(404, err.detail, err.problems, locale())

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        status = err.code or 500
        detail = {
            404: f"No endpoint at {request.path}; see /docs.",
            405: f"{request.method} is not allowed on {request.path}; allowed: {', '.join(sorted(err.valid_methods or []))}."
            if hasattr(err, "valid_methods")
            else "",
            413: f"The body is larger than {app.config['MAX_CONTENT_LENGTH']} bytes.",
        }.get(status) or (err.description or "")
        response = problem(status, detail, {}, locale())
        if status == 405 and getattr(err, "valid_methods", None):
            response.headers["Allow"] = ", ".join(err.valid_methods)  # type: ignore[union-attr]
        return response

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:
        log.exception("request %s failed: %s %s", getattr(g, "request_id", "?"), request.method, request.path)
        return problem(500, f"Something went wrong on our side; quote request id {getattr(g, 'request_id', '')}.", {}, locale())

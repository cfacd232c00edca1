"""The Flask app factory: ``create_app(settings=None, service=None)``.

Importing this module loads nothing; :func:`create_app` loads the rulesets
and opens the compiled lexicons (memory-mapped, milliseconds). Request ids,
CORS, the body limit and the one error handler live here; each resource's
views live in a module of their own in ``web/views/``, and the factory
registers every blueprint of :data:`~wordsvc.web.views.BLUEPRINTS` (each
route from its endpoint's declaration) and hands the reference views the
OpenAPI document derived from the same declarations.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import uuid
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, g, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException
from werkzeug.routing import IntegerConverter

from ..config import Settings
from ..core import problem_codes as codes
from ..core.errors import InvalidRequest, Unavailable, UnknownLanguage, UnknownRuleset, WordsvcError, out_of_descriptors
from ..core.work import SafetyLimit
from ..ledger import LedgerError
from ..schemas.common import cap_errors, iter_errors
from ..service import Service
from ..service.memory import MIB, MemoryGovernor
from . import metrics, openapi
from .admission import Admission
from .encoding import JSONProvider
from .locale import negotiate
from .problems import problem
from .requests import BadBody
from .views import BLUEPRINTS, reference

__all__ = ["BLUEPRINTS", "create_app"]

log = logging.getLogger("wordsvc")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

class AsciiInt(IntegerConverter):
    """Werkzeug's ``int`` with ASCII digits only (its ``\\d`` takes any script's digits, and ``int()`` reads them)."""

    regex = r"[0-9]+"


def create_app(settings: Settings | None = None, service: Service | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = Flask("wordsvc")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body
    app.json = JSONProvider(app)
    built = service is None
    app.extensions["wordsvc"] = service or Service.from_settings(settings)
    app.extensions["wordsvc.settings"] = settings
    app.extensions["wordsvc.admission"] = Admission(settings.heavy_concurrency)
    app.extensions["wordsvc.reference"] = reference.Reference(openapi.spec, openapi.docs_html)
    app.url_map.converters["int"] = AsciiInt  # before any route: /rounds/２ (a full-width digit) is no round 2
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    _install_hooks(app, settings)
    metrics.install(app, app.extensions["wordsvc"].budget.sizes)
    if built:  # a service built from the settings keeps its workers within WORDSVC_MEMORY_BUDGET_MB (tests pass their own)
        _govern_memory(app, MemoryGovernor(app.extensions["wordsvc"].budget, settings.memory_budget_mb * MIB))
    _install_errors(app)
    return app


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
            return problem(400, "The query string is not valid UTF-8.", {"query": ["not valid UTF-8"]}, code=codes.INVALID_UTF8)
        g.locale = negotiate(request.args.get("locale"), request.headers.get("Accept-Language"))
        return None

    @app.after_request
    def _finish(response: Response) -> Response:
        response.headers["X-Request-ID"] = getattr(g, "request_id", "")
        if "Allow" in response.headers:  # Werkzeug lists a route's methods from a set: in another order in each process
            response.headers["Allow"] = ", ".join(sorted({m.strip() for m in response.headers["Allow"].split(",") if m.strip()}))
        origin = request.headers.get("Origin")
        if origin and ("*" in origins or origin in origins):
            response.headers["Access-Control-Allow-Origin"] = "*" if "*" in origins else origin
            response.headers["Access-Control-Expose-Headers"] = "X-Request-ID, ETag, Location"
            if "*" not in origins:
                response.vary.add("Origin")
            if request.method == "OPTIONS":
                response.headers["Access-Control-Allow-Methods"] = "GET, POST, PUT, DELETE, OPTIONS"
                response.headers["Access-Control-Allow-Headers"] = "Content-Type, Accept-Language, X-Request-ID, Authorization, If-Match"
                response.headers["Access-Control-Max-Age"] = "86400"
        return response


def _govern_memory(app: Flask, governor: MemoryGovernor) -> None:
    app.extensions["wordsvc.memory"] = governor

    @app.teardown_request
    def _tick(_error: BaseException | None) -> None:
        if governor.tick():
            metrics.observe_memory(governor.budget.limit, governor.last)


def descriptors_exhausted() -> bool:
    """True when this process cannot open one more file descriptor now (a failure that hid its cause, e.g. SQLite's "unable to open")."""
    try:
        os.close(os.dup(2))
    except OSError as err:
        return err.errno in (errno.EMFILE, errno.ENFILE)
    return False


#: Werkzeug's refusals -> their problem codes (any other: a malformed request, or a bug).
_HTTP_CODES = {404: codes.ENDPOINT_NOT_FOUND, 405: codes.METHOD_NOT_ALLOWED, 413: codes.BODY_TOO_LARGE}


def _install_errors(app: Flask) -> None:
    def locale() -> str:
        return getattr(g, "locale", "en")

    @app.errorhandler(BadBody)
    def _bad_body(err: BadBody) -> Response:
        return problem(err.status, err.detail, cap_errors(err.errors)[0], locale(), code=err.code)

    @app.errorhandler(ValidationError)
    def _invalid(err: ValidationError) -> Response:
        errors, fields = cap_errors(iter_errors(err.messages))  # at most MAX_LISTED_ERRORS problems, whatever was sent
        return problem(422, f"The request has {fields} invalid field(s); see errors.", errors, locale(), code=codes.INVALID_FIELDS)

    @app.errorhandler(InvalidRequest)
    def _integrity(err: InvalidRequest) -> Response:
        return problem(422, err.detail, cap_errors(err.problems)[0], locale(), code=err.code)

    @app.errorhandler(LedgerError)
    def _ledger(err: LedgerError) -> Response:
        response = problem(err.status, err.detail, cap_errors(err.problems)[0], locale(), code=err.code)
        if err.status == 401:
            response.headers["WWW-Authenticate"] = 'Bearer realm="wordsvc"'
        return response

    @app.errorhandler(UnknownRuleset)
    @app.errorhandler(UnknownLanguage)
    def _unknown(err: WordsvcError) -> Response:
        return problem(404, err.detail, err.problems, locale(), code=err.code)

    @app.errorhandler(Unavailable)
    def _unavailable(err: Unavailable) -> Response:
        response = problem(503, err.detail, err.problems, locale(), code=err.code)
        response.headers["Retry-After"] = str(err.retry_after)
        return response

    @app.errorhandler(SafetyLimit)
    def _safety(err: SafetyLimit) -> Response:
        # A budget counts work, so an answer never depends on time; this is the last resort against a count that misses some work.
        log.error("request %s: %s", getattr(g, "request_id", "?"), err, extra={"event": "work_safety_limit", "fields": {"operation": err.operation}})
        metrics.count_safety_limit(err.operation)
        detail = f"The request ran past the {err.seconds:g} s safety limit of its work budget; quote request id {getattr(g, 'request_id', '')}."
        return problem(503, detail, {}, locale(), code=codes.OVERLOADED)

    @app.errorhandler(HTTPException)
    def _http(err: HTTPException) -> Response:
        status = err.code or 500
        detail = {
            404: f"No endpoint at {request.path}; see /docs.",
            405: f"{request.method} is not allowed on {request.path}; allowed: {', '.join(sorted(err.valid_methods or []))}."
            if hasattr(err, "valid_methods")
            else "",
            413: f"The body is larger than {request.max_content_length} bytes.",
        }.get(status) or (err.description or "")
        code = _HTTP_CODES.get(status, codes.MALFORMED_REQUEST if status < 500 else codes.INTERNAL_ERROR)
        response = problem(status, detail, {}, locale(), code=code)
        if status == 405 and getattr(err, "valid_methods", None):
            response.headers["Allow"] = ", ".join(sorted(err.valid_methods))  # type: ignore[union-attr]
        return response

    @app.errorhandler(Exception)
    def _unexpected(err: Exception) -> Response:
        if out_of_descriptors(err) or descriptors_exhausted():
            # Out of file descriptors: the machine's state, not a bug of ours nor the request's fault (docs/operations.md).
            log.warning("request %s: out of file descriptors (%s)", getattr(g, "request_id", "?"), err, extra={"event": "out_of_descriptors"})
            metrics.count_out_of_descriptors()
            response = problem(503, "The server is out of file descriptors for the moment; try again shortly.", {}, locale(), code=codes.OUT_OF_DESCRIPTORS)
            response.headers["Retry-After"] = "1"
            return response
        log.exception("request %s failed: %s %s", getattr(g, "request_id", "?"), request.method, request.path)
        return problem(500, f"Something went wrong on our side; quote request id {getattr(g, 'request_id', '')}.", {}, locale(), code=codes.INTERNAL_ERROR)

"""The one error shape: RFC 9457 ``application/problem+json``.

``type``, ``code``, ``title``, ``status``, ``detail``, ``errors`` (field
path -> entries, each ``{"code", "message"}``) and ``request_id``. Every
error the service returns, from a malformed body to an unexpected failure,
goes through :func:`problem`.

``type`` is a URI per status, the anchor of its section in ``/docs``;
``code`` names the problem itself, from the one registry
(:mod:`wordsvc.core.problem_codes`, docs/problems.md), and so does each
entry's: the code its message was made with, else the answer's own.

``errors`` lists at most 50 problems (``MAX_LISTED_ERRORS`` of
:mod:`wordsvc.schemas.common`), in the order of the request: past them the
answer keeps its shape and one more entry, ``"errors"``, says how many
problems it left out (``[{"code": "errors_not_listed", "message": "19950 more problem(s) not listed: ..."}]``); the
``detail`` of a 422 still counts every invalid field. So an answer stays a
few kilobytes whatever the request holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from flask import Response, g

from ..core.problem_codes import code_of
from ..i18n import render

__all__ = ["PROBLEM_TYPES", "problem"]

#: status -> (slug, title key); ``type`` is the docs anchor of the slug.
PROBLEM_TYPES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "title.bad_request"),
    401: ("unauthorized", "title.unauthorized"),
    403: ("forbidden", "title.forbidden"),
    404: ("not-found", "title.not_found"),
    405: ("method-not-allowed", "title.method_not_allowed"),
    408: ("request-timeout", "title.request_timeout"),  # the server's own answers (wordsvc.server.problems): listed for /docs
    409: ("conflict", "title.conflict"),
    412: ("precondition-failed", "title.precondition_failed"),
    413: ("payload-too-large", "title.payload_too_large"),
    415: ("unsupported-media-type", "title.unsupported_media_type"),
    422: ("invalid-request", "title.invalid_request"),
    428: ("precondition-required", "title.precondition_required"),
    431: ("header-fields-too-large", "title.header_fields_too_large"),
    500: ("internal-error", "title.internal_error"),
    501: ("not-implemented", "title.not_implemented"),
    503: ("not-ready", "title.not_ready"),
}


def problem(status: int, detail: str, errors: Mapping[str, list[str]] | None = None, locale: str = "en", *, code: str) -> Response:
    """The answer for a problem: ``code`` is the answer's own (a constant of :mod:`wordsvc.core.problem_codes`)."""
    slug, title_key = PROBLEM_TYPES.get(status, PROBLEM_TYPES[400 if status < 500 else 500])
    body = {
        "type": f"/docs#problem-{slug}",
        "code": code,
        "title": render(title_key, locale),
        "status": status,
        "detail": detail,
        "errors": {key: [{"code": code_of(message, code), "message": str(message)} for message in messages] for key, messages in (errors or {}).items()},
        "request_id": getattr(g, "request_id", ""),
    }
    return Response(json.dumps(body, ensure_ascii=False), status=status, mimetype="application/problem+json")

"""The server's own answers, for what never reaches the app, in the service's one error shape.

RFC 9457 ``application/problem+json`` with the fields and type URIs of
``wordsvc.web.problems`` (``/docs#problem-<slug>``; the same slug where the
app has one), so a client cannot tell which layer refused it: each answer
carries its problem ``code`` and one entry, ``request``, with the same code.
The server knows nothing of wordsvc, so its codes are written here
(:data:`CODES`, by the metric reason of the refusal); a test holds each to
the app's registry (``wordsvc.core.problem_codes``). Every one closes the
connection: after a framing error, a timeout or a refused connection nothing
more on it can be trusted.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from email.utils import formatdate

__all__ = ["CODES", "INTERNAL_ERROR", "PROBLEM_TYPES", "Problem", "echo_headers", "problem_body", "problem_bytes"]

#: A request id a client may choose (the app accepts the same ones).
_REQUEST_ID = re.compile(rb"^[A-Za-z0-9._-]{1,64}$")

#: status -> (slug, title); slugs and titles shared with the app's own table where it has the status.
PROBLEM_TYPES: dict[int, tuple[str, str]] = {
    400: ("bad-request", "Malformed request"),
    408: ("request-timeout", "Request timeout"),
    413: ("payload-too-large", "Request body too large"),
    431: ("header-fields-too-large", "Request header fields too large"),
    500: ("internal-error", "Internal server error"),
    501: ("not-implemented", "Not implemented"),
    503: ("not-ready", "Not ready"),  # the app's slug for every 503 (not loaded, draining, shedding load)
}

_REASONS = {
    400: "Bad Request",
    408: "Request Timeout",
    413: "Content Too Large",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    501: "Not Implemented",
    503: "Service Unavailable",
}


#: A refusal's metric reason -> the problem code its answer carries (one of the registry's, docs/problems.md).
CODES: dict[str, str] = {
    "bad_request": "malformed_request",
    "bad_framing": "malformed_framing",
    "tls_on_plain_port": "tls_on_plain_port",
    "too_large": "body_too_large",
    "headers_too_large": "header_too_large",
    "timeout_headers": "request_timeout",
    "timeout_body": "request_timeout",
    "not_implemented": "not_implemented",
    "too_many_connections": "too_many_connections",
    "too_many_client_connections": "too_many_connections",
    "too_many_streams": "too_many_streams",
    "too_many_client_streams": "too_many_streams",
}
#: The code of the server's answer for a failure of the app that left no answer of its own.
INTERNAL_ERROR = "internal_error"


class Problem(Exception):
    """A request the server refuses before (or instead of) the app: status, detail, a metric reason, and the problem code of that reason."""

    def __init__(self, status: int, detail: str, reason: str):
        super().__init__(detail)
        self.status, self.detail, self.reason = status, detail, reason
        self.code = CODES[reason]


def problem_body(status: int, detail: str, request_id: str, code: str) -> bytes:
    """The JSON body of a problem: ``type``, ``code``, ``title``, ``status``, ``detail``, ``errors``, ``request_id``."""
    slug, title = PROBLEM_TYPES.get(status, PROBLEM_TYPES[400 if status < 500 else 500])
    body = {
        "type": f"/docs#problem-{slug}",
        "code": code,
        "title": title,
        "status": status,
        "detail": detail,
        "errors": {"request": [{"code": code, "message": detail}]},
        "request_id": request_id,
    }
    return json.dumps(body, ensure_ascii=False).encode()


def echo_headers(headers: Sequence[tuple[bytes, bytes]], cors_origins: Sequence[str]) -> tuple[str | None, list[str]]:
    """From a refused request's headers: the client's own request id if sane, and the CORS lines its Origin earns.

    So a browser client can read the server's refusal as it reads the app's
    answers, and a client's request id comes back whoever answered.
    """
    request_id, lines = None, []
    for name, value in headers:
        if name == b"x-request-id" and _REQUEST_ID.match(value):
            request_id = value.decode("ascii")
        elif name == b"origin" and cors_origins:
            origin = value.decode("latin-1")
            if "*" in cors_origins or origin in cors_origins:
                lines.append(f"Access-Control-Allow-Origin: {'*' if '*' in cors_origins else origin}")
                lines.append("Access-Control-Expose-Headers: X-Request-ID")
    return request_id, lines


def problem_bytes(
    status: int, detail: str, code: str, retry_after: int | None = None, request_id: str | None = None, extra: Sequence[str] = ()
) -> tuple[bytes, str]:
    """A whole HTTP/1.1 response for a problem, with ``Connection: close``, and its request id (``request_id``, else a new one).

    Written as raw bytes, not through h11, because it is sent when h11's state
    (a parse error, a request cut short) no longer allows a response.
    """
    request_id = request_id or uuid.uuid4().hex
    body = problem_body(status, detail, request_id, code)
    head = [
        f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}",
        "Content-Type: application/problem+json",
        f"Content-Length: {len(body)}",
        f"X-Request-ID: {request_id}",
        f"Date: {formatdate(usegmt=True)}",
        "Connection: close",
    ]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    head.extend(extra)
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body, request_id

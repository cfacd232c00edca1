"""Reading a request: its JSON body, its query parameters, and the app's service.

Every view reads through these, so a malformed body or a repeated query
parameter is refused the same way everywhere: never a 500 for what a client
sends.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import current_app, request
from marshmallow import ValidationError

from ..service import Service

__all__ = ["BadBody", "query_args", "read_json", "service"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # only escapes can put a lone surrogate in decoded text


class BadBody(Exception):
    """The body is not JSON we can read (400), or not JSON at all (415)."""

    def __init__(self, detail: str, status: int = 400, errors: dict[str, list[str]] | None = None):
        super().__init__(detail)
        self.detail, self.status, self.errors = detail, status, errors or {"body": [detail]}


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

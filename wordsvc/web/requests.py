"""Reading a request: its JSON body, its query parameters, the app's service, and leaving the event loop.

Every view reads through these, so a malformed body, a key given twice in
a JSON object or a repeated query parameter is refused the same way
everywhere: never a 500 for what a client sends, and never a silent
last-wins.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from flask import current_app, request
from marshmallow import ValidationError

from ..core import problem_codes as codes
from ..core.problem_codes import coded
from ..server.hosting import hosting_of
from ..service import Service

__all__ = ["BadBody", "in_pool", "query_args", "read_json", "service"]

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # only escapes can put a lone surrogate in decoded text


class BadBody(Exception):
    """The body is not JSON we can read (400), or not JSON at all (415); ``code`` names which problem."""

    def __init__(self, detail: str, status: int = 400, errors: dict[str, list[str]] | None = None, code: str = codes.MALFORMED_JSON):
        super().__init__(detail)
        self.detail, self.status, self.errors, self.code = detail, status, errors or {"body": [detail]}, code


def read_json() -> Any:
    """The request body as JSON, or :class:`BadBody`: never a 500 for what a client sends."""
    mimetype = request.mimetype
    if mimetype and mimetype != "application/json" and not mimetype.endswith("+json"):
        raise BadBody(f"Send JSON (Content-Type: application/json), not {mimetype}.", 415, code=codes.UNSUPPORTED_MEDIA_TYPE)
    raw = request.get_data(cache=True)
    if request.content_length is None:
        request.stream.read(1)  # a chunked body is cut at the limit; one more byte raises 413 if more was sent
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BadBody(f"The body is not valid UTF-8 (byte {err.start}).", code=codes.INVALID_UTF8) from None
    repeated: dict[int, tuple[dict[str, Any], list[str]]] = {}  # id -> (the object, kept alive so the id stays its own; keys given twice)

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj = dict(pairs)
        if len(obj) < len(pairs):
            repeated[id(obj)] = (obj, _repeated_keys(pairs))
        return obj

    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=pairs_hook)
    except RecursionError:
        raise BadBody("The JSON body is nested too deeply.") from None
    except ValueError as err:
        raise BadBody(f"The body is not valid JSON: {err}.") from None
    if repeated:
        paths = _repeated_paths(data, repeated)
        detail = f"The JSON body gives {_quoted(paths)} more than once; send each key of an object once."
        raise BadBody(detail, 400, {path: ["given more than once"] for path in paths}, code=codes.GIVEN_TWICE)
    if _SURROGATE_ESCAPE.search(text) and _has_surrogate(data):
        raise BadBody("The body holds an unpaired UTF-16 surrogate escape, which is not Unicode text.")
    return data


def service() -> Service:
    """The app's :class:`Service` (rulesets and lexicons, loaded by :func:`create_app`)."""
    return current_app.extensions["wordsvc"]  # type: ignore[no-any-return]


def in_pool() -> None:
    """Make sure what follows runs in a pool thread, not on the server's event loop.

    ``wordsvc serve`` answers the GET requests of a few cheap paths
    (``/validate`` among them) on its event loop; a view calls this before
    work that may take long (a search for suggestions, a solver), and before
    it has changed anything. On the event loop it stops the request here,
    and the server runs it again, from the start, in its pool; anywhere else
    (a pool thread, another server, a test client) it does nothing.
    """
    hosting = hosting_of(request.environ)
    if hosting is not None and hosting.to_pool is not None:
        hosting.to_pool()


def query_args() -> dict[str, str]:
    """The query parameters; one given twice is an error, not a silent first-wins."""
    pairs = list(request.args.items(multi=True))
    args = dict(pairs)
    if len(args) < len(pairs):
        counts = Counter(key for key, _ in pairs)
        raise ValidationError({key: [coded(codes.GIVEN_TWICE, "given more than once")] for key, count in counts.items() if count > 1})
    return args


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _repeated_keys(pairs: list[tuple[str, Any]]) -> list[str]:
    seen: set[str] = set()
    twice: list[str] = []
    for key, _ in pairs:
        if key in seen and key not in twice:
            twice.append(key)
        seen.add(key)
    return twice


def _repeated_paths(data: Any, repeated: dict[int, tuple[dict[str, Any], list[str]]]) -> list[str]:
    """The field path (``players.0.name``) of every repeated key, in the order of the body."""
    paths: list[str] = []
    stack: list[tuple[Any, str, bool]] = [(data, "", False)] if isinstance(data, (dict, list)) else []  # (container, path, whether the path is a repeated key)
    while stack:
        item, path, is_repeated = stack.pop()
        if is_repeated:
            paths.append(path)
            continue
        prefix = f"{path}." if path else ""
        todo: list[tuple[Any, str, bool]] = []
        if isinstance(item, dict):
            twice = repeated[id(item)][1] if id(item) in repeated else ()
            for key, value in item.items():
                if key in twice:
                    todo.append((None, prefix + key, True))
                if isinstance(value, (dict, list)):
                    todo.append((value, prefix + key, False))
        else:
            todo = [(value, f"{prefix}{i}", False) for i, value in enumerate(item) if isinstance(value, (dict, list))]
        stack.extend(reversed(todo))
    return paths


def _quoted(paths: list[str]) -> str:
    shown = ", ".join(f"'{p}'" for p in paths[:5])
    return f"the key {shown}" if len(paths) == 1 else f"the keys {shown}{', ...' if len(paths) > 5 else ''}"


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

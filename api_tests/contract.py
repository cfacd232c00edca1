"""Helpers shared by the API tests: the one error shape, and a small OpenAPI schema checker.

The checker covers the subset of OpenAPI 3.0 schema keywords the service's
document uses: ``$ref``, ``type``, ``nullable``, ``properties``, ``required``,
``additionalProperties: false``, ``items``, ``enum``, ``oneOf``, ``anyOf`` and
``allOf``. It returns every mismatch with its path instead of stopping at the
first, so a failing test says all that is wrong at once.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import requests

PROBLEM_TYPE = "application/problem+json"
PROBLEM_KEYS = {"type", "code", "title", "status", "detail", "errors", "request_id"}
ENTRY_KEYS = {"code", "message"}
#: The registry as documented (docs/problems.md, itself tested against the service's registry): read, never imported.
PROBLEMS_DOC = Path(__file__).resolve().parents[1] / "docs" / "problems.md"


@cache
def documented_codes() -> dict[str, set[int]]:
    """code -> the statuses docs/problems.md says it comes with."""
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| ([0-9, ]+) \|", PROBLEMS_DOC.read_text(encoding="utf-8"), re.MULTILINE)
    return {code: {int(s) for s in statuses.split(",")} for code, statuses in rows}


def assert_documented_code(code: Any, status: int, where: str) -> None:
    """``code`` is a documented problem code that comes with ``status``."""
    codes = documented_codes()
    assert code in codes, f"{where}: code {code!r} is not in docs/problems.md"
    assert status in codes[code], f"{where}: code {code!r} is documented for {sorted(codes[code])}, not {status}"


@cache
def _operations(origin: str) -> list[tuple[re.Pattern[str], int, str, dict[str, Any]]]:
    """The document's operations at ``origin``: (path pattern, placeholders, method, operation), literal paths first."""
    doc = requests.get(origin + "/openapi.json", timeout=30).json()
    out = []
    for template, operations in doc["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)) + "$")
        for method, operation in operations.items():
            out.append((pattern, template.count("{"), method, operation))
    return sorted(out, key=lambda row: row[1])


def listed_codes(responses: dict[str, Any], status: int) -> list[str] | None:
    """The codes an operation's document lists for ``status`` (``x-problem-codes``); ``None`` if the status has no list."""
    answer = responses.get(str(status))
    return None if answer is None else answer.get("x-problem-codes")


def assert_listed_code(code: Any, codes: list[str] | None, where: str) -> None:
    """``code`` is one the document lists for this operation and status (when it lists any)."""
    assert codes is None or code in codes, f"{where}: code {code!r} is not in the operation's x-problem-codes {codes}"


def operation_codes(response: requests.Response, status: int) -> list[str] | None:
    """The codes the service's own document lists for the operation ``response`` answers (method + path template) and ``status``.

    ``None`` when no documented operation has that method and path (an
    unknown path, a method the path does not take, a page).
    """
    request = response.request
    origin = re.match(r"^\w+://[^/]+", response.url or str(request.url))
    if origin is None or request.method is None:
        return None
    path = (request.path_url or "/").split("?")[0]
    for pattern, _, method, operation in _operations(origin[0]):
        if method == request.method.lower() and pattern.match(path):
            return listed_codes(operation["responses"], status)
    return None


def media_type(response: requests.Response) -> str:
    return response.headers.get("Content-Type", "").split(";")[0].strip().lower()


def assert_problem(response: requests.Response, status: int) -> dict[str, Any]:
    """``response`` is an RFC 9457 problem with ``status``, in the service's one shape; returns the body."""
    where = f"{response.request.method} {response.request.path_url[:120]}"
    assert response.status_code == status, f"{where}: expected {status}, got {response.status_code}: {response.text[:500]}"
    assert media_type(response) == PROBLEM_TYPE, f"{where}: Content-Type {response.headers.get('Content-Type')!r}, body {response.text[:300]!r}"
    body = response.json()
    assert isinstance(body, dict), body
    assert set(body) == PROBLEM_KEYS, f"{where}: keys {sorted(body)}"
    assert body["status"] == status
    for key in ("type", "title", "detail", "request_id"):
        assert isinstance(body[key], str) and body[key], f"{where}: {key} = {body[key]!r}"
    assert_documented_code(body["code"], status, where)
    listed = operation_codes(response, status)
    assert_listed_code(body["code"], listed, where)
    assert isinstance(body["errors"], dict)
    for path, entries in body["errors"].items():
        assert isinstance(path, str) and path, body["errors"]
        assert isinstance(entries, list) and entries, body["errors"]
        for entry in entries:
            assert isinstance(entry, dict) and set(entry) == ENTRY_KEYS and isinstance(entry["message"], str) and entry["message"], body["errors"]
            assert_documented_code(entry["code"], status, f"{where} errors.{path}")
            assert_listed_code(entry["code"], listed, f"{where} errors.{path}")
    assert "Traceback" not in response.text
    assert response.headers.get("X-Request-ID") == body["request_id"], (
        f"{where}: header {response.headers.get('X-Request-ID')!r} != body {body['request_id']!r}"
    )
    return body


def assert_client_error(response: requests.Response) -> dict[str, Any]:
    """Any 4xx in the one problem shape (hostile input: the exact status may vary, the shape may not)."""
    assert 400 <= response.status_code < 500, f"{response.request.method} {response.request.path_url[:120]}: got {response.status_code}: {response.text[:500]}"
    return assert_problem(response, response.status_code)


# ---- OpenAPI schema checking


def resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), f"only local references are supported: {ref}"
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


_TYPES: dict[str, tuple[type, ...]] = {"object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,), "integer": (int,), "number": (int, float)}


def schema_errors(doc: dict[str, Any], schema: dict[str, Any], value: Any, path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty when it conforms)."""
    if "$ref" in schema:
        return schema_errors(doc, resolve(doc, schema["$ref"]), value, path)
    if value is None:
        if schema.get("nullable") or (schema.get("enum") and None in schema["enum"]):
            return []
        if "type" in schema or "properties" in schema:
            return [f"{path}: null, but the schema is not nullable"]
    errors: list[str] = []
    kind = schema.get("type")
    if kind is not None and value is not None:
        expected = _TYPES[kind]
        if not isinstance(value, expected) or (kind in ("integer", "number") and isinstance(value, bool)):
            return [f"{path}: expected {kind}, got {type(value).__name__} {value!r:.80}"]
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {value!r} not one of {schema['enum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                errors.append(f"{path}: missing required property {name!r}")
        for name, item in value.items():
            if name in properties:
                errors += schema_errors(doc, properties[name], item, f"{path}.{name}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{path}: property {name!r} is not documented (additionalProperties: false)")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += schema_errors(doc, schema["additionalProperties"], item, f"{path}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += schema_errors(doc, schema["items"], item, f"{path}.{i}")
    for sub in schema.get("allOf", []):
        errors += schema_errors(doc, sub, value, path)
    if "oneOf" in schema:
        matches = [not schema_errors(doc, sub, value, path) for sub in schema["oneOf"]]
        if sum(matches) != 1:
            errors.append(f"{path}: matches {sum(matches)} of the {len(matches)} oneOf schemas, must match exactly one")
    if "anyOf" in schema and not any(not schema_errors(doc, sub, value, path) for sub in schema["anyOf"]):
        errors.append(f"{path}: matches none of the anyOf schemas")
    return errors

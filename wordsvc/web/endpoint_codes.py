"""The problem codes one endpoint can answer: derived from what it declares, plus the domain codes it names by hand.

The OpenAPI document lists, under each error response of an operation, the
codes of that status the operation can answer (``x-problem-codes``), so a
client switches over a short, true list rather than the whole registry.
The list is the union of

- the transport codes every endpoint can answer (the server's own 400, 408,
  431 and 503, method not allowed, a bug), those of every endpoint that
  takes a body (malformed JSON, too large, not JSON), and ``endpoint_not_found``
  for a path with parameters (a segment the route refuses matches no route);
- the codes its query and body schemas give, found by walking the
  marshmallow schema classes: a field's type (``invalid_type``), ``required``,
  ``null`` unless the field allows it, ``unknown_field`` where unknown fields
  are refused, marshmallow's validators by their class, and the codes the
  project's own fields, validators and schema hooks raise, read from their
  source as :mod:`wordsvc.schemas.common` writes them (``codes.NAME``);
- the domain codes the endpoint declares (``Endpoint.problems``), which the
  view and the service and ledger methods it calls raise: no walk can see
  those, so they are written beside the route and held true by the
  black-box tests (``api_tests/contract.py``).

An endpoint that declares no ``problems`` yet (``None``) lists every
registered code of each status, as a superset is true and a short list
without its domain codes would not be.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from functools import cache

from marshmallow import RAISE, Schema, fields, validate

from ..core import problem_codes as codes
from ..core.problem_codes import REGISTRY, CodedMessage
from .endpoints import Endpoint

__all__ = ["BODY_CODES", "CARDS", "RESOLVE", "SCORING", "TRANSPORT_CODES", "endpoint_codes", "schema_codes"]

#: What any request can be answered before or around its view (and the two codes of an answer's own shape): the server's own refusals (a malformed request or framing,
#: TLS on the plain port, a timeout, headers too large, connections or descriptors exhausted, shutting down), a query string
#: that is not UTF-8 or names a parameter twice, a method the path does not take, a bug, and every 503 of the admission.
TRANSPORT_CODES = (
    codes.MALFORMED_REQUEST,
    codes.MALFORMED_FRAMING,
    codes.TLS_ON_PLAIN_PORT,
    codes.INVALID_UTF8,
    codes.REQUEST_TIMEOUT,
    codes.HEADER_TOO_LARGE,
    codes.METHOD_NOT_ALLOWED,
    codes.INTERNAL_ERROR,
    codes.NOT_READY,
    codes.LANGUAGE_BUILDING,
    codes.OVERLOADED,
    codes.OUT_OF_DESCRIPTORS,
    codes.TOO_MANY_CONNECTIONS,
    codes.ERRORS_NOT_LISTED,
    codes.INVALID_FIELDS,
)
#: What any endpoint that reads a JSON body can answer about the body itself (:func:`wordsvc.web.requests.json_body`).
BODY_CODES = (codes.MALFORMED_JSON, codes.INVALID_UTF8, codes.UNSUPPORTED_MEDIA_TYPE, codes.BODY_TOO_LARGE, codes.GIVEN_TWICE)

#: The domain codes of naming a ruleset and a language (:meth:`wordsvc.service.Service.resolve`), for the views to name.
RESOLVE = (codes.UNKNOWN_RULESET, codes.UNKNOWN_LANGUAGE, codes.INVALID_RULESET)
#: The domain codes of reading cards against a deck: notation, a card the deck lacks, more copies than it holds.
CARDS = (codes.INVALID_CARDS, codes.UNBALANCED_PARENTHESIS, codes.UNKNOWN_CARD, codes.TOO_MANY_COPIES)
#: The domain codes of scoring a round (:mod:`wordsvc.core.scoring`), beside :data:`CARDS`.
SCORING = (
    codes.PLAYER_COUNT,
    codes.ROUND_OUT_OF_RANGE,
    codes.HAND_SIZE,
    codes.EMPTY_WORD,
    codes.DUPLICATE_NAME,
    codes.ONE_GOES_OUT,
    codes.INVALID_CHALLENGE,
    codes.INVALID_BONUS_CHOICE,
)

#: marshmallow's validators -> their code (as :mod:`wordsvc.schemas.common` gives their messages).
_VALIDATORS = (
    (validate.Length, codes.LENGTH_OUT_OF_RANGE),
    (validate.Range, codes.VALUE_OUT_OF_RANGE),
    (validate.OneOf, codes.NOT_ONE_OF),
    (validate.Regexp, codes.PATTERN_MISMATCH),
)
_NAMED = re.compile(r"\bcodes\.([A-Z][A-Z0-9_]*)\b")


def _own(thing: object) -> bool:
    return (getattr(thing, "__module__", None) or "").startswith("wordsvc.")


_NAME = re.compile(r"\b[A-Za-z_]\w*\b")


@cache
def _raised_by(thing: object, depth: int = 3) -> frozenset[str]:
    """The registered codes ``thing`` (a class or function of the project) raises, read from its source.

    A code named there (``codes.NAME``), a coded message it refers to by
    name (``CARDS_HINT``), and what the project's functions it calls raise,
    ``depth`` calls deep: an over-estimate rather than a miss.
    """
    try:
        source = inspect.getsource(thing)  # type: ignore[arg-type]
    except (OSError, TypeError):
        return frozenset()
    found = {REGISTRY[name.lower()].code for name in _NAMED.findall(source) if name.lower() in REGISTRY}
    scope = vars(inspect.getmodule(thing) or codes)
    for name in set(_NAME.findall(source)):
        value = scope.get(name)
        if isinstance(value, CodedMessage):
            found.add(value.code)
        elif depth and inspect.isfunction(value) and _own(value) and value is not thing:
            found |= _raised_by(value, depth - 1)
    return frozenset(found)


def _field_codes(field: fields.Field, seen: set[type]) -> Iterator[str]:
    yield codes.INVALID_TYPE
    if field.required:
        yield codes.REQUIRED
    if not field.allow_none:
        yield codes.NULL
    for validator in field.validators:
        yield from (code for kind, code in _VALIDATORS if isinstance(validator, kind))
        if _own(validator) or _own(type(validator)):
            yield from _raised_by(validator if inspect.isfunction(validator) else type(validator))
    for kind in type(field).__mro__:
        if _own(kind):
            yield from _raised_by(kind)
    if isinstance(field, fields.Nested):
        nested = field.nested if isinstance(field.nested, type) else type(field.schema)
        yield from _walk(nested, seen)
    elif isinstance(field, fields.List):
        yield from _field_codes(field.inner, seen)
    elif isinstance(field, fields.Tuple):
        for inner in field.tuple_fields:
            yield from _field_codes(inner, seen)
    elif isinstance(field, fields.Dict):
        for inner in (field.key_field, field.value_field):
            if inner is not None:
                yield from _field_codes(inner, seen)


def _walk(schema: type[Schema], seen: set[type]) -> Iterator[str]:
    if schema in seen:
        return
    seen.add(schema)
    instance = schema()
    if instance.unknown == RAISE:
        yield codes.UNKNOWN_FIELD
    for kind in schema.__mro__:
        if _own(kind):
            yield from _raised_by(kind)  # its hooks: validates_schema, pre_load, post_load, validates
    for field in instance.fields.values():
        yield from _field_codes(field, seen)


def schema_codes(schema: type[Schema]) -> frozenset[str]:
    """Every code loading a request with ``schema`` (and the schemas it nests) can give."""
    return frozenset(_walk(schema, set()))


def endpoint_codes(endpoint: Endpoint) -> frozenset[str] | None:
    """The codes ``endpoint`` can answer, of any status; ``None`` while it declares no domain codes (every code may be listed)."""
    if endpoint.problems is None:
        return None
    out = {*TRANSPORT_CODES, *endpoint.problems}
    if "{" in endpoint.path:
        out.add(codes.ENDPOINT_NOT_FOUND)  # a segment its converter refuses (`round` not digits, `event` a reserved word) routes nowhere
    if endpoint.query is not None:
        out |= schema_codes(endpoint.query) | {codes.GIVEN_TWICE}
    if endpoint.body is not None:
        out |= schema_codes(endpoint.body) | set(BODY_CODES)
    return frozenset(out)

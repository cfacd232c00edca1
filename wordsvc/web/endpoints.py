"""Each endpoint declared once: :class:`Endpoint`, and :class:`Resource`, the blueprint that routes a view from its declaration.

A view's declaration sits on the view (``@bp.declare(Endpoint(...))``) and
says everything about the endpoint that is not the view's code: its method
and path, summary and description, parameters, the schema classes of its
query, body and answers, who may call it, its operation id and tag, and the
error statuses it answers. :meth:`Resource.declare` adds the Flask rule from
it, and :mod:`.openapi` builds the document from the same records, so an
endpoint served is an endpoint documented (``tests/test_endpoints.py`` holds
every rule of the app to a declaration and back).

Records rather than tuples or dicts: a field is named where it is written,
and a schema is its class, so a schema renamed or removed is an import
error, not a dangling name in the document.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from flask import Blueprint
from marshmallow import Schema
from werkzeug.routing import BaseConverter

from ..core.ids import RESERVED_IDS

__all__ = [
    "ANY_JSON",
    "ASSET",
    "HTML",
    "PDF",
    "PUBLIC",
    "SVG",
    "TEXT",
    "TOKEN",
    "Answer",
    "Content",
    "Endpoint",
    "EventId",
    "JsonSchema",
    "Resource",
    "query",
]

#: Who may call a ledger operation, as the document's ``security`` says: ``TOKEN`` a bearer token its roles allow; ``PUBLIC`` anyone
#: (a token only for private events). An endpoint outside the ledger states neither (``access=None``).
TOKEN, PUBLIC = "token", "public"
#: The roles a token can have (:mod:`wordsvc.ledger.records.principals`), the ones an endpoint's ``roles`` name.
ROLES = ("admin", "director", "referee", "kiosk", "viewer", "player")
#: The Flask converter of a path parameter by its name; any other is a plain segment. ``event`` refuses the reserved ids
#: (``/events/import``), ``round`` and ``session`` take ASCII digits only (:class:`~wordsvc.web.app.AsciiInt`).
CONVERTERS = {"event": "event", "round": "int", "session": "int", "seat": "int"}
_PLACEHOLDER = re.compile(r"\{(\w+)\}")

V = TypeVar("V", bound=Callable[..., Any])


@dataclass(frozen=True)
class Content:
    """An answer that no marshmallow schema describes: its OpenAPI ``content``, by media type."""

    media: Mapping[str, Any]


@dataclass(frozen=True)
class JsonSchema:
    """A component of the document written as JSON Schema (an answer a view builds as a dict): its name and its schema."""

    name: str
    schema: Mapping[str, Any]


#: What an answer can be: a marshmallow schema (a component named in :mod:`.openapi`), a component written as JSON Schema, or content.
Answer = type[Schema] | JsonSchema | Content

HTML = Content({"text/html": {"schema": {"type": "string"}}})
TEXT = Content({"text/plain": {"schema": {"type": "string"}}})
SVG = Content({"image/svg+xml": {"schema": {"type": "string"}}})
ASSET = Content({"text/javascript": {"schema": {"type": "string"}}, "text/css": {"schema": {"type": "string"}}})
PDF = Content({"application/pdf": {"schema": {"type": "string", "format": "binary"}}})
ANY_JSON = Content({"application/json": {"schema": {"type": "object", "additionalProperties": True}}})


def query(name: str, description: str, deprecated: bool = False) -> dict[str, Any]:
    """A query parameter's name and prose, in the order the document lists them; its type, limits and ``required`` come from the endpoint's query schema."""
    return {"name": name, "in": "query", "description": description, **({"deprecated": True} if deprecated else {})}


@dataclass(frozen=True)
class Endpoint:
    """One endpoint, whole: what the route, the OpenAPI document and its clients know of it.

    ``path`` is the document's (``/events/{event}/games/{game}``); the
    Flask rule is derived from it (:attr:`rule`). ``parameters`` lists the
    path and header parameters and the query parameters' prose in order;
    ``query`` is the schema the view loads its query with (every query
    parameter's type, limits and ``required`` are read from it, and one it
    reads that is not listed is added). ``answers`` maps each success status
    to its answer; ``errors`` the error statuses the endpoint itself answers
    (the ones any endpoint may answer are added by the document). ``roles``
    names who the ledger lets call it (empty: anyone ``access`` lets in);
    ``csv`` the columns of a ``text/csv`` alternative of the JSON answer.
    ``documented=False`` keeps an endpoint out of the document (a page that
    is not part of the API); it is declared and routed all the same.
    ``problems`` names the domain codes the view and what it calls can raise
    (constants of :mod:`wordsvc.core.problem_codes`), each with a status in
    ``errors``; the codes its schemas and transport give are derived
    (:mod:`.endpoint_codes`). ``None``: not yet named, and the document lists
    every registered code of each error status for it.
    """

    method: str
    path: str
    operation_id: str
    tag: str
    summary: str
    description: str
    parameters: Sequence[Mapping[str, Any]] = ()
    query: type[Schema] | None = None
    body: type[Schema] | None = None
    answers: Mapping[int, Answer] = field(default_factory=lambda: {200: ANY_JSON})
    errors: tuple[int, ...] = ()
    access: str | None = None
    roles: tuple[str, ...] = ()
    csv: str | None = None
    headers: Mapping[str, Any] = field(default_factory=dict)
    documented: bool = True
    problems: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.method not in ("get", "put", "post", "delete", "patch"):
            raise ValueError(f"{self.operation_id}: no HTTP method {self.method!r}")
        if self.access not in (None, TOKEN, PUBLIC) or set(self.roles) - set(ROLES):
            raise ValueError(f"{self.operation_id}: access {self.access!r}, roles {self.roles!r}")
        named = {p["name"] for p in self.parameters if p["in"] == "path"}
        if named != set(_PLACEHOLDER.findall(self.path)):
            raise ValueError(f"{self.operation_id}: the path {self.path} and its parameters {sorted(named)} disagree")
        if self.query is None and any(p["in"] == "query" for p in self.parameters):
            raise ValueError(f"{self.operation_id}: query parameters without the query schema that reads them")

    @property
    def rule(self) -> str:
        """The Flask rule: ``/events/<event:event>/games/<game>/rounds/<int:round>`` for ``/events/{event}/games/{game}/rounds/{round}``."""
        return _PLACEHOLDER.sub(lambda m: f"<{CONVERTERS[m[1]]}:{m[1]}>" if m[1] in CONVERTERS else f"<{m[1]}>", self.path)


class EventId(BaseConverter):
    """An event's path segment: anything but a reserved word (``/events/import`` is the import, never an event)."""

    regex = "(?!(?:" + "|".join(sorted(RESERVED_IDS)) + ")$)[^/]+"


class Resource(Blueprint):
    """A blueprint whose routes are declared: :meth:`declare` routes a view and keeps its :class:`Endpoint` in :attr:`endpoints`.

    Registering one gives the app the ``event`` converter first, before any
    of its routes: any resource may take an event in its path.
    """

    def __init__(self, name: str, import_name: str):
        super().__init__(name, import_name)
        self.endpoints: list[Endpoint] = []
        self.record_once(lambda state: state.app.url_map.converters.setdefault("event", EventId))

    def declare(self, endpoint: Endpoint) -> Callable[[V], V]:
        """Route the view under ``endpoint``'s method and path, and keep the declaration for the document."""

        def register(view: V) -> V:
            self.add_url_rule(endpoint.rule, view_func=view, methods=[endpoint.method.upper()])
            self.endpoints.append(endpoint)
            return view

        return register

"""The venue's part of the OpenAPI document: printed documents (docs/documents.md) and the event stream (docs/streams.md), merged by
:mod:`.openapi` like the tournament's part."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from ..core.documents import DOCUMENT_KINDS
from ..schemas import stream as s
from ..schemas import tournaments as t
from ..schemas.events import MAX_SEQ
from .openapi_tournaments import EVENT

__all__ = ["DOCUMENT_ENDPOINTS", "DOCUMENT_OPERATIONS", "DOCUMENT_QUERIES", "NOT_JSON", "STREAM_SCHEMAS"]

#: The answer "schema" that stands for a PDF rather than a JSON schema.
PDF = "pdf"
#: The answer "schema" that stands for an event stream.
EVENT_STREAM = "event-stream"
#: The components of the stream's message data, by message type: ``Stream`` and the schema's name (``StreamRound``).
STREAM_SCHEMAS = [(f"Stream{schema.__name__.removesuffix('Data')}", schema) for schema in s.MESSAGE_DATA.values()]
_STREAM_EXAMPLE = (
    'retry: 2000\n\nid: 14\nevent: ready\ndata: {"event":"club-night","head":14}\n\n'
    'id: 15\nevent: round.stored\ndata: {"game":"t1","round":3,"revision":1,"points":{"Ann":41,"Bob":-6}}\n\n: keep-alive\n\n'
)


def _event_stream() -> dict[str, Any]:
    """``text/event-stream``: the body as text, and each message described as OpenAPI 3.2's ``itemSchema`` does (an extension here)."""
    messages = [
        {
            "type": "object",
            "required": ["id", "event", "data"],
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The audit entry's seq: a client resumes after it (Last-Event-ID)."},
                "event": {"type": "string", "enum": [kind]},
                "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": {"$ref": f"#/components/schemas/{name}"}},
            },
        }
        for kind, (name, _) in zip(s.MESSAGE_DATA, STREAM_SCHEMAS, strict=True)
    ]
    return {
        "text/event-stream": {
            "schema": {
                "type": "string",
                "description": "Server-Sent Events, UTF-8: first `retry: 2000`, then messages, each an `id:` line (the audit entry's seq), an "
                "`event:` line (its type) and one `data:` line of JSON (its schema by type: `x-itemSchema`, the components `Stream...`), "
                "ending with an empty line; `: keep-alive` comments between them.",
                "example": _STREAM_EXAMPLE,
            },
            "x-itemSchema": {"description": "One message of the stream (as OpenAPI 3.2's itemSchema for text/event-stream), by its type.", "oneOf": messages},
        }
    }


#: The content of the answers that are not JSON, by their stand-in.
NOT_JSON = {
    PDF: {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    EVENT_STREAM: _event_stream(),
}
LAST_EVENT_ID = {
    "name": "Last-Event-ID", "in": "header", "required": False,
    "description": "The id of the last message a reconnecting client had: the stream resumes after it. Written in ASCII digits; another value is a 422.",
    "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ},
}

KIND = {
    "name": "kind", "in": "path", "required": True, "description": "Which document: " + ", ".join(DOCUMENT_KINDS) + ".",
    "schema": {"type": "string", "enum": list(DOCUMENT_KINDS)},
}

#: As TOURNAMENT_ENDPOINTS: (method, path, summary, description, parameters, request schema, {status: answer}, error statuses, access).
DOCUMENT_ENDPOINTS: list[tuple[str, str, str, str, list[dict[str, Any]], str | None, dict[int, str], tuple[int, ...], str]] = [
    ("get", "/events/{event}/documents/{kind}", "A printable document (PDF)",
     "A print-ready PDF in the event's language (its lexicon's): `seating` (the wall sheet and a slip per table) and `scorecards` (a page per "
     "table: players in seat order, a row per round with its hand size, a QR code that opens the console at that table, without a token) of "
     "`session` (default: the latest; an event without sessions prints its tables' scorecards); `standings`, `crosstable` (a grid of who met "
     "whom up to 16 players, a row per game beyond), `results` (the overall standings after the last session with each player's games); "
     "`audit` (who changed what; a director token). Every word in the event's language; any field the API accepts lays out. The read rules of "
     "the JSON each comes from: a private event needs a token. `Content-Disposition: inline; filename=\"<event>-<kind>.pdf\"`. "
     "Documents have a lane of their own: 503 with `Retry-After` when it is full.",
     [EVENT, KIND], None, {200: PDF}, (400, 401, 403, 404, 422, 503), "public"),
    ("get", "/events/{event}/stream", "The event's changes, pushed (Server-Sent Events)",
     "A held `text/event-stream`: `ready` first (its id the newest audit entry), then a typed message for every change a viewer may see "
     "(`round.stored`, `round.corrected`, `table.seated`, `session.started`, `session.reseated`, `player.registered`, "
     "`player.checked_in`, `player.withdrawn`, `ruling.given`, `event.closed`), each with its audit entry's seq as its id, and a "
     "`: keep-alive` comment every 15 s. Reconnect with `Last-Event-ID` (or `?after=`) to get what was missed, once. A private event needs "
     "a token of the event. 503 with `Retry-After` when the worker holds as many streams as it takes (docs/streams.md).",
     [EVENT, LAST_EVENT_ID], None, {200: EVENT_STREAM}, (400, 401, 403, 404, 422, 503), "public"),
]

DOCUMENT_OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("get", "/events/{event}/documents/{kind}"): ("getDocument", "documents"),
    ("get", "/events/{event}/stream"): ("getEventStream", "ledger"),
}

DOCUMENT_QUERIES: dict[str, type[Schema]] = {
    "/events/{event}/documents/{kind}": t.DocumentQuery,
    "/events/{event}/stream": s.StreamQuery,
}

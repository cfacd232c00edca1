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

__all__ = ["DOCUMENT_ENDPOINTS", "DOCUMENT_OPERATIONS", "DOCUMENT_QUERIES", "NOT_JSON"]

#: The answer "schema" that stands for a PDF rather than a JSON schema.
PDF = "pdf"
#: The answer "schema" that stands for an event stream.
EVENT_STREAM = "event-stream"
#: The content of the answers that are not JSON, by their stand-in.
NOT_JSON = {
    PDF: {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
    EVENT_STREAM: {"text/event-stream": {"schema": {"type": "string", "description": "Server-Sent Events: `id` (an audit seq), `event` (a type), `data` (JSON)."}}},
}
LAST_EVENT_ID = {
    "name": "Last-Event-ID", "in": "header", "required": False,
    "description": "The id of the last message a reconnecting client had: the stream resumes after it.", "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ},
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
     "`session` (default: the latest; an event without sessions prints its tables' scorecards); `standings`, `crosstable`, `results` (the "
     "overall standings after the last session with each player's games); `audit` (who changed what; a director token). The read rules of "
     "the JSON each comes from: a private event needs a token. `Content-Disposition: inline; filename=\"<event>-<kind>.pdf\"`.",
     [EVENT, KIND], None, {200: PDF}, (400, 401, 403, 404, 422), "public"),
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

"""The printed documents' part of the OpenAPI document (docs/documents.md), merged by :mod:`.openapi` like the tournament's part."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from ..core.documents import DOCUMENT_KINDS
from ..schemas import tournaments as t
from .openapi_tournaments import EVENT

__all__ = ["DOCUMENT_ENDPOINTS", "DOCUMENT_OPERATIONS", "DOCUMENT_QUERIES", "PDF", "PDF_CONTENT"]

#: The answer "schema" that stands for a PDF rather than a JSON schema.
PDF = "pdf"
PDF_CONTENT = {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}

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
]

DOCUMENT_OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("get", "/events/{event}/documents/{kind}"): ("getDocument", "documents"),
}

DOCUMENT_QUERIES: dict[str, type[Schema]] = {
    "/events/{event}/documents/{kind}": t.DocumentQuery,
}

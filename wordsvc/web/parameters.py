"""The parameters many endpoints share: the ledger's path segments, its headers, and the query every word endpoint reads.

An :class:`~wordsvc.web.endpoints.Endpoint` lists them by these names, so a
path segment's pattern and limits are written once for every operation that
takes it.
"""

from __future__ import annotations

from typing import Any

from ..core.documents import DOCUMENT_KINDS
from ..core.ids import ID_PATTERN
from ..schemas.events import MAX_SEQ
from ..schemas.rounds import MAX_ROUNDS
from ..schemas.tournaments import MAX_SESSIONS
from .endpoints import query

__all__ = ["COMMON_QUERY", "EVENT", "GAME", "IF_MATCH", "KIND", "LAST_EVENT_ID", "PLAYER", "RATING", "ROUND", "SEAT", "SESSION", "path"]


def path(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """A path parameter: an id of the ledger (``ID_PATTERN``, at most 64 characters) unless ``schema`` says otherwise."""
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema or {"type": "string", "pattern": ID_PATTERN, "maxLength": 64}}


EVENT = path("event", "The event's id.")
GAME = path("game", "The table's id within the event.")
ROUND = path("round", "The round number, 1 first.", {"type": "integer", "minimum": 0, "maximum": MAX_ROUNDS})
PLAYER = path("player", "The player's id within the event.")
SEAT = path("seat", "A seat of the table, 0 first.", {"type": "integer", "minimum": 0, "maximum": 9})
SESSION = path("session", "The session's number, 1 first.", {"type": "integer", "minimum": 1, "maximum": MAX_SESSIONS})
RATING = path("rating_id", "A player's rating id, the same across events.")
KIND = path("kind", "Which document: " + ", ".join(DOCUMENT_KINDS) + ".", {"type": "string", "enum": list(DOCUMENT_KINDS)})

IF_MATCH = {"name": "If-Match", "in": "header", "required": False, "description": "A correction's: the round's current ETag.", "schema": {"type": "string"}}
LAST_EVENT_ID = {
    "name": "Last-Event-ID", "in": "header", "required": False,
    "description": "The id of the last message a reconnecting client had: the stream resumes after it. Written in ASCII digits; another value is a 422.",
    "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEQ},
}  # fmt: skip

#: The query of the endpoints that judge words: which ruleset, which lexicon, which language of messages.
COMMON_QUERY = [
    query("ruleset", "Ruleset id; default: the ruleset `lang`'s lexicon is played with (`deutsch` for `de`), else `standard`."),
    query("lang", "BCP 47 language tag of the lexicon (default: the ruleset's language); alone, it also picks its own ruleset and deck."),
    query("locale", "Language of messages (`en`, `et`, `is`); else Accept-Language."),
]

"""``GET /events/<id>/stream``: an event's changes pushed as Server-Sent Events (docs/streams.md).

The view checks the event and the token, writes the stream's start, and
asks the server to hold the response open on the event's channel
(:meth:`wordsvc.server.hosting.Hosting.hold`), with the function that reads the
channel's messages past a cursor (what the client missed first, a page at a
time as the client takes them) and tells which of the streams' tokens have
been revoked. Who tells the server that a channel changed: this worker,
after each write it answers (an app-wide hook below), and the ledger's
:class:`~wordsvc.ledger.records.changes.Watch` for writes made by any other worker
or replica (an admin token's revocation, on the house chain, may concern
every event's streams).

Served by another WSGI server, which cannot hold a response, the view
answers the start and a page of what the client missed, and the body ends:
an ``EventSource`` reconnects after ``retry`` and resumes, so the stream
still works, as polling.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, current_app, request
from marshmallow import ValidationError

from ...core import problem_codes as codes
from ...core.problem_codes import coded
from ...ledger.integrity.audit import HOUSE
from ...ledger.records.changes import Watch
from ...ledger.records.feed import Changes
from ...schemas.events import MAX_SEQ
from ...schemas.stream import StreamQuery
from ...server.hosting import hosting_of
from ..endpoints import PUBLIC, Endpoint, Resource
from ..ledger_problems import ACCESS
from ..openapi_schemas import EVENT_STREAM
from ..parameters import EVENT, LAST_EVENT_ID
from ..requests import query_args
from .ledger_access import ledger, principal

__all__ = ["RETRY_MS", "bp", "encode", "last_event_id", "message", "watch_ledger"]

bp = Resource("stream", __name__)
STREAM_QUERY = StreamQuery()
#: The reconnection delay the stream asks of its clients (SSE ``retry``), in milliseconds.
RETRY_MS = 2000
_WATCHING = threading.Lock()
_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # no proxy (nginx) may hold the messages back


def message(seq: int, kind: str, data: dict[str, Any]) -> bytes:
    """One SSE message: its id (the audit seq), its type and its data (one line of JSON)."""
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (seq, kind.encode("ascii"), orjson.dumps(data))


def encode(changes: Changes) -> tuple[list[tuple[int, bytes]], int, bool, frozenset[str]]:
    """What :meth:`~wordsvc.ledger.records.feed.Feed.read` found, as the server's streams take it (``server/streams.py``)."""
    return [(seq, message(seq, kind, data)) for seq, kind, data in changes.messages], changes.cursor, changes.more, changes.revoked


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/stream",
        operation_id="getEventStream",
        tag="ledger",
        summary="The event's changes, pushed (Server-Sent Events)",
        description="A held `text/event-stream`: `ready` first (its id the newest audit entry), then a typed message for every change a viewer may see "
        "(`round.stored`, `round.corrected`, `table.seated`, `session.started`, `session.reseated`, `player.registered`, "
        "`player.checked_in`, `player.withdrawn`, `player.deleted`, `ruling.given`, `event.closed`), each with its audit entry's seq as its id, and a "
        "`: keep-alive` comment every 15 s. Reconnect with `Last-Event-ID` (or `?after=`) to get what was missed, once. A private event needs "
        "a token of the event. 503 with `Retry-After` when the worker holds as many streams as it takes (docs/streams.md).",
        parameters=[EVENT, LAST_EVENT_ID],
        query=StreamQuery,
        answers={200: EVENT_STREAM},
        errors=(400, 401, 403, 404, 422, 503),
        access=PUBLIC,
        problems=(*ACCESS, codes.LAST_EVENT_ID, codes.TOO_MANY_STREAMS),
    )
)
def stream(event: str) -> Response:
    """The start of the stream (``retry``, ``ready``); the server sends the rest, history first, a page at a time.

    The stream is held with its token's id as its key, so that the token's
    revocation, heard by the fetch, ends it (docs/streams.md).
    """
    query = STREAM_QUERY.load(query_args())
    after = last_event_id(request.headers.get("Last-Event-ID"), query["after"])
    book = ledger()
    actor = principal()
    head = book.feed.head(actor, event)
    cursor = head if after is None or after > head else after  # an id past the newest entry is from no history of this event
    parts = [b"retry: %d\n\n" % RETRY_MS, message(cursor, "ready", {"event": event, "head": head})]
    hosting = hosting_of(request.environ)
    if hosting is None or hosting.changed is None:  # a server that cannot hold it: the start and a page of history; the client reconnects for the rest
        if cursor < head:
            parts += [data for _, data in encode(book.feed.read(event, cursor))[0]]
    else:
        if request.method == "GET":
            watch_ledger(hosting.changed)

        def fetch(past: int, keys: frozenset[str]) -> tuple[list[tuple[int, bytes]], int, bool, frozenset[str]]:
            return encode(book.feed.read(event, past, keys))

        hosting.hold(event, cursor, fetch, None if actor is None else actor.token)
    return Response(b"".join(parts), 200, _HEADERS, mimetype="text/event-stream")


def last_event_id(header: str | None, after: int | None) -> int | None:
    if header is None:
        return after
    value = header.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 10 and int(value) <= MAX_SEQ):  # what the OpenAPI document says
        raise ValidationError(
            {"Last-Event-ID": [coded(codes.LAST_EVENT_ID, f"must be the id of a message of this stream (an audit sequence number, 0 to {MAX_SEQ})")]}
        )
    return int(value)


def watch_ledger(changed: Callable[[str | None], None]) -> None:
    """Start this worker's watch of the ledger (once a process) for changes made elsewhere."""
    extensions = current_app.extensions
    with _WATCHING:
        watching = extensions.get("wordsvc.watch")
        if watching is None or watching[0] != os.getpid():
            watch = Watch(ledger().engine, lambda chain: changed(None if chain == HOUSE else chain))  # an admin token revoked: any event's
            watch.start()
            extensions["wordsvc.watch"] = (os.getpid(), watch)


@bp.after_app_request
def _tell_streams(response: Response) -> Response:
    """A write to an event answered: tell this worker's streams of the event now (others hear through the ledger's watch)."""
    if request.method not in ("GET", "HEAD", "OPTIONS") and response.status_code < 400:
        hosting = hosting_of(request.environ)
        event = (request.view_args or {}).get("event")
        if hosting is not None and hosting.changed is not None and isinstance(event, str):
            hosting.changed(event)
    return response

"""An event's changes as a viewer sees them: the audit entries past a cursor, as small typed messages (docs/streams.md).

Each message is ``(seq, type, data)``: the audit entry's sequence number, so
a client resumes from the last one it had, and what a screen needs to know
that something changed, never more than a reader of the event may see (a
ruling's words, a token, a seed stay out). Entries no viewer sees (tokens,
lexicon acceptances, the ratings flag) give no message but move the cursor.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NamedTuple

from sqlalchemy import bindparam, select

from .._db.prepared import Prepared
from .._db.schema import audit, revisions, tokens
from .access import require_read
from .principals import Principal
from .store import Store

__all__ = ["MESSAGE_TYPES", "PAGE", "Changes", "Feed", "message_of"]

#: Audit entries one read takes at most; a client further behind gets the rest in the reads that follow.
PAGE = 500


class Changes(NamedTuple):
    """What :meth:`Feed.read` found past a cursor."""

    messages: list[tuple[int, str, dict[str, Any]]]
    #: the last entry read (the cursor to read on from), messages or not
    cursor: int
    #: the page was full: read again from ``cursor``
    more: bool
    #: of the token ids asked about, those that no longer read the event (revoked), read after the entries
    revoked: frozenset[str] = frozenset()


def _round(payload: dict[str, Any]) -> dict[str, Any]:
    return {"game": payload["game"], "round": payload["round"], "revision": payload["revision"]}


def _seated(payload: dict[str, Any]) -> dict[str, Any]:
    data = {"game": payload["game"], "players": payload["players"]}
    if payload.get("session") is not None:
        data["session"] = payload["session"]
    return data


#: audit action -> (message type, the message's data from the entry's payload)
_MESSAGES: dict[str, tuple[str, Callable[[dict[str, Any]], dict[str, Any]]]] = {
    "round.submitted": ("round.stored", _round),
    "round.corrected": ("round.corrected", lambda p: {**_round(p), "reason": p.get("reason")}),
    "game.created": ("table.seated", _seated),
    "game.reseated": ("table.seated", _seated),
    "session.created": ("session.started", lambda p: {"session": p["session"], "tables": len(p["tables"])}),
    "session.reseated": ("session.reseated", lambda p: {"session": p["session"], "draws": p["draws"]}),
    "player.registered": ("player.registered", lambda p: {"player": p["player"], "name": p["name"]}),
    "player.checked_in": ("player.checked_in", lambda p: {"player": p["player"], "joined": p["joined"]}),
    "player.withdrawn": ("player.withdrawn", lambda p: {"player": p["player"], "from": p["from"]}),
    "player.deleted": ("player.deleted", lambda p: {"player": p["player"]}),
    "judge.ruling": ("ruling.given", lambda p: {"table": p["table"], "round": p["round"], "acceptable": p["acceptable"], "count": p["count"]}),
    "event.closed": ("event.closed", lambda p: {}),
    # hosted games (docs/play.md): each payload is what a spectator may see
    "play.created": ("play.created", lambda p: {"game": p["game"], "seats": p["seats"], "commitment": p["commitment"]}),
    "play.seated": ("play.seated", lambda p: {"game": p["game"], "seat": p["seat"], "name": p["name"], "kind": p["kind"]}),
    "play.started": ("play.started", lambda p: {"game": p["game"], "players": p["players"]}),
    "move.played": ("move", lambda p: p),
    "play.ended": ("play.ended", lambda p: {"game": p["game"], "totals": p["totals"]}),
    "play.handed": ("play.handed", lambda p: {"game": p["game"], "seat": p["seat"], "reason": p["reason"]}),
    "play.aborted": ("play.aborted", lambda p: {"game": p["game"]}),
}


#: Every message type an entry may give (``ready`` is the stream's own first message).
MESSAGE_TYPES = frozenset(kind for kind, _ in _MESSAGES.values())


def message_of(action: str, payload: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The message an audit entry gives a viewer, ``(type, data)``; ``None`` for an entry no viewer sees."""
    known = _MESSAGES.get(action)
    return None if known is None else (known[0], known[1](payload))


class Feed:
    """Reading an event's changes for its streams."""

    def __init__(self, store: Store):
        self.store = store

    def head(self, actor: Principal | None, event_id: str) -> int:
        """The event's newest audit entry (0 if none), for a stream that opens; 404 and 401/403 as any read of the event."""
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            row = _HEAD.first(conn, {"chain": event_id})
        return 0 if row is None else int(row.seq)

    def read(self, event_id: str, after: int, tokens: frozenset[str] = frozenset()) -> Changes:
        """The messages of the entries past ``after``, :data:`PAGE` entries at most; rounds with each player's points in the round.

        ``tokens``: the ids of the tokens the event's open streams were opened
        with; those revoked are in :attr:`Changes.revoked`. They are read after
        the entries, so a token found live was live when every entry read was
        written: a stream never gets an entry written after its token was
        revoked.
        """
        with self.store.engine.connect() as conn:
            rows = _ENTRIES.all(conn, {"chain": event_id, "after": after, "limit": PAGE})
            messages = []
            for row in rows:
                found = message_of(row.action, json.loads(row.payload_json))
                if found is None:
                    continue
                kind, data = found
                if kind in ("round.stored", "round.corrected"):
                    points = _POINTS.first(conn, {"event": event_id, "game": data["game"], "round": data["round"], "revision": data["revision"]})
                    data["points"] = json.loads(points.totals_json) if points is not None else {}
                messages.append((row.seq, kind, data))
            revoked = frozenset(conn.execute(_REVOKED, {"ids": sorted(tokens)}).scalars()) if tokens else frozenset()
        return Changes(messages, rows[-1].seq if rows else after, len(rows) == PAGE, revoked)


_HEAD = Prepared(select(audit.c.seq).where(audit.c.chain == bindparam("chain")).order_by(audit.c.seq.desc()).limit(1))
_ENTRIES = Prepared(
    select(audit.c.seq, audit.c.action, audit.c.payload_json)
    .where(audit.c.chain == bindparam("chain"), audit.c.seq > bindparam("after"))
    .order_by(audit.c.seq)
    .limit(bindparam("limit"))
)
_REVOKED = select(tokens.c.id).where(tokens.c.id.in_(bindparam("ids", expanding=True)), tokens.c.revoked_at.is_not(None))
_POINTS = Prepared(  # a revision's totals_json: each player's score in that round
    select(revisions.c.totals_json).where(
        revisions.c.event_id == bindparam("event"),
        revisions.c.game_id == bindparam("game"),
        revisions.c.round == bindparam("round"),
        revisions.c.revision == bindparam("revision"),
    )
)

"""Events: creating one under a snapshot of its ruleset and lexicon, reading it, accepting a new lexicon, closing it.

An event keeps the ruleset it was created under as a JSON snapshot and the
stamp of its lexicon (id, version, sha256): its rounds are scored under
those, whatever the YAML on disk or the loaded lexicon say later, until a
director accepts the new lexicon (an audited decision). Closing is final:
no more tables or rounds, and a seeded event's seed is revealed.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from ...core import problem_codes as codes
from ...core.deal import commitment, new_seed
from ...core.errors import InvalidRequest
from ...core.lexicon import Lexicon
from ...core.ruleset import Ruleset
from ...data.rulesets import ruleset_document
from .._db.canonical import canonical, now, sha256_of
from .._db.database import lock_chain
from .._db.schema import audit, events, games, revisions
from ..errors import Conflict, Forbidden
from ..integrity.receipts import Appended
from .access import require_admin, require_director, require_read
from .deals import Deals
from .principals import OPEN, Principal
from .store import RULESET_JSON, Store, check_id, refuse_if_closed
from .tokens import Tokens

__all__ = ["Events", "event_payload"]

#: The lock every creation without an admin token takes (PostgreSQL: replicas count one after another), so the limit is exact.
_OPEN_CHAIN = "wordsvc:open-events"


class Events:
    """An event's life: created, read, its lexicon accepted, closed."""

    def __init__(self, store: Store, tokens: Tokens, deals: Deals):
        self.store = store
        self.tokens = tokens
        self.deals = deals

    def create_event(
        self,
        actor: Principal | None,
        ruleset: Ruleset,
        lexicon: Lexicon,
        name: str,
        event_id: str | None = None,
        private: bool = False,
        deals: str = "none",
        duplicate: bool = False,
        tournament_format: dict[str, Any] | None = None,
        open_limit: int | None = None,
    ) -> dict[str, Any]:
        """A new event under a snapshot of ``ruleset`` and ``lexicon``'s stamp; the answer carries the director token, once.

        ``open_limit``: creation is open to anyone (``WORDSVC_EVENT_CREATION=open``),
        and this many events may be created without an admin token. Such an
        event's audit names :data:`~.principals.OPEN` as its creator, and the
        events created so are counted from the audit in the write's own
        transaction (on PostgreSQL under a lock of their own), so the limit
        holds exactly however many requests arrive at once: past it,
        403 ``open_events_exhausted``. ``None``: an admin token is needed.

        Every event draws a secret seed and publishes its commitment (docs/deals.md,
        section 8): with ``deals="seeded"`` the service deals every round from
        it, and the random seating of a tournament's sessions draws from it
        (docs/seating.md); a ``duplicate`` event deals every table the same
        cards. ``tournament_format``: the snapshot of the format its players
        are ranked by across sessions (docs/standings.md; none: the default).
        """
        creator = OPEN if open_limit is not None and (actor is None or actor.role != "admin") else require_admin(actor)
        event_id = event_id or f"e{secrets.token_hex(4)}"
        check_id(event_id, "id")
        if duplicate and deals != "seeded":
            raise InvalidRequest(
                'A duplicate event needs the service\'s deals: send "deals": "seeded".',
                {"duplicate": ['needs "deals": "seeded"']},
                code=codes.CONFLICTING_FIELDS,
            )
        seed = new_seed()
        document = ruleset_document(ruleset)
        row = {
            "id": event_id,
            "name": name,
            "private": private,
            "ruleset_id": ruleset.id,
            "ruleset_json": canonical(document),
            "ruleset_sha256": sha256_of(document),
            "lexicon_json": canonical(lexicon.info.stamp()),
            "created_at": now(),
            "deals": deals,
            "duplicate": duplicate,
            "deal_seed": seed,
            "deal_commitment": commitment(seed),
            "status": "open",
            "format_json": canonical(tournament_format) if tournament_format is not None else None,
        }

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if conn.execute(select(events.c.id).where(events.c.id == event_id)).first() is not None:
                raise Conflict(f"There is already an event {event_id!r}.", {"id": ["taken"]}, code=codes.EVENT_EXISTS)
            if creator is OPEN:
                _count_open(conn, open_limit or 0)
            conn.execute(insert(events).values(row))
            self.store.append(conn, event_id, creator, "event.created", event_payload(row))
            return self.tokens.issue_director(conn, event_id, creator)

        return self.with_director(event_id, self.store.writer.run(event_id, work))

    def event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        row = self.store.event_row(event_id)
        require_read(actor, row.id, row.private)
        with self.store.engine.connect() as conn:
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rounds = conn.execute(select(revisions.c.game_id, revisions.c.round).where(revisions.c.event_id == event_id).distinct()).all()
            snapshot = json.loads(RULESET_JSON.first(conn, {"event": event_id})[0])
        played: dict[str, int] = {}
        for game_id, _ in rounds:
            played[game_id] = played.get(game_id, 0) + 1
        return {
            "id": row.id,
            "name": row.name,
            "private": bool(row.private),
            "status": row.status,
            "created_at": row.created_at,
            "ruleset": {"id": row.ruleset_id, "sha256": row.ruleset_sha256, "rounds": snapshot["rounds"], "snapshot": snapshot},
            "lexicon": json.loads(row.lexicon_json),
            "deals": self.deals.view(row),
            "format": json.loads(row.format_json) if row.format_json else None,
            "rated": bool(row.rated),
            "games": [{"id": g.id, "players": json.loads(g.players_json), "rounds_played": played.get(g.id, 0)} for g in game_rows],
        }

    def close_event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Close the event (a director's audited decision): no more rounds, and a seeded event's seed is revealed."""
        store = self.store
        store.event_row(event_id)
        actor = require_director(actor, event_id, "close the event")

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(events.c.status, events.c.deal_seed).where(events.c.id == event_id)).one()
            if row.status != "closed":
                conn.execute(update(events).where(events.c.id == event_id).values(status="closed", closed_at=now()))
                return store.append(conn, event_id, actor, "event.closed", {"seed": row.deal_seed})
            return store.receipts.find(conn, event_id, ("event.closed",), lambda p: True)  # closed before: that entry's receipt

        receipt = store.receipt(event_id, store.writer.run(event_id, work))
        return {**self.event(actor, event_id), "receipt": receipt}

    def accept_lexicon(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Move the event to the lexicon loaded now (a director's audited decision); nothing happens if it is the same, 409 once closed."""
        store = self.store
        row = store.event_row(event_id)
        actor = require_director(actor, event_id)
        new = store.lexicons(json.loads(row.lexicon_json)["id"]).info.stamp()

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            old = json.loads(conn.execute(select(events.c.lexicon_json).where(events.c.id == event_id)).scalar_one())
            if new != old:
                refuse_if_closed(conn, event_id, "its rounds stay scored under the lexicon it had")
                conn.execute(update(events).where(events.c.id == event_id).values(lexicon_json=canonical(new)))
                return store.append(conn, event_id, actor, "lexicon.accepted", {"from": old, "to": new})
            # the lexicon it has already: the receipt of the entry that gave it (the last acceptance, else the creation)
            return store.receipts.find(conn, event_id, ("lexicon.accepted", "event.created"), lambda p: p.get("to", p.get("lexicon")) == new)

        receipt = store.receipt(event_id, store.writer.run(event_id, work))
        return {**self.event(actor, event_id), "receipt": receipt}

    def scoring_context(self, actor: Principal | None, event_id: str) -> tuple[Ruleset, Lexicon]:
        """The event's snapshot ruleset and its lexicon (409 if the loaded lexicon is no longer the event's): what its rounds are scored under."""
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.store.ruleset(event), self.store.event_lexicon(event)

    def event_ids(self) -> list[str]:
        with self.store.engine.connect() as conn:
            return [row.id for row in conn.execute(select(events.c.id).order_by(events.c.created_at, events.c.id))]

    def with_director(self, event_id: str, issued: tuple[str, str, Appended]) -> dict[str, Any]:
        """The event as answered to the one who made it (created or imported): with its director token, shown this once, and the write's receipt."""
        view = self.event(Principal(issued[0], "director", event_id), event_id)  # read as its new director: an open creator reads no private event
        view["director_token"] = {"id": issued[0], "token": issued[1]}
        view["receipt"] = self.store.receipts.of_write(event_id, issued[2])
        return view


def event_payload(row: dict[str, Any]) -> dict[str, Any]:
    """What the audit records of a new event: everything but the secret seed (its commitment is public)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "private": row["private"],
        "ruleset_id": row["ruleset_id"],
        "ruleset": json.loads(row["ruleset_json"]),
        "ruleset_sha256": row["ruleset_sha256"],
        "lexicon": json.loads(row["lexicon_json"]),
        "deals": row["deals"],
        "duplicate": row["duplicate"],
        "deal_commitment": row["deal_commitment"],
        **({"format": json.loads(row["format_json"])} if row.get("format_json") else {}),
    }


def _count_open(conn: Connection, limit: int) -> None:
    """Refuse (403 ``open_events_exhausted``) when ``limit`` events were created without an admin token already."""
    lock_chain(conn, _OPEN_CHAIN)
    made = conn.execute(select(func.count()).select_from(audit).where(audit.c.action == "event.created", audit.c.actor_token == OPEN.token)).scalar_one()
    if made >= limit:
        raise Forbidden(
            f"This service has created the {limit} events it allows without an admin token (WORDSVC_OPEN_EVENTS); an administrator creates more "
            "with an admin token (wordsvc event create, or POST /events with Authorization: Bearer).",
            {"authorization": [f"events without an admin token: {made} of {limit} created"]},
            code=codes.OPEN_EVENTS_EXHAUSTED,
        )

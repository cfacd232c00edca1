"""Tokens in the ledger: who a bearer token is, issuing and revoking tokens, each audited.

The token format and its hashing are :mod:`.principals` (no database); this
module stores them. An admin token is audited on the house chain
(:data:`~wordsvc.ledger.integrity.audit.HOUSE`), an event's tokens on the event's
chain. A token is shown once, in the answer that issues it, and only its
hash is kept, sealed with the service's key (:mod:`..integrity.token_seals`): a row
without a good seal lets nobody in.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from sqlalchemy import Connection, bindparam, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from .._db.canonical import now
from .._db.prepared import Prepared
from .._db.schema import tokens
from ..errors import NotFound, Unauthorized
from ..integrity.audit import HOUSE
from ..integrity.receipts import Appended
from ..integrity.token_seals import Seals
from .access import require_director
from .principals import LOCAL, Principal, hash_token, matches, new_token, token_id
from .store import Store

__all__ = ["Tokens", "console_link", "token_view"]


class Tokens:
    """Authenticating, issuing, listing and revoking tokens."""

    def __init__(self, store: Store):
        self.store = store
        self.seals = Seals(store.receipts.signer)

    def authenticate(self, token: str) -> Principal:
        """The principal of a bearer token; :class:`Unauthorized` (one answer for every failure) if it is not a live token."""
        tid = token_id(token)
        row = self.store.readers.read(lambda reader: _TOKEN.first(reader, {"id": tid})) if tid else None
        stored = row.secret_sha256 if row is not None else None
        if not matches(token, stored) or row is None or row.revoked_at is not None or not self.seals.holds(row):
            raise Unauthorized("The bearer token is not valid.", {"authorization": ["not a valid token"]}, code=codes.TOKEN_INVALID)
        return Principal(row.id, row.role, row.event_id, row.table_id)

    def create_admin_token(self, label: str | None = None, actor: Principal = LOCAL) -> tuple[str, str]:
        """``(id, token)`` of a new admin token; the token is shown once and never stored."""

        def work(conn: Connection) -> tuple[str, str]:
            tid, token = self.insert(conn, "admin", None, None, label)
            self.store.append(conn, HOUSE, actor, "token.issued", {"id": tid, "role": "admin", "table": None})
            return tid, token

        return self.store.writer.run(HOUSE, work)

    def issue_token(self, actor: Principal | None, event_id: str, role: str, table: str | None = None, label: str | None = None) -> dict[str, Any]:
        """A director's (or admin's) new director, referee, kiosk or viewer token for the event; ``token`` is in the answer only."""
        store = self.store
        store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if table is not None and store.game_row(conn, event_id, table) is None:
                raise InvalidRequest(
                    f"Event {event_id} has no table {table!r}.", {"table": [f"no table {table!r} in event {event_id}"]}, code=codes.TABLE_NOT_FOUND
                )
            tid, token = self.insert(conn, role, event_id, table, label)
            return tid, token, store.append(conn, event_id, actor, "token.issued", {"id": tid, "role": role, "table": table})

        tid, token, appended = store.writer.run(event_id, work)
        issued = {"id": tid, "token": token, "role": role, "event": event_id, "table": table, "label": label}
        if role == "referee" and table is not None:
            issued["console"] = console_link(event_id, table, token)
        return {**issued, "receipt": store.receipts.of_write(event_id, appended)}

    def revoke_token(self, actor: Principal | None, event_id: str, tid: str) -> dict[str, Any]:
        store = self.store
        store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(tokens).where(tokens.c.id == tid, tokens.c.event_id == event_id)).first()
            if row is None:
                raise NotFound(f"Event {event_id} has no token {tid!r}.", {"token": [f"no token {tid!r} in event {event_id}"]}, code=codes.TOKEN_NOT_FOUND)
            if row.revoked_at is None:
                conn.execute(update(tokens).where(tokens.c.id == tid).values(revoked_at=now()))
                return store.append(conn, event_id, actor, "token.revoked", {"id": tid})
            return store.receipts.find(conn, event_id, ("token.revoked",), lambda p: p.get("id") == tid)  # revoked before: that entry's receipt

        receipt = store.receipt(event_id, store.writer.run(event_id, work))
        return {**token_view(self._row(tid)), "receipt": receipt}

    def list_tokens(self, actor: Principal | None, event_id: str) -> list[dict[str, Any]]:
        self.store.event_row(event_id)
        require_director(actor, event_id)
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(tokens).where(tokens.c.event_id == event_id).order_by(tokens.c.created_at, tokens.c.id)).all()
        return [token_view(row) for row in rows]

    def revoke_admin_token(self, tid: str, actor: Principal = LOCAL) -> None:
        def work(conn: Connection) -> None:
            row = conn.execute(select(tokens).where(tokens.c.id == tid, tokens.c.role == "admin")).first()
            if row is None:
                raise NotFound(f"No admin token {tid!r}.", {"token": [f"no admin token {tid!r}"]}, code=codes.TOKEN_NOT_FOUND)
            if row.revoked_at is None:
                conn.execute(update(tokens).where(tokens.c.id == tid).values(revoked_at=now()))
                self.store.append(conn, HOUSE, actor, "token.revoked", {"id": tid})

        self.store.writer.run(HOUSE, work)

    def token_event(self, tid: str) -> str | None:
        """The event a token belongs to (``None`` for an admin token); :class:`NotFound` if there is no such token."""
        row = self._row(tid)
        if row is None:
            raise NotFound(f"No token {tid!r}.", {"token": [f"no token {tid!r}"]}, code=codes.TOKEN_NOT_FOUND)
        return row.event_id  # type: ignore[no-any-return]

    def issue_director(self, conn: Connection, event_id: str, actor: Principal) -> tuple[str, str, Appended]:
        """A new event's director token (created or imported), audited, in the write's transaction; ``(id, token, its entry)``."""
        tid, token = self.insert(conn, "director", event_id, None, "director")
        return tid, token, self.store.append(conn, event_id, actor, "token.issued", {"id": tid, "role": "director", "table": None})

    def insert(self, conn: Connection, role: str, event_id: str | None, table: str | None, label: str | None) -> tuple[str, str]:
        """Store a new token's hash, in the write's transaction; ``(id, token)``."""
        while True:
            tid, token = new_token()
            if _TOKEN.first(conn, {"id": tid}) is None:
                break
        digest = hash_token(token)
        seal = self.seals.seal(tid, digest, role, event_id, table)
        conn.execute(insert(tokens).values(id=tid, secret_sha256=digest, role=role, event_id=event_id, table_id=table, label=label, created_at=now(), **seal))
        return tid, token

    def _row(self, tid: str) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(select(tokens).where(tokens.c.id == tid)).first()


def console_link(event_id: str, table: str, token: str) -> str:
    """The referee console's sign-in link for a table's referee token, relative to the service (docs/pages.md, "Sign-in links").

    Everything is in the fragment, which a browser never sends: the console
    signs in with it, opens the table and takes it out of the address and the
    history, so the token reaches no access log, proxy or ``Referer``.
    """
    fragment = "&".join(f"{name}={quote(value, safe='')}" for name, value in (("event", event_id), ("table", table), ("token", token)))
    return f"/console#{fragment}"


def token_view(row: Any) -> dict[str, Any]:
    """A token row as answered and exported: never its hash."""
    return {
        "id": row.id,
        "role": row.role,
        "event": row.event_id,
        "table": row.table_id,
        "label": row.label,
        "created_at": row.created_at,
        "revoked_at": row.revoked_at,
    }


_TOKEN = Prepared(
    select(
        tokens.c.id, tokens.c.secret_sha256, tokens.c.role, tokens.c.event_id, tokens.c.table_id, tokens.c.revoked_at, tokens.c.key_id, tokens.c.signature
    ).where(tokens.c.id == bindparam("id"))
)

"""The audit trail as read: an event's entries, its checkpoint and Merkle proofs, and the checks that the rows still match it.

The chain's format and its check are :mod:`.audit`; the tree, receipts and
proofs are :mod:`.receipts` and :mod:`.checkpoints`. This module answers
with them for one event (``/events/<id>/audit``, ``/checkpoint``,
``/proof``) and for the command line, which acts as the machine's
administrator and so checks no token.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, select

from .access import require_read
from .audit import HOUSE, token_problems, verify, verify_chain
from .prepared import Prepared
from .schema import audit, tokens
from .store import Store, entry_of
from .token_ops import token_view
from .tokens import Principal
from .transfer import Transfer

__all__ = ["Trail"]


class Trail:
    """Reading and verifying the audit chains."""

    def __init__(self, store: Store, transfer: Transfer):
        self.store = store
        self.transfer = transfer

    def audit_entries(self, actor: Principal | None, event_id: str, after: int = 0, limit: int = 1000) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(audit).where(audit.c.chain == event_id, audit.c.seq > after).order_by(audit.c.seq).limit(limit)).all()
            head = _LAST_ENTRY.first(conn, {"chain": event_id})
        return {"event": event_id, "head": {"seq": head.seq, "hash": head.hash} if head else None, "entries": [entry_of(row) for row in rows]}

    def checkpoint(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """The event's signed tree head now: how many audit entries its log holds and their Merkle root (:mod:`.checkpoints`)."""
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.store.receipts.checkpoint(event_id)

    def inclusion_proof(self, actor: Principal | None, event_id: str, seq: int, tree_size: int | None = None) -> dict[str, Any]:
        """That audit entry ``seq`` is in the event's tree of ``tree_size`` entries (default: all), as RFC 9162 proves it."""
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.store.receipts.inclusion(event_id, seq, tree_size)

    def consistency_proof(self, actor: Principal | None, event_id: str, first: int, second: int | None = None) -> dict[str, Any]:
        """That the event's tree of ``first`` entries is the start of its tree of ``second`` (default: all), as RFC 9162 proves it."""
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        return self.store.receipts.consistency(event_id, first, second)

    def verify(self, event_id: str) -> list[str]:
        """Problems that show the event's rows or audit chain were edited, deleted or reordered (``[]``: it verifies)."""
        self.store.event_row(event_id)
        return verify(self.transfer.records(event_id, reveal=True))

    def verify_house(self) -> list[str]:
        """The admin tokens' chain, checked as an event's is, and the admin token rows against it."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(audit).where(audit.c.chain == HOUSE).order_by(audit.c.seq)).all()
            admins = conn.execute(select(tokens).where(tokens.c.event_id.is_(None)).order_by(tokens.c.created_at, tokens.c.id)).all()
        entries = [entry_of(row) for row in rows]
        if not entries:
            return [f"token {admin.id}: no audit entry issued it" for admin in admins]
        return verify_chain(HOUSE, entries) or token_problems(entries, [token_view(admin) for admin in admins])

    def log(self, event_id: str) -> list[dict[str, Any]]:
        """Every audit entry of the event, in order (the command line's: it acts as the machine's administrator)."""
        with self.store.engine.connect() as conn:
            return [entry_of(row) for row in conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq))]


_LAST_ENTRY = Prepared(select(audit.c.seq, audit.c.hash).where(audit.c.chain == bindparam("chain")).order_by(audit.c.seq.desc()).limit(1))

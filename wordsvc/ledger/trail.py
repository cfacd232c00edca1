"""The audit trail as read: an event's entries, its checkpoint and Merkle proofs, and the checks that the rows still match it.

The chain's format and its check are :mod:`.integrity.audit`; the tree, receipts and
proofs are :mod:`.integrity.receipts` and :mod:`.integrity.checkpoints`. This module answers
with them for one event (``/events/<id>/audit``, ``/checkpoint``,
``/proof``) and for the command line, which acts as the machine's
administrator and so checks no token.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, bindparam, select, update

from ..core import problem_codes as codes
from ._db.prepared import Prepared
from ._db.schema import audit, tokens
from .errors import Conflict, NotFound
from .integrity.audit import HOUSE, token_problems, verify_chain
from .integrity.entry_signatures import Keys, signature_problems
from .integrity.receipts import Appended
from .integrity.token_seals import seal_problem
from .integrity.verification import Verified, verify_event
from .records.access import require_read
from .records.principals import LOCAL, Principal
from .records.store import Store, entry_of
from .records.tokens import token_view
from .transfer.export import Transfer

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
        """The event's signed tree head now: how many audit entries its log holds and their Merkle root (:mod:`.integrity.checkpoints`)."""
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

    def verify(self, event_id: str, keys: Keys | None = None) -> list[str]:
        """Problems that show the event's rows or audit chain were edited, deleted, reordered, re-scored or appended to (``[]``: it verifies).

        ``keys`` (by key id) must have signed every entry (:mod:`.integrity.entry_signatures`); by default the service's own keys, none without a key.
        """
        return self.check(event_id, keys).problems

    def check(self, event_id: str, keys: Keys | None = None) -> Verified:
        """:meth:`verify` with the notes of what it could not check (:mod:`.integrity.verification`); with keys, the live tokens' seals too."""
        self.store.event_row(event_id)
        keys = self.store.receipts.signer.trusted if keys is None else keys
        found = verify_event(self.transfer.records(event_id, reveal=True), keys, self.store.loaded_lexicon)
        if keys and not found.problems:
            found.problems += self._seal_problems(event_id, keys)
        return found

    def _seal_problems(self, chain: str, keys: Keys) -> list[str]:
        """Each live token of ``chain`` (an event's, or the admin tokens of the house) whose row is not sealed by one of ``keys``."""
        whose = tokens.c.event_id.is_(None) if chain == HOUSE else tokens.c.event_id == chain
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(tokens).where(whose, tokens.c.revoked_at.is_(None)).order_by(tokens.c.created_at, tokens.c.id)).all()
        return [
            f"token {row.id}: {problem} (put in the database without the service's key, or issued before tokens were sealed and never accepted)"
            if problem == "not sealed"
            else f"token {row.id}: {problem}"
            for row in rows
            if (problem := seal_problem(row, keys)) is not None
        ]

    def verify_house(self, keys: Keys | None = None) -> list[str]:
        """The admin tokens' chain, checked as an event's is, the admin token rows against it, and (``keys`` as in :meth:`verify`) its signatures."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(audit).where(audit.c.chain == HOUSE).order_by(audit.c.seq)).all()
            admins = conn.execute(select(tokens).where(tokens.c.event_id.is_(None)).order_by(tokens.c.created_at, tokens.c.id)).all()
        entries = [entry_of(row) for row in rows]
        if not entries:
            return [f"token {admin.id}: no audit entry issued it" for admin in admins]
        problems = verify_chain(HOUSE, entries) or token_problems(entries, [token_view(admin) for admin in admins])
        keys = self.store.receipts.signer.trusted if keys is None else keys
        if problems or not keys:
            return problems
        return signature_problems(entries, keys).problems or self._seal_problems(HOUSE, keys)

    def accept(self, chain: str, upto: int) -> Appended | None:
        """An operator's decision to take a chain of ``upto`` entries as it is although the service did not sign its newest entry
        (entries written before entries were signed, or appended behind the service's back and judged harmless): an
        ``audit.accepted`` entry, signed, vouching for entries 1 to ``upto`` (:mod:`.integrity.entry_signatures`), and a seal for each live
        token of the chain that has none (:mod:`.integrity.token_seals`; their ids in the entry). ``None`` when there was nothing to decide:
        every entry signed (or covered by an earlier decision) and every live token sealed. A token whose seal fails (its row altered) is never sealed again: it
        stays refused, and ``audit verify`` names it until a director revokes it.

        Refused (409) without a key, for a chain that does not verify (chain, rows and scores: fix or restore it first), or that no
        longer holds exactly ``upto`` entries (what the operator looked at is not what is there).
        """
        store, seals = self.store, self.transfer.tokens.seals
        if not store.receipts.signer.signs:
            raise Conflict("Accepting entries signs them: set WORDSVC_LEDGER_KEY_FILE to the service's key.", {"key": ["no key"]}, code=codes.KEY_MISSING)
        if chain != HOUSE:
            store.event_row(chain)
        problems = self.verify_house(keys={}) if chain == HOUSE else self.verify(chain, keys={})
        if problems:
            raise Conflict(
                f"The log of {chain} does not verify: {problems[0]}. Only a log that verifies can be accepted.",
                {"audit": problems[:50]},
                code=codes.LOG_UNVERIFIED,
            )
        whose = tokens.c.event_id.is_(None) if chain == HOUSE else tokens.c.event_id == chain
        unsigned = signature_problems(self.log(chain), store.receipts.signer.trusted).problems  # entries no signature or decision vouches for

        def work(conn: Connection) -> Appended | None:
            trees = store.receipts.trees
            frontier = trees.current(conn, chain)
            if frontier.size == 0:
                raise NotFound(f"The chain {chain} has no entries.", {"chain": ["has no entries"]}, code=codes.CHAIN_NOT_FOUND)
            if frontier.size != upto:
                raise Conflict(
                    f"The log of {chain} holds {frontier.size} entries, not {upto}: check it again and accept what it holds.",
                    {"upto": [f"the log holds {frontier.size}"]},
                    code=codes.AUDIT_GAP,
                )
            unsealed = conn.execute(select(tokens).where(whose, tokens.c.revoked_at.is_(None), tokens.c.signature.is_(None)).order_by(tokens.c.id)).all()
            for row in unsealed:
                conn.execute(update(tokens).where(tokens.c.id == row.id).values(**seals.seal(row.id, row.secret_sha256, row.role, row.event_id, row.table_id)))
            if not unsealed and not unsigned:
                return None
            payload = {"upto": upto, "head": frontier.last.hex(), "tokens": [row.id for row in unsealed]}
            return store.append(conn, chain, LOCAL, "audit.accepted", payload, decision=True)

        return store.writer.run(chain, work)

    def log(self, event_id: str) -> list[dict[str, Any]]:
        """Every audit entry of the event, in order (the command line's: it acts as the machine's administrator)."""
        with self.store.engine.connect() as conn:
            return [entry_of(row) for row in conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq))]


_LAST_ENTRY = Prepared(select(audit.c.seq, audit.c.hash).where(audit.c.chain == bindparam("chain")).order_by(audit.c.seq.desc()).limit(1))

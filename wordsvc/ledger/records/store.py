"""What every ledger concept shares: one database, its writer and readers, the receipts, the snapshots.

A :class:`Store` is built once per :class:`~wordsvc.ledger.ledger.Ledger` and
handed to each concept's class (:mod:`.tokens`, :mod:`.events`,
:mod:`.deals`, :mod:`.games`, :mod:`.rounds`, :mod:`.rulings`,
:mod:`..tournaments.standings`, :mod:`..transfer.export`, :mod:`..trail`). It holds no rule of
any one concept, only what two or more of them read or write the same way:
an event's or a table's row, the event's ruleset (rebuilt from its
snapshot, never from the YAML on disk) and lexicon, the audit entry every
write appends in its own transaction (:meth:`Store.append`), and the
receipt a write answers with.

The prepared statements here are the ones more than one concept runs; a
statement only one concept runs lives in that concept's module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, select

from ...core import problem_codes as codes
from ...core.budget import MemoryBudget
from ...core.errors import InvalidRequest
from ...core.ids import ID_PATTERN, is_id
from ...core.lexicon import Lexicon
from ...core.ruleset import Ruleset
from ...data.rulesets import ruleset_from_document
from .._db.canonical import canonical, now
from .._db.database import Writer
from .._db.prepared import Prepared, Readers
from .._db.schema import audit, events, games, revisions
from ..errors import Conflict, NotFound
from ..integrity.audit import GENESIS, make_entry
from ..integrity.checkpoints import Signer
from ..integrity.entry_signatures import sign_entry
from ..integrity.receipts import Appended, Receipts
from .principals import Principal

__all__ = ["CHANGES_CHANNEL", "Store", "audit_row", "check_id", "entry_of", "refuse_if_closed"]

#: The PostgreSQL notification channel every audit append is announced on, its payload the chain (:mod:`.changes`).
CHANGES_CHANNEL = "wordsvc_audit"

#: Rulesets rebuilt from event snapshots, remembered by sha256.
_SNAPSHOTS_KEPT = 64


class Store:
    """The database and what runs on it for every concept. ``lexicons(lang)`` gives the loaded lexicon of a language."""

    def __init__(
        self,
        engine: Engine,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
    ):
        self.engine = engine
        self.writer = Writer(engine, on_commit)
        self.readers = Readers(engine)
        self.lexicons = lexicons
        self.budget = budget
        self.receipts = Receipts(engine, signer or Signer())
        self._rulesets: dict[str, Ruleset] = {}

    def close(self) -> None:
        """Close the connections (the threads' readers and the pool)."""
        self.readers.close()
        self.writer.close()
        self.engine.dispose()

    # --- rows ---------------------------------------------------------------------------------------

    def event_row(self, event_id: str) -> Any:
        """The event's row (without its seed and snapshot); :class:`NotFound` if there is no such event."""
        with self.engine.connect() as conn:
            row = EVENT.first(conn, {"event": event_id})
        if row is None:
            raise NotFound(f"No event {event_id!r}.", {"event": [f"no event {event_id!r}"]}, code=codes.EVENT_NOT_FOUND)
        return row

    def game_row(self, conn: Connection, event_id: str, game_id: str) -> Any:
        """A table's row, else ``None``."""
        return GAME.first(conn, {"event": event_id, "game": game_id})

    # --- writes -------------------------------------------------------------------------------------

    def append(self, conn: Connection, chain: str, actor: Principal, action: str, payload: dict[str, Any], decision: bool = False) -> Appended:
        """Append an audit entry to ``chain``, signed with the service's key, in the write's own transaction (which holds the chain's lock);
        the entry and the tree after it.

        The chain's newest entry must be one the service signed
        (:mod:`..integrity.entry_signatures`: 409 otherwise), except for a ``decision``
        (an import's or an operator's acceptance), whose entry vouches for
        the entries before it.
        """
        before = self.receipts.trees.current(conn, chain, vouch=not decision)  # the newest entry, read with what the event's tree needs
        prev = before.last.hex() if before.size else GENESIS
        entry = make_entry(chain, before.size + 1, prev, actor.actor(), action, payload, now())
        entry["key_id"], entry["signature"] = sign_entry(self.receipts.signer, chain, entry["seq"], entry["hash"])
        _INSERT_ENTRY.execute(conn, audit_row(entry))
        if conn.dialect.name == "postgresql":  # every replica's streams hear of it when the transaction commits (docs/streams.md)
            _NOTIFY.execute(conn, {"channel": CHANGES_CHANNEL, "chain": chain})
        return self.receipts.appended(chain, before, entry["hash"])

    def receipt(self, event_id: str, done: Appended | tuple[int, str] | None) -> dict[str, Any] | None:
        """The receipt of what a write appended, or of the earlier entry ``(seq, hash)`` a repeat found (``None`` if none)."""
        return self.receipts.of_write(event_id, done) if isinstance(done, Appended) else self.receipts.of_entry(event_id, done)

    # --- what an event is scored under ---------------------------------------------------------------

    def ruleset(self, event: Any) -> Ruleset:
        """The event's ruleset, rebuilt from its snapshot (never from the YAML on disk) and remembered by its sha256."""
        ruleset = self._rulesets.get(event.ruleset_sha256)
        if ruleset is None:
            with self.engine.connect() as conn:
                snapshot = json.loads(RULESET_JSON.first(conn, {"event": event.id})[0])
            ruleset = ruleset_from_document(event.ruleset_id, snapshot)
            if self.budget is not None:
                ruleset.deck.share_budget(self.budget)
            if len(self._rulesets) >= _SNAPSHOTS_KEPT:
                self._rulesets.pop(next(iter(self._rulesets)))
            self._rulesets[event.ruleset_sha256] = ruleset
        return ruleset

    def loaded_lexicon(self, stamp: dict[str, Any]) -> Lexicon | None:
        """The loaded lexicon with this stamp's language and sha256, else ``None``."""
        try:
            lexicon = self.lexicons(str(stamp["id"]))
        except Exception:  # not a language this service has: no lexicon to score with
            return None
        return lexicon if lexicon.info.sha256 == stamp.get("sha256") else None

    def event_lexicon(self, event: Any) -> Lexicon:
        """The loaded lexicon of the event's language, only while it is the one the event accepted (else 409 naming both)."""
        stamp = json.loads(event.lexicon_json)
        lexicon = self.lexicons(stamp["id"])
        loaded = lexicon.info.stamp()
        if loaded["sha256"] != stamp["sha256"]:
            raise Conflict(
                f"Event {event.id} was created with lexicon {stamp['id']} {stamp['version']} ({stamp['sha256'][:12]}); "
                f"the service now has {loaded['id']} {loaded['version']} ({loaded['sha256'][:12]}). A director accepts it with POST /events/{event.id}/lexicon.",
                {"lexicon": [f"event: {canonical(stamp)}", f"loaded: {canonical(loaded)}"]},
                code=codes.LEXICON_CHANGED,
            )
        return lexicon


def check_id(value: str, field: str) -> None:
    """422 unless ``value`` is an id (:data:`~wordsvc.core.ids.ID_PATTERN`)."""
    if not is_id(value):
        raise InvalidRequest(f"{field} must be 1 to 64 lowercase letters, digits, - or _.", {field: ["must match " + ID_PATTERN]}, code=codes.INVALID_ID)


def refuse_if_closed(conn: Connection, event_id: str, what: str) -> None:
    """409 if the event is closed, read in the write's own transaction (a close that commits first wins)."""
    if conn.execute(select(events.c.status).where(events.c.id == event_id)).scalar_one() == "closed":
        raise Conflict(f"Event {event_id} is closed: {what}.", {"event": ["closed"]}, code=codes.EVENT_CLOSED)


def entry_of(row: Any) -> dict[str, Any]:
    """An audit row as an entry (:mod:`..integrity.audit`)."""
    return {
        "chain": row.chain,
        "seq": row.seq,
        "at": row.at,
        "actor": {"token": row.actor_token, "role": row.actor_role},
        "action": row.action,
        "payload": json.loads(row.payload_json),
        "prev": row.prev_hash,
        "hash": row.hash,
        "key_id": row.key_id,
        "signature": row.signature,
    }


def audit_row(entry: dict[str, Any]) -> dict[str, Any]:
    """An entry as an audit row: :func:`entry_of` the other way."""
    return {
        "chain": entry["chain"],
        "seq": entry["seq"],
        "at": entry["at"],
        "actor_token": entry["actor"]["token"],
        "actor_role": entry["actor"]["role"],
        "action": entry["action"],
        "payload_json": canonical(entry["payload"]),
        "prev_hash": entry["prev"],
        "hash": entry["hash"],
        "key_id": entry.get("key_id"),
        "signature": entry.get("signature"),
    }


# Statements of the busy paths that more than one concept runs, written once in Core and run on the driver's cursor (:mod:`.._db.prepared`).
_b = bindparam
EVENT_COLUMNS = (
    events.c.id,
    events.c.name,
    events.c.private,
    events.c.ruleset_id,
    events.c.ruleset_sha256,
    events.c.lexicon_json,
    events.c.created_at,
    events.c.deals,
    events.c.duplicate,
    events.c.deal_commitment,
    events.c.status,
    events.c.format_json,
    events.c.rated,
)
EVENT = Prepared(select(*EVENT_COLUMNS).where(events.c.id == _b("event")))
RULESET_JSON = Prepared(select(events.c.ruleset_json).where(events.c.id == _b("event")))
GAME = Prepared(select(games.c.event_id, games.c.id, games.c.players_json, games.c.created_at).where(games.c.event_id == _b("event"), games.c.id == _b("game")))
OF_GAME = (revisions.c.event_id == _b("event"), revisions.c.game_id == _b("game"))
#: A table's revisions in brief, by round then revision (the last of a round is its current one).
BRIEF = Prepared(
    select(revisions.c.round, revisions.c.revision, revisions.c.body_sha256, revisions.c.totals_json)
    .where(*OF_GAME)
    .order_by(revisions.c.round, revisions.c.revision)
)
INSERT_REVISION = Prepared(insert(revisions).values({c.name: _b(c.name) for c in revisions.c}))
_INSERT_ENTRY = Prepared(insert(audit).values({c.name: _b(c.name) for c in audit.c}))
_NOTIFY = Prepared(select(func.pg_notify(_b("channel"), _b("chain"))))

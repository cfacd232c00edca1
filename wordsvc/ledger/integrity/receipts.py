"""Receipts: each event's audit entries as the leaves of a Merkle tree, its head kept per process, and the proofs read from the database.

Leaf i of an event's tree (0-based) is audit entry i + 1: its leaf hash is
SHA-256(0x00 || the 32 bytes of the entry's hash), so the tree is over the
hash chain's own hashes and needs nothing stored beside them. A receipt
says that entry ``seq`` with hash ``entry_hash`` is in the tree of
``tree_size`` entries with root ``root``, with the checkpoint signing that
head (:mod:`.checkpoints`). Proofs and the check of a receipt are RFC 9162's
(:mod:`wordsvc.core.merkle`); docs/ledger.md gives the byte layouts.

The head after every write must be cheap to get: a write would otherwise
hash every entry of its event again. Entries are only ever appended, so
:class:`Trees` keeps each event's :class:`~wordsvc.core.merkle.Frontier`
(the roots of its perfect subtrees, O(log n) hashes) in the process, and a
write appends its entry to it in O(1) hashes on average. The kept frontier
is a cache, never trusted: each use checks it against the last entry the
database holds (its seq and hash, whose ``prev`` links vouch for every
entry before), reads only the entries other processes appended since, and
rebuilds from every entry when it does not match (a write rolled back after
its append, a restored backup).

Before a write appends to a chain, and before a head is signed, the newest
entry must carry the service's signature (:mod:`.entry_signatures`); the
head that was checked is kept with the frontier, so the signature is
verified once per head another process (or someone else) wrote, not per use.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, select

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.merkle import Frontier, consistency_proof, inclusion_proof, leaf_hash, root
from .._db.canonical import canonical
from .._db.prepared import Prepared
from .._db.schema import audit
from ..errors import Conflict
from .checkpoints import Signer
from .entry_signatures import Vouch

__all__ = ["Appended", "Head", "Receipts", "Trees", "entry_leaf", "tree_root"]

#: Events whose frontier a process keeps (a few hundred bytes each); past it the oldest kept is dropped and rebuilt when next used.
KEPT_CHAINS = 4096
_MAX_SEQ = 2**31 - 1

_b = bindparam
_FROM = Prepared(
    select(audit.c.seq, audit.c.hash, audit.c.prev_hash, audit.c.key_id, audit.c.signature)
    .where(audit.c.chain == _b("chain"), audit.c.seq >= _b("first"))
    .order_by(audit.c.seq)
)
_NEWEST = Prepared(
    select(audit.c.seq, audit.c.hash, audit.c.key_id, audit.c.signature).where(audit.c.chain == _b("chain")).order_by(audit.c.seq.desc()).limit(1)
)
_UPTO = Prepared(select(audit.c.seq, audit.c.hash).where(audit.c.chain == _b("chain"), audit.c.seq <= _b("upto")).order_by(audit.c.seq))


def entry_leaf(entry_hash: str) -> bytes:
    """The leaf hash of an audit entry whose hash is ``entry_hash`` (64 hex digits)."""
    return leaf_hash(bytes.fromhex(entry_hash))


@dataclass(frozen=True)
class Head:
    """An event's tree: how many entries it covers and their Merkle root (hex)."""

    size: int
    root: str


class Trees:
    """Each event's frontier, kept in this process and checked against the database at every use (see the module's docstring)."""

    def __init__(self, vouch: Vouch | None = None) -> None:
        self._kept: dict[str, Frontier] = {}
        self._vouched: dict[str, str] = {}  # chain -> the hash of the newest entry found signed (or written here)
        self._lock = threading.Lock()
        self.vouch = vouch or Vouch(Signer())

    def current(self, conn: Connection, chain: str, vouch: bool = False) -> Frontier:
        """The frontier of every entry of ``chain`` as ``conn`` reads it now: the newest entry is ``last``, ``size`` its seq.

        One query while the kept frontier is current or a few entries behind
        (another process wrote meanwhile): the kept newest entry, to check it
        is still there and the same, and any appended after it, each linked
        to the one before by ``prev``. Anything else (nothing kept, the kept
        entry gone or changed, a link broken) reads every entry again. A
        write calls this instead of reading the newest entry, so keeping the
        tree costs it no query of its own.

        With ``vouch``, the newest entry must be signed by the service
        (:class:`~wordsvc.ledger.integrity.entry_signatures.Vouch`), else
        :class:`~wordsvc.ledger.integrity.entry_signatures.Unvouched` (409).
        """
        with self._lock:
            kept = self._kept.get(chain)
        if kept is not None and kept.size:
            rows = _FROM.all(conn, {"chain": chain, "first": kept.size})
            if rows and rows[0].seq == kept.size and rows[0].hash == kept.last.hex():
                frontier = kept
                for row in rows[1:]:
                    if row.seq != frontier.size + 1 or row.prev_hash != frontier.last.hex():
                        break
                    frontier = frontier.append(bytes.fromhex(row.hash))
                else:
                    self._keep(chain, frontier)
                    if vouch:
                        self._vouch(conn, chain, frontier, rows[-1])
                    return frontier
        frontier = Frontier()
        for row in _UPTO.all(conn, {"chain": chain, "upto": _MAX_SEQ}):
            if row.seq != frontier.size + 1:
                raise Conflict(
                    f"The audit chain of {chain} has a gap before entry {row.seq}: run wordsvc audit verify.", {"audit": ["has a gap"]}, code=codes.AUDIT_GAP
                )
            frontier = frontier.append(bytes.fromhex(row.hash))
        self._keep(chain, frontier)
        if vouch:
            self._vouch(conn, chain, frontier, None)
        return frontier

    def _vouch(self, conn: Connection, chain: str, frontier: Frontier, row: Any) -> None:
        """Check that the newest entry (``row`` if it is the one, else read) is signed by the service, unless this head was checked before."""
        if not self.vouch.active or not frontier.size:
            return
        head = frontier.last.hex()
        with self._lock:
            if self._vouched.get(chain) == head:
                return
        if row is None or row.hash != head:
            row = _NEWEST.first(conn, {"chain": chain})
        self.vouch.check(chain, {"seq": row.seq, "hash": row.hash, "key_id": row.key_id, "signature": row.signature})
        with self._lock:
            self._vouched[chain] = head

    def appended(self, chain: str, before: Frontier, entry_hash: str) -> Head:
        """The head once an entry with ``entry_hash`` is appended to the log whose frontier was ``before``, in the write's own transaction.

        Kept at once: if the write is then undone, the next use finds the kept
        newest entry missing or different and reads every entry again.
        """
        frontier = before.append(bytes.fromhex(entry_hash))
        self._keep(chain, frontier)
        with self._lock:
            self._vouched[chain] = entry_hash  # written, and signed, here
        return Head(frontier.size, frontier.root().hex())

    def head(self, conn: Connection, chain: str, vouch: bool = False) -> Head:
        """The head of ``chain`` as ``conn`` reads it now (size 0 and the empty root when it has no entry); ``vouch`` as in :meth:`current`."""
        frontier = self.current(conn, chain, vouch)
        return Head(frontier.size, frontier.root().hex())

    def _keep(self, chain: str, frontier: Frontier) -> None:
        with self._lock:
            self._kept.pop(chain, None)
            self._kept[chain] = frontier
            if len(self._kept) > KEPT_CHAINS:
                dropped = next(iter(self._kept))
                self._kept.pop(dropped)
                self._vouched.pop(dropped, None)


def tree_root(entry_hashes: Sequence[str]) -> str:
    """The root (hex) of the tree over audit entries with these hashes, in order."""
    return root([entry_leaf(h) for h in entry_hashes]).hex()


@dataclass(frozen=True)
class Appended:
    """An audit entry a write appended, and the head of its event's tree right after it."""

    seq: int
    hash: str
    head: Head


class Receipts:
    """The receipts, checkpoints and proofs of the ledger on ``engine``, signed by ``signer`` (unsigned without a key)."""

    def __init__(self, engine: Engine, signer: Signer):
        self.engine = engine
        self.signer = signer
        self.trees = Trees(Vouch(signer))

    def appended(self, chain: str, before: Frontier, entry_hash: str) -> Appended:
        """Record in the write's transaction that an entry was appended to the log of frontier ``before`` (:meth:`Trees.appended`)."""
        return Appended(before.size + 1, entry_hash, self.trees.appended(chain, before, entry_hash))

    def of_write(self, event: str, appended: Appended) -> dict[str, Any]:
        """A write's receipt: its entry in the tree right after it, that head signed now."""
        return self._receipt(event, appended.seq, appended.hash, appended.head)

    def of_entry(self, event: str, found: tuple[int, str] | None) -> dict[str, Any] | None:
        """The receipt of an entry written earlier (``(seq, hash)``), in the tree as it is now; ``None`` for no entry."""
        if found is None:
            return None
        return self._receipt(event, found[0], found[1], self.head(event))

    def head(self, event: str) -> Head:
        """The head to sign now: refused (:class:`~wordsvc.ledger.integrity.entry_signatures.Unvouched`) if its newest entry is not the service's."""
        with self.engine.connect() as conn:
            return self.trees.head(conn, event, vouch=True)

    def checkpoint(self, event: str, head: Head | None = None) -> dict[str, Any]:
        """The signed head of ``event``'s log now (or of ``head``)."""
        head = head or self.head(event)
        return self.signer.checkpoint(event, head.size, head.root)

    def find(
        self, conn: Connection, event: str, actions: Sequence[str], match: Callable[[dict[str, Any]], bool], contains: str | None = None
    ) -> tuple[int, str] | None:
        """The newest entry of ``event`` with one of ``actions`` whose payload ``match`` accepts, as ``(seq, hash)``.

        ``contains`` narrows the rows read to those whose payload text holds it (a
        filter only: ``match`` decides), so a round's entry is found without
        reading every round's body.
        """
        query = select(audit.c.seq, audit.c.hash, audit.c.payload_json).where(audit.c.chain == event, audit.c.action.in_(actions))
        if contains is not None:
            query = query.where(audit.c.payload_json.contains(contains, autoescape=True))
        for row in conn.execute(query.order_by(audit.c.seq.desc())):
            if match(json.loads(row.payload_json)):
                return row.seq, row.hash
        return None

    def rounds(self, conn: Connection, event: str, game: str) -> dict[tuple[int, int], tuple[int, str]]:
        """``(round, revision)`` -> ``(seq, hash)`` of the entries that stored a table's revisions."""
        found: dict[tuple[int, int], tuple[int, str]] = {}
        query = select(audit.c.seq, audit.c.hash, audit.c.payload_json).where(
            audit.c.chain == event, audit.c.action.in_(ROUND_ACTIONS), audit.c.payload_json.contains(canonical({"game": game})[1:-1], autoescape=True)
        )
        for row in conn.execute(query):
            payload = json.loads(row.payload_json)
            if payload.get("game") == game:
                found[(payload["round"], payload["revision"])] = (row.seq, row.hash)
        return found

    def round_receipts(self, event: str, game: str) -> Callable[[int, int], dict[str, Any] | None]:
        """A table's receipts by round and revision, each in the tree as it is now (one head, one checkpoint for them all)."""
        with self.engine.connect() as conn:
            entries = self.rounds(conn, event, game)
            head = self.trees.head(conn, event, vouch=True)
        checkpoint = self.checkpoint(event, head) if entries else None

        def of(number: int, revision: int) -> dict[str, Any] | None:
            found = entries.get((number, revision))
            return None if found is None or checkpoint is None else _receipt(event, found[0], found[1], head, checkpoint)

        return of

    def inclusion(self, event: str, seq: int, tree_size: int | None) -> dict[str, Any]:
        """Entry ``seq``'s inclusion proof in the tree of the first ``tree_size`` entries (default: all); 422 naming the field out of range."""
        with self.engine.connect() as conn:
            size = self.trees.head(conn, event).size
            tree_size = size if tree_size is None else tree_size
            if tree_size > size:
                raise InvalidRequest(
                    f"The log of {event} holds {size} entries, not {tree_size}.",
                    {"tree_size": [f"at most {size}, the entries the log holds"]},
                    code=codes.PROOF_OUT_OF_RANGE,
                )
            if seq > tree_size:
                raise InvalidRequest(
                    f"Entry {seq} is not in a tree of {tree_size} entries.", {"seq": [f"at most tree_size ({tree_size})"]}, code=codes.PROOF_OUT_OF_RANGE
                )
            leaves = log_leaves(conn, event, tree_size)
            entry_hash = conn.execute(select(audit.c.hash).where(audit.c.chain == event, audit.c.seq == seq)).scalar_one()
        proof = [p.hex() for p in inclusion_proof(leaves, seq - 1)]
        return {"event": event, "seq": seq, "entry_hash": entry_hash, "tree_size": tree_size, "root": root(leaves).hex(), "proof": proof}

    def consistency(self, event: str, first: int, second: int | None) -> dict[str, Any]:
        """That the tree of the first ``first`` entries is the start of the tree of ``second`` (default: all); 422 naming the field out of range."""
        with self.engine.connect() as conn:
            size = self.trees.head(conn, event).size
            second = size if second is None else second
            if second > size:
                raise InvalidRequest(
                    f"The log of {event} holds {size} entries, not {second}.",
                    {"to": [f"at most {size}, the entries the log holds"]},
                    code=codes.PROOF_OUT_OF_RANGE,
                )
            if first > second:
                raise InvalidRequest(
                    f"A consistency proof runs from a smaller tree to a larger one, not from {first} to {second}.",
                    {"from": [f"at most to ({second})"]},
                    code=codes.PROOF_OUT_OF_RANGE,
                )
            leaves = log_leaves(conn, event, second)
        proof = [p.hex() for p in consistency_proof(leaves, first)]
        return {"event": event, "from": first, "to": second, "from_root": root(leaves[:first]).hex(), "to_root": root(leaves).hex(), "proof": proof}

    def _receipt(self, event: str, seq: int, entry_hash: str, head: Head) -> dict[str, Any]:
        return _receipt(event, seq, entry_hash, head, self.checkpoint(event, head))


#: The actions that store a round's revision.
ROUND_ACTIONS = ("round.submitted", "round.corrected")


def _receipt(event: str, seq: int, entry_hash: str, head: Head, checkpoint: dict[str, Any]) -> dict[str, Any]:
    return {"event": event, "seq": seq, "entry_hash": entry_hash, "tree_size": head.size, "root": head.root, "checkpoint": checkpoint}


def log_leaves(conn: Connection, chain: str, upto: int) -> list[bytes]:
    """The leaf hashes of entries 1 to ``upto`` of ``chain``; :class:`Conflict` if one is missing (an edited database)."""
    rows = _UPTO.all(conn, {"chain": chain, "upto": upto})
    if [row.seq for row in rows] != list(range(1, upto + 1)):
        raise Conflict(f"The audit chain of {chain} has a gap before entry {upto}: run wordsvc audit verify.", {"audit": ["has a gap"]}, code=codes.AUDIT_GAP)
    return [entry_leaf(row.hash) for row in rows]

"""Checking a receipt or a checkpoint against an event's log, as anyone can offline: the outside proof a hash chain cannot give itself.

What a holder of a receipt (or of a bare checkpoint: the standings', an
export's, a close's) learns from a log read later, with nothing but that
log's entries (an export, or the database) and, for the signature, the
service's public key:

1. the receipt is one document: its checkpoint names the same event, tree
   size and root, and the entry is within the tree;
2. the signature (given public keys): the checkpoint was signed by the key
   it names, so it is the service's word, not one made for a rewritten log;
3. the log is at least as long as the checkpoint: a shorter one lost its tail;
4. consistency: the log's tree extends the checkpoint's (RFC 9162), so no
   entry the checkpoint covered was changed, removed or reordered;
5. inclusion: the receipt's entry, with its hash, is at its place in the
   checkpoint's tree.

Every failure is named; the first is what ``wordsvc audit verify`` prints.
The steps a program in another language follows are in docs/ledger.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ...core.merkle import consistency_proof, inclusion_proof, root, verify_consistency, verify_inclusion
from .audit import entry_hash
from .checkpoints import checkpoint_problems
from .receipts import entry_leaf

__all__ = ["check", "checkpoint_of", "export_checkpoint_problems"]

_HEX64 = re.compile(r"[0-9a-f]{64}")


def checkpoint_of(document: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """``(receipt, checkpoint)`` of a document: a receipt, a bare checkpoint, or an answer holding one (``receipt`` or ``checkpoint``)."""
    if isinstance(document, dict) and isinstance(document.get("receipt"), dict):
        document = document["receipt"]
    elif isinstance(document, dict) and isinstance(document.get("checkpoint"), dict) and "seq" not in document:
        document = document["checkpoint"]
    if not isinstance(document, dict):
        return None, None
    if "seq" in document or "entry_hash" in document:
        checkpoint = document.get("checkpoint")
        return document, checkpoint if isinstance(checkpoint, dict) else None
    return None, document


def check(document: Any, event: str, entries: Sequence[dict[str, Any]], keys: Iterable[Ed25519PublicKey] = ()) -> list[str]:
    """Every way the log ``entries`` of ``event`` fails the receipt or checkpoint ``document``; ``[]`` when the log extends it."""
    receipt, checkpoint = checkpoint_of(document)
    if checkpoint is None:
        return ["not a receipt or a checkpoint: a JSON object with tree_size, root and a checkpoint (or an answer holding a receipt)"]
    problems = checkpoint_problems(checkpoint)
    if problems:
        return problems
    size, top = checkpoint["tree_size"], checkpoint["root"]
    if checkpoint["event"] != event:
        return [f"the checkpoint is of event {checkpoint['event']!r}, not {event!r}"]
    if receipt is not None:
        problems = _receipt_problems(receipt, checkpoint)
        if problems:
            return problems
    problems = checkpoint_problems(checkpoint, keys)
    leaves, broken = _leaves(entries)
    if broken:
        return [*problems, broken]
    if len(leaves) < size:
        gone = f"entry {size} was" if len(leaves) + 1 == size else f"entries {len(leaves) + 1} to {size} were"
        return [*problems, f"the log holds {len(leaves)} entries, fewer than the {size} its checkpoint of {checkpoint['timestamp']} covers: {gone} deleted"]
    now = root(leaves)
    if not verify_consistency(size, len(leaves), bytes.fromhex(top), now, consistency_proof(leaves, size)):
        return [
            *problems,
            f"the log's first {size} entries are not the ones its checkpoint of {checkpoint['timestamp']} covers: an entry was changed, removed or reordered and the chain recomputed (consistency proof from {size} to {len(leaves)} fails)",
        ]
    if receipt is not None:
        seq, leaf = receipt["seq"], entry_leaf(receipt["entry_hash"])
        if not verify_inclusion(leaf, seq - 1, size, inclusion_proof(leaves[:size], seq - 1), bytes.fromhex(top)):
            problems.append(f"entry {seq} of the log is not the one the receipt names (inclusion proof fails)")
    return problems


def export_checkpoint_problems(checkpoint: Any, event: str, entries: Sequence[dict[str, Any]], keys: Mapping[str, Ed25519PublicKey]) -> list[str]:
    """What is wrong with an export's own checkpoint: it must be the head of exactly the entries the export holds.

    An export carries the signed head of its entries (:mod:`..transfer.export`), so a
    checkpoint over more entries than it holds means entries were cut from
    its end, and over fewer, that entries were added after it was made. Its
    signature is checked when it names one of ``keys`` (by key id); one
    signed by a key not given, or unsigned, vouches for nothing here and is
    held to the entries only.
    """
    if not isinstance(checkpoint, dict):
        return ["the export's checkpoint is not a JSON object"]
    known = keys.get(checkpoint.get("key_id")) if isinstance(checkpoint.get("key_id"), str) else None
    problems = check(checkpoint, event, entries, [known] if known is not None else [])
    if problems:
        return [f"its checkpoint: {problem}" for problem in problems]
    if checkpoint["tree_size"] != len(entries):
        return [f"its checkpoint covers {checkpoint['tree_size']} entries, the export holds {len(entries)}: entries were added after the export was made"]
    return []


def _receipt_problems(receipt: dict[str, Any], checkpoint: dict[str, Any]) -> list[str]:
    seq, entry, size, top = (receipt.get(k) for k in ("seq", "entry_hash", "tree_size", "root"))
    if type(seq) is not int or not isinstance(entry, str) or not _HEX64.fullmatch(entry):
        return ["the receipt's seq (a whole number) or entry_hash (64 hex digits) is malformed"]
    if receipt.get("event") != checkpoint["event"] or size != checkpoint["tree_size"] or top != checkpoint["root"]:
        return ["the receipt's event, tree_size or root is not its checkpoint's: the receipt was altered"]
    if not 1 <= seq <= size:
        return [f"the receipt's entry {seq} is not within its tree of {size} entries"]
    return []


def _leaves(entries: Sequence[dict[str, Any]]) -> tuple[list[bytes], str]:
    """The leaf hashes of ``entries`` in order, each entry's hash recomputed from its contents; or a description of the first that is not entry i."""
    leaves = []
    for i, entry in enumerate(entries, start=1):
        try:
            recomputed = entry_hash(entry)
        except (KeyError, TypeError, ValueError):
            return [], f"audit entry {i}: not a complete audit entry"
        if entry.get("seq") != i:
            return [], f"audit entry {entry.get('seq')}: found where entry {i} belongs"
        leaves.append(entry_leaf(recomputed))
    return leaves, ""

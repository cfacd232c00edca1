"""Token seals: each token row signed with the service's key when it is issued, so that a token someone put in the database works nowhere.

Whoever can write the database can add a token row whose secret they know
(with a chain-valid ``token.issued`` entry or none), or put their own hash
in a real token's row; the service would then take their writes and sign
them. So the service signs what makes a token (its id, the SHA-256 of the
whole token, role, event and table) as it issues it, with the key it keeps
outside the database (:mod:`.checkpoints`), and authenticates a bearer only
if the row's seal verifies with one of its keys. A token without a good seal
is answered as any token that is not valid (401), and logged.

The sealed message is six lines of ASCII, each ended by a line feed:
``wordsvc-token/v1``, the id, the hash, the role, the event and the table
(an empty line for none). Tokens issued before seals, or by a service
without a key, have none: an operator seals the live ones of a chain when
accepting it (``wordsvc audit accept``, :meth:`~wordsvc.ledger.trail.Trail.accept`).
A service without a key seals and checks nothing.
"""

from __future__ import annotations

import base64
import binascii
import logging
import threading
from collections.abc import Mapping
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .checkpoints import Signer

__all__ = ["SEAL_FORMAT", "Seals", "seal_message", "seal_problem"]

log = logging.getLogger(__name__)

#: The first line of every sealed message: what it is and the version of its layout.
SEAL_FORMAT = "wordsvc-token/v1"
#: Seals a process remembers as verified (a few hundred bytes each); past it, it starts again.
_KEPT = 65536


def seal_message(token_id: str, secret_sha256: str, role: str, event: str | None, table: str | None) -> bytes:
    """The exact bytes a token's seal covers."""
    return f"{SEAL_FORMAT}\n{token_id}\n{secret_sha256}\n{role}\n{event or ''}\n{table or ''}\n".encode("ascii")


def seal_problem(row: Any, keys: Mapping[str, Ed25519PublicKey]) -> str | None:
    """Why a token row is not sealed by one of ``keys`` (by key id), else ``None``."""
    if row.key_id is None or row.signature is None:
        return "not sealed"
    key = keys.get(row.key_id) if isinstance(row.key_id, str) else None
    if key is None:
        return f"sealed by key {row.key_id!r}, not by {', '.join(sorted(keys))}"
    try:
        key.verify(base64.b64decode(row.signature, validate=True), seal_message(row.id, row.secret_sha256, row.role, row.event_id, row.table_id))
    except (InvalidSignature, ValueError, TypeError, binascii.Error, UnicodeEncodeError):
        return f"its seal does not verify with key {row.key_id}: the row (its hash, role, event or table) was altered"
    return None


class Seals:
    """Sealing token rows with the service's key, and checking a row's seal before its bearer is let in."""

    def __init__(self, signer: Signer):
        self.signer = signer
        self._verified: set[tuple[Any, ...]] = set()
        self._lock = threading.Lock()

    def seal(self, token_id: str, secret_sha256: str, role: str, event: str | None, table: str | None) -> dict[str, str | None]:
        """The ``key_id`` and ``signature`` columns of a token the service issues now (both ``None`` without a key)."""
        key = self.signer.key
        if key is None:
            return {"key_id": None, "signature": None}
        signature = key.sign(seal_message(token_id, secret_sha256, role, event, table))
        return {"key_id": self.signer.key_id, "signature": base64.b64encode(signature).decode("ascii")}

    def holds(self, row: Any) -> bool:
        """Whether a token row (``id``, ``secret_sha256``, ``role``, ``event_id``, ``table_id``, ``key_id``, ``signature``) is sealed by one of
        the service's keys; always, for a service without a key. Each row that holds is remembered, so it is verified once per process."""
        if self.signer.key is None:
            return True
        seen = (row.id, row.secret_sha256, row.role, row.event_id, row.table_id, row.key_id, row.signature)
        with self._lock:
            if seen in self._verified:
                return True
        problem = seal_problem(row, self.signer.trusted)
        if problem is not None:
            log.error("token %s (%s of %s): %s; refused (wordsvc audit verify, docs/ledger.md)", row.id, row.role, row.event_id or "the house", problem)
            return False
        with self._lock:
            if len(self._verified) >= _KEPT:
                self._verified.clear()
            self._verified.add(seen)
        return True

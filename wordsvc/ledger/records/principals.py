"""Bearer tokens: made at random, stored only as a hash, compared in constant time.

A token reads ``wsv_<id>_<secret>``. The id (8 hex digits) is public: it
names the actor in the audit and is what a director revokes. The secret is
32 random bytes. The ledger keeps only SHA-256 of the whole token; checking
one looks its id up and compares hashes with :func:`hmac.compare_digest`,
and an unknown id is compared against a dummy hash, so neither the answer
nor its timing says whether an id exists.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

__all__ = ["LOCAL", "OPEN", "ROLES", "Principal", "hash_token", "matches", "new_token", "token_id"]

#: Roles, most powerful first.
ROLES = ("admin", "director", "referee", "kiosk", "viewer", "player")
_TOKEN = re.compile(r"^wsv_([0-9a-f]{8})_[A-Za-z0-9_-]{43}$")
_DUMMY = hashlib.sha256(b"no such token").hexdigest()


@dataclass(frozen=True)
class Principal:
    """Who a request acts as: a token's id and role, and the event (and table) it is for."""

    token: str
    role: str
    event: str | None = None
    table: str | None = None

    def actor(self) -> dict[str, str]:
        return {"token": self.token, "role": self.role}


def new_token() -> tuple[str, str]:
    """``(id, token)``: a fresh token (256 random bits) and its public id."""
    token_id = secrets.token_hex(4)
    return token_id, f"wsv_{token_id}_{secrets.token_urlsafe(32)}"


def token_id(token: str) -> str | None:
    """The id of a well-formed token, else ``None``."""
    match = _TOKEN.match(token)
    return match.group(1) if match else None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, in constant time (``None``: compared with a dummy, always false)."""
    same = hmac.compare_digest(hash_token(token), stored_hash or _DUMMY)
    return same and stored_hash is not None


#: The actor of the command line (whoever can run ``wordsvc`` on the machine can open the database anyway).
LOCAL = Principal("local", "admin")
#: The actor of an event created without an admin token where creation is open (``WORDSVC_EVENT_CREATION=open``): anyone who reached
#: the service. Its audit entry names no token; such events are counted against ``WORDSVC_OPEN_EVENTS``.
OPEN = Principal("open", "public")

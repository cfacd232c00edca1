"""The referee ledger: events, tables and rounds that persist, with corrections, standings and an audit chain.

Storage and rules only, no HTTP: :class:`Ledger` is used by the web layer
(``wordsvc/web/views/``: events, games, trail, tokens, tournaments) and the command line (``wordsvc/cli/ledger.py``).
The package is in rooms (docs/architecture.md, "The ledger's rooms"): the
private plumbing (``_db``), ``integrity``, ``records``, ``tournaments`` and
``transfer``. This module is its public face: what callers outside the ledger
import, the few names of the plumbing they need (:func:`canonical`,
:func:`backup`, :func:`play_from_document`) among them. The design, the
schema and the audit format are in docs/ledger.md.
"""

from __future__ import annotations

from ._db.canonical import canonical
from ._db.database import backup, connect, describe, upgrade
from ._db.plays import play_from_document
from .errors import Conflict, Forbidden, LedgerError, NotFound, PreconditionFailed, PreconditionRequired, Unauthorized
from .ledger import EXPORT_FORMAT, LOCAL, Ledger, Submitted
from .records.access import require_admin, require_director, require_read, require_referee
from .records.principals import ROLES, Principal

__all__ = [
    "EXPORT_FORMAT",
    "LOCAL",
    "ROLES",
    "Conflict",
    "Forbidden",
    "Ledger",
    "LedgerError",
    "NotFound",
    "PreconditionFailed",
    "PreconditionRequired",
    "Principal",
    "Submitted",
    "Unauthorized",
    "backup",
    "canonical",
    "connect",
    "describe",
    "play_from_document",
    "require_admin",
    "require_director",
    "require_read",
    "require_referee",
    "upgrade",
]

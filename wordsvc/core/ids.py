"""Names the ledger and its clients share: ids that travel in URL paths, the export format's name.

Event and table ids are lowercase letters, digits, ``-`` and ``_``, 64 at most:

What fits in a path segment without escaping, reads the same in every
language and cannot be confused by case-insensitive file systems or clients.
"""

from __future__ import annotations

import re

__all__ = ["EXPORT_FORMAT", "ID_PATTERN", "RESERVED_IDS", "is_id"]

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
#: Ids a path already uses for something else: ``/events/import`` imports, it is not an event.
RESERVED_IDS = frozenset({"import"})
#: The ``format`` of an exported event (``GET /events/{event}/export``, ``POST /events/import``).
EXPORT_FORMAT = "wordsvc-event/1"
_ID = re.compile(ID_PATTERN)


def is_id(value: object) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None and value not in RESERVED_IDS

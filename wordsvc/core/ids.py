"""Names the ledger and its clients share: ids that travel in URL paths, the export format's name.

Event and table ids are lowercase letters, digits, ``-`` and ``_``, 64 at most:

What fits in a path segment without escaping, reads the same in every
language and cannot be confused by case-insensitive file systems or clients.
"""

from __future__ import annotations

import re
from collections.abc import Container

from .names import folded_name

__all__ = ["EXPORT_FORMAT", "ID_PATTERN", "NAMELESS_ID", "RESERVED_IDS", "id_from_name", "is_id"]

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,63}$"
#: Ids a path already uses for something else: ``/events/import`` imports, it is not an event.
RESERVED_IDS = frozenset({"import"})
#: The ``format`` of an exported event (``GET /events/{event}/export``, ``POST /events/import``).
EXPORT_FORMAT = "wordsvc-event/1"
_ID = re.compile(ID_PATTERN)
#: The most characters an id holds (``ID_PATTERN``).
_ID_LENGTH = 64
#: The stem of a player's id when nothing of the name is left once folded (a name in Cyrillic or Greek letters, say).
NAMELESS_ID = "player"
_NOT_ID = re.compile(r"[^a-z0-9_-]+")


def is_id(value: object) -> bool:
    return isinstance(value, str) and _ID.fullmatch(value) is not None and value not in RESERVED_IDS


def id_from_name(name: str, taken: Container[str]) -> str:
    """A player's id made from ``name``, none of ``taken``: deterministic, so a name and an event's ids give one id.

    The name folded (:func:`~wordsvc.core.names.folded_name`: accents off,
    þ as th), every run of what is left outside ``[a-z0-9_-]`` joined as one
    ``-``, cut to 64 characters; the first free of ``stem``, ``stem-2``,
    ``stem-3``, ... (the stem shortened so the suffix fits). A name with
    nothing left is :data:`NAMELESS_ID`'s.

    >>> id_from_name("Þórdís Jónsdóttir", ()), id_from_name("Zoë Martin", {"zoe-martin"}), id_from_name("Анна", ())
    ('thordis-jonsdottir', 'zoe-martin-2', 'player')
    """
    stem = _NOT_ID.sub("-", folded_name(name)).strip("-_")[:_ID_LENGTH].rstrip("-_") or NAMELESS_ID
    number = 1
    while True:
        suffix = "" if number == 1 else f"-{number}"
        candidate = stem[: _ID_LENGTH - len(suffix)].rstrip("-_") + suffix
        if is_id(candidate) and candidate not in taken:
            return candidate
        number += 1

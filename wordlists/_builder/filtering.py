"""The filter loop of a plain list: each distinct entry dropped for a reason or kept, lowercased, with its class.

The language's rules are the two functions a builder passes; the loop, its
order and its counts are the same for every list filtered this way.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable

__all__ = ["filter_entries"]


def filter_entries(
    entries: Iterable[str], drop_reason: Callable[[str], str | None], word_class: Callable[[str], str]
) -> tuple[list[str], collections.Counter[str], collections.Counter[str]]:
    """The sorted ``form<TAB>classes`` keys of the kept entries, and how many distinct entries each drop and each class took.

    An entry is dropped when ``drop_reason`` names a reason; a kept one is
    written lowercased with ``word_class`` of the entry as the source spells
    it (``""``, counted as ``ordinary``, for an ordinary word).
    """
    keys = set()
    drops: collections.Counter[str] = collections.Counter()
    classes: collections.Counter[str] = collections.Counter()
    for entry in sorted(set(entries)):
        reason = drop_reason(entry)
        if reason:
            drops[reason] += 1
            continue
        found = word_class(entry)
        classes[found or "ordinary"] += 1
        keys.add(f"{entry.lower()}\t{found}")
    return sorted(keys), drops, classes

"""Names people can tell apart: no invisible characters in a player's name, and no two seats whose names look alike (pure).

Following Unicode Technical Standard #39 (Security Mechanisms):

- a name may hold no *invisible* character: none of category Cf (format:
  zero-width spaces and joiners, the bidirectional embeddings, overrides and
  isolates, which reorder what a reader sees, soft hyphens) and none of the
  default-ignorable letters that show as nothing (:data:`INVISIBLE`);
- two names at one table are *confusable* when their skeletons are equal:
  each character replaced by the one its confusables class stands for, so
  ``Ann`` and ``Аnn`` (a Cyrillic А) or ``Bill`` and ``BiII`` (two capital
  i) are one name to a reader. The classes come from the caller
  (:mod:`wordsvc.data.names` reads them from Unicode's confusables data).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

__all__ = ["INVISIBLE", "confusable_pairs", "invisible_problem"]

#: Default-ignorable code points that are not of category Cf but show as nothing (UAX #44's DerivedCoreProperties):
#: the Hangul fillers, the Khmer inherent vowels, the Mongolian vowel separator and free variation selectors, the
#: combining grapheme joiner and the variation selectors.
INVISIBLE = frozenset(
    {0x115F, 0x1160, 0x3164, 0xFFA0, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180E, 0x180F, 0x034F}
    | set(range(0xFE00, 0xFE10))
    | set(range(0xE0100, 0xE01F0))
)


def invisible_problem(name: str) -> str | None:
    """Why ``name`` holds a character a reader cannot see, or ``None``."""
    for ch in name:
        if unicodedata.category(ch) == "Cf" or ord(ch) in INVISIBLE:
            return f"must not contain invisible or direction-changing characters (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})"
    return None


def confusable_pairs(names: Sequence[str], skeleton: Callable[[str], str]) -> list[tuple[int, int]]:
    """``(i, j)`` (i < j) for each pair of ``names`` a reader could take for one another: equal skeletons as written
    (``Bill``, ``BiII``) or without case (``ann``, ``АNN``)."""
    seen: dict[str, int] = {}
    pairs = []
    for j, name in enumerate(names):
        keys = (skeleton(name), skeleton(name.casefold()))
        first = min((seen[key] for key in keys if key in seen), default=None)
        if first is not None:
            pairs.append((first, j))
        for key in keys:
            seen.setdefault(key, j)
    return pairs

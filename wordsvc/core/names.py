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
  (:mod:`wordsvc.data.names` reads them from Unicode's confusables data);
- two players' names are *similar* when they are one name once folded as the
  service folds words (:func:`folded_name`: ``Zoe Martin`` and ``Zoë
  Martin``): not confusable (a reader sees the accent) but likely one person
  typed twice, so registering both needs the director's word.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from .text import fold_diacritics, normalize

__all__ = ["INVISIBLE", "LETTERS_SPELLED_OUT", "confusable_pairs", "folded_name", "invisible_problem"]

#: Latin letters that are no base letter plus marks, so :func:`~wordsvc.core.text.fold_diacritics` keeps them, written
#: out in the ASCII letters club lists spell names with (as ICAO 9303's transliteration does, but ø as o, the letter it
#: is typed as): þ th, ð d, æ ae, ø o, ł l, đ d, ħ h, ı i, ŧ t, ŋ ng, ĸ q. ß and œ are written out by the case folding
#: of :func:`~wordsvc.core.text.normalize` already.
LETTERS_SPELLED_OUT = {"þ": "th", "ð": "d", "æ": "ae", "ø": "o", "ł": "l", "đ": "d", "ħ": "h", "ı": "i", "ŧ": "t", "ŋ": "ng", "ĸ": "q"}
_SPELL_OUT = str.maketrans(LETTERS_SPELLED_OUT)

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


def folded_name(name: str) -> str:
    """``name`` folded as the service folds words, then its accents off and its own letters spelled out, spaces squeezed.

    The key under which two names are *similar* (one person typed twice) and
    the stuff player ids are made of (:func:`wordsvc.core.ids.id_from_name`):

    >>> folded_name("Zoë  MARTIN"), folded_name("Þórdís Ævarsdóttir"), folded_name("Õnne Saar"), folded_name("Łukasz Straße")
    ('zoe martin', 'thordis aevarsdottir', 'onne saar', 'lukasz strasse')
    """
    return " ".join(fold_diacritics(normalize(name)).translate(_SPELL_OUT).split())

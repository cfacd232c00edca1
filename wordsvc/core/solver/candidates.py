"""Where the solver's candidate words come from: an anagram index, probed by sorted letters.

The solver never scans a lexicon. It walks the sub-multisets of a hand's
letters in sorted order and *probes* a :class:`CandidateSource` with each
growing key: ``probe(prefix)`` says ``None`` when no indexed key starts with
``prefix`` (the walk prunes there), otherwise the spellings whose sorted
letters are exactly ``prefix`` (possibly none: the prefix only leads on). One
probe per node of the walk prunes an 11-card hand's 2,047 card subsets to the
few hundred that begin some word. An :class:`ExpandingSource` also says which
letters can follow a prefix (``expand``), so the walk never even probes a
dead end: 40 % fewer look-ups on English hands.

A *spelling* is a form's deck letters: the form itself, or with diacritics
folded for a lexicon that lays loanwords with plain letters
(``info.fold_diacritics``: café is spelled ``cafe``). It is what cards lay
and what :func:`~wordsvc.core.verdict.judge_cards` looks up (the faces
joined). A key is :func:`letter_key` of a spelling. Only spellings of
letters are indexed: an apostrophe or hyphen is on no card. The same
functions key the index when it is built (:mod:`wordsvc.data.anagram_index`) and
when it is probed, so the two cannot disagree on the order of letters.

A source proposes; it never decides. Every candidate is judged again by the
solver under the ruleset, so a source may hold words the lexicon refuses.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

from ..lexicon import Lexicon
from ..text import WORD_PUNCTUATION, fold_diacritics, has_invalid_characters

__all__ = ["CandidateSource", "ExpandingSource", "MemoryCandidates", "deck_letters", "layable", "letter_key"]


def letter_key(letters: str) -> str:
    """The anagram key: the letters sorted by code point.

    >>> letter_key("tea") == letter_key("eat") == "aet"
    True
    """
    return "".join(sorted(letters))


def deck_letters(form: str, fold: bool, keep: str = "") -> str:
    """The letters cards must show to lay ``form``: ``café`` -> ``cafe`` when ``fold`` (the letters of ``keep`` stay)."""
    return fold_diacritics(form, keep) if fold else form


def layable(letters: str) -> bool:
    """True when ``letters`` holds letters only (no apostrophe, hyphen, digit, space)."""
    if letters.isalpha():  # the common case, fast; combining marks are not isalpha()
        return True
    return not has_invalid_characters(letters) and not any(ch in WORD_PUNCTUATION for ch in letters)


@runtime_checkable
class CandidateSource(Protocol):
    """Forms by anagram key, probed one growing sorted prefix at a time."""

    def probe(self, prefix: str) -> Sequence[str] | None:
        """``None`` if no key starts with ``prefix``; else the spellings keyed exactly ``prefix`` (maybe ``()``)."""
        ...

    def candidates(self, key: str) -> Sequence[str]:
        """The spellings whose letters, sorted, are ``key``."""
        ...


@runtime_checkable
class ExpandingSource(CandidateSource, Protocol):
    """A source that also says which letters can follow a prefix, so a walk never probes a dead end."""

    def expand(self, prefix: str) -> tuple[str, Sequence[str]] | None:
        """``None`` as :meth:`probe`; else the letters that can follow ``prefix`` (sorted) and its spellings.

        ``expand("")`` gives the letters keys start with.
        """
        ...


class MemoryCandidates:
    """A :class:`CandidateSource` held in dicts: for tests, small lexicons and house words.

    >>> source = MemoryCandidates(["eat", "tea", "to", "café"], fold=True)
    >>> source.candidates("aet"), source.probe("ae"), source.probe("x"), source.candidates("acef")
    (('eat', 'tea'), (), None, ('cafe',))
    >>> source.expand(""), source.expand("ae")
    (('ao', ()), ('t', ()))
    """

    def __init__(self, forms: Iterable[str], fold: bool = False, keep: str = ""):
        keys: dict[str, set[str]] = {}
        for form in forms:
            letters = deck_letters(form, fold, keep)
            if letters and layable(letters):
                keys.setdefault(letter_key(letters), set()).add(letters)
        self._keys = {key: tuple(sorted(found)) for key, found in keys.items()}
        following: dict[str, set[str]] = {}
        for key in self._keys:
            for i in range(len(key)):
                following.setdefault(key[:i], set()).add(key[i])
        self._following = {prefix: "".join(sorted(letters)) for prefix, letters in following.items()}

    @classmethod
    def from_lexicon(cls, lexicon: Lexicon) -> MemoryCandidates:
        """Every form of an enumerable lexicon (``forms()`` raises TypeError for an analyser)."""
        return cls(lexicon.forms(), lexicon.info.fold_diacritics, lexicon.info.fold_keep)

    def probe(self, prefix: str) -> Sequence[str] | None:
        found = self._keys.get(prefix)
        if found is not None:
            return found
        return () if prefix in self._following else None

    def expand(self, prefix: str) -> tuple[str, Sequence[str]] | None:
        found = self.probe(prefix)
        return None if found is None else (self._following.get(prefix, ""), found)

    def candidates(self, key: str) -> Sequence[str]:
        return self._keys.get(key, ())

    def __len__(self) -> int:
        return len(self._keys)

"""The lexicon interface: what the core needs to know of a word list.

A lexicon maps a normalized form (:func:`wordsvc.core.text.normalize`) to its
*readings*: one frozenset of class names per way the form is a word. The
empty set is an ordinary word. ``derby`` has two readings, ``{}`` (the hat)
and ``{"proper_noun"}`` (the town), so a ruleset that bans proper nouns still
allows it: a form is allowed when any one of its readings is allowed.

Class names used across languages (a lexicon may use a subset):
``proper_noun``, ``abbreviation``, ``contraction``, ``possessive``,
``hyphenated``, ``prefix``, ``suffix``, ``compound``, ``clitic``,
``obsolete``, ``rare``; and the English word-game filter's
(``wordlists/en/README.md``): ``letter_plural`` (bs, cs), ``symbol`` (kHz,
lm, csc), ``run_together`` (two words joined by a data error),
``roman_numeral`` (xii) and ``rare_short`` (two or three letters found only
in SCOWL's largest list).

Concrete lexicons live outside the core (``wordsvc.data``); the core knows
only this protocol and :class:`MemoryLexicon`, a dict-backed one for tests and
small house lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from .text import fold_diacritics, normalize

__all__ = ["KNOWN_CLASSES", "Lexicon", "LexiconInfo", "MemoryLexicon", "Readings"]

Readings = tuple[frozenset[str], ...]

KNOWN_CLASSES = frozenset(
    {
        "proper_noun",
        "abbreviation",
        "contraction",
        "possessive",
        "hyphenated",
        "prefix",
        "suffix",
        "compound",
        "clitic",
        "obsolete",
        "rare",
        "letter_plural",
        "symbol",
        "run_together",
        "roman_numeral",
        "rare_short",
    }
)


@dataclass(frozen=True)
class LexiconInfo:
    """Identity of a lexicon; every verdict carries ``id``, ``version``, ``sha256``.

    ``lang`` is the BCP 47 tag it serves (``en-US``); ``fold_diacritics`` says
    whether its words are laid with plain letters (English loanwords: café).
    ``entries`` is the number of distinct normalized forms, or ``None`` for an
    analyser that cannot count them.
    """

    id: str
    lang: str
    version: str
    sha256: str
    entries: int | None = None
    source: str = ""
    licence: str = ""
    attribution: str = ""
    fold_diacritics: bool = False
    #: letters folding keeps (Spanish ñ): cards of their own in a language whose other accents are laid plain
    fold_keep: str = ""
    enumerable: bool = True
    extra: Mapping[str, object] = field(default_factory=dict)

    @cached_property
    def stamp_view(self) -> Mapping[str, str]:
        """The three fields that identify the data behind a verdict, read-only and shared."""
        return MappingProxyType({"id": self.id, "version": self.version, "sha256": self.sha256})

    def stamp(self) -> dict[str, str]:
        """The same three fields as a fresh dict (for a JSON answer)."""
        return dict(self.stamp_view)


@runtime_checkable
class Lexicon(Protocol):
    """A word list: readings of a normalized form, and (if it can) its forms."""

    info: LexiconInfo

    def readings(self, form: str) -> Readings:
        """Class sets of every reading of ``form`` (normalized); ``()`` if not a word."""
        ...

    def at_hand(self, form: str) -> bool:
        """Whether :meth:`readings` of ``form`` answers from memory, waiting on nothing (an analyser's cache miss waits for it)."""
        ...

    def forms(self) -> Iterator[str]:
        """Every normalized form, when ``info.enumerable``; else raise TypeError."""
        ...


def add_folded_forms(table: dict[str, set[frozenset[str]]], keep: str = "") -> None:
    """For a lexicon whose words are laid with plain letters: the plain spelling is the word too.

    ``café`` is laid C-A-F-E, so the laying ``cafe`` must find café's readings
    (merged with any readings ``cafe`` has of its own).
    """
    for form in [f for f in table if not f.isascii()]:
        plain = fold_diacritics(form, keep)
        if plain != form:
            table.setdefault(plain, set()).update(table[form])


class MemoryLexicon:
    """A lexicon held in a dict: for tests, house lists and small fixtures."""

    def __init__(self, entries: Mapping[str, Iterable[Iterable[str]]] | Iterable[str], info: LexiconInfo):
        table: dict[str, set[frozenset[str]]] = {}
        if isinstance(entries, Mapping):
            items = entries.items()
        else:
            items = ((word, [()]) for word in entries)
        for word, readings in items:
            bucket = table.setdefault(normalize(word), set())
            for classes in readings:
                bucket.add(frozenset(classes))
        if info.fold_diacritics:
            add_folded_forms(table, info.fold_keep)
        self._table = {form: tuple(sorted(rs, key=sorted)) for form, rs in table.items()}
        self.info = info

    def readings(self, form: str) -> Readings:
        return self._table.get(form, ())

    def at_hand(self, form: str) -> bool:
        return True

    def forms(self) -> Iterator[str]:
        return iter(sorted(self._table))

    def __len__(self) -> int:
        return len(self._table)

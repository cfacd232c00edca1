"""A lexicon for the game engine's tests: a rule, not a list, so every deck's hands go out and fail to go out at random."""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from wordsvc.core.lexicon import LexiconInfo

__all__ = ["HASH", "HashLexicon"]


class HashLexicon:
    """Every form of letters is a word unless its CRC-32 is a multiple of 5: about four words in five, in any alphabet."""

    info = LexiconInfo(id="hash-words", lang="xx", version="1", sha256="3" * 64, enumerable=False)

    def readings(self, form: str) -> tuple[frozenset[str], ...]:
        return (frozenset(),) if form.isalpha() and zlib.crc32(form.encode("utf-8")) % 5 else ()

    def at_hand(self, form: str) -> bool:
        return True

    def forms(self) -> Iterator[str]:
        raise TypeError("a rule, not a list")


HASH = HashLexicon()

"""Cards, decks, and the ways a deck can lay a word.

A card has a *face* of one or more letters (``a``, ``qu``, ``th``), a count in
the deck and a value. Faces are kept case-folded; users may write them in any
case. A word is given as its cards, ``["QU", "I", "Z"]``, or in the compact
notation ``(qu)iz``, where parentheses mark one multi-letter card and a plain
``quiz`` means single-letter cards only.

Because a double-letter card is worth other than its letters (QU 9, Q+U 19),
the same spelling scores differently by how it is laid:
:meth:`Deck.spellings` lists every way, never using more copies of a card
than the deck holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from .text import normalize

__all__ = ["Card", "CardSyntaxError", "Deck", "format_cards", "parse_cards"]

Cards = tuple[str, ...]


class CardSyntaxError(ValueError):
    """A card list or compact notation that cannot be read."""


@dataclass(frozen=True)
class Card:
    face: str
    count: int
    value: int


def parse_cards(spec: str | Sequence[str]) -> Cards:
    """The faces of a word written as a card list or in compact notation.

    >>> parse_cards("(qu)iz")
    ('qu', 'i', 'z')
    >>> parse_cards(["QU", "I", "Z"])
    ('qu', 'i', 'z')
    >>> parse_cards("quiz")
    ('q', 'u', 'i', 'z')

    Faces are normalized (case-folded, NFC); whether the deck has them is the
    deck's question, not this function's.
    """
    if isinstance(spec, str):
        return _parse_compact(normalize(spec))
    faces = []
    for i, face in enumerate(spec):
        if not isinstance(face, str) or not face.strip():
            raise CardSyntaxError(f"card {i} is not a card face")
        faces.append(normalize(face.strip()))
    return tuple(faces)


def _parse_compact(text: str) -> Cards:
    faces: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "(":
            end = text.find(")", i + 1)
            if end < 0:
                raise CardSyntaxError(f"unclosed '(' at position {i}")
            face = text[i + 1 : end]
            if not face or "(" in face:
                raise CardSyntaxError(f"empty or nested card at position {i}")
            faces.append(face)
            i = end + 1
        elif ch == ")":
            raise CardSyntaxError(f"unmatched ')' at position {i}")
        elif ch.isspace():
            i += 1
        else:
            faces.append(ch)
            i += 1
    return tuple(faces)


def format_cards(faces: Iterable[str]) -> str:
    """Compact notation of ``faces``: ``("qu","i","z")`` -> ``"(qu)iz"``."""
    return "".join(face if len(face) == 1 else f"({face})" for face in faces)


class Deck:
    """The cards of a ruleset: face -> :class:`Card`."""

    def __init__(self, cards: Iterable[Card]):
        self.cards: dict[str, Card] = {card.face: card for card in cards}

    @classmethod
    def from_mapping(cls, cards: Mapping[str, tuple[int, int]]) -> Deck:
        """``{"a": (count, value), ...}``."""
        return cls(Card(normalize(face), count, value) for face, (count, value) in cards.items())

    def __contains__(self, face: object) -> bool:
        return face in self.cards

    def value(self, face: str) -> int:
        return self.cards[face].value

    def count(self, face: str) -> int:
        return self.cards[face].count

    def points(self, faces: Iterable[str]) -> int:
        return sum(map(self._value.__getitem__, faces))

    def holds(self, faces: Sequence[str]) -> bool:
        """Every face is a card of this deck, used no more often than the deck holds it."""
        count = self._count
        return all(face in count for face in faces) and all(faces.count(face) <= count[face] for face in set(faces))

    @cached_property
    def size(self) -> int:
        return sum(card.count for card in self.cards.values())

    @cached_property
    def total_value(self) -> int:
        return sum(card.count * card.value for card in self.cards.values())

    @cached_property
    def letters(self) -> frozenset[str]:
        """Every character printed on some card."""
        return frozenset("".join(self.cards))

    @cached_property
    def _multi_faces(self) -> tuple[str, ...]:
        return tuple(sorted((face for face in self.cards if len(face) > 1), key=lambda f: (-len(f), f)))

    def unknown_faces(self, faces: Iterable[str]) -> list[str]:
        return [face for face in faces if face not in self.cards]

    def over_count(self, faces: Iterable[str]) -> dict[str, int]:
        """Faces used more often than the deck holds them: face -> copies used."""
        used = Counter(faces)
        return {face: n for face, n in used.items() if face in self.cards and n > self.cards[face].count}

    def spellings(self, letters: str, max_cards: int | None = None) -> list[Cards]:
        """Every way to lay ``letters`` with this deck's cards, best points first (see :meth:`scored_spellings`)."""
        return [way for way, _ in self.scored_spellings(letters, max_cards)]

    def scored_spellings(self, letters: str, max_cards: int | None = None) -> list[tuple[Cards, int]]:
        """Every way to lay ``letters`` with this deck's cards and its points, best first.

        A way never uses more copies of a card than the deck holds, nor more
        than ``max_cards`` cards. Ties in points are ordered by fewer cards,
        then by the faces, so the order is stable.

        A way is a choice of non-overlapping places where a multi-letter card
        fits; every other letter is a single card. An ordinary word has no
        such place and costs one pass; INQUIRING has three and eight ways.
        """
        n = len(letters)
        limit = n if max_cards is None else max_cards
        places: list[tuple[int, str]] = []
        for face in self._multi_faces:
            at = letters.find(face)
            while at >= 0:
                places.append((at, face))
                at = letters.find(face, at + 1)
        count, value = self._count, self._value
        if not places:
            if n <= limit and self._singles_fit(letters, n):
                return [(tuple(letters), sum(map(value.__getitem__, letters)))]
            return []
        places.sort()
        # When every letter fits as a single card, every way's singles fit too
        # (a way only takes letters away from them), and its points are the
        # letters' points plus each multi-letter card's difference: the ways
        # grow one multi-letter card at a time, each carrying its points.
        if self._singles_fit(letters, n):
            delta, ways = self._delta, []

            def grow(start: int, pos: int, prefix: Cards, points: int, size: int, used: Cards) -> None:
                if size <= limit:
                    ways.append((-points, size, prefix + tuple(letters[pos:])))
                for i in range(start, len(places)):
                    at, face = places[i]
                    if at >= pos and used.count(face) < count[face]:
                        grow(i + 1, at + len(face), (*prefix, *letters[pos:at], face), points + delta[face], size - len(face) + 1, (*used, face))

            grow(0, 0, (), sum(map(value.__getitem__, letters)), n, ())
            ways.sort()
            return [(way, -negative) for negative, _, way in ways]
        choices: list[tuple[tuple[int, str], ...]] = [()]

        def choose(start: int, free_from: int, chosen: tuple[tuple[int, str], ...]) -> None:
            for i in range(start, len(places)):
                at, face = places[i]
                if at >= free_from:
                    longer = (*chosen, places[i])
                    choices.append(longer)
                    choose(i + 1, at + len(face), longer)

        choose(0, 0, ())
        ranked = []  # some letter is short as a single card: check each way's singles
        for chosen in choices:
            size = n - sum(len(face) - 1 for _, face in chosen)
            if size > limit:
                continue
            faces = [face for _, face in chosen]
            if len(faces) > 1 and any(count[face] < faces.count(face) for face in faces):
                continue
            rest = letters
            for at, face in reversed(chosen):
                rest = rest[:at] + rest[at + len(face) :]
            if not self._singles_fit(rest, len(rest)):
                continue
            way: list[str] = []
            pos = 0
            for at, face in chosen:
                way.extend(letters[pos:at])
                way.append(face)
                pos = at + len(face)
            way.extend(letters[pos:])
            ranked.append((-sum(map(value.__getitem__, way)), size, tuple(way)))
        ranked.sort()
        return [(way, -negative) for negative, _, way in ranked]

    @cached_property
    def _delta(self) -> dict[str, int]:
        """A multi-letter card's value minus its letters' values as single cards (when all exist)."""
        value = self._value
        return {face: value[face] - sum(value.get(ch, 0) for ch in face) for face in self._multi_faces}

    def _singles_fit(self, letters: str, n: int) -> bool:
        """Every letter is a single card, used no more often than the deck holds it."""
        distinct = set(letters)
        if not distinct <= self._single_faces:
            return False
        count = self._count
        return all(count[ch] >= n or letters.count(ch) <= count[ch] for ch in distinct)

    @cached_property
    def _count(self) -> dict[str, int]:
        return {face: card.count for face, card in self.cards.items()}

    @cached_property
    def _value(self) -> dict[str, int]:
        return {face: card.value for face, card in self.cards.items()}

    @cached_property
    def _single_faces(self) -> frozenset[str]:
        return frozenset(face for face in self.cards if len(face) == 1)

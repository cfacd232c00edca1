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

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, partial
from operator import itemgetter
from typing import NamedTuple

from . import problem_codes as codes
from .budget import BudgetedCache, MemoryBudget
from .text import normalize

__all__ = ["Card", "CardSyntaxError", "Deck", "Spelling", "format_cards", "parse_cards"]

Cards = tuple[str, ...]


class Spelling(NamedTuple):
    """One way to lay a word: its cards in order and their points."""

    cards: Cards
    points: int

    def to_dict(self) -> dict[str, object]:
        return {"cards": " ".join(self.cards).upper().split(" ") if self.cards else [], "points": self.points}  # no face holds a space


#: Builds a Spelling from a ``(cards, points)`` pair without the Python-level ``__new__`` (hot path).
_spelling = partial(tuple.__new__, Spelling)

#: A deck remembers the plans of layouts of multi-letter places, the most
#: recently used (see Deck._plan), in the service's memory budget
#: (:meth:`Deck.share_budget`) or, alone, about this many: 9,000 Icelandic
#: words have about 1,500 layouts.
_PLANS_KEPT = 4096
#: What a remembered plan costs: 1,127 plans of 9 decks freed 1.2 MiB (tracemalloc).
PLAN_BYTES = 1100


class CardSyntaxError(ValueError):
    """A card list or compact notation that cannot be read; ``code``: its problem code (:mod:`wordsvc.core.problem_codes`)."""

    def __init__(self, message: str, code: str = codes.INVALID_CARDS):
        super().__init__(message)
        self.code = code


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
                raise CardSyntaxError(f"unclosed '(' at position {i}", codes.UNBALANCED_PARENTHESIS)
            face = text[i + 1 : end]
            if not face or "(" in face:
                raise CardSyntaxError(f"empty or nested card at position {i}")
            faces.append(face)
            i = end + 1
        elif ch == ")":
            raise CardSyntaxError(f"unmatched ')' at position {i}", codes.UNBALANCED_PARENTHESIS)
        elif ch.isspace():
            i += 1
        elif faces and unicodedata.category(ch)[0] == "M":  # a mark with no precomposed letter (i + U+0307 from İ) belongs to its card
            faces[-1] += ch
            i += 1
        else:
            faces.append(ch)
            i += 1
    return tuple(faces)


def format_cards(faces: Iterable[str]) -> str:
    """Compact notation of ``faces``: ``("qu","i","z")`` -> ``"(qu)iz"``."""
    return "".join(face if len(face) == 1 else f"({face})" for face in faces)


def _apart(places: Sequence[tuple[int, str]], copies: Mapping[str, int]) -> list[tuple[int, ...]]:
    """Every set of non-overlapping ``places`` (position, face; sorted) using each face at most ``copies[face]`` times.

    As indices, the empty set first. The copies bound what would otherwise
    grow like the Fibonacci numbers in the length of ``nnnn...``.
    """
    ends = [at + len(face) for at, face in places]
    left = dict(copies)
    found: list[tuple[int, ...]] = [()]

    def extend(start: int, free: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(places)):
            face = places[i][1]
            if places[i][0] >= free and left[face] > 0:
                longer = (*chosen, i)
                found.append(longer)
                left[face] -= 1
                extend(i + 1, ends[i], longer)
                left[face] += 1

    try:
        extend(0, 0, ())
    finally:
        extend = None  # type: ignore[assignment]  # break the closure's cycle: refcounting frees it, not the GC
    return found


class _Plan(NamedTuple):
    """The ways to use a layout of multi-letter places, in answer order: (points gained, cards saved, picks) each.

    ``ways`` holds only tuples of numbers (no functions), so the garbage
    collector stops tracking it; the named tuple itself stays tracked (see :func:`_pick`).
    """

    ways: tuple[tuple[int, int, tuple[int, ...]], ...]
    most_saved: int
    faces: tuple[str, ...]  # the places' faces, in order: the end of the pool a way's cards are picked from


def _pick(pool: Cards, indices: tuple[int, ...]) -> Cards:
    """The items of ``pool`` at ``indices``, as a tuple (at C speed: an ``itemgetter`` made for the call costs
    about 0.2 µs more than one kept, but one kept in a cached plan would be walked by every full collection)."""
    if len(indices) == 1:
        return (pool[indices[0]],)
    return itemgetter(*indices)(pool)  # type: ignore[no-any-return]


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
        distinct = set(faces)
        if not distinct <= self._held:
            return False
        count = self._count
        return len(distinct) == len(faces) or all(faces.count(face) <= count[face] for face in distinct)

    @cached_property
    def size(self) -> int:
        return sum(card.count for card in self.cards.values())

    @cached_property
    def total_value(self) -> int:
        return sum(card.count * card.value for card in self.cards.values())

    @cached_property
    def widest(self) -> int:
        """The most letters on one card."""
        return max(map(len, self.cards), default=1)

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

    def scored_spellings(self, letters: str, max_cards: int | None = None) -> list[Spelling]:
        """Every way to lay ``letters`` with this deck's cards and its points, best first.

        A way never uses more copies of a card than the deck holds, nor more
        than ``max_cards`` cards. Ties in points are ordered by fewer cards,
        then by the faces, so the order is stable.

        A way is a choice of non-overlapping places where a multi-letter card
        fits; every other letter is a single card. An ordinary word has no
        such place and costs one pass; INQUIRING has three and eight ways.
        """
        return self.spellings_within(letters, len(letters) if max_cards is None else max_cards, fall_back=False)[0]

    def spellings_within(self, letters: str, max_cards: int, fall_back: bool = True) -> tuple[list[Spelling], bool]:
        """The ways to lay ``letters`` in at most ``max_cards`` cards, best first, and True.

        When no way is that short: the one way with the fewest cards (the
        most points among those) and False, or with ``fall_back`` false no
        way; ``([], False)`` when the deck cannot lay the letters at all, or
        when they are more than ``max_cards`` cards of the widest face could
        hold (then nothing is listed: the ways of ``nanana...`` grow
        exponentially with its length).
        """
        n = len(letters)
        if n > max_cards * self.widest:
            return [], False
        places = self._places(letters)
        if not places:  # most words: single-letter cards only
            if not self._singles_fit(letters, n):
                return [], False
            way = [_spelling((tuple(letters), self._letter_points(letters)))]
            return (way, True) if n <= max_cards else (way if fall_back else [], False)
        fits = self._singles_fit(letters, n)
        if not fits and not set(letters) <= self.letters:  # a character on no card (an apostrophe)
            return [], False
        # A way's points are the letters' points as single cards plus what its
        # multi-letter cards gain over their letters as single cards; its
        # cards are picked from the pool: the letters followed by the faces
        # of the places (see _plan). When every letter fits as a single card,
        # every way's singles fit too (a way only takes letters away from
        # them); else each way's are checked.
        base = self._letter_points(letters)
        plans = self._plan_cache  # the plan depends on the length and the places only: words share it
        plan = plans.recent.get((n, places)) or plans.get((n, places))
        if plan is None:
            plan = self._plan(n, places)
            plans.put((n, places), plan)
        pool = (*letters, *plan.faces)
        if n - plan.most_saved <= max_cards:
            entries = plan.ways if n <= max_cards else [e for e in plan.ways if n - e[1] <= max_cards]
            ways = [_spelling((_pick(pool, picks), base + gain)) for gain, _, picks in entries]
            if not fits:
                ways = [w for w in ways if self._rest_fits(w.cards)]
            if ways:
                return ways, True
        if fall_back:  # even the fewest cards are too many: show that way
            for gain, _, picks in sorted(plan.ways, key=lambda way: -way[1]):  # fewest cards, then answer order
                cards = _pick(pool, picks)
                if fits or self._rest_fits(cards):
                    return [_spelling((cards, base + gain))], False
        return [], False

    def _rest_fits(self, cards: Cards) -> bool:
        rest = "".join(face for face in cards if len(face) == 1)
        return self._singles_fit(rest, len(rest))

    def _places(self, letters: str) -> tuple[tuple[int, str], ...]:
        """Where a multi-letter card fits in ``letters``: (position, face), in order (overlapping ones too)."""
        if self._any_multi(letters) is None:  # most words: one regex scan says there is none
            return ()
        found = []
        for face in self._multi_faces:
            at = letters.find(face)
            while at >= 0:
                found.append((at, face))
                at = letters.find(face, at + 1)
        if len(found) > 1:
            found.sort()
        return tuple(found)

    def share_budget(self, budget: MemoryBudget) -> None:
        """Count the remembered plans against ``budget`` (the service's one budget for every cache)."""
        self._plan_cache.attach(budget)

    @cached_property
    def _plan_cache(self) -> BudgetedCache[tuple[int, tuple[tuple[int, str], ...]], _Plan]:
        """The plans :meth:`_plan` made, by (length, places), the most recently used kept."""
        return BudgetedCache("deck.plans", PLAN_BYTES, max_entries=_PLANS_KEPT)

    def _plan(self, n: int, places: tuple[tuple[int, str], ...]) -> _Plan:
        """The ways to lay a word of ``n`` letters with these places, in answer order.

        A way is a choice of non-overlapping
        places that uses no multi-letter card more often than the deck holds
        it (see _apart): (points gained, cards saved, picks), where ``picks`` are the places of the way's
        cards in the word's letters followed by the places' faces. The plan
        depends on the length and the places only, not on the other letters,
        so the deck remembers it (:attr:`_plan_cache`): words share layouts.

        The order is that of the answer: more points, then fewer cards, then
        the faces. Two ways agree up to the first place where one lays a
        multi-letter card and the other a shorter card (one letter, or a
        shorter face starting there), and the shorter sorts first; so the
        faces' order follows from the (position, length) of every card.
        """
        count, delta = self._count, self._delta
        plan = []
        for chosen in _apart(places, count):
            faces = [places[i][1] for i in chosen]
            starts = {places[i][0]: (n + i, len(places[i][1])) for i in chosen}
            shape, picks, pos = [], [], 0
            while pos < n:
                index, size = starts.get(pos, (pos, 1))
                shape.append((pos, size))
                picks.append(index)
                pos += size
            gain, saved = sum(delta[face] for face in faces), sum(len(face) - 1 for face in faces)
            plan.append((-gain, -saved, shape, (gain, saved, tuple(picks))))
        plan.sort()
        return _Plan(tuple(entry[-1] for entry in plan), max(entry[-1][1] for entry in plan), tuple(face for _, face in places))

    @cached_property
    def _any_multi(self) -> Callable[[str], object]:
        """``search`` of a pattern matching any multi-letter face (never matching without them)."""
        faces = self._multi_faces
        return re.compile("|".join(map(re.escape, faces)) if faces else "(?!)").search

    @cached_property
    def _letter_points(self) -> Callable[[str], int]:
        """The points of ``letters`` laid as single cards, 0 for a letter no single card shows.

        For Latin-1 letters and card values below 256 (every deck we ship) the
        sum is taken over ``bytes.translate`` of the encoded letters, in C:
        about 40 % of the instructions of a dict look-up per letter.
        """
        singles = {face: card.value for face, card in self.cards.items() if len(face) == 1}
        get = singles.get

        def by_letter(letters: str) -> int:
            return sum(get(ch, 0) for ch in letters)

        if not all(0 <= value < 256 for value in singles.values()):
            return by_letter
        table = bytes(get(chr(code), 0) for code in range(256))

        def by_byte(letters: str) -> int:
            try:
                return sum(letters.encode("latin-1").translate(table))
            except UnicodeEncodeError:  # a letter beyond Latin-1 (Estonian š, ž)
                return by_letter(letters)

        return by_byte

    @cached_property
    def _delta(self) -> dict[str, int]:
        """A multi-letter card's value minus its letters' values as single cards (when all exist)."""
        value = self._value
        return {face: value[face] - sum(value.get(ch, 0) for ch in face) for face in self._multi_faces}

    def _singles_fit(self, letters: str, n: int) -> bool:
        """Every letter is a single card, used no more often than the deck holds it.

        When the deck holds every letter at least as often as the word's most
        repeated letter, the word fits: one set comparison for almost every
        word; for the rest only the letters the deck may hold too few of are
        counted.
        """
        distinct = set(letters)
        ample = self._ample
        top = len(ample) - 1
        most = n - len(distinct) + 1  # no letter occurs more often; usually 1 or 2
        enough = ample[most if most < top else top]
        if distinct <= enough:
            return True
        if not distinct <= ample[1]:
            return False
        count = self._count
        for ch in distinct - enough:  # count only the letters the deck may hold too few of
            if letters.count(ch) > count[ch]:
                return False
        return True

    @cached_property
    def _ample(self) -> tuple[frozenset[str], ...]:
        """``_ample[k]``: the single-letter faces the deck holds at least ``k`` copies of (``k`` from 0)."""
        singles = {face: card.count for face, card in self.cards.items() if len(face) == 1}
        top = max(singles.values(), default=0)
        return tuple(frozenset(face for face, n in singles.items() if n >= k) for k in range(top + 2))

    @cached_property
    def _held(self) -> frozenset[str]:
        """The faces of which the deck holds at least one card."""
        return frozenset(face for face, card in self.cards.items() if card.count > 0)

    @cached_property
    def _count(self) -> dict[str, int]:
        return {face: card.count for face, card in self.cards.items()}

    @cached_property
    def _value(self) -> dict[str, int]:
        return {face: card.value for face, card in self.cards.items()}

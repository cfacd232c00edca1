"""What the solver answers: words laid, plays, pick-up advice, and the whole solution.

Values only, each with ``to_dict()`` for the JSON of ``POST /best-meld`` and
``wordsvc best``. Card faces are shown upper-case, as everywhere in the API.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Cards
from ..ruleset import LongestMeasure

__all__ = ["Pickup", "Play", "Solution", "Word"]


def _faces(cards: Cards) -> list[str]:
    return [face.upper() for face in cards]


@dataclass(frozen=True)
class Word:
    """One word laid: ``word`` is the form judged (the faces joined), ``cards`` its laying.

    ``anagrams`` are the other valid words the same cards lay, with their
    layings (EAT: ATE, TEA); a play counts them once.
    """

    word: str
    cards: Cards
    points: int
    anagrams: tuple[tuple[str, Cards], ...] = ()

    @property
    def letters(self) -> int:
        return len(self.word)

    def measure(self, measure: LongestMeasure) -> int:
        return len(self.cards) if measure is LongestMeasure.CARDS else self.letters

    def to_dict(self) -> dict[str, object]:
        return {"word": self.word, "cards": _faces(self.cards), "points": self.points, "letters": self.letters, "anagrams": [word for word, _ in self.anagrams]}


@dataclass(frozen=True)
class Play:
    """An arrangement of a hand: words laid, cards left unused, cards discarded.

    ``score`` is the round points before bonuses and floor: the words' points
    minus the unused cards' values; a discarded card scores nothing.
    """

    score: int
    words: tuple[Word, ...]
    unused: Cards
    discards: Cards
    measure: LongestMeasure = LongestMeasure.LETTERS

    @property
    def goes_out(self) -> bool:
        """Every card is laid but the discard(s)."""
        return not self.unused

    @property
    def longest(self) -> int:
        """The longest word in the ruleset's measure (letters or cards); 0 without words."""
        return max((word.measure(self.measure) for word in self.words), default=0)

    @property
    def discard(self) -> str | None:
        return self.discards[0] if self.discards else None

    def rank(self) -> tuple[int, int, int]:
        """The solver's order: score, then longest word, then most words (all higher is better)."""
        return (self.score, self.longest, len(self.words))

    def signature(self) -> tuple[tuple[str, ...], ...]:
        """What makes two plays the same: the multisets of cards laid as words."""
        return tuple(sorted(tuple(sorted(word.cards)) for word in self.words))

    def to_dict(self) -> dict[str, object]:
        return {
            "score": self.score,
            "words": [word.to_dict() for word in self.words],
            "unused": _faces(self.unused),
            "discard": self.discard.upper() if self.discard else None,
            "goes_out": self.goes_out,
            "longest": self.longest,
        }


@dataclass(frozen=True)
class Pickup:
    """Advice on the face-up card of the discard pile (see :meth:`wordsvc.core.solver.solver.Solver.solve`).

    ``keep`` is the best score of the hand as it is; ``play`` the best play
    after taking ``card`` and shedding the extra card (``play.discard``, and
    ``gives_up`` when the hand had already drawn). ``take`` is true when that
    scores more; ``gain`` is the difference (never negative when the hand had
    not drawn: taking the card and discarding it again gives the hand back).
    """

    card: str
    keep: int
    play: Play

    @property
    def gain(self) -> int:
        return self.play.score - self.keep

    @property
    def take(self) -> bool:
        return self.gain > 0

    def to_dict(self) -> dict[str, object]:
        discards = self.play.discards
        return {
            "card": self.card.upper(),
            "take": self.take,
            "gain": self.gain,
            "keep_score": self.keep,
            "take_score": self.play.score,
            "discard": discards[0].upper() if discards else None,
            "gives_up": discards[1].upper() if len(discards) > 1 else None,
            "play": self.play.to_dict(),
        }


@dataclass(frozen=True)
class Solution:
    """The best play of a hand and, on request, the runners-up and the advice."""

    hand: Cards
    ruleset: str
    discard: bool
    best: Play
    can_go_out: bool
    go_out: Play | None
    alternatives: tuple[Play, ...]
    longest_word: Play | None
    most_words: Play | None
    face_up: Pickup | None
    lexicon: dict[str, str]

    def to_dict(self) -> dict[str, object]:
        best = self.best.to_dict()
        return {
            "hand": _faces(self.hand),
            "ruleset": self.ruleset,
            "score": self.best.score,
            "words": best["words"],
            "unused": best["unused"],
            "discard": best["discard"],
            "goes_out": best["goes_out"],
            "longest": best["longest"],
            "can_go_out": self.can_go_out,
            "go_out": self.go_out.to_dict() if self.go_out else None,
            "alternatives": [play.to_dict() for play in self.alternatives],
            "longest_word": self.longest_word.to_dict() if self.longest_word else None,
            "most_words": self.most_words.to_dict() if self.most_words else None,
            "face_up": self.face_up.to_dict() if self.face_up else None,
            "lexicon": self.lexicon,
        }

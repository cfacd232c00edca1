"""A ruleset as an object: every point where Quiddler sources disagree is a knob.

Rulesets are data (YAML files read by :mod:`wordsvc.data.rulesets`); this
module only holds the resolved, validated result. The defaults of the
``standard`` ruleset are those of the project's RULES.md digest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from .cards import Deck

__all__ = ["BONUS_KINDS", "BonusTie", "Floor", "LongestMeasure", "Ruleset", "SolitaireRules", "TwoPlayers", "Unused", "WordCheck"]

BONUS_KINDS = ("longest_word", "most_words")


class WordCheck(StrEnum):
    """``automatic``: every word is judged; ``challenge``: words stand unless challenged."""

    AUTOMATIC = "automatic"
    CHALLENGE = "challenge"


class LongestMeasure(StrEnum):
    LETTERS = "letters"
    CARDS = "cards"


class BonusTie(StrEnum):
    """``nobody``: a tie for a bonus gives it to no one (every source); ``shared``: each tied player gets it."""

    NOBODY = "nobody"
    SHARED = "shared"


class TwoPlayers(StrEnum):
    """Which bonuses count when exactly two play.

    ``choice`` is the rules-et.txt reading: the players pick one per round
    (the round request's ``bonus_choice``).
    """

    BOTH = "both"
    CHOICE = "choice"
    LONGEST_WORD = "longest_word"
    MOST_WORDS = "most_words"
    NONE = "none"


class Floor(StrEnum):
    """``total``: the round total is at least 0; ``before_bonuses``: floor, then add bonuses; ``none``."""

    TOTAL = "total"
    BEFORE_BONUSES = "before_bonuses"
    NONE = "none"


class Unused(StrEnum):
    """``subtract``: cards left over cost their value (every source but one); ``ignore``: they are neither added nor subtracted (Quiddler Junior)."""

    SUBTRACT = "subtract"
    IGNORE = "ignore"


@dataclass(frozen=True)
class SolitaireRules:
    """Solitaire's layout and the knobs where its sources are vague; the defaults are rules-et.txt's reading."""

    piles: int = 8
    depth: int = 6  # cards a pile, the top one face up
    rebuild: bool = True  # an emptied pile may take the top card of another pile
    rebuild_from: str = "any"  # "any" pile's top card, or only one "covering" face-down cards (a move that can turn one up)
    turn_after_rebuild: bool = True  # the card that move exposes is turned up


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    description: str
    extends: str | None
    language: str
    deck: Deck
    rounds: tuple[int, ...]
    players_min: int
    players_max: int
    min_cards: int
    min_letters: int
    banned_classes: frozenset[str]
    house_allow: frozenset[str] = field(default_factory=frozenset)
    house_refuse: frozenset[str] = field(default_factory=frozenset)
    word_check: WordCheck = WordCheck.AUTOMATIC
    bonus_points: dict[str, int] = field(default_factory=lambda: {"longest_word": 10, "most_words": 10})
    longest_measure: LongestMeasure = LongestMeasure.LETTERS
    bonus_tie: BonusTie = BonusTie.NOBODY
    two_players: TwoPlayers = TwoPlayers.BOTH
    floor: Floor = Floor.TOTAL
    unused: Unused = Unused.SUBTRACT
    #: ``(letters, points)`` ascending: a counted word of at least ``letters`` letters scores ``points`` more (the
    #: largest that applies; the daily puzzle's 5: +2 ... 10: +40); ``()`` for none.
    length_bonus: tuple[tuple[int, int], ...] = ()
    solitaire: SolitaireRules = field(default_factory=SolitaireRules)

    def word_bonus(self, letters: int) -> int:
        """The length bonus of a word of ``letters`` letters."""
        points = 0
        for at_least, bonus in self.length_bonus:
            if letters >= at_least:
                points = bonus
        return points

    def unused_cost(self, value: int) -> int:
        """What a card of ``value`` left over costs."""
        return value if self.unused is Unused.SUBTRACT else 0

    @cached_property
    def max_hand(self) -> int:
        """The most cards a hand is dealt: no word can use more."""
        return max(self.rounds)

    def banned_hits(self, readings: tuple[frozenset[str], ...]) -> tuple[str, ...]:
        """The banned classes that refuse a word with these readings: ``()`` when any reading is allowed.

        Answers are remembered per combination of readings; a lexicon has a
        few dozen such combinations, not one per word.
        """
        memo = self._banned_memo
        hit = memo.get(readings)
        if hit is None:
            banned = self.banned_classes
            allowed = not readings or any(not (classes & banned) for classes in readings)
            hit = () if allowed else tuple(sorted(set().union(*readings) & banned))
            if len(memo) < 4096:
                memo[readings] = hit
        return hit

    @cached_property
    def _banned_memo(self) -> dict[tuple[frozenset[str], ...], tuple[str, ...]]:
        return {}

    def hand_size(self, round_number: int) -> int:
        """Cards dealt in round ``round_number`` (1-based)."""
        return self.rounds[round_number - 1]

    def bonuses_in_play(self, players: int, choice: str | None) -> tuple[str, ...]:
        """The bonus kinds that count in a round with ``players`` players."""
        kinds = tuple(kind for kind in BONUS_KINDS if self.bonus_points.get(kind, 0))
        if players != 2 or self.two_players is TwoPlayers.BOTH:
            return kinds
        if self.two_players is TwoPlayers.NONE:
            return ()
        picked = choice if self.two_players is TwoPlayers.CHOICE else self.two_players.value
        return tuple(kind for kind in kinds if kind == picked)

"""A player that makes random legal moves: the test suite's opponent, and the skeleton of the bots to come.

Given a state, :meth:`RandomPlayer.move` answers a legal move for whoever is
to move (in a challenge window, for a seat that has not passed). It draws or
takes at random; then it goes out when it can, lays down what words it can
in a last turn, and otherwise discards a random card. "When it can" comes from
the solver (:class:`~wordsvc.core.solver.solver.Solver`, exact) when it is
given one, else from a few random groupings of the hand, each word judged.
Under a challenge ruleset words are not judged when laid, so it sometimes
lays a random grouping as it is, and challenges at random.

Its only randomness is the ``random.Random`` it is given, so a seeded player
makes the same game every time. Bots will choose better; they will answer
the same question (state in, move out), through the protocol's projection
rather than the whole state (docs/play.md, "Not yet").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..lexicon import Lexicon
from ..ruleset import Ruleset, WordCheck
from ..solver.solver import Solver
from ..verdict import judge_cards
from .dealing import face_of
from .knobs import DrawPileOut
from .moves import Challenge, Discard, Draw, GoOut, LayDown, Move, Pass, Take
from .state import GameState, Phase, RoundState, Words

__all__ = ["RandomPlayer"]


class RandomPlayer:
    """Random legal moves under one ruleset and lexicon; ``solver`` (optional) finds the words exactly."""

    def __init__(self, ruleset: Ruleset, lexicon: Lexicon, rng: random.Random, solver: Solver | None = None, tries: int = 4, eagerness: float = 1.0):
        """``tries``: random groupings tried without a solver; ``eagerness``: the chance it looks for a going out on a turn (less: longer rounds)."""
        self.ruleset = ruleset
        self.lexicon = lexicon
        self.rng = rng
        self.solver = solver
        self.tries = tries
        self.eagerness = eagerness
        self.challenging = ruleset.word_check is WordCheck.CHALLENGE

    def move(self, state: GameState) -> Move:
        """A legal move for the seat to move; the game must not be over."""
        r = state.current
        assert r is not None, "the game is over"
        if r.phase is Phase.CHALLENGES:
            return self._challenge(r)
        seat, hand = r.turn, r.hands[r.turn]
        if r.phase is Phase.LAY:
            return LayDown(seat, self._words(hand, discard=False)[0])
        if r.phase is Phase.DRAW:
            can_draw = bool(r.draw_pile) or (state.knobs.draw_pile_out is DrawPileOut.RESHUFFLE and len(r.discard_pile) > 1)
            if r.discard_pile and (not can_draw or self.rng.random() < 0.3):
                return Take(seat)
            return Draw(seat)
        barred = None if state.knobs.discard_taken_card else r.taken
        if r.out is None:
            first = state.knobs.no_going_out_first_turn and r.turns[seat] == 0
            if not first and self.rng.random() < self.eagerness:
                words, discard = self._words(hand, discard=True, out=True, barred=barred)
                if discard is not None:
                    return GoOut(seat, words, discard)
            return Discard(seat, self.rng.choice([c for c in hand if c != barred]))
        words, discard = self._words(hand, discard=True, barred=barred)
        if discard is None:
            discard = self.rng.choice([c for c in hand if c != barred and all(c not in w for w in words)])
        return LayDown(seat, words, discard)

    def _challenge(self, r: RoundState) -> Move:
        seats = [s for s, passed in enumerate(r.passed) if not passed]
        seat = self.rng.choice(seats)
        open_words = [
            (p, w) for p, words in enumerate(r.words) if p != seat for w in range(len(words)) if all((p, w) != (cp, cw) for _, cp, cw in r.challenges)
        ]
        if open_words and self.rng.random() < 0.3:
            player, word = self.rng.choice(open_words)
            return Challenge(seat, player, word)
        return Pass(seat)

    def _words(self, hand: Sequence[str], *, discard: bool, out: bool = False, barred: str | None = None) -> tuple[Words, str | None]:
        """Words to lay from ``hand`` and the card to discard (``None``: none chosen; going out, ``None`` means it cannot)."""
        if self.solver is not None:
            solution = self.solver.solve([face_of(c) for c in hand], discard=discard)
            play = solution.go_out if out else solution.best
            if play is None:
                return (), None
            pool = list(hand)
            words = tuple(tuple(_take(pool, face) for face in word.cards) for word in play.words)
            if not discard:
                return words, None
            left = [c for c in pool if c != barred]
            if out:
                return (words, pool[0]) if left and len(pool) == 1 else ((), None)
            return (words, self.rng.choice(left)) if left else ((), None)
        for _ in range(self.tries):
            cards = list(hand)
            self.rng.shuffle(cards)
            spare = None
            if discard:
                candidates = [c for c in cards if c != barred]
                if not candidates:
                    return (), None
                spare = self.rng.choice(candidates)
                cards.remove(spare)
            words = self._grouping(cards if out else cards[: self.rng.randint(0, len(cards))])
            valid = tuple(w for w in words if self.challenging or judge_cards(tuple(face_of(c) for c in w), self.ruleset, self.lexicon).valid)
            if not out:
                return valid, spare
            if words is not None and len(valid) == len(words) and sum(map(len, words)) == len(cards):
                return valid, spare
        return (), None

    def _grouping(self, cards: list[str]) -> Words:
        """``cards`` cut into words of at least the ruleset's minimum cards (the last word takes what is left)."""
        low = max(1, self.ruleset.min_cards)
        words: list[tuple[str, ...]] = []
        i = 0
        while len(cards) - i >= low:
            size = self.rng.randint(low, max(low, min(len(cards) - i, self.ruleset.max_hand)))
            if len(cards) - i - size < low:
                size = len(cards) - i
            words.append(tuple(cards[i : i + size]))
            i += size
        if i < len(cards) and words:
            words[-1] = (*words[-1], *cards[i:])
        return tuple(words)


def _take(pool: list[str], face: str) -> str:
    """Remove from ``pool`` and answer a card of ``face``."""
    for i, card in enumerate(pool):
        if face_of(card) == face:
            return pool.pop(i)
    raise ValueError(f"no {face} card left")  # pragma: no cover - the solver lays only the hand's cards

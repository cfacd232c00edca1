"""The state of a hosted game: immutable records, and their canonical bytes.

A :class:`GameState` is a pure function of the game's setup (ruleset,
seed, seats, knobs, lexicon) and its moves
(:func:`~wordsvc.core.play.engine.replay`); the engine never changes one,
it makes the next. The state holds everything, every hand and the order of
the draw pile included: it is the referee's view. What a player may see of it
is a projection, not built yet (docs/play.md, "Not yet").

:meth:`GameState.canonical` gives the state as bytes: JSON with the keys
sorted, no spaces, UTF-8 (the canonical form docs/deals.md section 8 uses for
a deal's digest), so two states are equal exactly when their bytes are, and
a replay can be checked byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum

from ..scoring import Challenge, PlayerPlay, RoundPlay
from .dealing import face_of
from .knobs import Knobs

__all__ = ["FinishedRound", "GameState", "Phase", "RoundState", "Words"]

#: Words laid by one seat: each word its card ids, in the order laid.
Words = tuple[tuple[str, ...], ...]


class Phase(StrEnum):
    """Where a round stands.

    ``draw``: the seat to move starts its turn by drawing or taking;
    ``discard``: it has drawn and discards, goes out or lays down;
    ``lay``: the draw pile ended the round (knob ``end_round``), each seat in
    turn lays down what words it can; ``challenges``: the round's last turn is
    played and, under a challenge ruleset, its words are open to challenge.
    """

    DRAW = "draw"
    DISCARD = "discard"
    LAY = "lay"
    CHALLENGES = "challenges"


@dataclass(frozen=True)
class RoundState:
    """The round being played.

    ``hands`` and ``words`` are in seat order, each hand in card order
    (:func:`~wordsvc.core.play.dealing.card_order`); both piles are listed top
    first. ``taken`` is the card the seat to move took from the discard pile
    this turn (the knob ``discard_taken_card`` reads it). ``turns`` counts the
    turns each seat has finished this round. ``out`` is the seat that went out;
    ``stop`` the seat whose turn, when it comes round again, ends the round's
    last turns (the seat that went out, or the first to lay down in phase
    ``lay``). ``reshuffles`` counts the draw piles rebuilt this round.
    ``challenges`` are ``(by, player, word)`` seats and word index, in the order
    made; ``passed`` says which seats have closed their challenges.
    """

    number: int
    dealer: int
    hand_size: int
    hands: tuple[tuple[str, ...], ...]
    draw_pile: tuple[str, ...]
    discard_pile: tuple[str, ...]
    turn: int
    phase: Phase
    turns: tuple[int, ...]
    words: tuple[Words, ...]
    taken: str | None = None
    out: int | None = None
    stop: int | None = None
    reshuffles: int = 0
    challenges: tuple[tuple[int, int, int], ...] = ()
    passed: tuple[bool, ...] = ()

    def cards(self) -> list[str]:
        """Every card of the round, wherever it is: hands, draw pile, discard pile, words laid."""
        out = [card for hand in self.hands for card in hand]
        out += self.draw_pile
        out += self.discard_pile
        out += [card for words in self.words for word in words for card in word]
        return out

    def to_dict(self) -> dict[str, object]:
        return {
            "challenges": [list(c) for c in self.challenges],
            "dealer": self.dealer,
            "discard_pile": list(self.discard_pile),
            "draw_pile": list(self.draw_pile),
            "hand_size": self.hand_size,
            "hands": [list(hand) for hand in self.hands],
            "number": self.number,
            "out": self.out,
            "passed": list(self.passed),
            "phase": self.phase.value,
            "reshuffles": self.reshuffles,
            "stop": self.stop,
            "taken": self.taken,
            "turn": self.turn,
            "turns": list(self.turns),
            "words": [[list(word) for word in words] for words in self.words],
        }


@dataclass(frozen=True)
class FinishedRound:
    """A round played to its end and scored: each seat's words and unused cards (card ids), who went out, the challenges, the totals."""

    number: int
    words: tuple[Words, ...]
    unused: tuple[tuple[str, ...], ...]
    out: int | None
    challenges: tuple[tuple[int, int, int], ...]
    totals: tuple[int, ...]

    def play(self, players: tuple[str, ...], bonus_choice: str | None) -> RoundPlay:
        """The round as ``POST /score-round`` takes it: the same :class:`~wordsvc.core.scoring.RoundPlay`, faces for card ids."""
        seats = tuple(
            PlayerPlay(
                name,
                tuple(tuple(face_of(card) for card in word) for word in self.words[seat]),
                tuple(face_of(card) for card in self.unused[seat]),
                went_out=self.out == seat,
            )
            for seat, name in enumerate(players)
        )
        challenges = tuple(Challenge(players[by], players[player], word) for by, player, word in self.challenges)
        return RoundPlay(seats, self.number, challenges, bonus_choice)

    def to_dict(self) -> dict[str, object]:
        return {
            "challenges": [list(c) for c in self.challenges],
            "number": self.number,
            "out": self.out,
            "totals": list(self.totals),
            "unused": [list(cards) for cards in self.unused],
            "words": [[list(word) for word in words] for words in self.words],
        }


@dataclass(frozen=True)
class GameState:
    """A game: its setup, the rounds scored, and the round being played (``None`` once the game is over).

    ``lexicon`` is the stamp (id, version, sha256, ...) of the lexicon that
    judges its words, as sorted pairs; ``moves`` counts the moves applied.
    """

    ruleset: str
    seed: str
    players: tuple[str, ...]
    knobs: Knobs
    lexicon: tuple[tuple[str, str], ...]
    finished: tuple[FinishedRound, ...]
    current: RoundState | None
    moves: int = 0

    @property
    def over(self) -> bool:
        return self.current is None

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the rounds scored so far."""
        return tuple(sum(r.totals[seat] for r in self.finished) for seat in range(len(self.players)))

    def round_plays(self) -> list[RoundPlay]:
        """Every round scored, as ``score_game`` takes them."""
        return [r.play(self.players, self.knobs.bonus_choice) for r in self.finished]

    def to_dict(self) -> dict[str, object]:
        return {
            "current": self.current.to_dict() if self.current is not None else None,
            "finished": [r.to_dict() for r in self.finished],
            "knobs": self.knobs.to_dict(),
            "lexicon": dict(self.lexicon),
            "moves": self.moves,
            "players": list(self.players),
            "ruleset": self.ruleset,
            "seed": self.seed,
            "totals": list(self.totals),
        }

    def canonical(self) -> bytes:
        """The state as canonical JSON bytes: keys sorted, no spaces, UTF-8 (never ``\\u`` escapes)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")

    def digest(self) -> str:
        """The hex SHA-256 of :meth:`canonical`."""
        return hashlib.sha256(self.canonical()).hexdigest()

"""Bots: clients of the protocol that play a seat from its projection, at one of the :data:`~.bot_levels.LEVELS`.

A bot reads what its seat's player reads, :func:`~.views.project` of the
state for that seat (JSON-ready: faces, never card ids, its own hand and
nothing of another), and answers a public move, the very dict a client sends
(``{"kind": "discard", "card": "qu"}``), which the server turns into the
engine's move with :func:`~.views.resolve` like anyone else's. It never
sees the state, so it cannot cheat; the server may run it anywhere, off the
request path, with whatever delay the table asks.

A turn, for every level (:class:`~.bot_levels.Level` says where they differ):

- **Draw or take.** A level that ``takes`` asks its solver for the face-up
  advice (:class:`~wordsvc.core.solver.plays.Pickup`): the discard pile's top
  card is taken when the best play of the hand with it scores more than the
  hand's best play as it is, and, for a level that ``weighs_draw``, more than
  the best play a draw from the pile gives on average over the cards it has
  not seen. Otherwise it draws from the pile (or takes, when the pile cannot
  be drawn from).
- **Go out, or discard.** Its solver's best play of the hand (with the card
  drawn) names the discard: the most valuable card it cannot lay. It goes
  out when its solver finds a going out and its level's ``slack`` allows.
- **A last turn** lays the best play's words and discards; the draw pile's
  end of the round (phase ``lay``) lays them with no discard.
- **Challenges** (a ruleset whose words stand unless challenged): it
  challenges a word another seat laid when the word is not valid and its
  level would know so (:meth:`~.bot_levels.Vocabulary.spots`), one at a time;
  then it passes. It never lays a word it does not believe valid.

Its solver is the exact one for the top level, and for the others a solver
of the same ruleset and candidate source over the words it knows
(:class:`~.bot_levels.VocabularyLexicon`). Deterministic: its only
randomness is the ``random.Random`` it is given, from which it draws one
key at once: its vocabulary and the expert's samples of unseen cards (seeded
by the key and the view's ``seq``) follow from it. So a move is a function
of the seed and the projection: the same seed plays the same game, and a
bot made afresh for every move (after a restart, say) plays as one kept.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..budget import MemoryBudget
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from ..solver.plays import Play, Solution
from ..solver.solver import Solver
from ..verdict import judge_cards
from .bot_levels import LEVELS, Level, Vocabulary, VocabularyLexicon
from .knobs import DrawPileOut, Knobs

__all__ = ["BOT_BUDGET", "DRAW_SAMPLES", "LEVELS", "Bot", "Level", "NotBotsTurn"]

#: The bytes a weaker level's own solver may keep in its caches: the words
#: of a few thousand hands (a solver's entry is 80-320 bytes; solver.py).
BOT_BUDGET = 4 << 20

#: Cards drawn (without replacement, from the unseen ones) to estimate what
#: a draw from the pile is worth. Over 100 random 10-card English hands, 12
#: of the 107 unseen cards missed the mean over all of them by 0.6 points at
#: the median, 1.8 at the 90th percentile, and took 9.8 solves (distinct
#: faces) instead of 30.9.
DRAW_SAMPLES = 12

View = Mapping[str, Any]
PublicMove = dict[str, Any]


class NotBotsTurn(ValueError):
    """The projection does not ask the bot's seat for a move (another seat's turn, the game over, or its challenges passed)."""


class Bot:
    """A seat's player at ``level`` (a number of :data:`LEVELS`) under one ruleset and lexicon.

    ``solver`` is the exact solver of (``ruleset``, ``lexicon``); ``rng`` the
    bot's one source of randomness. ``knobs`` are the table's house rules,
    which the projection does not carry (default: the rules' reading).
    """

    def __init__(self, level: int, ruleset: Ruleset, lexicon: Lexicon, solver: Solver, rng: random.Random, knobs: Knobs | None = None):
        if level not in LEVELS:
            raise ValueError(f"no bot level {level}; the levels are {', '.join(map(str, LEVELS))}")
        if solver.ruleset.id != ruleset.id or solver.lexicon.info.id != lexicon.info.id:
            raise ValueError("the solver must be the ruleset's and the lexicon's")
        self.level: Level = LEVELS[level]
        self.ruleset = ruleset
        self.lexicon = lexicon
        self.knobs = knobs if knobs is not None else Knobs()
        self.rng = rng  # drawn from once, by the vocabulary: its key
        self.vocabulary = Vocabulary(self.level, lexicon, rng)
        if self.level.exact:
            self.solver = solver
        else:
            self.solver = Solver(
                ruleset, VocabularyLexicon(lexicon, self.vocabulary), solver.candidates,  # type: ignore[arg-type]
                eager=solver.eager, exhaustive_cards=solver.exhaustive_cards or 0, budget=MemoryBudget(BOT_BUDGET),
            )  # fmt: skip

    def move(self, view: View) -> PublicMove:
        """The public move for the seat whose projection ``view`` is; :class:`NotBotsTurn` if that seat has none to make."""
        seat, r = view.get("viewer"), view.get("round")
        if not isinstance(seat, int) or r is None or view.get("over"):
            raise NotBotsTurn("no move: a spectator's view, or the game is over")
        if r["phase"] == "challenges":
            if r["passed"][seat]:
                raise NotBotsTurn(f"seat {seat} has passed")
            return self._challenge(seat, r)
        if r["turn"] != seat:
            raise NotBotsTurn(f"seat {r['turn']} is to move, not seat {seat}")
        hand: list[str] = list(r["hand"])
        if r["phase"] == "lay":
            return {"kind": "lay_down", "words": _words(self._solve(hand, discard=False).best), "discard": None}
        if r["phase"] == "draw":
            return self._draw(hand, r, int(view["seq"]))
        return self._discard(seat, hand, r)

    # ---- a turn

    def _solve(self, hand: Sequence[str], *, discard: bool, face_up: str | None = None, top: int = 0) -> Solution:
        return self.solver.solve(list(hand), discard=discard, face_up=face_up, top=top)

    def _draw(self, hand: list[str], r: Mapping[str, Any], seq: int) -> PublicMove:
        top, piled = r["discard_top"], r["discard_pile"]
        can_draw = r["draw_pile"] > 0 or (self.knobs.draw_pile_out is DrawPileOut.RESHUFFLE and piled > 1)
        if top is None or (can_draw and not self._worth_taking(hand, top, r["words"], seq)):
            return {"kind": "draw"}
        return {"kind": "take"}

    def _worth_taking(self, hand: list[str], top: str, laid: Sequence[Sequence[Sequence[str]]], seq: int) -> bool:
        """Whether to take ``top``: the face-up advice gains, and (a level that ``weighs_draw``) beats a draw's expected best play."""
        if not self.level.takes or hand.count(top) >= self.ruleset.deck.count(top):
            return False
        advice = self._solve(hand, discard=False, face_up=top).face_up
        if advice is None or not advice.take:
            return False
        return not self.level.weighs_draw or advice.play.score > self._draw_value(hand, top, laid, seq)

    def _draw_value(self, hand: list[str], top: str, laid: Sequence[Sequence[Sequence[str]]], seq: int) -> float:
        """The mean best score of the hand with a card drawn, over the cards the seat has not seen this round.

        Unseen: the deck less the seat's hand, the discard pile's top and the
        words laid this round (what the projection shows); the cards deeper in
        the discard pile and in the other hands are unseen too, as a player
        who does not count cards would have it. Estimated on :data:`DRAW_SAMPLES`
        of them, drawn by a generator seeded with the bot's key and the view's
        ``seq``: one solve a distinct face sampled, where every face would cost
        25 to 30 solves a decision (12 s a game with Estonian's analyser).
        """
        deck = self.ruleset.deck
        unseen = Counter({face: deck.count(face) for face in deck.cards})
        unseen.subtract([*hand, top, *(face for words in laid for word in words for face in word)])
        pile = sorted(unseen.elements())
        if not pile:
            return float("-inf")
        sampler = random.Random(self.vocabulary.key + seq.to_bytes(8, "big"))
        drawn = Counter(sampler.sample(pile, min(DRAW_SAMPLES, len(pile))))
        return sum(n * self._solve([*hand, face], discard=True).best.score for face, n in sorted(drawn.items())) / drawn.total()

    def _discard(self, seat: int, hand: list[str], r: Mapping[str, Any]) -> PublicMove:
        barred = None if self.knobs.discard_taken_card or hand.count(r["taken"] or "") > 1 else r["taken"]
        solution = self._solve(hand, discard=True)
        best = solution.best
        if r["out"] is None:
            first = self.knobs.no_going_out_first_turn and r["turns"][seat] == 0
            out = solution.go_out
            if not first and out is not None and out.discard != barred and self._goes_out(out, best):
                return {"kind": "go_out", "words": _words(out), "discard": out.discard}
            return {"kind": "discard", "card": self._spare(best, hand, barred)}
        words = _words(best)
        card = self._spare(best, hand, barred)
        if best.discard != card:  # the knobs bar the best play's discard: lay what the hand has left without it
            rest = list(hand)
            rest.remove(card)
            kept = self._solve(rest, discard=False).best
            words = _words(kept)
        return {"kind": "lay_down", "words": words, "discard": card} if words else {"kind": "discard", "card": card}

    def _goes_out(self, out: Play, best: Play) -> bool:
        slack = self.level.slack
        return slack is None or out.score >= best.score - slack

    def _spare(self, best: Play, hand: Sequence[str], barred: str | None) -> str:
        """The card to discard: the best play's discard, else (the knobs bar it) the most valuable card left unlaid, else the least valuable."""
        if best.discard is not None and best.discard != barred:
            return best.discard
        deck = self.ruleset.deck
        unlaid = sorted((c for c in best.unused if c != barred), key=lambda c: (-deck.value(c), c))
        if unlaid:
            return unlaid[0]
        return min((c for c in hand if c != barred), key=lambda c: (deck.value(c), c))

    # ---- challenges

    def _challenge(self, seat: int, r: Mapping[str, Any]) -> PublicMove:
        challenged = {(player, word) for _, player, word in r["challenges"]}
        for player, words in enumerate(r["words"]):
            if player == seat:
                continue
            for index, faces in enumerate(words):
                if (player, index) in challenged:
                    continue
                if not judge_cards(tuple(faces), self.ruleset, self.lexicon).valid and self.vocabulary.spots("".join(faces)):
                    return {"kind": "challenge", "player": player, "word": index}
        return {"kind": "pass"}


def _words(play: Play) -> list[list[str]]:
    return [list(word.cards) for word in play.words]

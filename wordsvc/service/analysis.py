"""Post-round analysis: each player's best possible play with the cards they ended with, against what they scored.

No Quiddler tool tells players what their hands could have made; the exact
solver can. A player ends a round holding the cards of their words and their
unused cards; :func:`analyse_round` lays exactly those cards (no discard: the
round is over and the hand is laid as it is) and compares the best play with
what the player *played*: the round result's ``word_points - unused_points``,
before bonuses, the floor and challenge penalties, which come from the other
players and the table rather than from the player's own cards.

Why ``best >= played``: the player's own play (their valid words laid, every
other card unused) is one of the plays the solver weighs, so an exact solver
never scores less, and when it does :func:`analyse_round` raises
:class:`SolverMissed` rather than answer a wrong "best". Two cases are not
solver bugs. In a challenge round an invalid word nobody challenged counts,
so ``played`` can beat every valid play; ``missed`` is then 0. And a lexicon
that cannot list its words (Estonian) is solved exactly only up to
``Solver.exhaustive_cards`` cards (docs/solver.md); on a larger hand whose
valid words the candidates miss (a compound), the player's own play is the
best known and is answered as the best.

:class:`SnapshotSolvers` gives a solver to a ruleset that is not a loaded one
(an event's snapshot, rebuilt from the ledger).
"""

from __future__ import annotations

import hashlib
import json
import weakref
from collections import Counter, OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from itertools import chain
from threading import Lock

from ..core.budget import BudgetedCache
from ..core.cards import Cards
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.scoring import PlayerPlay, PlayerScore, RoundPlay, score_round
from ..core.solver.plays import Play, Word
from ..core.solver.solver import PREFIX_BYTES, Solver, prefix_scope
from ..data.rulesets import ruleset_document
from .solvers import Solvers

__all__ = ["SNAPSHOT_SOLVERS", "PlayerAnalysis", "RoundAnalysis", "SnapshotSolvers", "SolverMissed", "analyse_round"]

#: Solvers kept for snapshots that are not a loaded ruleset. Their caches count
#: against the service's one budget whatever their number; this bounds the
#: solver objects themselves (and their caches' dicts): a few events running
#: at once under edited rulesets, with room to spare.
SNAPSHOT_SOLVERS = 8

_NOTHING = Play(0, (), (), ())  # the best (only) play of a hand of no cards


class SolverMissed(AssertionError):
    """An exact solver scored a hand below a valid play of it: a solver bug, never an answer."""


@dataclass(frozen=True)
class PlayerAnalysis:
    """One player's cards, what they played from them, and the best play of the same cards."""

    name: str
    cards: Cards
    played: int
    best: Play

    @property
    def missed(self) -> int:
        """Points the best play scores over the player's; 0 when an unchallenged invalid word scored more."""
        return max(0, self.best.score - self.played)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "cards": [face.upper() for face in self.cards],
            "played": self.played,
            "best": self.best.score,
            "best_words": [word.to_dict() for word in self.best.words],
            "best_unused": [face.upper() for face in self.best.unused],
            "missed": self.missed,
            "could_go_out": self.best.goes_out,
        }


@dataclass(frozen=True)
class RoundAnalysis:
    ruleset: str
    round: int | None
    players: tuple[PlayerAnalysis, ...]
    lexicon: dict[str, str]

    def to_dict(self) -> dict[str, object]:
        return {"ruleset": self.ruleset, "round": self.round, "players": [p.to_dict() for p in self.players], "lexicon": self.lexicon}


def analyse_round(play: RoundPlay, solver: Solver) -> RoundAnalysis:
    """Each player's analysis, in order, under the solver's ruleset and lexicon (the round is checked first: InvalidRequest)."""
    result = score_round(play, solver.ruleset, solver.lexicon)
    players = tuple(_analyse(player, score, solver) for player, score in zip(play.players, result.players, strict=True))
    return RoundAnalysis(result.ruleset, play.round, players, result.lexicon)


def _analyse(player: PlayerPlay, score: PlayerScore, solver: Solver) -> PlayerAnalysis:
    cards = tuple(chain(*player.words, player.unused))
    played = score.word_points - score.unused_points
    best = solver.solve(cards, discard=False).best if cards else _NOTHING  # laid as it is; the solver needs a card
    if played > best.score:
        own = _valid_part(score, cards, solver.ruleset)
        if own.score > best.score:
            if solver.eager or len(cards) <= solver.exhaustive_cards:
                raise SolverMissed(f"the solver's best for {'-'.join(cards)} scores {best.score}; {player.name}'s valid play scores {own.score}")
            best = own  # beyond the candidates of a lexicon that cannot list its words (module docstring)
    return PlayerAnalysis(player.name, cards, played, best)


def _valid_part(score: PlayerScore, cards: Cards, ruleset: Ruleset) -> Play:
    """The player's valid words laid and every other card unused: a legal play of ``cards``."""
    words = tuple(Word(w.verdict.normalized, w.cards, w.points) for w in score.words if w.verdict.valid)
    left = Counter(cards) - Counter(chain.from_iterable(w.cards for w in words))
    unused = tuple(left.elements())
    return Play(sum(w.points for w in words) - ruleset.deck.points(unused), words, unused, (), ruleset.longest_measure)


class SnapshotSolvers:
    """A solver for a ruleset object that may not be a loaded one: an event's snapshot.

    A snapshot equal to the loaded ruleset of its id (the usual case), under
    the loaded lexicon, gets that ruleset's own solver from ``solvers``, so
    the warm caches are shared. Another (the YAML has changed since the event
    began) gets a solver of its own, keyed by the snapshot's content, made as
    :class:`~wordsvc.service.solvers.Solvers` makes one: the same candidate
    source (the memory-mapped anagram index, opened once), caches in the
    service's one budget, and one short-prefix cache per
    :func:`~wordsvc.core.solver.solver.prefix_scope`, shared by the snapshot
    solvers of that scope and dropped with the last of them. At most
    :data:`SNAPSHOT_SOLVERS` are kept, the least recently used going first.
    """

    def __init__(self, solvers: Solvers, kept: int = SNAPSHOT_SOLVERS):
        self.solvers = solvers
        self.kept = kept
        self._solvers: OrderedDict[tuple[str, str, str, str], Solver] = OrderedDict()
        self._prefixes: weakref.WeakValueDictionary[Hashable, BudgetedCache[str, object]] = weakref.WeakValueDictionary()
        self._lock = Lock()

    def get(self, ruleset: Ruleset, lexicon: Lexicon) -> Solver:
        document = ruleset_document(ruleset)
        service = self.solvers.service
        loaded = service.rulesets.rulesets.get(ruleset.id)
        tag = next((key for key, known in service.languages.lexicons.items() if known is lexicon), None)
        if loaded is not None and tag is not None and ruleset_document(loaded) == document:
            solver = self.solvers.get(ruleset.id, tag)
            if solver.lexicon is lexicon:
                return solver
        digest = hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
        key = (ruleset.id, digest, lexicon.info.id, lexicon.info.sha256)
        with self._lock:
            solver = self._solvers.get(key)
            if solver is None:
                source = self.solvers.candidates_for(lexicon, ruleset)
                scope = prefix_scope(ruleset, lexicon, source)
                prefixes = self._prefixes.get(scope)
                if prefixes is None:
                    prefixes = self._prefixes[scope] = service.budget.cache("solver.prefixes", PREFIX_BYTES)
                solver = self._solvers[key] = Solver(ruleset, lexicon, source, budget=service.budget, prefixes=prefixes)
                while len(self._solvers) > self.kept:
                    self._solvers.popitem(last=False)
            self._solvers.move_to_end(key)
        return solver

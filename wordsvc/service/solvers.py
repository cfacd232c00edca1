"""One :class:`~wordsvc.core.solver.solver.Solver` per ruleset and lexicon, for the HTTP API and the CLI.

A solver keeps caches (which words a ruleset allows, which layings
``judge_cards`` accepted), so it is made once per (ruleset, lexicon) pair and
reused. Its caches count against the service's one memory budget, and the
solvers of one candidate source share their short-prefix answers
(:func:`~wordsvc.core.solver.solver.prefix_scope`): the nine rulesets of a
language keep one copy, not nine. Its candidates come from the lexicon's
anagram index in the data folder (:mod:`wordsvc.data.anagram_index`), opened
memory-mapped on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from threading import Lock

from ..core.budget import BudgetedCache
from ..core.cards import CardSyntaxError, parse_cards
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.solver.candidates import CandidateSource
from ..core.solver.plays import Solution
from ..core.solver.solver import PREFIX_BYTES, Solver, prefix_scope
from ..data.anagram_index import AnagramIndexes
from . import Service

__all__ = ["Solvers", "auto_discard"]

CandidatesFor = Callable[[Lexicon, Ruleset], CandidateSource]


def auto_discard(hand_size: int, ruleset: Ruleset, discard: bool | None) -> bool:
    """``discard`` as asked; when not said, true exactly for a hand larger than any deal (it must have drawn)."""
    return discard if discard is not None else hand_size > ruleset.max_hand


class Solvers:
    """Solvers by (ruleset id, lexicon id); ``candidates_for`` picks each lexicon's candidate source."""

    def __init__(self, service: Service, candidates_for: CandidatesFor):
        self.service = service
        self.candidates_for = candidates_for
        self._solvers: dict[tuple[str, str], Solver] = {}
        self._prefixes: dict[Hashable, BudgetedCache[str, object]] = {}
        self._lock = Lock()

    @classmethod
    def from_data_dir(cls, service: Service, data_dir: str | Path) -> Solvers:
        """Candidates from the anagram indexes built next to the lexicons in ``data_dir``."""
        return cls(service, AnagramIndexes(data_dir).get)

    def get(self, ruleset_id: str | None = None, lang: str | None = None) -> Solver:
        """The solver for a ruleset and a language tag (default: the ruleset's language; no ruleset: the language's own)."""
        ruleset, lexicon = self.service.resolve(ruleset_id, lang)
        key = (ruleset.id, lexicon.info.id)
        solver = self._solvers.get(key)
        if solver is None:
            with self._lock:
                solver = self._solvers.get(key)
                if solver is None:
                    source = self.candidates_for(lexicon, ruleset)
                    scope = prefix_scope(ruleset, lexicon, source)
                    prefixes = self._prefixes.get(scope)
                    if prefixes is None:
                        prefixes = self._prefixes[scope] = self.service.budget.cache("solver.prefixes", PREFIX_BYTES)
                    solver = Solver(ruleset, lexicon, source, budget=self.service.budget, prefixes=prefixes)
                    self._solvers[key] = solver
        return solver

    def solve(
        self,
        hand: str | Sequence[str],
        ruleset_id: str | None = None,
        lang: str | None = None,
        discard: bool | None = None,
        top: int = 0,
        face_up: str | None = None,
    ) -> Solution:
        """The best play of ``hand``; ``discard=None`` decides by the hand's size (:func:`auto_discard`)."""
        solver = self.get(ruleset_id, lang)
        try:
            size = len(parse_cards(hand))
        except CardSyntaxError:
            size = 0  # solve() reports it
        return solver.solve(hand, discard=auto_discard(size, solver.ruleset, discard), top=top, face_up=face_up)

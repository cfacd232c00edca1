"""The service object: rulesets and lexicons loaded once, the operations the API and CLI offer.

Usable without a web server (datasette's habit): ``Service.from_settings()``
then ``verdict("quiz")``. The web views and the CLI are thin layers on this.

The service owns the process's one :class:`~wordsvc.core.budget.MemoryBudget`:
every cache (the solvers', the decks' laying plans, the Estonian analyser's
verdicts) counts against it, sized by :func:`~wordsvc.service.memory.cache_budget`
from ``WORDSVC_MEMORY_BUDGET_MB`` and the loaded service's measured size.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..config import Settings
from ..core.budget import MemoryBudget
from ..core.game import GameResult, score_game
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.scoring import RoundPlay, RoundResult, score_round
from ..core.verdict import Verdict, judge
from ..data.languages import Languages
from ..data.rulesets import RulesetBook, load_rulesets
from .memory import MIB, cache_budget, private_bytes

__all__ = ["DEFAULT_CACHE_BYTES", "Service"]

log = logging.getLogger("wordsvc")

#: The cache budget of a service made without settings (tests, scripts).
DEFAULT_CACHE_BYTES = 64 * MIB


@dataclass
class Service:
    rulesets: RulesetBook
    languages: Languages
    #: Shared by every cache of the process; :meth:`from_settings` sizes it.
    budget: MemoryBudget = field(default_factory=lambda: MemoryBudget(DEFAULT_CACHE_BYTES))

    def __post_init__(self) -> None:
        for ruleset in self.rulesets:
            ruleset.deck.share_budget(self.budget)
        for lexicon in self.languages.lexicons.values():
            self._share_budget(lexicon)
        self.languages.on_open.append(self._share_budget)  # a language whose build finishes while we serve

    def _share_budget(self, lexicon: Lexicon) -> None:
        share = getattr(lexicon, "share_budget", None)  # a lexicon with a cache of its own (the analyser)
        if share is not None:
            share(self.budget)

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Service:
        """The rulesets and lexicons ``settings`` name, and a cache budget of what they leave of ``memory_budget_mb``."""
        settings = settings or Settings.from_env()
        rulesets, languages = load_rulesets(settings.rulesets_dir), Languages.load(settings.data_dir, settings.languages)
        loaded = private_bytes()
        limit = cache_budget(settings.memory_budget_mb, loaded)
        log.info(
            "memory budget %d MiB a worker: loaded service %s MiB private, caches %d MiB",
            settings.memory_budget_mb,
            "?" if loaded is None else loaded // MIB,
            limit // MIB,
            extra={"event": "memory_budget", "fields": {"memory_budget_mb": settings.memory_budget_mb, "loaded_bytes": loaded, "cache_bytes": limit}},
        )
        return cls(rulesets, languages, MemoryBudget(limit))

    def cache_sizes(self) -> dict[str, tuple[int, int]]:
        """``{cache: (entries, estimated bytes)}`` of every cache in the budget (what ``/metrics`` reports)."""
        return self.budget.sizes()

    def ruleset(self, ruleset_id: str) -> Ruleset:
        return self.rulesets.get(ruleset_id)

    def lexicon(self, ruleset: Ruleset, lang: str | None) -> Lexicon:
        """The lexicon a request names, else the ruleset's own language."""
        return self.languages.get(lang if lang else ruleset.language)

    def resolve(self, ruleset_id: str, lang: str | None) -> tuple[Ruleset, Lexicon]:
        """The ruleset and the lexicon a request names (UnknownRuleset / UnknownLanguage if not)."""
        ruleset = self.ruleset(ruleset_id)
        return ruleset, self.lexicon(ruleset, lang)

    def verdict(self, word: str, ruleset_id: str = "standard", lang: str | None = None) -> Verdict:
        return judge(word, *self.resolve(ruleset_id, lang))

    def verdicts(self, words: Sequence[str], ruleset_id: str = "standard", lang: str | None = None) -> list[Verdict]:
        ruleset, lexicon = self.resolve(ruleset_id, lang)
        return [judge(word, ruleset, lexicon) for word in words]

    def score_round(self, play: RoundPlay, ruleset_id: str = "standard", lang: str | None = None) -> RoundResult:
        return score_round(play, *self.resolve(ruleset_id, lang))

    def score_game(self, players: Sequence[str], rounds: Sequence[RoundPlay], ruleset_id: str = "standard", lang: str | None = None) -> GameResult:
        return score_game(players, rounds, *self.resolve(ruleset_id, lang))

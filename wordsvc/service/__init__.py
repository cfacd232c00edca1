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
from ..core.verdict import Reason, Verdict, judge
from ..data.languages import Languages
from ..data.rulesets import RulesetBook, load_rulesets
from .memory import MIB, cache_budget, private_bytes

__all__ = ["DEFAULT_CACHE_BYTES", "DEFAULT_RULESET", "Service"]

log = logging.getLogger("wordsvc")

#: The ruleset of a request that names neither a ruleset nor a language.
DEFAULT_RULESET = "standard"

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

    def ruleset(self, ruleset_id: str | None, lang: str | None = None) -> Ruleset:
        """The ruleset a request names; without one, the language's own (:meth:`ruleset_id`)."""
        return self.rulesets.get(self.ruleset_id(ruleset_id, lang))

    def ruleset_id(self, ruleset_id: str | None, lang: str | None = None) -> str:
        """The id of the ruleset a request names; without one, ``lang``'s own ruleset (its manifest's ``ruleset``), else ``standard``.

        A user who names a language and no ruleset expects that language's
        deck: ``?word=schön&lang=de`` is judged under ``deutsch``, whose deck
        has an Ö, not under ``standard``'s English deck (docs/api.md).
        """
        if ruleset_id is not None:
            return ruleset_id
        if lang:
            own = self.languages.language(lang).ruleset
            if own is not None and own in self.rulesets.rulesets:
                return own
        return DEFAULT_RULESET

    def lexicon(self, ruleset: Ruleset, lang: str | None) -> Lexicon:
        """The lexicon a request names, else the ruleset's own language."""
        return self.languages.get(lang if lang else ruleset.language)

    def resolve(self, ruleset_id: str | None, lang: str | None) -> tuple[Ruleset, Lexicon]:
        """The ruleset and the lexicon a request names (UnknownRuleset / UnknownLanguage if not); no ruleset: the language's own."""
        ruleset = self.ruleset(ruleset_id, lang)
        return ruleset, self.lexicon(ruleset, lang)

    def judge(self, word: str, ruleset: Ruleset, lexicon: Lexicon) -> Verdict:
        """The verdict on ``word``; a word the ruleset's deck cannot lay and the lexicon's own ruleset can names that ruleset.

        ``?word=schön&lang=de&ruleset=standard``: the English deck has no Ö,
        so the ``not_spellable`` reason carries the hint ``deutsch``, the
        ruleset the German lexicon is played with (its manifest's). A second
        judgement is made only for a word the deck cannot lay.
        """
        verdict = judge(word, ruleset, lexicon)
        if verdict.reasons and any(reason.code == "not_spellable" for reason in verdict.reasons):
            return self._hinted(verdict, ruleset, lexicon)
        return verdict

    def _hinted(self, verdict: Verdict, ruleset: Ruleset, lexicon: Lexicon) -> Verdict:
        language = self.languages.manifest.get(lexicon.info.id)
        own_id = language.ruleset if language is not None else None
        if own_id is None or own_id == ruleset.id or own_id not in self.rulesets.rulesets:
            return verdict
        own = self.rulesets.get(own_id)
        if own.deck.cards == ruleset.deck.cards or any(reason.code == "not_spellable" for reason in judge(verdict.word, own, lexicon).reasons):
            return verdict
        reasons = tuple(Reason(r.code, {**r.params, "hint": own_id}) if r.code == "not_spellable" else r for r in verdict.reasons)
        return verdict._replace(reasons=reasons)

    def verdict(self, word: str, ruleset_id: str | None = None, lang: str | None = None) -> Verdict:
        return self.judge(word, *self.resolve(ruleset_id, lang))

    def verdicts(self, words: Sequence[str], ruleset_id: str | None = None, lang: str | None = None) -> list[Verdict]:
        ruleset, lexicon = self.resolve(ruleset_id, lang)
        return [self.judge(word, ruleset, lexicon) for word in words]

    def score_round(self, play: RoundPlay, ruleset_id: str | None = None, lang: str | None = None) -> RoundResult:
        return score_round(play, *self.resolve(ruleset_id, lang))

    def score_game(self, players: Sequence[str], rounds: Sequence[RoundPlay], ruleset_id: str | None = None, lang: str | None = None) -> GameResult:
        return score_game(players, rounds, *self.resolve(ruleset_id, lang))

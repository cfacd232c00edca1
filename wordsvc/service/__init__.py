"""The service object: rulesets and lexicons loaded once, the operations the API and CLI offer.

Usable without a web server (datasette's habit): ``Service.from_settings()``
then ``verdict("quiz")``. The web views and the CLI are thin layers on this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..config import Settings
from ..core.game import GameResult, score_game
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.scoring import RoundPlay, RoundResult, score_round
from ..core.verdict import Verdict, judge
from ..data.languages import Languages
from ..data.rulesets import RulesetBook, load_rulesets

__all__ = ["Service"]


@dataclass
class Service:
    rulesets: RulesetBook
    languages: Languages

    @classmethod
    def from_settings(cls, settings: Settings | None = None) -> Service:
        settings = settings or Settings.from_env()
        return cls(load_rulesets(settings.rulesets_dir), Languages.load(settings.data_dir, settings.languages))

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

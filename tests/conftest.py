"""Shared fixtures: the shipped rulesets and a small in-memory English lexicon.

Most tests use :data:`WORDS` through :class:`MemoryLexicon`, so they do not
depend on the compiled SCOWL lexicon in ``build/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from wordsvc.core.cards import parse_cards
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.ruleset import Ruleset
from wordsvc.core.scoring import Challenge, PlayerPlay, RoundPlay, RoundResult, score_round
from wordsvc.data.rulesets import RulesetBook, load_rulesets

ORDINARY = (
    "a", "at", "ate", "eat", "tea", "it", "in", "er", "to", "top", "tops", "tip", "pit", "the", "them", "this",
    "there", "get", "quiz", "quit", "quiddler", "clown", "inquiring", "pizzazz", "incomprehensible",
    "cloth", "mung", "piny", "cling", "thump", "yon", "seated", "café",
    "an", "on", "no", "go", "do", "one", "den", "dear",
)  # fmt: skip

#: Form -> readings (class sets). ``derby`` is both an ordinary word and a town.
WORDS: dict[str, list[tuple[str, ...]]] = {word: [()] for word in ORDINARY} | {
    "derby": [(), ("proper_noun",)],
    "steve": [("proper_noun",)],
    "usa": [("abbreviation",)],
    "don't": [("contraction",)],
    "john's": [("proper_noun", "possessive")],
}

INFO = LexiconInfo(id="test-en", lang="en-US", version="1", sha256="0" * 64, fold_diacritics=True)
PLAIN_INFO = LexiconInfo(id="test-plain", lang="xx", version="1", sha256="1" * 64, fold_diacritics=False)


#: Where ``wordsvc build`` writes the lexicons (``make setup`` runs it).
BUILD = Path(__file__).resolve().parents[1] / "build"


@pytest.fixture(scope="module")
def built_lexicons(request: pytest.FixtureRequest) -> Any:
    """The service with the built lexicons the test module names in ``LEXICONS``, or the ids of those not built."""
    from wordsvc.data.languages import LANGUAGES, Languages
    from wordsvc.service import Service

    ids = tuple(request.module.LEXICONS)
    kinds = {lang.id: lang.kind for lang in LANGUAGES}
    missing = [i for i in ids if kinds.get(i) != "analyzer" and not (BUILD / "lexicons" / i / "meta.json").is_file()]
    return missing or Service(load_rulesets(), Languages.load(BUILD, ids))


@pytest.fixture
def service(built_lexicons: Any, unavailable_tool: Any) -> Any:
    """:func:`built_lexicons`; a test that needs one not built skips, and fails under CI (run ``wordsvc build``)."""
    if isinstance(built_lexicons, list):
        unavailable_tool("Lexicon", f"not built: {', '.join(built_lexicons)}; run `wordsvc build --only {','.join(built_lexicons)}`")
    return built_lexicons


@pytest.fixture(scope="session")
def rulesets() -> RulesetBook:
    return load_rulesets()


@pytest.fixture(scope="session")
def standard(rulesets: RulesetBook) -> Ruleset:
    return rulesets.get("standard")


@pytest.fixture(scope="session")
def lexicon() -> MemoryLexicon:
    """A small English lexicon that lays diacritics with plain letters (café is C-A-F-E)."""
    return MemoryLexicon(WORDS, INFO)


@pytest.fixture(scope="session")
def plain_lexicon() -> MemoryLexicon:
    """The same words in a lexicon that does not fold diacritics."""
    return MemoryLexicon(WORDS, PLAIN_INFO)


PlayerFactory = Callable[..., PlayerPlay]


@pytest.fixture(scope="session")
def player() -> PlayerFactory:
    """``player("Ann", "(qu)iz", ["T","O","P"], unused="m", went_out=False)``."""

    def make(name: str, *words: str | Sequence[str], unused: str | Sequence[str] = (), went_out: bool = False) -> PlayerPlay:
        return PlayerPlay(name, tuple(parse_cards(w) for w in words), parse_cards(unused) if unused else (), went_out)

    return make


@pytest.fixture(scope="session")
def score(rulesets: RulesetBook, lexicon: MemoryLexicon) -> Callable[..., RoundResult]:
    """Score a round: ``score(player(...), player(...), ruleset="standard", round=None, challenges=[(by, player, word)])``."""

    def run(
        *players: PlayerPlay,
        ruleset: str | Ruleset = "standard",
        round: int | None = None,
        challenges: Iterable[tuple[str, str, int]] = (),
        bonus_choice: str | None = None,
        lex: MemoryLexicon | None = None,
    ) -> RoundResult:
        rs = ruleset if isinstance(ruleset, Ruleset) else rulesets.get(ruleset)
        play = RoundPlay(tuple(players), round, tuple(Challenge(*c) for c in challenges), bonus_choice)
        return score_round(play, rs, lex or lexicon)

    return run

"""The search operations the API offers, over the built indexes of the loaded lexicons.

:class:`WordSearch` picks, for each lexicon, the structure that answers each
query (docs/search.md has the table and the figures) and gives every query
its time budget:

==================  =====================================================
``/words``          the search index (:mod:`.search_index`): sections of
                    ``forms.txt`` in result order, read by a bytes regex
                    or a literal search; :class:`~wordsvc.core.wordsearch.queries.PlainScan`
                    for a lexicon held in memory
``/anagrams``       the solver's anagram index (:mod:`.anagram_index`): forms
                    by sorted letters, one trie probe per step of the walk
``/suggest``        edit candidates looked up in the lexicon's trie
                    (pruned by prefix), or in the analyser (one edit)
==================  =====================================================

Every word returned as playable is judged by
:func:`~wordsvc.core.verdict.judge` or :func:`~wordsvc.core.verdict.judge_cards`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.errors import InvalidRequest
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.solver.candidates import CandidateSource, MemoryCandidates
from ..core.wordsearch.queries import (
    AnagramResult,
    Deadline,
    FormSource,
    PlainScan,
    SuggestResult,
    WordPage,
    WordQuery,
    anagram_words,
    find_words,
    suggest,
)
from .anagram_index import AnagramIndexError, AnagramIndexes
from .search_index import SearchIndex, SearchIndexError, SearchIndexes

__all__ = ["Budgets", "SearchUnavailable", "WordSearch"]


class SearchUnavailable(RuntimeError):
    """The index a query needs was not built (run ``wordsvc build``); the API answers 503."""


@dataclass(frozen=True)
class Budgets:
    """Seconds each query may search before it answers with what it found.

    Under the 50 ms p99 the issue sets for English, with room for writing the
    JSON; a suggestion inside a ``/validate`` verdict gets less, so a refused
    word costs little more than an accepted one. A request may ask for
    another budget (the API's ``budget_ms``, at most 500 ms), to get a
    complete answer to a broad query.
    """

    words: float = 0.035
    anagrams: float = 0.03
    suggest: float = 0.03
    verdict_suggest: float = 0.01


class WordSearch:
    """Search indexes opened on first use, one per lexicon; safe to share between requests of one process."""

    def __init__(self, anagram_indexes: AnagramIndexes | None = None, budgets: Budgets | None = None):
        self.budgets = budgets or Budgets()
        self._indexes = SearchIndexes()
        self._anagram_indexes = anagram_indexes
        self._fallback: dict[str, tuple[Lexicon, PlainScan | MemoryCandidates]] = {}

    # -- structures

    def index(self, lexicon: Lexicon) -> SearchIndex | None:
        """The built search index of a compiled lexicon, else ``None``."""
        try:
            return self._indexes.get(lexicon)
        except SearchIndexError as err:
            raise SearchUnavailable(str(err)) from err

    def form_source(self, lexicon: Lexicon) -> FormSource:
        """What ``/words`` scans; :class:`~wordsvc.core.errors.InvalidRequest` for an analyser."""
        index = self.index(lexicon)
        if index is not None:
            return index
        if not lexicon.info.enumerable:
            raise _not_enumerable(lexicon, "/words")
        if getattr(lexicon, "folder", None) is not None:
            raise SearchUnavailable(f"No search index for {lexicon.info.id}; run `wordsvc build`.")
        return self._memory(lexicon, "scan", lambda: PlainScan(lexicon))  # type: ignore[return-value]

    def candidate_source(self, lexicon: Lexicon, ruleset: Ruleset | None = None) -> CandidateSource:
        """What ``/anagrams`` probes: the anagram index built beside the lexicon (covering ``ruleset``'s deck), else one held in memory."""
        if self._anagram_indexes is not None:
            try:
                return self._anagram_indexes.get(lexicon, ruleset)
            except AnagramIndexError as err:
                if getattr(lexicon, "folder", None) is not None:
                    raise SearchUnavailable(str(err)) from err
        if not lexicon.info.enumerable:
            raise _not_enumerable(lexicon, "/anagrams")
        return self._memory(lexicon, "anagrams", lambda: MemoryCandidates.from_lexicon(lexicon))  # type: ignore[return-value]

    def _memory(self, lexicon: Lexicon, kind: str, make: Callable[[], PlainScan | MemoryCandidates]) -> PlainScan | MemoryCandidates:
        key = f"{kind}:{lexicon.info.id}:{lexicon.info.sha256}:{id(lexicon)}"
        held = self._fallback.get(key)
        if held is None or held[0] is not lexicon:
            held = self._fallback[key] = (lexicon, make())
        return held[1]

    # -- queries

    def words(self, query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, budget: float | None = None) -> WordPage:
        deadline = Deadline(self.budgets.words if budget is None else budget)
        return find_words(query, ruleset, lexicon, self.form_source(lexicon), deadline)

    def anagrams(self, cards: Sequence[str], ruleset: Ruleset, lexicon: Lexicon, every_card: bool, budget: float | None = None) -> AnagramResult:
        source = self.candidate_source(lexicon, ruleset)
        try:
            index = self._indexes.get(lexicon)
        except SearchIndexError:
            index = None
        prefilter = index.prefilter(ruleset) if index is not None else None
        deadline = Deadline(self.budgets.anagrams if budget is None else budget)
        return anagram_words(cards, ruleset, lexicon, source, every_card, deadline, prefilter)

    def suggest(self, word: str, ruleset: Ruleset, lexicon: Lexicon, limit: int = 10, budget: float | None = None) -> SuggestResult:
        """Close playable words; never fails for want of an index (it then tries one edit only)."""
        deadline = Deadline(self.budgets.suggest if budget is None else budget)
        try:
            index = self._indexes.get(lexicon)
        except SearchIndexError:
            index = None
        if index is None:
            return suggest(word, ruleset, lexicon, limit, deadline)
        return suggest(
            word,
            ruleset,
            lexicon,
            limit,
            deadline,
            known=index.known,
            has_prefix=index.has_prefix,
            rank=index.rank,
            prefilter=index.prefilter(ruleset),
        )


def _not_enumerable(lexicon: Lexicon, endpoint: str) -> InvalidRequest:
    detail = f"{lexicon.info.id} is judged by an analyser that cannot list its words, so {endpoint} cannot search it."
    return InvalidRequest(detail, {"lang": [f"{lexicon.info.id} cannot list its words; {endpoint} needs a word list"]})

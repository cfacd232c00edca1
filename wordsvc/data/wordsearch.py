"""The search operations the API offers, over the built indexes of the loaded lexicons.

:class:`WordSearch` picks, for each lexicon, the structure that answers each
query (docs/search.md has the table and the figures) and gives every query
its work budget (:mod:`wordsvc.core.work`):

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

from ..core import problem_codes as codes
from ..core.errors import InvalidRequest
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.solver.candidates import CandidateSource, MemoryCandidates
from ..core.wordsearch.queries import (
    ANALYSER_LAYING_UNITS,
    LAYING_UNITS,
    AnagramResult,
    FormSource,
    PlainScan,
    SuggestResult,
    WordPage,
    WordQuery,
    anagram_words,
    find_words,
    suggest,
)
from ..core.wordsearch.suggest import ANALYSER_LOOKUP_TENTHS, LOOKUP_TENTHS
from ..core.work import Work
from .anagram_index import AnagramIndexError, AnagramIndexes
from .search_index import SearchIndex, SearchIndexError, SearchIndexes

__all__ = ["Budgets", "SearchUnavailable", "WordSearch"]


class SearchUnavailable(RuntimeError):
    """The index a query needs was not built (run ``wordsvc build``); the API answers 503."""


@dataclass(frozen=True)
class Budgets:
    """Units of work (about a microsecond each on the reference machine) each query may spend before it answers with what it found.

    The defaults are the time budgets they replaced, counted instead of
    timed (docs/performance.md#work-budgets measures that they keep the
    latencies): under the 50 ms p99 set for English, with room for writing
    the JSON; a suggestion inside a ``/validate`` verdict gets less, so a
    refused word costs little more than an accepted one. A request may ask
    for another budget (the API's ``budget``), to get a complete answer to
    a broad query. ``safety``: the wall-clock last resort (seconds) of every
    query, which never shortens an answer, only refuses one
    (:class:`~wordsvc.core.work.SafetyLimit`).
    """

    words: int = 35_000
    anagrams: int = 30_000
    suggest: int = 30_000
    verdict_suggest: int = 10_000
    solve: int = 2_000_000
    safety: float | None = None

    def work(self, units: int, operation: str) -> Work:
        """A fresh budget of ``units`` for one run of ``operation``, under the safety limit."""
        return Work(units, self.safety, operation)


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

    def words(self, query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, budget: int | None = None, work: Work | None = None) -> WordPage:
        """One page of ``query`` on a budget of ``budget`` units (default: :attr:`Budgets.words`), or on ``work``."""
        if work is None:
            work = self.budgets.work(self.budgets.words if budget is None else budget, "words")
        return find_words(query, ruleset, lexicon, self.form_source(lexicon), work)

    def anagrams(
        self, cards: Sequence[str], ruleset: Ruleset, lexicon: Lexicon, every_card: bool, budget: int | None = None, work: Work | None = None
    ) -> AnagramResult:
        """``work``: a budget shared with the caller's other calls (the solitaire solver), instead of one of ``budget`` units."""
        source = self.candidate_source(lexicon, ruleset)
        try:
            index = self._indexes.get(lexicon)
        except SearchIndexError:
            index = None
        prefilter = index.prefilter(ruleset) if index is not None else None
        if work is None:
            work = self.budgets.work(self.budgets.anagrams if budget is None else budget, "anagrams")
        laying = LAYING_UNITS if lexicon.info.enumerable else ANALYSER_LAYING_UNITS
        return anagram_words(cards, ruleset, lexicon, source, every_card, work, prefilter, laying)

    def solitaire_words(self, ruleset: Ruleset, lexicon: Lexicon, work: Work) -> Callable[[Sequence[str]], list[tuple[str, ...]]]:
        """The solitaire solver's ``words_of``: the words some of the top cards lay, every search charged to ``work``."""

        def words_of(tops: Sequence[str]) -> list[tuple[str, ...]]:
            return [hit.cards for hit in self.anagrams(tops, ruleset, lexicon, False, work=work).hits]

        return words_of

    def suggest(
        self, word: str, ruleset: Ruleset, lexicon: Lexicon, limit: int = 10, budget: int | None = None, work: Work | None = None
    ) -> SuggestResult:
        """Close playable words; never fails for want of an index (it then tries one edit only)."""
        if work is None:
            work = self.budgets.work(self.budgets.suggest if budget is None else budget, "suggest")
        try:
            index = self._indexes.get(lexicon)
        except SearchIndexError:
            index = None
        if index is None:
            tenths = LOOKUP_TENTHS if lexicon.info.enumerable else ANALYSER_LOOKUP_TENTHS
            return suggest(word, ruleset, lexicon, limit, work, lookup_tenths=tenths)
        return suggest(
            word,
            ruleset,
            lexicon,
            limit,
            work,
            known=index.known,
            has_prefix=index.has_prefix,
            rank=index.rank,
            prefilter=index.prefilter(ruleset),
        )


def _not_enumerable(lexicon: Lexicon, endpoint: str) -> InvalidRequest:
    detail = f"{lexicon.info.id} is judged by an analyser that cannot list its words, so {endpoint} cannot search it."
    return InvalidRequest(detail, {"lang": [f"{lexicon.info.id} cannot list its words; {endpoint} needs a word list"]}, code=codes.NO_WORD_LIST)

"""Near misses: the playable words a few edits from a word, for ``/suggest`` and refused verdicts.

An edit is a deletion, an insertion, a substitution or a swap of neighbours
(Damerau), over the letters of the ruleset's deck. One edit is always
searched in full; two edits when one gave too few words and the lexicon is a
trie that can prune them by prefix (an analyser cannot). Candidates are
looked up, then judged by :func:`wordsvc.core.verdict.judge`, most common
first, until the list is full.

Work (docs/search.md#work-budgets): each candidate looked up costs
``lookup_tenths`` tenths of a unit (:data:`LOOKUP_TENTHS` for a trie;
:data:`ANALYSER_LOOKUP_TENTHS` for an analyser, which runs a morphological
analysis per look-up), each prefix test :data:`PREFIX_UNITS`. One edit is charged but always finished; two edits stop
when the budget is spent, and the answer says ``truncated``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..cards import Cards
from ..lexicon import Lexicon
from ..ruleset import Ruleset
from ..text import normalize
from ..verdict import judge
from ..work import Work
from .patterns import sort_rank

__all__ = ["ANALYSER_LOOKUP_TENTHS", "LOOKUP_TENTHS", "PREFIX_UNITS", "SuggestResult", "Suggestion", "edits1", "edits2", "suggest"]

#: Tenths of a unit (about a microsecond, :mod:`wordsvc.core.work`) one candidate looked up in a trie costs, with the loop around it (0.3 us).
LOOKUP_TENTHS = 3
#: The same in an analyser (Vabamorf runs a morphological analysis: about 30 us).
ANALYSER_LOOKUP_TENTHS = 300
#: One prefix test on a trie (an iterator made and read once: about 1 us).
PREFIX_UNITS = 1


def edits1(word: str, alphabet: Iterable[str], has_prefix: Callable[[str], bool] | None = None) -> Iterator[str]:
    """Every string one Damerau edit from ``word`` over ``alphabet`` (with repeats).

    ``has_prefix(p)`` False promises that no word starts with ``p``: edits
    past that point are not generated.

    >>> sorted(set(edits1("ab", "ab")))
    ['a', 'aa', 'aab', 'aba', 'abb', 'b', 'ba', 'bab', 'bb']
    """
    for candidate, _ in _edits_from(word, 0, sorted(set(alphabet)), has_prefix):
        yield candidate


def edits2(word: str, alphabet: Iterable[str], has_prefix: Callable[[str], bool] | None = None) -> Iterator[str]:
    """Every string two Damerau edits from ``word`` (and some one or none away), with repeats.

    The left edit comes first and the second lies at or after its end, so
    each pair of edit places is tried once; ``has_prefix`` prunes as in
    :func:`edits1`, which is what makes two edits affordable on a trie.
    """
    letters = sorted(set(alphabet))
    for first, end in _edits_from(word, 0, letters, has_prefix):
        for candidate, _ in _edits_from(first, end, letters, has_prefix):
            yield candidate


def _edits_from(word: str, start: int, letters: Sequence[str], has_prefix: Callable[[str], bool] | None) -> Iterator[tuple[str, int]]:
    """``(candidate, end)`` for each edit at a position >= ``start``; ``end``: where the edit's text ends in the candidate."""
    n = len(word)
    for i in range(start, n + 1):
        head = word[:i]
        if has_prefix is not None and i and not has_prefix(head):
            return
        for ch in letters:
            yield head + ch + word[i:], i + 1  # insertion
        if i < n:
            tail = word[i + 1 :]
            yield head + tail, i  # deletion
            for ch in letters:
                if ch != word[i]:
                    yield head + ch + tail, i + 1  # substitution
            if i + 1 < n and word[i] != word[i + 1]:
                yield head + word[i + 1] + word[i] + word[i + 2 :], i + 2  # swap of neighbours


@dataclass(frozen=True)
class Suggestion:
    word: str
    distance: int
    rank: int | None
    points: int | None
    cards: Cards | None

    def to_dict(self) -> dict[str, object]:
        cards = [face.upper() for face in self.cards] if self.cards is not None else None
        return {"word": self.word, "distance": self.distance, "rank": self.rank, "points": self.points, "cards": cards}


@dataclass(frozen=True)
class SuggestResult:
    word: str
    suggestions: tuple[Suggestion, ...]
    max_distance: int
    truncated: bool


def suggest(
    word: str,
    ruleset: Ruleset,
    lexicon: Lexicon,
    limit: int = 10,
    work: Work | None = None,
    *,
    known: Callable[[str], bool] | None = None,
    has_prefix: Callable[[str], bool] | None = None,
    rank: Callable[[str], int | None] | None = None,
    prefilter: Callable[[str], bool] | None = None,
    max_distance: int = 2,
    lookup_tenths: int = LOOKUP_TENTHS,
) -> SuggestResult:
    """Up to ``limit`` playable words close to ``word``: by edit distance, then commonness, then code point.

    Candidates are generated over the deck's letters; ``known(candidate)``
    (default: the lexicon has readings for it) picks the forms, each is judged
    under ``ruleset`` (unless ``prefilter``, a :meth:`FormSource.prefilter`,
    already rules it out) and only valid ones are kept. One edit is always tried
    in full (a few hundred look-ups). Two edits are tried when one gave fewer
    than ``limit`` words and ``has_prefix`` can prune them (a trie: some
    thousands of look-ups; an analyser has none, so it gets one edit); they
    stop when ``work`` (default: unbounded) is spent, and ``truncated`` says
    so. One edit is always finished: a word's near misses never depend on the
    budget. ``word`` itself is never suggested.
    """
    work = work or Work.unbounded()
    target = _plain_letters(word)
    alphabet = sorted(ch for ch in ruleset.deck.letters if len(ch) == 1)
    known = known or (lambda candidate: bool(lexicon.readings(candidate)))
    rank = rank or getattr(lexicon, "rank", None)
    house = ruleset.house_allow
    found: list[Suggestion] = []
    truncated = False
    tried = 0

    def take(forms: set[str], distance: int) -> None:
        """Judge the forms most common first, until the list is full: the rest could only rank below."""
        for form in sorted(forms, key=lambda f: (sort_rank(rank(f) if rank is not None else None), f)):
            if len(found) >= limit:
                return
            if form not in house and prefilter is not None and not prefilter(form):
                continue
            verdict = judge(form, ruleset, lexicon)
            if verdict.valid:
                best = verdict.spellings[0]
                found.append(Suggestion(form, distance, rank(form) if rank is not None else None, best.points, best.cards))

    if target:
        tried = 1
        near: set[str] = set()
        looked = 0
        for candidate in edits1(target, alphabet, has_prefix):
            looked += 1
            if candidate not in near and (candidate in house or known(candidate)):
                near.add(candidate)
        work.spend(looked * lookup_tenths // 10 + (len(target) + 1) * PREFIX_UNITS)
        near.discard(target)
        take(near, 1)
        if max_distance >= 2 and len(found) < limit and has_prefix is not None:
            if work.exhausted:
                truncated = True
            else:
                tried = 2
                far, truncated = _two_edits(target, alphabet, known, has_prefix, house, work, lookup_tenths)
                take(far - near - {target}, 2)
    return SuggestResult(target, tuple(found), tried, truncated)


def _two_edits(
    word: str,
    letters: Sequence[str],
    known: Callable[[str], bool],
    has_prefix: Callable[[str], bool],
    house: frozenset[str],
    work: Work,
    lookup_tenths: int,
) -> tuple[set[str], bool]:
    """The known forms two edits from ``word`` (:func:`edits2`, inlined: it is the hot loop), and whether the work budget cut it.

    Each first edit's second edits are charged together after it: a look-up
    per candidate, a prefix test per place tried.
    """
    hits: set[str] = set()
    alphabet = len(letters)
    for first, end in _edits_from(word, 0, letters, has_prefix):
        if work.exhausted:
            return hits, True
        n = len(first)
        looked = tests = 0
        for i in range(end, n + 1):
            head = first[:i]
            tests += 1
            if i and not has_prefix(head):
                break
            looked += alphabet + (i < n) * alphabet + (i + 1 < n)
            rest = first[i:]
            for ch in letters:
                candidate = head + ch + rest
                if known(candidate) or candidate in house:
                    hits.add(candidate)
            if i < n:
                tail = first[i + 1 :]
                candidate = head + tail
                if known(candidate) or candidate in house:
                    hits.add(candidate)
                own = first[i]
                for ch in letters:
                    if ch != own:
                        candidate = head + ch + tail
                        if known(candidate) or candidate in house:
                            hits.add(candidate)
                if i + 1 < n and own != first[i + 1]:
                    candidate = head + first[i + 1] + own + first[i + 2 :]
                    if known(candidate) or candidate in house:
                        hits.add(candidate)
        work.spend(looked * lookup_tenths // 10 + tests * PREFIX_UNITS)
    return hits, False


def _plain_letters(word: str) -> str:
    """The letters of a word as typed or in card notation: ``(QU)iz`` -> ``quiz``."""
    return normalize(word.replace("(", "").replace(")", "").strip())

"""Word search, pure: which words fit a pattern, which words these cards lay.

Three questions a player asks of a lexicon, answered without any I/O:

- *which words fit this pattern* (:func:`find_words`; the pattern syntax,
  result order and cursors are :mod:`.patterns`);
- *which words these cards lay* (:func:`anagram_words`);
- *which words are close to this one* (:mod:`.suggest`, re-exported here).

Every word any of them returns as playable has passed
:func:`wordsvc.core.verdict.judge` (or :func:`~wordsvc.core.verdict.judge_cards`
for a laying) under the ruleset: the verdict is the single source of truth,
the indexes only propose. Results are ordered by commonness (the lexicon's
rank, smaller first, unranked last) then by code point, and paged by an
opaque cursor naming the last position seen.

The index a search scans is anything that follows :class:`FormSource`: the
compiled one lives in :mod:`wordsvc.data.search_index`; :class:`PlainScan`
is the reference (a sorted scan of an enumerable lexicon), used by the tests
and for small lexicons.

Every search runs on a :class:`~wordsvc.core.work.Work` budget, charged at
fixed places with counts of its own work (the weights below, in units of
about a microsecond on the reference machine); a search that spends it
returns what it found with ``truncated`` set and a cursor to go on from,
instead of running on. The same query on the same lexicon stops at the same
place on any machine, however busy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from .. import problem_codes as codes
from ..cards import Cards
from ..errors import InvalidRequest
from ..lexicon import Lexicon
from ..problem_codes import coded
from ..ruleset import Ruleset
from ..solver.candidates import CandidateSource, letter_key
from ..text import normalize
from ..verdict import Verdict, judge, judge_cards
from ..work import Work
from .patterns import (
    MAX_PATTERN_CHARS,
    UNRANKED,
    Bound,
    CursorError,
    Pattern,
    PatternError,
    compile_pattern,
    decode_cursor,
    encode_cursor,
    letter_count,
    sort_rank,
)
from .suggest import Suggestion, SuggestResult, edits1, edits2, suggest

__all__ = [
    "ANALYSER_LAYING_UNITS",
    "LAYING_UNITS",
    "MAX_PATTERN_CHARS",
    "ORDINARY",
    "SCAN_BYTES",
    "UNRANKED",
    "AnagramHit",
    "AnagramResult",
    "Bound",
    "CursorError",
    "FormSource",
    "Pattern",
    "PatternError",
    "PlainScan",
    "SuggestResult",
    "Suggestion",
    "WordHit",
    "WordPage",
    "WordQuery",
    "anagram_words",
    "compile_pattern",
    "decode_cursor",
    "edits1",
    "edits2",
    "encode_cursor",
    "find_words",
    "letter_count",
    "suggest",
]

#: The class name a ``classes`` filter uses for a reading with no class.
ORDINARY = "ordinary"
#: Reason codes that mean the deck cannot lay the word within the largest hand.
_UNLAID = frozenset({"not_spellable", "too_long", "invalid_characters"})

# Work charged, in units of about a microsecond on the reference machine, fitted by bench/work_units.py
# (docs/search.md#work-budgets has the table).
#: Bytes of a form list read for one unit when no pattern says otherwise (:attr:`~.patterns.Pattern.scan_bytes`; a literal
#: search skips them at several bytes a nanosecond): each form is its letters and a newline.
SCAN_BYTES = 2048
#: A form a scan hands to ``/words``: its classes checked and, when they allow it, its verdict (about 2 us).
FORM_UNITS = 2
#: A form that joins the page: its best laying and its entry written (about 5 us more).
HIT_UNITS = 5
#: One probe of an anagram index (a trie look-up of a sorted-letter key).
PROBE_UNITS = 1
#: A candidate word an anagram probe found, before its layings (a prefilter look-up).
CANDIDATE_UNITS = 1
#: One way the deck spells a candidate word, checked against the cards held (a hand with double-letter cards; about 6 us).
SPELLING_UNITS = 6
#: One laying of a candidate word judged from the cards, by a compiled lexicon (about 10 us).
LAYING_UNITS = 10
#: The same, by an analyser that runs a morphological analysis (Vabamorf: 45 to 60 us, and more the first time a form is seen).
ANALYSER_LAYING_UNITS = 90


# ---------------------------------------------------------------- sources


Scanned = tuple[int, str] | Bound


class FormSource(Protocol):
    """Forms of a lexicon in result order: what :func:`find_words` scans."""

    def scan(self, pattern: Pattern, letters: tuple[int, int], start: Bound | None, work: Work, playable: Ruleset | None = None) -> Iterator[Scanned]:
        """``(rank, form)`` of every form matching ``pattern`` with ``letters[0]..letters[1]`` letters, in order, from ``start``.

        ``playable``: only forms this ruleset may accept are wanted (the
        source may leave out forms it knows it refuses). The source charges
        ``work`` for what it reads (a unit per ``pattern.scan_bytes`` bytes
        of forms); when the budget is spent between two matches, the last item is
        a :class:`Bound`: everything before it has been looked at, nothing
        after it.
        """
        ...

    def prefilter(self, ruleset: Ruleset) -> Callable[[str], bool] | None:
        """A quick test that is False only for forms the ruleset surely refuses (``None``: no such test)."""
        ...


class PlainScan:
    """The reference :class:`FormSource`: every form of an enumerable lexicon, sorted, tested one by one."""

    def __init__(self, lexicon: Lexicon, rank: Callable[[str], int | None] | None = None):
        self.lexicon = lexicon
        self._rank = rank or getattr(lexicon, "rank", None) or (lambda form: None)

    @cached_property
    def ordered(self) -> list[tuple[int, str]]:
        return sorted((sort_rank(self._rank(form)), form) for form in self.lexicon.forms())

    def scan(self, pattern: Pattern, letters: tuple[int, int], start: Bound | None, work: Work, playable: Ruleset | None = None) -> Iterator[Scanned]:
        lo, hi = letters
        read, per_unit = 0, pattern.scan_bytes
        for rank, form in self.ordered:
            if start is not None and not start.admits(rank, form):
                continue
            if read >= per_unit:
                units, read = divmod(read, per_unit)
                if work.spend(units):
                    yield Bound(rank, form, after=False)
                    return
            read += len(form.encode()) + 1
            if lo <= letter_count(form) <= hi and pattern.matches(form):
                yield rank, form

    def prefilter(self, ruleset: Ruleset) -> Callable[[str], bool] | None:
        return None


# ---------------------------------------------------------------- /words


@dataclass(frozen=True)
class WordQuery:
    """``classes`` None: playable forms only; else forms with a reading of one of these classes (``ordinary``: none)."""

    pattern: Pattern
    min_len: int | None = None
    max_len: int | None = None
    classes: frozenset[str] | None = None
    limit: int = 50
    start: Bound | None = None

    def scope(self, ruleset: Ruleset, lexicon: Lexicon) -> str:
        """What a cursor of this query is bound to (not the limit: a client may change it between pages)."""
        classes = ",".join(sorted(self.classes)) if self.classes is not None else "-"
        return f"words|{lexicon.info.id}|{lexicon.info.sha256}|{ruleset.id}|{self.pattern.text}|{self.min_len}|{self.max_len}|{classes}"


@dataclass(frozen=True)
class WordHit:
    word: str
    letters: int
    classes: tuple[str, ...]
    points: int | None
    cards: Cards | None
    rank: int | None
    valid: bool

    def to_dict(self) -> dict[str, object]:
        return {
            "word": self.word,
            "letters": self.letters,
            "points": self.points,
            "cards": [face.upper() for face in self.cards] if self.cards is not None else None,
            "classes": list(self.classes),
            "rank": self.rank,
            "valid": self.valid,
        }


@dataclass(frozen=True)
class WordPage:
    hits: tuple[WordHit, ...]
    next: Bound | None
    truncated: bool


def find_words(query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, source: FormSource, work: Work) -> WordPage:
    """One page of the forms matching ``query``, in result order, each judged under ``ruleset``.

    Reads one form past the page to know whether a next page exists. Charges
    ``work`` :data:`FORM_UNITS` for each form the source hands it and
    :data:`HIT_UNITS` more for each it keeps (the source charges its
    reading), and stops when the budget is spent with what it
    found: ``truncated`` when the page is short, with ``next`` where to go on.
    """
    lo = max(query.pattern.min_letters, query.min_len or 1, 1)
    cap = [query.pattern.max_letters, query.max_len]
    if query.classes is None:  # a playable word fits the largest hand
        cap.append(ruleset.max_hand * max((len(face) for face in ruleset.deck.cards), default=1))
    hi = min(c for c in cap if c is not None) if any(c is not None for c in cap) else 1 << 16
    if lo > hi:
        return WordPage((), None, False)
    keep = _word_filter(query, ruleset, lexicon, source)
    hits: list[WordHit] = []
    last: tuple[int, str] | None = None  # the key of the last hit on the page
    playable = ruleset if query.classes is None else None
    stream = _with_house_words(source.scan(query.pattern, (lo, hi), query.start, work, playable), query, ruleset, lexicon, (lo, hi))
    for item in stream:
        if isinstance(item, Bound):  # the source spent the budget
            if len(hits) >= query.limit:
                return WordPage(tuple(hits), _after(last), False)
            return WordPage(tuple(hits), item, True)
        rank, form = item
        hit = keep(form, rank)
        if hit is not None:
            if len(hits) >= query.limit:  # one past the page: there is a next one
                return WordPage(tuple(hits), _after(last), False)
            hits.append(hit)
            last = item
        if work.spend(FORM_UNITS if hit is None else FORM_UNITS + HIT_UNITS):
            if len(hits) >= query.limit:
                return WordPage(tuple(hits), _after(last), False)
            return WordPage(tuple(hits), Bound(rank, form, after=True), True)
    return WordPage(tuple(hits), None, False)


def _after(key: tuple[int, str] | None) -> Bound | None:
    return None if key is None else Bound(key[0], key[1], after=True)


def _word_filter(query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, source: FormSource) -> Callable[[str, int], WordHit | None]:
    if query.classes is None:
        quick = source.prefilter(ruleset)
        banned, allow, refuse = ruleset.banned_classes, ruleset.house_allow, ruleset.house_refuse

        def keep(form: str, rank: int) -> WordHit | None:
            if form in refuse or (quick is not None and not quick(form)):
                return None
            if form not in allow and not any(not (classes & banned) for classes in lexicon.readings(form)):
                return None
            verdict = judge(form, ruleset, lexicon)
            return _hit(verdict, rank) if verdict.valid else None

        return keep
    wanted = query.classes

    def keep_classes(form: str, rank: int) -> WordHit | None:
        readings = lexicon.readings(form) or ((frozenset(),) if form in ruleset.house_allow else ())
        if not any((classes & wanted) or (not classes and ORDINARY in wanted) for classes in readings):
            return None
        return _hit(judge(form, ruleset, lexicon), rank)

    return keep_classes


def _hit(verdict: Verdict, rank: int) -> WordHit:
    laid = not any(reason.code in _UNLAID for reason in verdict.reasons)
    best = verdict.spellings[0] if laid and verdict.spellings else None
    return WordHit(
        verdict.normalized,
        letter_count(verdict.normalized),
        tuple(verdict.classes),
        best.points if best else None,
        best.cards if best else None,
        None if rank == UNRANKED else rank,
        verdict.valid,
    )


def _with_house_words(stream: Iterator[Scanned], query: WordQuery, ruleset: Ruleset, lexicon: Lexicon, letters: tuple[int, int]) -> Iterator[Scanned]:
    """The source's forms, with the ruleset's house words the lexicon lacks merged in (unranked)."""
    extra = sorted(
        (UNRANKED, form)
        for form in ruleset.house_allow
        if not lexicon.readings(form)
        and letters[0] <= letter_count(form) <= letters[1]
        and query.pattern.matches(form)
        and (query.start is None or query.start.admits(UNRANKED, form))
    )
    if not extra:
        yield from stream
        return
    pending = iter(extra)
    nxt = next(pending, None)
    for item in stream:
        if isinstance(item, Bound):
            yield Bound(*min((item.rank, item.form, item.after), (*nxt, False))) if nxt else item
            return
        while nxt is not None and nxt < item:
            yield nxt
            nxt = next(pending, None)
        yield item
    while nxt is not None:
        yield nxt
        nxt = next(pending, None)


# ---------------------------------------------------------------- /anagrams


@dataclass(frozen=True)
class AnagramHit:
    word: str
    cards: Cards
    points: int
    rank: int | None

    def to_dict(self) -> dict[str, object]:
        return {"word": self.word, "cards": [face.upper() for face in self.cards], "points": self.points, "letters": len(self.word), "rank": self.rank}


@dataclass(frozen=True)
class AnagramResult:
    cards: Cards
    hits: tuple[AnagramHit, ...]
    truncated: bool


def anagram_words(
    cards: Sequence[str],
    ruleset: Ruleset,
    lexicon: Lexicon,
    source: CandidateSource,
    every_card: bool = True,
    work: Work | None = None,
    prefilter: Callable[[str], bool] | None = None,
    laying_units: int = LAYING_UNITS,
) -> AnagramResult:
    """Every valid word these cards lay, each with its best laying from them; best points first.

    ``every_card``: only words that use all the cards; else any of them.
    Double-letter cards count as laid: ``(qu)izt`` lays QUIZ as QU-I-Z, not
    Q-U-I-Z. A card the deck lacks, or more copies than it holds, is an
    :class:`~wordsvc.core.errors.InvalidRequest`. Every laying is judged with
    :func:`~wordsvc.core.verdict.judge_cards`, unless ``prefilter`` (a
    :meth:`FormSource.prefilter`) already rules the word out.

    ``work`` (default: unbounded) is charged :data:`PROBE_UNITS` a probe of
    the source, :data:`CANDIDATE_UNITS` a candidate word,
    :data:`SPELLING_UNITS` a spelling of it checked against the cards and
    ``laying_units`` a laying judged (:data:`LAYING_UNITS`, or
    :data:`ANALYSER_LAYING_UNITS` for an analyser); when it is spent the
    answer is what was found, ``truncated``. It may be shared with a caller
    that asks many times (the solitaire solver).
    """
    work = work or Work.unbounded()
    hand = tuple(normalize(face) for face in cards)
    _check_hand(hand, ruleset)
    have = Counter(hand)
    letters = "".join(hand)
    max_cards = min(len(hand), ruleset.max_hand)
    rank_of = getattr(lexicon, "rank", None)
    best: dict[str, AnagramHit] = {}
    truncated = False

    singles = all(len(face) == 1 for face in hand)

    def ways(form: str) -> Iterator[Cards]:
        """The layings of ``form`` from the hand, best points first."""
        if singles:  # the walk took the letters from the hand: one laying, card by card
            if len(form) <= max_cards:
                yield tuple(form)
            return
        for way in ruleset.deck.spellings(form, max_cards=max_cards):
            work.spend(SPELLING_UNITS)
            used = Counter(way)
            if (used == have) if every_card else all(have[face] >= k for face, k in used.items()):
                yield way

    def try_key(found: Sequence[str]) -> None:
        nonlocal truncated
        for form in found:
            if work.exhausted:
                truncated = True
                return
            work.spend(CANDIDATE_UNITS)
            if form in best or (prefilter is not None and not prefilter(form)):
                continue
            for way in ways(form):
                work.spend(laying_units)
                if judge_cards(way, ruleset, lexicon).valid:
                    best[form] = AnagramHit(form, way, ruleset.deck.points(way), rank_of(form) if rank_of is not None else None)
                    break

    if every_card:
        work.spend(PROBE_UNITS)
        try_key(source.candidates(letter_key(letters)))
    else:
        truncated = _walk_sub_keys(Counter(letters), source, try_key, work) or truncated
    hits = sorted(best.values(), key=lambda h: (-h.points, h.word))
    return AnagramResult(hand, tuple(hits), truncated)


def _walk_sub_keys(letters: Counter[str], source: CandidateSource, visit: Callable[[Sequence[str]], None], work: Work) -> bool:
    """Visit the forms of every sorted sub-multiset of ``letters`` that the source knows; True if the work budget cut it short."""
    alphabet = sorted(letters)
    stopped = False

    def walk(start: int, prefix: str) -> None:
        nonlocal stopped
        for j in range(start, len(alphabet)):
            ch = alphabet[j]
            key = prefix
            for _ in range(letters[ch]):
                key += ch
                work.spend(PROBE_UNITS)
                found = source.probe(key)
                if found is None:
                    break
                if found:
                    visit(found)
                if work.exhausted:
                    stopped = True
                    return
                walk(j + 1, key)
                if stopped:
                    return

    try:
        walk(0, "")
    finally:
        walk = None  # type: ignore[assignment]  # break the closure's cycle, which would hold ``visit`` and all it gathered
    return stopped


def _check_hand(hand: Cards, ruleset: Ruleset) -> None:
    deck = ruleset.deck
    problems: dict[str, list[str]] = {}
    for i, face in enumerate(hand):
        if face not in deck:
            problems.setdefault(f"cards.{i}", []).append(coded(codes.UNKNOWN_CARD, f"{face.upper()} is not a card of the {ruleset.id} deck"))
    for face, used in deck.over_count(hand).items():
        problems.setdefault("cards", []).append(coded(codes.TOO_MANY_COPIES, f"{used} {face.upper()} cards, but the deck holds {deck.count(face)}"))
    if problems:
        raise InvalidRequest("The cards do not come from the ruleset's deck; see errors.", problems)

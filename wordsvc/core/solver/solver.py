"""The exact best play of a hand: which cards to lay as which words, which to leave, which to discard.

Round points are the points of the words laid minus the values of the cards
left unused; a discarded card scores nothing. :meth:`Solver.solve` finds a
play no other play beats, under the ruleset (minimum word, banned classes,
house words, the deck's double-letter cards) and the lexicon, in three steps:

1. **Words** (:mod:`wordsvc.core.solver.groups`): every multiset of the hand's cards
   that lays at least one valid word, found by probing an anagram index
   (:mod:`wordsvc.core.solver.candidates`). EAT, TEA and ATE are one *group*: a play
   is made of card groups.
2. **Best score** (:mod:`wordsvc.core.solver.arrangement`): a memoized recursion over
   the cards left, their counts packed in one integer. The first card left
   (by value, highest first) is laid in a group holding it, or left out: the
   first cards left out are the discards, the others are unused. Each play is
   reached exactly once, and the discard is always the most valuable card not
   laid. Alongside the best score the recursion keeps, exactly, the best
   play's tie-breaks: the longest word (in the ruleset's measure), then the
   most words.
3. **Runners-up and advice**: a best-first enumeration bounded by step 2
   expands only partial plays that lead to the next answer; the best play
   laying the longest word, the best play laying the most words, the best
   play that goes out, and the face-up card's worth reuse the same recursion.

A lexicon that cannot list its words (an analyser: Vabamorf) is only as
good as its candidate source, except on small hands: a hand of at most
:data:`EXHAUSTIVE_CARDS` cards (the face-up card included) also gets every
ordering of every sub-multiset of its cards proposed, and each is judged
before the search, so its best play is exact over the analyser's verdicts.

Every word of every play returned is judged by
:func:`wordsvc.core.verdict.judge_cards`, the single source of truth; step 1
only mirrors it (:meth:`Solver.allowed`; judging every candidate would cost
about 27 µs each). Should the two ever disagree, the word is dropped and the
hand solved again: the solver never plays a word ``/validate`` refuses.

Pure: standard library only, no I/O. A :class:`Solver` keeps caches (word
allowed, laying judged, and the candidate source's answers for short prefixes,
which solvers of one source share: :func:`prefix_scope`) in a
:class:`~wordsvc.core.budget.MemoryBudget`, the service's one budget for every
cache of the process, or one of its own (:data:`OWN_BUDGET`); it is meant to be
kept per ruleset and lexicon.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence

from .. import problem_codes as codes
from ..budget import BudgetedCache, MemoryBudget
from ..cards import Cards, CardSyntaxError, parse_cards
from ..errors import Problems
from ..lexicon import Lexicon
from ..ruleset import Ruleset, Unused
from ..text import normalize
from ..verdict import MAX_WORD_CHARS, judge_cards
from .arrangement import FORBIDDEN, Board, Step, Table, members
from .candidates import CandidateSource, ExpandingSource, MemoryCandidates, deck_letters
from .groups import find_groups
from .plays import Pickup, Play, Solution

__all__ = ["ALLOWED_BYTES", "EXHAUSTIVE_CARDS", "JUDGED_BYTES", "MAX_ALTERNATIVES", "OWN_BUDGET", "PREFIX_BYTES", "TIE_SCAN", "Solver", "prefix_scope", "solve"]

#: The largest hand a lexicon that cannot list its words solves by trying
#: every ordering of its cards: 13,699 orderings for seven cards, 109,600 for
#: eight (too slow to judge one by one). ``bench/estonian_coverage.py``.
EXHAUSTIVE_CARDS = 7

#: Most runners-up a request may ask for.
MAX_ALTERNATIVES = 20
#: Runners-up come out of the search by score, then most words; the longest
#: word orders them among the first ``TIE_SCAN`` extra plays of the last score
#: listed. The best play's order is always exact.
TIE_SCAN = 12
#: What one cache entry costs, key, value and dict slot: measured with
#: tracemalloc as the bytes freed by emptying the caches of all 36 solvers
#: after 3,000 random hands over every ruleset and language. A word checked
#: (letters -> bool): 143,725 entries, 81 B each with their key strings (54 B
#: when the prefix answers hold the strings too).
ALLOWED_BYTES = 80
#: A laying judged (cards -> bool): 11,731 entries, 112 B each.
JUDGED_BYTES = 112
#: A short prefix's answer (prefix -> following letters and spellings): 89,932
#: entries, 281-324 B each.
PREFIX_BYTES = 320
#: The bytes a solver made without a budget shares among its own caches
#: (each used to be bounded alone at 500,000 entries of about 100 bytes).
OWN_BUDGET = 32 << 20


def solve(hand: str | Sequence[str], ruleset: Ruleset, lexicon: Lexicon, candidates: CandidateSource, **options: object) -> Solution:
    """``Solver(ruleset, lexicon, candidates).solve(hand, **options)``."""
    return Solver(ruleset, lexicon, candidates).solve(hand, **options)  # type: ignore[arg-type]


class Solver:
    """Best plays for hands under one ruleset and lexicon; keep one per pair and reuse it (it caches)."""

    def __init__(
        self,
        ruleset: Ruleset,
        lexicon: Lexicon,
        candidates: CandidateSource,
        eager: bool | None = None,
        exhaustive_cards: int = EXHAUSTIVE_CARDS,
        *,
        budget: MemoryBudget | None = None,
        prefixes: BudgetedCache[str, object] | None = None,
    ):
        """``budget``: where the caches count (default: one of :data:`OWN_BUDGET` bytes for this solver).

        ``prefixes``: the short prefixes' answers, shared by the solvers of one
        :func:`prefix_scope` (default: the solver's own).
        """
        self.ruleset = ruleset
        #: Eager: every candidate's readings are looked up while the words are
        #: found (fast for a compiled lexicon). Lazy (default for a lexicon
        #: that cannot list its words, an analyser costing hundreds of µs a
        #: word): candidates count as valid until a play uses them; then
        #: judge_cards decides, refused words are dropped and the hand solved
        #: again, until every word of every play returned is valid.
        self.eager = lexicon.info.enumerable if eager is None else eager
        #: A lazy solver's hands of up to this many cards get every ordering
        #: of their cards proposed and judged (exact however few words the
        #: source lists).
        self.exhaustive_cards = 0 if self.eager else exhaustive_cards
        self.lexicon = lexicon
        self.candidates = candidates
        self.fold = lexicon.info.fold_diacritics
        house = {deck_letters(w, self.fold, lexicon.info.fold_keep) for w in ruleset.house_allow}
        self._house = MemoryCandidates(house) if house else None
        budget = budget if budget is not None else MemoryBudget(OWN_BUDGET)
        self._allowed: BudgetedCache[str, bool] = budget.cache("solver.allowed", ALLOWED_BYTES)
        self._judged: BudgetedCache[Cards, bool] = budget.cache("solver.judged", JUDGED_BYTES)
        self._rank = getattr(lexicon, "rank", None)
        #: ``words_among(forms, banned)``: a superset of the forms with a
        #: reading of no banned class, for lexicons that sift faster in bulk.
        self._words_among = getattr(lexicon, "words_among", None)
        self._expand = self._expander()
        self._prefixes: BudgetedCache[str, object] = prefixes if prefixes is not None else budget.cache("solver.prefixes", PREFIX_BYTES)

    # ---- the request

    def check_hand(self, hand: str | Sequence[str], face_up: str | None = None, discard: bool = False) -> tuple[Cards, str | None]:
        """The hand's faces (and the face-up card's), or :class:`InvalidRequest` naming every problem."""
        problems = Problems()
        deck = self.ruleset.deck
        try:
            faces = parse_cards(hand)
        except CardSyntaxError as err:
            problems.add("hand", str(err), code=err.code)
            faces = ()
        for i, face in enumerate(faces):
            if face not in deck:
                problems.add(f"hand.{i}", f"no card {face.upper()!r} in the deck of ruleset {self.ruleset.id}", code=codes.UNKNOWN_CARD)
        limit = self.ruleset.max_hand + 1
        if len(faces) > limit:
            problems.add("hand", f"{len(faces)} cards; no hand in ruleset {self.ruleset.id} holds more than {limit} (its largest deal plus the card drawn)", code=codes.HAND_SIZE)
        if discard and not faces:
            problems.add("hand", "a hand that discards needs at least one card", code=codes.HAND_SIZE)
        up = None
        if face_up is not None:
            try:  # "QU" names the QU card here: a face-up card is one card
                parsed = (normalize(face_up.strip()),) if normalize(face_up.strip()) in deck else parse_cards(face_up)
            except CardSyntaxError as err:
                parsed = ()
                problems.add("face_up", str(err), code=err.code)
            if len(parsed) != 1:
                problems.add("face_up", "must be one card", code=codes.INVALID_CARDS)
            elif parsed[0] not in deck:
                problems.add("face_up", f"no card {parsed[0].upper()!r} in the deck of ruleset {self.ruleset.id}", code=codes.UNKNOWN_CARD)
            else:
                up = parsed[0]
        held = Counter(face for face in faces if face in deck)
        for face, n in sorted(deck.over_count(held).items()):
            problems.add("hand", f"{n} {face.upper()} cards; the deck holds {deck.count(face)}", code=codes.TOO_MANY_COPIES)
        if up and up in held and held[up] == deck.count(up):
            problems.add("face_up", f"the hand already holds every {up.upper()} card of the deck", code=codes.TOO_MANY_COPIES)
        problems.raise_if_any("The hand cannot be solved; see errors.")
        return faces, up

    def solve(self, hand: str | Sequence[str], *, discard: bool = False, top: int = 0, face_up: str | None = None) -> Solution:
        """The best play of ``hand`` (card list or compact notation).

        ``discard``: the hand holds one card more than the round deals (it has
        drawn); exactly one card is discarded, scoring nothing, and the solver
        picks it. ``top``: also the ``top`` next-best distinct plays (distinct:
        they lay different multisets of cards as words), the best play with
        the longest word and the best play with the most words. ``face_up``: a
        card on the discard pile; :class:`Pickup` compares the best score of
        the hand as it is with the best play of the hand plus that card
        shedding one card more. Without ``discard`` that is the hand before
        drawing: take the card, then discard the best card. With ``discard``
        (the hand has drawn) it is the face-up card in place of one of the
        hand's cards.

        ``can_go_out`` says whether every card but the discard can be laid;
        ``go_out`` is the best such play (it may score less than the best).
        """
        faces, up = self.check_hand(hand, face_up, discard)
        top = max(0, min(int(top), MAX_ALTERNATIVES))
        universe = Counter(faces)
        if up:
            universe[up] += 1
        ruleset = self.ruleset
        deck = ruleset.deck
        # By value, highest first: the first card left out is then the best discard.
        order = sorted(universe, key=lambda f: (-deck.value(f), f))
        values = [deck.value(f) for f in order]
        copies = [universe[f] for f in order]
        width = max(copies).bit_length() + 1
        expand, allowed, short = self._expand, self.allowed if self.eager else self._optimistic, self._prefixes
        if universe.total() <= self.exhaustive_cards:
            orderings: Iterable[str] = _orderings(universe)
            if self._words_among is not None:  # the lexicon sifts them in bulk, faster than one by one
                orderings = self._words_among(orderings, self.ruleset.banned_classes)
            expand = _union(expand, MemoryCandidates(orderings).expand)
            allowed, short = self.allowed, None  # judged now, not after the search: most orderings are not words
        groups = find_groups(
            order,
            copies,
            values,
            width,
            expand,
            allowed,
            self._allowed.recent,
            short,
            min_cards=max(1, ruleset.min_cards),
            max_cards=ruleset.max_hand,
            min_letters=ruleset.min_letters,
        )
        groups.sort(key=lambda g: g.points)  # the search tries the last first: most points, best bound soonest
        while True:
            board = Board(
                order, values, copies, width, groups, ruleset.longest_measure, self.preference,
                ruleset.word_bonus if ruleset.length_bonus else None, ruleset.unused_cost if ruleset.unused is Unused.IGNORE else None,
            )  # fmt: skip
            try:
                solution, plays = self._solve_board(board, faces, discard, top, up)
            finally:
                board.close()
            rejected = self._verify(plays)
            if not rejected:
                return solution
            for group in groups:
                group.words = [w for w in group.words if w not in rejected]
            groups = [g for g in groups if g.words]

    def _solve_board(self, board: Board, faces: Cards, discard: bool, top: int, up: str | None) -> tuple[Solution, list[Play]]:
        k = 1 if discard else 0
        hand = sum(n << (board.faces.index(face) * board.width) for face, n in Counter(faces).items())
        score, penalty, extra = board.scoring()
        main = board.table(score, penalty, extra)
        best, signature = _tie_broken(board, main, hand, k)
        assert best is not None  # leaving every card out is always a play
        plays = [best]
        go_out = best if best.goes_out else None
        if go_out is None and board.can_cover(hand, k):
            go_out = _tie_broken(board, board.table(score, lambda v: FORBIDDEN, extra), hand, k)[0]
        alternatives: tuple[Play, ...] = ()
        longest = most = None
        if top:
            alternatives = _runners_up(board, main, hand, k, signature, top)
            longest = _longest_word(board, main, hand, k)
            span = 2 * sum(board.values[i] * n for i, n in enumerate(board.counts(hand))) + 1
            most = board.play(board.table(lambda g: span + (score(g) if score else g.points), penalty, span + extra).path(hand, k))
            most = most if most.words else None
            plays += [*alternatives, *(p for p in (longest, most) if p)]
        pickup = None
        if up:
            taken = _tie_broken(board, main, hand + board.unit[board.faces.index(up)], k + 1)[0]
            assert taken is not None
            pickup = Pickup(up, best.score, taken)
            plays.append(taken)
        if go_out:
            plays.append(go_out)
        solution = Solution(
            hand=faces,
            ruleset=self.ruleset.id,
            discard=discard,
            best=best,
            can_go_out=go_out is not None,
            go_out=go_out,
            alternatives=alternatives,
            longest_word=longest,
            most_words=most,
            face_up=pickup,
            lexicon=self.lexicon.info.stamp(),
        )
        return solution, plays

    # ---- words

    def allowed(self, letters: str) -> bool:
        """Whether the word laid as ``letters`` passes the ruleset's word checks (sizes apart).

        Mirrors :func:`judge_cards`: the house lists first, then any reading of
        a class the ruleset does not ban.
        """
        known = self._allowed.get(letters)
        if known is None:
            ruleset = self.ruleset
            if len(letters) > MAX_WORD_CHARS or letters in ruleset.house_refuse:
                known = False
            elif letters in ruleset.house_allow:
                known = True
            else:
                banned = ruleset.banned_classes
                known = any(not (classes & banned) for classes in self.lexicon.readings(letters))
            self._remember(letters, known)
        return known

    def _optimistic(self, letters: str) -> bool:
        """The lazy check: what judge_cards said before, else what can be known without the lexicon (house refusals, length)."""
        known = self._allowed.get(letters)
        if known is not None:
            return known
        return len(letters) <= MAX_WORD_CHARS and letters not in self.ruleset.house_refuse

    def preference(self, word: str) -> tuple[int, str]:
        """Among anagrams, the lexicon's most common form first (if it ranks forms), then alphabetical."""
        rank = self._rank(word) if self._rank is not None else None
        return (rank or 256, word)

    def _expander(self) -> Callable[[str], tuple[str, Sequence[str]] | None]:
        """The candidate source's ``expand`` (or ``probe``, any of the deck's letters may follow), with the ruleset's house words."""
        source = self.candidates
        if isinstance(source, ExpandingSource):
            expand = source.expand
        else:
            letters = "".join(sorted(set("".join(self.ruleset.deck.cards))))

            def expand(prefix: str) -> tuple[str, Sequence[str]] | None:
                found = source.probe(prefix) if prefix else ()
                return None if found is None else (letters, found)

        return expand if self._house is None else _union(expand, self._house.expand)  # type: ignore[return-value]

    def _verify(self, plays: Sequence[Play]) -> set[str]:
        """Words of ``plays`` that :func:`judge_cards` does not find valid (normally none)."""
        rejected: set[str] = set()
        for play in plays:
            for word in play.words:
                for letters, cards in ((word.word, word.cards), *word.anagrams):
                    ok = self._judged.get(cards)
                    if ok is None:
                        ok = judge_cards(cards, self.ruleset, self.lexicon).valid
                        self._judged.put(cards, ok)
                    if not ok:
                        rejected.add(letters)
                        self._remember(letters, False)
                    elif not self.eager:
                        self._remember(letters, True)
        return rejected

    def _remember(self, letters: str, ok: bool) -> None:
        self._allowed.put(letters, ok)


def prefix_scope(ruleset: Ruleset, lexicon: Lexicon, candidates: CandidateSource) -> Hashable:
    """What a solver's short-prefix answers depend on: solvers of equal scopes may share one cache.

    The answers are the candidate source's, with the ruleset's house words
    merged in (and, for a source that cannot say which letters follow, the
    deck's letters), so every ruleset of a language shares them: nine
    rulesets used to keep nine copies (3 MB each in English, 5.5 MB in
    Icelandic). The source itself is part of the key, so it stays alive as
    long as the key does.
    """
    letters = None if isinstance(candidates, ExpandingSource) else "".join(sorted(set("".join(ruleset.deck.cards))))
    house = frozenset(deck_letters(w, lexicon.info.fold_diacritics, lexicon.info.fold_keep) for w in ruleset.house_allow)
    return (candidates, house, letters)


Expand = Callable[[str], "tuple[str, Sequence[str]] | None"]


def _union(expand: Expand, extra: Expand) -> Expand:
    """One ``expand`` answering for two sources: the letters either lets follow, the spellings of both."""

    def merged(prefix: str) -> tuple[str, Sequence[str]] | None:
        found, more = expand(prefix), extra(prefix)
        if more is None:
            return found
        if found is None:
            return more
        return "".join(sorted(set(found[0]) | set(more[0]))), (*found[1], *(w for w in more[1] if w not in found[1]))

    return merged


def _orderings(cards: Counter[str]) -> list[str]:
    """The letters of every ordering of every non-empty sub-multiset of ``cards``.

    >>> sorted(_orderings(Counter(["qu", "a", "a"])))
    ['a', 'aa', 'aaqu', 'aqu', 'aqua', 'qu', 'qua', 'quaa']
    """
    left = dict(cards)
    found: list[str] = []

    def grow(prefix: str) -> None:
        for face, n in left.items():
            if n:
                left[face] = n - 1
                found.append(prefix + face)
                grow(prefix + face)
                left[face] = n

    try:
        grow("")
    finally:
        grow = None  # type: ignore[assignment]  # break the closure's cycle: refcounting frees it, not the GC
    return found


# ---- plays from a board's tables


def _tie_broken(board: Board, table: Table, state: int, k: int) -> tuple[Play | None, tuple[int, ...]]:
    """The best play (best score; then the longest word; then most words) and its groups; ``None`` if no play."""
    if not table.feasible(state, k):
        return None, ()
    steps = table.path(state, k, ranked=True)
    return board.play(steps), _signature(steps)


def _signature(steps: Sequence[Step]) -> tuple[int, ...]:
    return tuple(sorted(index for kind, index in steps if kind == "w"))


def _longest_word(board: Board, table: Table, state: int, k: int) -> Play | None:
    """The best play laying the longest word the hand can lay (with its discard)."""
    size = sum(board.counts(state))
    fitting = [gi for gi in members(board.mask_of(state)) if board.groups[gi].cards <= size - k]
    if not fitting:
        return None
    most = max(board.lengths[gi] for gi in fitting)
    options = [(table.value(state - board.vecs[gi], k) + (table.scores[gi] << 6) + 1, -gi) for gi in fitting if board.lengths[gi] == most]
    _, neg_gi = max(options)
    return board.play([("w", -neg_gi), *table.path(state - board.vecs[-neg_gi], k)])


def _runners_up(board: Board, table: Table, state: int, k: int, own: tuple[int, ...], top: int) -> tuple[Play, ...]:
    """The ``top`` best plays other than the one made of groups ``own``, in the solver's order (see :data:`TIE_SCAN`)."""
    found: dict[tuple[int, ...], tuple[tuple[int, int, int], list[Step]]] = {}
    last = None
    for value, steps in table.enumerate(state, k):
        score = value >> 6
        if (last is not None and score < last and len(found) >= top) or len(found) >= top + TIE_SCAN:
            break
        signature = _signature(steps)
        if signature != own:
            longest = max((board.lengths[gi] for gi in signature), default=0)
            found[signature] = ((score, longest, len(signature)), steps)
            last = score
    ranked = sorted(found.values(), key=lambda item: tuple(-x for x in item[0]))[:top]
    return tuple(board.play(steps) for _, steps in ranked)

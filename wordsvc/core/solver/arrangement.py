"""Steps 2 and 3 of the solver: the best arrangement of a hand's groups, and the plays around it.

A *state* is a multiset of cards packed in one integer, face ``i``'s count at
bit ``i * width``. Faces are ordered by value, highest first. The memoized
recursion (:class:`Table`) places the first card of a state: laid in a group
that holds it, or left out. With ``k`` discards due, the first card left out
is discarded (free) and ``k`` drops; afterwards a card left out is unused
(its value lost). Because faces go by value, the discard is always the most
valuable card not laid, as it should be, and each play is reached exactly
once, so the same recursion enumerates runners-up without duplicates.

Which groups fit a state is a set of group indices, kept as a bit set (one
Python integer): ``keep[f][c]`` holds the groups that need at most ``c``
cards of face ``f``, so the groups that fit a child state are the parent's
intersected with ``keep`` of the faces the move used (:meth:`Board.child_mask`).
The groups a state can lay next are those of its first face in that set.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator, Sequence

from ..ruleset import LongestMeasure
from .groups import Group
from .plays import Play, Word

__all__ = ["FORBIDDEN", "NEG", "Board", "Step", "Table", "members"]

#: The cost of an unused card where none may be left (going out).
FORBIDDEN = 1 << 40
#: The value of an impossible state (discards due and no card left).
NEG = -(1 << 90)
_SKIPPED = (NEG, NEG, NEG)

Step = tuple[str, int]  # ("w", group) | ("u", face) | ("d", face)
Move = tuple[int, int, int, Step]  # (Q gain, state after, discards due after, step)


def members(bits: int) -> list[int]:
    """The positions of the set bits of ``bits``, ascending."""
    out = []
    while bits:
        top = bits.bit_length() - 1
        out.append(top)
        bits ^= 1 << top
    out.reverse()
    return out


class Board:
    """One hand's faces (values, copies) and groups, packed for the search."""

    def __init__(
        self,
        faces: Sequence[str],
        values: Sequence[int],
        copies: Sequence[int],
        width: int,
        groups: list[Group],
        measure: LongestMeasure,
        prefer: Callable[[str], object] = str,
        word_bonus: Callable[[int], int] | None = None,
        unused_cost: Callable[[int], int] | None = None,
    ):
        self.word_bonus = word_bonus  # the ruleset's length bonus by letters; None: there is none
        self.unused_cost = unused_cost or (lambda value: value)
        self.faces = list(faces)
        self.prefer = prefer
        self.values = list(values)
        self.width = width
        self.field = (1 << (width - 1)) - 1
        self.unit = [1 << (i * width) for i in range(len(faces))]
        self.measure = measure
        self.groups = groups
        self.vecs = [g.vec for g in groups]
        self.lengths = [g.cards if measure is LongestMeasure.CARDS else g.letters for g in groups]
        self.everything = (1 << len(groups)) - 1
        self.head = [0] * len(faces)
        needs: list[list[int]] = [[0] * (n + 2) for n in copies]  # needs[f][c]: groups needing exactly c of f
        self.uses = [g.uses for g in groups]
        for gi, used in enumerate(self.uses):
            bit = 1 << gi
            self.head[min(used)[0]] |= bit
            for f, c in used:
                needs[f][c] |= bit
        # keep[f][c]: groups needing at most c cards of face f
        self.keep = []
        for f, n in enumerate(copies):
            row, bits = [], 0
            for c in range(n + 1):
                bits |= needs[f][c] if c else self.everything & ~sum(needs[f][1:])
                row.append(bits)
            self.keep.append(row)
        self._fitting: dict[int, list[int]] = {}
        self._tables: list[Table] = []

    def counts(self, state: int) -> list[int]:
        return [(state >> (i * self.width)) & self.field for i in range(len(self.faces))]

    def lowest(self, state: int) -> int:
        return ((state & -state).bit_length() - 1) // self.width

    def mask_of(self, state: int) -> int:
        """The set of groups whose cards are all in ``state``."""
        bits = self.everything
        for f, c in enumerate(self.counts(state)):
            bits &= self.keep[f][c] if c < len(self.keep[f]) else self.everything
        return bits

    def child_mask(self, state: int, mask: int, gi: int) -> int:
        """The groups that fit ``state`` minus group ``gi``, from those that fit ``state`` (``mask``)."""
        keep, width, field = self.keep, self.width, self.field
        for f, c in self.uses[gi]:
            mask &= keep[f][((state >> (f * width)) & field) - c]
        return mask

    def fitting(self, state: int, mask: int | None = None) -> list[int]:
        """The groups holding the first card of ``state`` that fit in it, ascending (kept per state)."""
        found = self._fitting.get(state)
        if found is None:
            bits = self.mask_of(state) if mask is None else mask
            found = self._fitting[state] = members(bits & self.head[self.lowest(state)])
        return found

    def scoring(self) -> tuple[Callable[[Group], int] | None, Callable[[int], int], int]:
        """The ruleset's objective as :meth:`table` takes it: a group's score, a left card's cost, and the bound's ``extra``.

        A length bonus lets a group score more than its cards' values; ``extra``
        (the largest bonus a card of any group carries, rounded up) keeps the
        search's bound an upper bound.
        """
        bonus = self.word_bonus
        if bonus is None:
            return None, self.unused_cost, 0
        extra = max((-(-bonus(g.letters) // g.cards) for g in self.groups), default=0)
        return (lambda g: g.points + bonus(g.letters)), self.unused_cost, extra

    def table(self, score: Callable[[Group], int] | None, penalty: Callable[[int], int], extra: int = 0) -> Table:
        """Best total ``score`` of the groups laid (default: their points), minus ``penalty(value)`` for each card unused.

        A card adds at most its value plus ``extra`` to a group's score (true
        of the default score with ``extra`` 0); it bounds the search.
        """
        scores = [g.points for g in self.groups] if score is None else [score(g) for g in self.groups]
        table = Table(self, scores, [penalty(v) for v in self.values], extra)
        self._tables.append(table)
        return table

    def close(self) -> None:
        """Close every table made here (:meth:`Table.close`) and let go of them: no cycle remains."""
        for table in self._tables:
            table.close()
        self._tables.clear()

    def can_cover(self, state: int, k: int) -> bool:
        """Whether every card of ``state`` but ``k`` discards can be laid (going out)."""
        memo: dict[int, bool] = {0: True}
        unit, vecs = self.unit, self.vecs

        def cover(state: int, k: int, mask: int) -> bool:
            key = (state << 2) | k
            found = memo.get(key)
            if found is None:
                if not state:
                    return k == 0
                i = self.lowest(state)
                found = bool(k) and cover(state - unit[i], k - 1, mask & self.keep[i][self.counts(state)[i] - 1])
                found = found or any(cover(state - vecs[gi], k, self.child_mask(state, mask, gi)) for gi in self.fitting(state, mask))
                memo[key] = found
            return found

        try:
            return cover(state, k, self.mask_of(state))
        finally:
            cover = None  # type: ignore[assignment]  # break the closure's cycle: refcounting frees it, not the GC

    def play(self, steps: Sequence[Step]) -> Play:
        """The play the steps describe: its words (longest first), unused cards and discards."""
        words, unused, discards = [], [], []
        for kind, index in steps:
            if kind == "w":
                group = self.groups[index]
                word, *others = sorted(group.words, key=self.prefer)
                points = group.points + (self.word_bonus(group.letters) if self.word_bonus else 0)
                words.append(Word(word, group.laying(word), points, tuple((w, group.laying(w)) for w in others)))
            elif kind == "u":
                unused.append(index)
            else:
                discards.append(index)
        score = sum(w.points for w in words) - sum(self.unused_cost(self.values[i]) for i in unused)
        words.sort(key=lambda w: (-w.measure(self.measure), -w.points, w.word))
        return Play(score, tuple(words), tuple(self.faces[i] for i in unused), tuple(self.faces[i] for i in discards), self.measure)


class Table:
    """Memoized best values of a state with ``k`` discards due, packed in integers.

    ``Q = score * 64 + words``: the best score, then the most words.
    ``P = score * 4096 + longest * 64 + words``: the best score, then the
    longest word, then the most words among plays with that longest word.
    P is not a sum over the words but decomposes with Q's help: laying group
    ``g`` before the best rest gives the better of "the rest's longest word
    stands" (rest P, plus g's score and one word) and "``g`` is the longest"
    (rest Q's score and words, plus g's score, g's length and one word); the
    larger of the two packed numbers is always the true case. Lengths and
    word counts stay below 64.

    ``scores[g]`` is what laying group ``g`` scores, ``penalties[i]`` what
    leaving a card of face ``i`` unused costs, all in points; a card adds at
    most its value plus ``extra`` to a group's score. A move whose bound
    (every card left laid at that most: one subtraction per move) cannot even
    tie the best move found so far is skipped: the values kept stay exact,
    and every move of a state in the memo that keeps its best score leads to
    a state in the memo, which is how :meth:`path` follows them. (A sharper
    bound that also charged the cards no fitting group holds made the search
    visit 10 % fewer states but cost more than it saved: a loop over the faces.)
    """

    def __init__(self, board: Board, scores: list[int], penalties: list[int], extra: int = 0):
        self.board = board
        self.scores = scores
        self.penalties = penalties
        impossible = (NEG, NEG, NEG)
        memo: dict[int, tuple[int, int, int]] = {0: (0, 0, 0), 1: impossible, 2: impossible, 3: impossible}
        self.memo = memo
        unit, vecs, width, field, keep, uses, head = board.unit, board.vecs, board.width, board.field, board.keep, board.uses, board.head
        q_gain = [(s << 6) + 1 for s in scores]
        p_gain = [(s << 12) + 1 for s in scores]
        p_long = [(s << 12) + (n << 6) + 1 for s, n in zip(scores, board.lengths, strict=True)]
        q_pen = [p << 6 for p in penalties]
        p_pen = [p << 12 for p in penalties]

        lay = self.lay = [v + extra for v in board.values]  # the most a card of each face adds
        g_lay = [g.points + extra * g.cards for g in board.groups]  # the same for each group's cards

        def compute(state: int, k: int, mask: int, worth: int, again: Callable[[int, int, int, int], tuple[int, int, int]] | None = None) -> tuple[int, int, int]:
            """(Q, P, X) of ``state``; ``mask``: the groups that fit it; ``worth``: the most its cards could add, a bound of its score."""
            i = ((state & -state).bit_length() - 1) // width
            best_q = best_p = NEG
            bits = mask & head[i]
            while bits:  # the groups that hold the first card, most points first
                gi = bits.bit_length() - 1
                bits ^= 1 << gi
                child = state - vecs[gi]
                rest = memo.get((child << 2) | k)
                if rest is None:
                    left = worth - g_lay[gi]
                    if best_q > NEG and scores[gi] + left < best_q >> 6:
                        continue  # cannot even tie: skipping it changes neither Q nor P
                    cm = mask
                    for f, c in uses[gi]:
                        cm &= keep[f][((state >> (f * width)) & field) - c]
                    rest = again(child, k, cm, left)  # type: ignore[misc]
                q, p, x = rest
                q += q_gain[gi]
                if q > best_q:
                    best_q = q
                p += p_gain[gi]
                if p > best_p:
                    best_p = p
                x += p_long[gi]
                if x > best_p:
                    best_p = x
            # or the first card left out: discarded while discards are due, else unused
            child = state - unit[i]
            kk = k - 1 if k else 0
            rest = memo.get((child << 2) | kk)
            if rest is None:
                left = worth - lay[i]
                if not (best_q > NEG and left - (0 if k else penalties[i]) < best_q >> 6):
                    rest = again(child, kk, mask & keep[i][((state >> (i * width)) & field) - 1], left)  # type: ignore[misc]
            if rest is not None:
                q, p = (rest[0], rest[1]) if k else (rest[0] - q_pen[i], rest[1] - p_pen[i])
                if q > best_q:
                    best_q = q
                if p > best_p:
                    best_p = p
            found = memo[(state << 2) | k] = (best_q, best_p, ((best_q >> 6) << 12) + (best_q & 63))
            return found

        # The recursion reaches itself through its default argument (a local,
        # the fastest name to call), which close() resets: no reference cycle
        # outlives the solve, so refcounting frees the memo and the garbage
        # collector has nothing to walk.
        compute.__defaults__ = (compute,)
        self._compute: Callable[[int, int, int, int], tuple[int, int, int]] = compute

    def get(self, state: int, k: int) -> tuple[int, int, int]:
        """``(Q, P, X)`` of ``state`` with ``k`` discards due."""
        found = self.memo.get((state << 2) | k)
        if found is not None:
            return found
        board = self.board
        return self._compute(state, k, board.mask_of(state), sum(c * lay for c, lay in zip(board.counts(state), self.lay, strict=True)))

    def close(self) -> None:
        """Break the recursion's reference to itself; what the memo holds stays readable."""
        self._compute.__defaults__ = (None,)

    def value(self, state: int, k: int) -> int:
        """Q: ``score * 64 + words`` of the best play of ``state``."""
        return self.get(state, k)[0]

    def ranked(self, state: int, k: int) -> int:
        """P: ``score * 4096 + longest * 64 + words`` of the best play of ``state``."""
        return self.get(state, k)[1]

    def feasible(self, state: int, k: int) -> bool:
        return self.value(state, k) >> 6 > -FORBIDDEN // 2

    def moves(self, state: int, k: int) -> list[Move]:
        """Every way to place the first card of ``state``: words (ascending), then left out."""
        board = self.board
        i = board.lowest(state)
        out: list[Move] = [((self.scores[gi] << 6) + 1, state - board.vecs[gi], k, ("w", gi)) for gi in board.fitting(state)]
        if k:
            out.append((0, state - board.unit[i], k - 1, ("d", i)))
        else:
            out.append((-(self.penalties[i] << 6), state - board.unit[i], 0, ("u", i)))
        return out

    def path(self, state: int, k: int, ranked: bool = False) -> list[Step]:
        """The steps of the best play of ``state``: by Q, or by P when ``ranked``."""
        steps: list[Step] = []
        lengths, memo = self.board.lengths, self.memo
        while state:
            if ranked:
                target = self.ranked(state, k)
                for gain, child, kk, step in self.moves(state, k):
                    rest = memo.get((child << 2) | kk)
                    if rest is None:  # the search skipped it: it cannot even tie
                        continue
                    _, p, x = rest
                    if step[0] != "w":
                        here, longer = p + (gain << 6), None
                    else:
                        score = self.scores[step[1]] << 12
                        here, longer = p + score + 1, x + score + (lengths[step[1]] << 6) + 1
                    if longer == target:  # this word is the longest: the rest needs only most words
                        ranked = False
                        break
                    if here == target:
                        break
                else:  # pragma: no cover - the memo says a move reaches the target
                    raise AssertionError("no best move")
            else:
                target = self.value(state, k)
                _, child, kk, step = next(m for m in self.moves(state, k) if m[0] + memo.get((m[1] << 2) | m[2], _SKIPPED)[0] == target)
            steps.append(step)
            state, k = child, kk
        return steps

    def enumerate(self, state: int, k: int) -> Iterator[tuple[int, list[Step]]]:
        """Every play, best Q first: a best-first search with :meth:`value` as an exact bound."""
        counter = itertools.count()
        heap = [(-self.value(state, k), next(counter), 0, state, k, ())]
        while heap:
            negf, _, got, state, k, steps = heapq.heappop(heap)
            if -negf <= NEG // 2:
                return
            if not state:
                yield -negf, list(steps)
                continue
            for gain, child, kk, step in self.moves(state, k):
                bound = got + gain + self.value(child, kk)
                if bound > NEG // 2:
                    heapq.heappush(heap, (-bound, next(counter), got + gain, child, kk, (*steps, step)))

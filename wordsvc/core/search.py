"""Steps 2 and 3 of the solver: the best arrangement of a hand's groups, and the plays around it.

A *state* is a multiset of cards packed in one integer: face ``i``'s count at
bit ``i * width``, with the top bit of each field kept free as a guard, so
"do these cards fit in what is left" is one subtraction
(``((state | guard) - vec) & guard == guard``). When a face heads many groups
the same test runs on all of them at once: the groups' counts sit side by
side in one big integer (one *lane* each), the state is repeated in every lane
by one multiplication, and the lanes that keep all their guard bits are the
groups that fit (:meth:`Board.fitting`). This keeps a hand with a thousand
candidate words within milliseconds in pure Python.

:class:`Table` is the memoized recursion: the value of a state is the best of
leaving its first card unused (``-penalty``) or laying a fitting group that
holds that card (``+gain``). Each arrangement is reached once, so the same
graph counts the plays that tie and enumerates runners-up best first.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterator, Sequence

from .groups import Group
from .plays import Play, Word
from .ruleset import LongestMeasure

__all__ = ["FORBIDDEN", "Board", "Step", "Table", "W"]

#: ``score * W + words`` orders plays by score, then by words (a hand has far
#: fewer than 64 words).
W = 64
#: The cost of an unused card where none may be left (going out).
FORBIDDEN = 1 << 40
#: Groups heading a face from which the all-lanes-at-once fit test pays off (measured).
_LANES_FROM = 24

Step = tuple[str, int]  # ("w", group index) | ("u", face index)
Start = tuple[int, tuple[int, ...]]  # (state, faces discarded)


class Board:
    """One hand's faces, values and groups, packed for the search."""

    def __init__(self, faces: Sequence[str], values: Sequence[int], width: int, groups: list[Group], measure: LongestMeasure):
        self.faces = list(faces)
        self.values = list(values)
        self.width = width
        self.mask = (1 << (width - 1)) - 1
        self.unit = [1 << (i * width) for i in range(len(faces))]
        self.guard = sum(1 << ((i + 1) * width - 1) for i in range(len(faces)))
        self.measure = measure
        self.groups = groups
        self.vecs = [g.vec for g in groups]
        self.lengths = [g.cards if measure is LongestMeasure.CARDS else g.letters for g in groups]
        self.by_face: list[list[int]] = [[] for _ in faces]
        for gi, group in enumerate(groups):
            self.by_face[self.lowest(group.vec)].append(gi)
        self._lanes = [self._pack(gis) if len(gis) >= _LANES_FROM else None for gis in self.by_face]
        self._fitting: dict[int, list[int]] = {}

    def _pack(self, gis: list[int]) -> tuple[int, int, int, int, int, int]:
        span = len(self.faces) * self.width
        stride = span + 1
        ones = sum(1 << (lane * stride) for lane in range(len(gis)))
        packed = sum(self.vecs[gi] << (lane * stride) for lane, gi in enumerate(gis))
        return stride, ones, packed, self.guard * ones, ((1 << span) - 1) * ones, (1 << span) * ones

    def fitting(self, i: int, state: int) -> list[int]:
        """The groups headed by face ``i`` (the first face of ``state``) whose cards are all in ``state``.

        Kept per state: every table of the board asks the same questions.
        """
        out = self._fitting.get(state)
        if out is not None:
            return out
        gis = self.by_face[i]
        lanes = self._lanes[i]
        if lanes is None:
            guard, vecs = self.guard, self.vecs
            high = state | guard
            out = [gi for gi in gis if (high - vecs[gi]) & guard == guard]
        else:
            stride, ones, packed, guards, fill, tops = lanes
            kept = ((state * ones | guards) - packed) & guards
            fit = (((kept ^ guards) + fill) & tops) ^ tops
            out = []
            if fit:
                bits = bin(fit)
                top = len(bits) - 1
                at = bits.find("1", 2)
                while at >= 0:
                    out.append(gis[(top - at) // stride])
                    at = bits.find("1", at + 1)
                out.reverse()
        self._fitting[state] = out
        return out

    def lowest(self, state: int) -> int:
        return ((state & -state).bit_length() - 1) // self.width

    def counts(self, state: int) -> list[int]:
        return [(state >> (i * self.width)) & self.mask for i in range(len(self.faces))]

    def fits(self, state: int, vec: int) -> bool:
        return ((state | self.guard) - vec) & self.guard == self.guard

    def starts(self, state: int, k: int) -> list[Start]:
        """``(state left, faces discarded)`` for each way to discard ``k`` cards (distinct by face)."""
        if k == 0:
            return [(state, ())]
        counts = self.counts(state)
        present = [i for i, n in enumerate(counts) if n]
        if k == 1:
            return [(state - self.unit[i], (i,)) for i in present]
        pairs = [(i, j) for i in present for j in present if i < j or (i == j and counts[i] >= 2)]
        return [(state - self.unit[i] - self.unit[j], (i, j)) for i, j in pairs]

    def table(self, score: Callable[[Group], int], penalty: Callable[[int], int]) -> Table:
        """Best total ``score`` of the groups laid, minus ``penalty(value)`` for each card unused."""
        return Table(self, [score(g) for g in self.groups], [penalty(v) for v in self.values])

    def can_cover(self, starts: Sequence[Start]) -> bool:
        """Whether the cards of some start can all be laid (going out)."""
        memo: dict[int, bool] = {0: True}
        fitting, vecs = self.fitting, self.vecs

        def cover(state: int) -> bool:
            found = memo.get(state)
            if found is None:
                i = self.lowest(state)
                found = any(cover(state - vecs[gi]) for gi in fitting(i, state))
                memo[state] = found
            return found

        return any(cover(state) for state, _ in starts)

    def play(self, steps: Sequence[Step], discards: Sequence[int]) -> Play:
        words, unused = [], []
        for kind, index in steps:
            if kind == "w":
                group = self.groups[index]
                word, cards = group.words[0]
                words.append(Word(word, cards, group.points, tuple(w for w, _ in group.words[1:])))
            else:
                unused.append(index)
        score = sum(w.points for w in words) - sum(self.values[i] for i in unused)
        words.sort(key=lambda w: (-w.measure(self.measure), -w.points, w.word))
        return Play(score, tuple(words), tuple(self.faces[i] for i in unused), tuple(self.faces[i] for i in discards), self.measure)


class Table:
    """Memoized best values of the cards left, two per state, packed in integers.

    ``Q = score * 64 + words``: the best score, then the most words.
    ``P = score * 4096 + longest * 64 + words``: the best score, then the
    longest word, then the most words of plays with that longest word. P is
    not a sum over the words, but it decomposes with Q's help: laying a
    group of length ``l`` before a rest whose best P has longest ``L``
    gives ``l`` and the rest's Q words when ``l >= L``, else the rest's P.
    (Lengths and word counts stay below 64.)

    ``scores[g]`` is what laying group ``g`` scores, ``penalties[i]`` what
    leaving a card of face ``i`` costs, both in points.
    """

    def __init__(self, board: Board, scores: list[int], penalties: list[int]):
        self.board = board
        self.scores = scores
        self.penalties = penalties
        memo: dict[int, tuple[int, int]] = {0: (0, 0)}
        fitting, unit, vecs, width, lengths = board.fitting, board.unit, board.vecs, board.width, board.lengths

        def compute(state: int) -> tuple[int, int]:
            i = ((state & -state).bit_length() - 1) // width
            child = state - unit[i]
            rest = memo.get(child)
            if rest is None:
                rest = compute(child)
            q, p = rest
            best_q = q - (penalties[i] << 6)
            best_p = p - (penalties[i] << 12)
            for gi in fitting(i, state):
                child = state - vecs[gi]
                rest = memo.get(child)
                if rest is None:
                    rest = compute(child)
                q, p = rest
                score = scores[gi]
                here = q + (score << 6) + 1
                if here > best_q:
                    best_q = here
                length = lengths[gi]
                if length >= (p >> 6) & 63:
                    here = ((score + (q >> 6)) << 12) + (length << 6) + 1 + (q & 63)
                else:
                    here = p + (score << 12) + 1
                if here > best_p:
                    best_p = here
            found = memo[state] = (best_q, best_p)
            return found

        self._compute = compute
        self.memo = memo

    def value(self, state: int) -> int:
        """Q: ``score * 64 + words`` of the best play of ``state``."""
        found = self.memo.get(state)
        return (found if found is not None else self._compute(state))[0]

    def ranked(self, state: int) -> int:
        """P: ``score * 4096 + longest * 64 + words`` of the best play of ``state``."""
        found = self.memo.get(state)
        return (found if found is not None else self._compute(state))[1]

    def moves(self, state: int) -> list[tuple[int, int, Step]]:
        """``(Q gain, state after, step)`` for every way to place the first card left: words first."""
        board = self.board
        i = board.lowest(state)
        out = [((self.scores[gi] << 6) + 1, state - board.vecs[gi], ("w", gi)) for gi in board.fitting(i, state)]
        out.append((-(self.penalties[i] << 6), state - board.unit[i], ("u", i)))
        return out

    def path(self, state: int, ranked: bool = False) -> list[Step]:
        """The steps of the best play of ``state``: by Q, or by P when ``ranked``."""
        steps: list[Step] = []
        lengths = self.board.lengths
        while state:
            if ranked:
                target = self.ranked(state)
                for gain, child, step in self.moves(state):
                    q, p = self.value(child), self.ranked(child)
                    if step[0] == "u":
                        here, switch = p + (gain << 6), False
                    elif lengths[step[1]] >= (p >> 6) & 63:
                        here, switch = ((self.scores[step[1]] + (q >> 6)) << 12) + (lengths[step[1]] << 6) + 1 + (q & 63), True
                    else:
                        here, switch = p + (self.scores[step[1]] << 12) + 1, False
                    if here == target:
                        ranked = not switch
                        break
                else:  # pragma: no cover - the memo says one move reaches the target
                    raise AssertionError("no best move")
            else:
                target = self.value(state)
                _, child, step = next(m for m in self.moves(state) if m[0] + self.value(m[1]) == target)
            steps.append(step)
            state = child
        return steps

    def enumerate(self, starts: Sequence[Start]) -> Iterator[tuple[int, list[Step], tuple[int, ...]]]:
        """Every play, best Q first: a best-first search with :meth:`value` as an exact bound."""
        counter = itertools.count()
        heap = [(-self.value(s), next(counter), 0, s, (), d) for s, d in starts]
        heapq.heapify(heap)
        while heap:
            negf, _, got, state, steps, discards = heapq.heappop(heap)
            if not state:
                yield -negf, list(steps), discards
                continue
            for gain, child, step in self.moves(state):
                heapq.heappush(heap, (-(got + gain + self.value(child)), next(counter), got + gain, child, (*steps, step), discards))

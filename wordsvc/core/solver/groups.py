"""Step 1 of the solver: every multiset of a hand's cards that lays a valid word.

The hand's cards are split into single-letter cards and multi-letter cards
(QU, TH, ...). For each choice of multi-letter cards, the walk runs over the
alphabet of the hand in sorted order choosing how many single-letter cards of
each letter to take; the letters chosen so far, with the multi-letter cards'
letters merged in, are a sorted prefix. One
:meth:`~wordsvc.core.solver.candidates.ExpandingSource.expand` per step gives the
spellings with exactly these letters and the letters that can come next, so
the walk only ever steps onto prefixes some word continues. Each hit is a
card multiset and its candidate spellings; a spelling joins the multiset's
:class:`Group` when the ruleset allows it and the cards can lay it in order
(:func:`laying`).

Card multisets are packed integers: face ``i``'s count sits at bit
``i * width`` (the solver's encoding), so a group's cards are one ``int``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..budget import BudgetedCache
from ..cards import Cards

__all__ = ["Group", "find_groups", "laying"]

#: Prefixes this long or shorter come up in nearly every hand; their
#: expansions are kept (in a budgeted cache the solvers of one source share).
#: At most what the index holds: English has 9,156 such prefixes (3 MB),
#: Icelandic 16,190 (5.5 MB), Estonian 9,430. Four letters rather than three:
#: 4 % fewer instructions per English hand (bench/instructions.py); five would
#: save 3 % more for three times the entries.
_SHORT = 4
_UNSEEN = object()


@dataclass(slots=True)
class Group:
    """Cards that lay at least one valid word: ``words`` holds the words (their letters).

    ``vec`` is the cards' packed counts; ``uses`` the same as ``(face index,
    copies)`` pairs; ``multi`` the multi-letter cards as ``(face, copies)``,
    from which :meth:`laying` rebuilds a word's cards in order.
    """

    vec: int
    points: int
    cards: int
    letters: int
    uses: tuple[tuple[int, int], ...]
    multi: tuple[tuple[str, int], ...]
    words: list[str] = field(default_factory=list)

    def laying(self, word: str) -> Cards:
        """The cards of ``word`` in order (one of ``words``)."""
        cards = laying(word, self.multi)
        assert cards is not None
        return cards


def laying(letters: str, multi: Sequence[tuple[str, int]] = ()) -> Cards | None:
    """A way to lay ``letters`` with the multi-letter cards ``multi`` (face, copies) and single letters, or ``None``.

    The cards must hold exactly the letters of ``letters`` (the walk
    guarantees it), so single-letter cards fit wherever the others leave room.

    >>> laying("quiz", [("qu", 1)]), laying("quiz", [("th", 1)])
    (('qu', 'i', 'z'), None)
    """
    if not multi:
        return tuple(letters)
    if len(multi) == 1:  # the usual case: leftmost non-overlapping occurrences
        face, n = multi[0]
        out: list[str] = []
        pos = 0
        for _ in range(n):
            at = letters.find(face, pos)
            if at < 0:
                return None
            out.extend(letters[pos:at])
            out.append(face)
            pos = at + len(face)
        out.extend(letters[pos:])
        return tuple(out)
    left = dict(multi)
    path: list[str] = []

    def walk(pos: int) -> bool:
        if pos == len(letters):
            return not any(left.values())
        for face, n in left.items():
            if n and letters.startswith(face, pos):
                left[face] -= 1
                path.append(face)
                if walk(pos + len(face)):
                    return True
                path.pop()
                left[face] += 1
        path.append(letters[pos])
        if walk(pos + 1):
            return True
        path.pop()
        return False

    found = tuple(path) if walk(0) else None
    walk = None  # type: ignore[assignment]  # break the closure's cycle (see search.Table)
    return found


def find_groups(
    faces: Sequence[str],
    counts: Sequence[int],
    values: Sequence[int],
    width: int,
    expand: Callable[[str], tuple[str, Sequence[str]] | None],
    allowed: Callable[[str], bool],
    known: Mapping[str, bool],
    short: BudgetedCache[str, object] | None,
    *,
    min_cards: int,
    max_cards: int,
    min_letters: int,
) -> list[Group]:
    """Every group of the hand ``faces``/``counts`` (``values`` per face), unordered.

    ``expand(prefix)`` is the candidate source's
    (:meth:`~wordsvc.core.solver.candidates.ExpandingSource.expand`: the letters
    that may follow, any superset will do), ``allowed(letters)``
    the ruleset's word check, whose recent answers ``known`` holds (it is read
    first; a miss there goes to ``allowed``); ``short`` keeps the answers of
    ``expand`` for prefixes of up to four letters (:data:`_SHORT`), ``None``:
    nothing kept. A group holds ``min_cards`` to ``max_cards`` cards and at
    least ``min_letters`` letters.
    """
    recent = short.recent if short is not None else None  # read first: a hit costs one dict look-up
    alphabet = sorted(set("".join(faces)))
    position = {ch: j for j, ch in enumerate(alphabet)}
    single_count = [0] * len(alphabet)
    single_unit = [0] * len(alphabet)
    single_value = [0] * len(alphabet)
    single_face = [0] * len(alphabet)
    multis = []
    for i, face in enumerate(faces):
        if len(face) == 1:
            j = position[face]
            single_count[j], single_unit[j], single_value[j], single_face[j] = counts[i], 1 << (i * width), values[i], i
        else:
            multis.append(i)
    groups: list[Group] = []
    size = len(alphabet)

    # The walk reads the current choice of multi-letter cards from these two names.
    forced: list[int] = []
    multi: tuple[tuple[str, int], ...] = ()

    def walk(start: int, prefix: str, following: str, vec: int, points: int, cards: int, left: int, uses: tuple[tuple[int, int], ...]) -> None:
        for j in range(start, size):
            ch, f = alphabet[j], forced[j]
            if ch not in following:
                if f:  # a multi-letter card's letter cannot be skipped
                    break
                continue
            after = left - f
            key = prefix
            # n copies of ch: f from multi-letter cards, the rest single cards, within the cards a word may hold
            for n in range(1, min(f + single_count[j], max_cards - cards + f) + 1):
                key += ch
                if len(key) > _SHORT or recent is None:
                    got = expand(key)
                else:  # the first levels are the same for every hand: kept
                    got = recent.get(key, _UNSEEN)
                    if got is _UNSEEN:
                        got = short.get(key, _UNSEEN)  # type: ignore[union-attr]
                        if got is _UNSEEN:
                            got = expand(key)
                            short.put(key, got)  # type: ignore[union-attr]
                if got is None:
                    break
                ahead, found = got
                c = n - f
                if c >= 0:
                    v = vec + c * single_unit[j]
                    p = points + c * single_value[j]
                    used = (*uses, (single_face[j], c)) if c else uses
                    if found and not after and cards + c >= min_cards and len(key) >= min_letters:
                        words = []
                        for letters in found:
                            ok = known.get(letters)
                            if ok is None:
                                ok = allowed(letters)
                            if ok and (not multi or laying(letters, multi) is not None):
                                words.append(letters)
                        if words:
                            groups.append(Group(v, p, cards + c, len(key), used, multi, words))
                    if ahead and j + 1 < size:
                        walk(j + 1, key, ahead, v, p, cards + c, after, used)
                if ch not in ahead:
                    break
            if f:
                break

    for combo in itertools.product(*(range(counts[i] + 1) for i in multis)):
        forced = [0] * size
        base_vec = base_points = base_cards = 0
        for i, c in zip(multis, combo, strict=True):
            if c:
                base_vec += c << (i * width)
                base_points += c * values[i]
                base_cards += c
                for ch in faces[i]:
                    forced[position[ch]] += c
        multi = tuple((faces[i], c) for i, c in zip(multis, combo, strict=True) if c)
        root = expand("")
        if root is None:
            break
        walk(0, "", root[0], base_vec, base_points, base_cards, sum(forced), tuple((i, c) for i, c in zip(multis, combo, strict=True) if c))
    walk = None  # type: ignore[assignment]  # break the closure's cycle, so refcounting frees it (see search.Table)
    return groups

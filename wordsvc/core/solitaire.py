"""Quiddler solitaire (rules-et.txt and the published summaries): a layout, its moves, the win, and a solver.

48 cards in 8 piles of 6, the top card of each face up and the 5 under it
face down. A word is made of the face-up top cards of different piles; its
cards leave the layout and the card under each is turned up. An emptied pile
may be rebuilt with the top card of another pile (``rebuild``, ``rebuild_from``),
and the card that move exposes is turned up (``turn_after_rebuild``): the
places the sources are vague, knobs of a ruleset's ``solitaire`` section
(:class:`~wordsvc.core.ruleset.SolitaireRules`) with the seed's reading as the default. The game is
won when every card has gone into a word. No scoring is published, so the
solver maximizes the cards laid.

Pure: the words a set of top cards can make come from a function the caller
gives (:data:`WordsOf`), so the rules and the search need no lexicon of their
own. The layout is dealt by the q1 deal specification (docs/deals.md, section 9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from .cards import Cards
from .deal import canonical_deck, parse_seed, shuffled
from .ruleset import Ruleset, SolitaireRules
from .work import Work

__all__ = ["STATE_UNITS", "Layout", "Move", "SolitaireError", "Solution", "WordsOf", "deal_layout", "solve"]

#: Units of work (about a microsecond each, :mod:`.work`) one layout costs the search: its key, the memo, the moves sorted.
#: The words its top cards make are charged by ``words_of`` (an anagram search on the same budget).
STATE_UNITS = 20

#: The words laid from some of the given top cards, each as its cards (a sub-multiset of them) in word order.
WordsOf = Callable[[Cards], Sequence[Cards]]


class SolitaireError(ValueError):
    """A move the rules do not allow; ``field`` names the part of the request at fault."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Pile:
    cards: Cards  # bottom first; the last is the top
    down: int  # how many of the bottom cards are face down

    @property
    def top(self) -> str | None:
        """The face-up top card; ``None`` when the pile is empty or its top is face down."""
        return self.cards[-1] if len(self.cards) > self.down else None

    def without_top(self, turn: bool = True) -> Pile:
        rest = self.cards[:-1]
        down = min(self.down, len(rest) - 1) if turn and rest else min(self.down, len(rest))
        return Pile(rest, max(down, 0))


@dataclass(frozen=True)
class Layout:
    piles: tuple[Pile, ...]

    @property
    def cards_left(self) -> int:
        return sum(len(p.cards) for p in self.piles)

    @property
    def won(self) -> bool:
        return self.cards_left == 0

    def tops(self) -> list[tuple[int, str]]:
        return [(i, p.top) for i, p in enumerate(self.piles) if p.top is not None]

    def lay(self, piles: Sequence[int]) -> Layout:
        """The layout after a word of the top cards of ``piles`` (checked: distinct, in range, face up)."""
        if len(set(piles)) != len(piles):
            raise SolitaireError("word", "a word takes at most one card from each pile")
        for i in piles:
            if not 0 <= i < len(self.piles) or self.piles[i].top is None:
                raise SolitaireError("word", f"pile {i} has no face-up top card")
        new = list(self.piles)
        for i in piles:
            new[i] = new[i].without_top()
        return Layout(tuple(new))

    def rebuild(self, to: int, source: int, rules: SolitaireRules) -> Layout:
        """The layout after moving the top card of pile ``source`` onto the empty pile ``to``."""
        if not rules.rebuild:
            raise SolitaireError("rebuild", "these rules do not rebuild emptied piles")
        if not (0 <= to < len(self.piles) and 0 <= source < len(self.piles)) or to == source:
            raise SolitaireError("rebuild", "name two different piles of the layout")
        if self.piles[to].cards:
            raise SolitaireError("rebuild.to", f"pile {to} is not empty")
        card = self.piles[source].top
        if card is None:
            raise SolitaireError("rebuild.from", f"pile {source} has no face-up top card")
        if rules.rebuild_from == "covering" and self.piles[source].down == 0:
            raise SolitaireError("rebuild.from", f"these rules move only a card that covers face-down cards; pile {source} has none")
        new = list(self.piles)
        new[to] = Pile((card,), 0)
        new[source] = new[source].without_top(rules.turn_after_rebuild)
        return Layout(tuple(new))

    def piles_of(self, cards: Sequence[str]) -> list[int]:
        """The piles whose face-up tops are ``cards``, in order (the first such pile not yet taken for each card)."""
        free = list(self.tops())
        out = []
        for face in cards:
            at = next((k for k, (_, f) in enumerate(free) if f == face), None)
            if at is None:
                raise SolitaireError("cards", f"no face-up top card {face.upper()!r} left for the word")
            out.append(free.pop(at)[0])
        return out

    def key(self) -> tuple[tuple[Cards, int], ...]:
        """The layout up to the order of its piles (piles are interchangeable): what the solver remembers."""
        return tuple(sorted((p.cards, p.down) for p in self.piles))


@dataclass(frozen=True)
class Move:
    """A word (the piles whose top cards it takes, in word order) or a rebuild (``to``, ``source``)."""

    piles: tuple[int, ...] = ()
    cards: Cards = ()
    rebuild: tuple[int, int] | None = None


@dataclass
class Solution:
    won: bool
    moves: list[Move] = field(default_factory=list)
    cards_laid: int = 0
    truncated: bool = False
    states: int = 0


def deal_layout(ruleset: Ruleset, seed: str, piles: int | None = None, depth: int | None = None) -> Layout:
    """``piles`` piles of ``depth`` cards (the ruleset's ``solitaire`` unless given) from the deck shuffled by the q1 stream of round 1 (docs/deals.md, section 9)."""
    piles = ruleset.solitaire.piles if piles is None else piles
    depth = ruleset.solitaire.depth if depth is None else depth
    order = shuffled(canonical_deck(ruleset.deck), parse_seed(seed), 1)
    if piles * depth > len(order):
        raise SolitaireError("piles", f"{piles} piles of {depth} need {piles * depth} cards; the deck has {len(order)}")
    return Layout(tuple(Pile(tuple(order[p * depth : (p + 1) * depth]), depth - 1) for p in range(piles)))


def solve(layout: Layout, words_of: WordsOf, rules: SolitaireRules, work: Work | None = None) -> Solution:
    """A way to clear the layout, or the most cards some sequence of moves lays; ``truncated`` when ``work`` was spent first.

    Depth first, longest words first, remembering every layout met (piles
    are interchangeable) with the most cards it can still lay; a rebuild is
    tried only when it turns up a face-down card (otherwise it changes
    nothing a word could use). Each new layout charges :data:`STATE_UNITS`
    to ``work`` (default: unbounded), which ``words_of`` should share, so the
    search stops at the same layout on any machine.
    """
    work = work or Work.unbounded()
    memo: dict[tuple[tuple[Cards, int], ...], tuple[int, list[Move]]] = {}
    out = Solution(False)

    def moves(state: Layout) -> Iterator[tuple[Move, Layout, int]]:
        tops = state.tops()
        for cards in sorted(words_of(tuple(face for _, face in tops)), key=len, reverse=True):
            piles = state.piles_of(cards)
            yield Move(tuple(piles), tuple(cards)), state.lay(piles), len(cards)
        if rules.rebuild:
            empty = [i for i, p in enumerate(state.piles) if not p.cards]
            if empty:
                for i, p in enumerate(state.piles):
                    if p.top is not None and p.down > 0 and len(p.cards) == p.down + 1 and rules.turn_after_rebuild:
                        yield Move(rebuild=(empty[0], i)), state.rebuild(empty[0], i, rules), 0

    def best(state: Layout) -> tuple[int, list[Move]]:
        key = state.key()
        found = memo.get(key)
        if found is not None:
            return found
        if work.exhausted:
            out.truncated = True
            return 0, []
        out.states += 1
        work.spend(STATE_UNITS)
        result: tuple[int, list[Move]] = (0, [])
        for move, after, laid in moves(state):
            rest, path = best(after)
            if laid + rest > result[0]:
                result = (laid + rest, [move, *path])
                if after.cards_left - rest == 0:  # cleared: nothing beats it
                    break
        if not out.truncated:
            memo[key] = result
        return result

    try:
        laid, path = best(layout)
    finally:
        best = None  # type: ignore[assignment]  # break the closure's cycle: refcounting frees the memo, not the GC
    out.cards_laid, out.moves = laid, path
    out.won = laid == layout.cards_left
    return out

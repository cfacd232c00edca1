"""Cards with identities: a round dealt by q1 (docs/deals.md) with an id on every card, and the seeded reshuffle.

The q1 deal gives faces; copies of a face cannot be told apart there. The
engine names each copy so that "the same card" can be followed from the deal
to a hand, a discard pile and a word: a card id is the face in its lookup form
(lower case), a dot, and the copy's number, counting from 1 in the order the
round deals the cards (card 0 of the shuffled deck first, docs/deals.md
section 6: the hands one card at a time from the dealer's left, then the
face-up card, then the draw pile from the top). ``"e.1"`` is the first E
dealt; ``"qu.2"`` the second QU card. Faces hold no dots, so the face of an id
is everything before its last dot.

Hands are kept in :func:`card_order` (faces by their UTF-8 bytes, as the
canonical deck orders them, then the copy number), so a hand's order never
depends on the order its cards came in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..deal import Deal, counter_stream, deal, fisher_yates, parse_seed
from ..ruleset import Ruleset

__all__ = ["DealtRound", "card_order", "deal_round", "face_of", "reshuffled", "sort_cards"]

#: The domain of the reshuffle's stream (docs/play.md, "The draw pile running out"): section 3's construction of
#: docs/deals.md under its own name, so no reshuffle repeats a deal's numbers.
_RESHUFFLE = b"wordsvc-reshuffle-p1\x00"


@dataclass(frozen=True)
class DealtRound:
    """A round as q1 deals it, every card with its id: ``hands`` in seat order, ``face_up``, ``draw_pile`` top first."""

    deal: Deal
    hands: tuple[tuple[str, ...], ...]
    face_up: str
    draw_pile: tuple[str, ...]


def face_of(card: str) -> str:
    """The face of a card id: ``"qu.2"`` -> ``"qu"``."""
    return card.rpartition(".")[0]


def card_order(card: str) -> tuple[bytes, int]:
    """The sort key of a card id: its face's UTF-8 bytes, then its copy number."""
    face, _, copy = card.rpartition(".")
    return face.encode("utf-8"), int(copy)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """``cards`` in :func:`card_order`."""
    return tuple(sorted(cards, key=card_order))


def deal_round(ruleset: Ruleset, players: int, round_number: int, seed: str) -> DealtRound:
    """Round ``round_number`` dealt by :func:`wordsvc.core.deal.deal` (q1), with card ids; raises its ``DealError``."""
    dealt = deal(ruleset, players, round_number, seed)
    order: list[str] = [dealt.hands[(dealt.dealer + 1 + c) % players][c // players] for c in range(dealt.hand_size * players)]
    order += [dealt.face_up, *dealt.draw_pile]
    seen: dict[str, int] = {}
    ids = []
    for face in order:
        seen[face] = seen.get(face, 0) + 1
        ids.append(f"{face}.{seen[face]}")
    hands: list[list[str]] = [[] for _ in range(players)]
    for c in range(dealt.hand_size * players):
        hands[(dealt.dealer + 1 + c) % players].append(ids[c])
    n = dealt.hand_size * players
    return DealtRound(dealt, tuple(sort_cards(hand) for hand in hands), ids[n], tuple(ids[n + 1 :]))


def reshuffled(cards: Iterable[str], seed: str, round_number: int, count: int) -> tuple[str, ...]:
    """The new draw pile, top first, made of ``cards`` (the discard pile under its top card).

    The cards are put in :func:`card_order`, then shuffled by docs/deals.md's
    Fisher-Yates (section 5) with the stream of section 3 under the domain
    ``wordsvc-reshuffle-p1`` whose seed is the game's 32 seed bytes followed by
    the round number (4 bytes, big-endian) and whose number is ``count``, the
    reshuffles of the round so far (0 for the first). So a reshuffle is a pure
    function of the game's seed, the round and the cards, and never repeats a
    deal's stream.
    """
    stream = counter_stream(_RESHUFFLE, parse_seed(seed) + round_number.to_bytes(4, "big"), count)
    return tuple(fisher_yates(list(sort_cards(cards)), stream))

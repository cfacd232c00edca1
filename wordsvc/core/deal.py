"""Deals as docs/deals.md specifies them (version q1): a seeded, portable, unbiased shuffle and the round it deals.

Standard library only (hashlib). Every step is the specification's: the
deck in canonical order, a SHA-256 counter stream per round, rejection
sampling for each index, Fisher-Yates from the end, cards dealt one at a time
from the dealer's left, then the face-up card and the draw pile.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeVar

from .cards import Deck
from .ruleset import Ruleset

__all__ = ["SPEC", "Deal", "DealError", "below", "canonical_deck", "commitment", "counter_stream", "deal", "deal_digest", "fingerprint", "fisher_yates", "new_seed", "parse_seed", "shuffled", "table_seed"]

SPEC = "q1"
_STREAM = b"wordsvc-deal-q1\x00"
_TABLE = b"wordsvc-table-q1\x00"
_SEED = re.compile(r"^[0-9a-f]{64}$")
T = TypeVar("T")


class DealError(ValueError):
    """The deal cannot be made: ``field`` is the input at fault (``seed``, ``players``, ``round``)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Deal:
    seed: str
    round: int
    players: int
    hand_size: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    face_up: str
    draw_pile: tuple[str, ...]
    fingerprint: str

    @property
    def id(self) -> str:
        return f"{SPEC}.{self.fingerprint}.{self.players}.{self.hand_size}.{self.round}.{self.seed}"

    def digest(self) -> str:
        return deal_digest(self.hands, self.face_up, self.draw_pile)


def canonical_deck(deck: Deck) -> list[str]:
    """Every card of ``deck``, faces sorted by their UTF-8 bytes, each repeated as often as the deck holds it (section 1)."""
    faces = sorted(deck.cards, key=lambda face: face.encode("utf-8"))
    return [face for face in faces for _ in range(deck.cards[face].count)]


def fingerprint(cards: list[str]) -> str:
    return hashlib.sha256(",".join(cards).encode("utf-8")).hexdigest()


def new_seed() -> str:
    return secrets.token_hex(32)


def parse_seed(seed: str) -> bytes:
    if not isinstance(seed, str) or not _SEED.match(seed):
        raise DealError("seed", "a seed is 64 lowercase hex digits (32 bytes)")
    return bytes.fromhex(seed)


def counter_stream(domain: bytes, seed: bytes, number: int) -> Iterator[int]:
    """Section 3's stream under any domain: the 4-byte groups, as unsigned big-endian integers, of SHA-256(domain || seed || number || k) for k = 0, 1, ...

    ``domain`` ends with its zero byte, ``number`` is 4 bytes and ``k`` 8, both big-endian. Deals use
    ``wordsvc-deal-q1``; seatings (docs/seating.md) their own domain with the same construction.
    """
    prefix = domain + seed + number.to_bytes(4, "big")
    block = 0
    while True:
        digest = hashlib.sha256(prefix + block.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def _stream(seed: bytes, round_number: int) -> Iterator[int]:
    """The round's 4-byte groups as unsigned big-endian integers (section 3)."""
    return counter_stream(_STREAM, seed, round_number)


def below(stream: Iterator[int], n: int) -> int:
    """A uniform integer in 0..n-1 by rejection (section 4)."""
    limit = (1 << 32) - (1 << 32) % n
    for x in stream:
        if x < limit:
            return x % n
    raise AssertionError("the stream is endless")


_below = below


def fisher_yates(items: list[T], stream: Iterator[int]) -> list[T]:
    """A copy of ``items`` shuffled from the end by section 5's rule, each index drawn from ``stream`` by :func:`below`."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = below(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled(cards: list[str], seed: bytes, round_number: int) -> list[str]:
    """Fisher-Yates from the end with the round's stream (section 5)."""
    return fisher_yates(cards, _stream(seed, round_number))


def deal(ruleset: Ruleset, players: int, round_number: int, seed: str) -> Deal:
    """Round ``round_number`` for ``players`` seats under ``ruleset``'s deck and hand sizes (section 6); :class:`DealError` names the input at fault."""
    raw = parse_seed(seed)
    if not 1 <= round_number <= len(ruleset.rounds):
        raise DealError("round", f"ruleset {ruleset.id} has rounds 1 to {len(ruleset.rounds)}")
    if not ruleset.players_min <= players <= ruleset.players_max:
        raise DealError("players", f"ruleset {ruleset.id} is for {ruleset.players_min} to {ruleset.players_max} players")
    cards = canonical_deck(ruleset.deck)
    hand = ruleset.hand_size(round_number)
    if hand * players + 1 > len(cards):
        raise DealError("players", f"{players} hands of {hand} and a face-up card need {hand * players + 1} cards; the deck has {len(cards)}")
    order = shuffled(cards, raw, round_number)
    dealer = (round_number - 1) % players
    hands: list[list[str]] = [[] for _ in range(players)]
    for c in range(hand * players):
        hands[(dealer + 1 + c) % players].append(order[c])
    return Deal(seed, round_number, players, hand, dealer, tuple(map(tuple, hands)), order[hand * players], tuple(order[hand * players + 1 :]), fingerprint(cards))


def table_seed(event_seed: str, table: str | None) -> str:
    """A table's seed from the event's (section 8); ``None`` for a duplicate event's one seed of every table."""
    name = "*" if table is None else table
    return hashlib.sha256(_TABLE + parse_seed(event_seed) + name.encode("utf-8")).hexdigest()


def deal_digest(hands: tuple[tuple[str, ...], ...] | list[list[str]], face_up: str, draw_pile: tuple[str, ...] | list[str]) -> str:
    """SHA-256 of the deal's canonical JSON: what an event shows of a deal before its seed is revealed (section 8)."""
    document = {"draw_pile": list(draw_pile), "face_up": face_up, "hands": [list(h) for h in hands]}
    return hashlib.sha256(json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")).hexdigest()


def commitment(event_seed: str) -> str:
    """The hex SHA-256 of the event seed's 32 bytes, published when the event is created."""
    return hashlib.sha256(parse_seed(event_seed)).hexdigest()

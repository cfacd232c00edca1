"""A round's play as a document: the normalized form that idempotency, storage and the audit compare.

Cards are faces (``["qu", "i", "z"]``), whatever notation the client used,
so ``(qu)iz`` and ``["QU", "I", "Z"]`` are the same play. The round number is
not in the document: it is the round's key.

Where order carries no meaning, the document has one (:func:`in_order`):
players in seat order, each player's words by their cards, the unused cards
by face, challenges by who, whom and which word (its index following the
word). So the same play sent in another order is the same document, and its
repeat is the idempotent 200. A word's own cards keep their order: it is
the word.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.scoring import Challenge, PlayerPlay, RoundPlay

__all__ = ["in_order", "play_document", "play_from_document"]


def in_order(play: RoundPlay, seats: Sequence[str]) -> RoundPlay:
    """``play`` in its one order (see the module's docstring); ``seats``: the table's players in seat order."""
    seat = {name: i for i, name in enumerate(seats)}
    players, moved = [], {}
    for p in sorted(play.players, key=lambda p: (seat.get(p.name, len(seat)), p.name)):
        order = sorted(range(len(p.words)), key=lambda i: (p.words[i], i))
        moved[p.name] = {old: new for new, old in enumerate(order)}
        players.append(PlayerPlay(p.name, tuple(p.words[i] for i in order), tuple(sorted(p.unused)), p.went_out))
    challenges = sorted(
        (Challenge(c.by, c.player, moved.get(c.player, {}).get(c.word, c.word)) for c in play.challenges), key=lambda c: (c.by, c.player, c.word)
    )
    return RoundPlay(tuple(players), play.round, tuple(challenges), play.bonus_choice)


def play_document(play: RoundPlay) -> dict[str, Any]:
    return {
        "players": [{"name": p.name, "words": [list(cards) for cards in p.words], "unused": list(p.unused), "went_out": p.went_out} for p in play.players],
        "challenges": [{"by": c.by, "player": c.player, "word": c.word} for c in play.challenges],
        "bonus_choice": play.bonus_choice,
    }


def play_from_document(document: dict[str, Any], round_number: int) -> RoundPlay:
    players = tuple(PlayerPlay(p["name"], tuple(tuple(cards) for cards in p["words"]), tuple(p["unused"]), p["went_out"]) for p in document["players"])
    challenges = tuple(Challenge(c["by"], c["player"], c["word"]) for c in document["challenges"])
    return RoundPlay(players, round_number, challenges, document["bonus_choice"])

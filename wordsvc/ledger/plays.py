"""A round's play as a document: the normalized form that idempotency, storage and the audit compare.

Cards are faces (``["qu", "i", "z"]``), whatever notation the client used,
so ``(qu)iz`` and ``["QU", "I", "Z"]`` are the same play. The round number is
not in the document: it is the round's key.
"""

from __future__ import annotations

from typing import Any

from ..core.scoring import Challenge, PlayerPlay, RoundPlay

__all__ = ["play_document", "play_from_document"]


def play_document(play: RoundPlay) -> dict[str, Any]:
    return {
        "players": [
            {"name": p.name, "words": [list(cards) for cards in p.words], "unused": list(p.unused), "went_out": p.went_out} for p in play.players
        ],
        "challenges": [{"by": c.by, "player": c.player, "word": c.word} for c in play.challenges],
        "bonus_choice": play.bonus_choice,
    }


def play_from_document(document: dict[str, Any], round_number: int) -> RoundPlay:
    players = tuple(
        PlayerPlay(p["name"], tuple(tuple(cards) for cards in p["words"]), tuple(p["unused"]), p["went_out"]) for p in document["players"]
    )
    challenges = tuple(Challenge(c["by"], c["player"], c["word"]) for c in document["challenges"])
    return RoundPlay(players, round_number, challenges, document["bonus_choice"])

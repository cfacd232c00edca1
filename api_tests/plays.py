"""Random plays a table could have made, for the ledger's tests and its bench (``bench/ledger.py`` imports this too)."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["PLAYERS", "random_players"]

PLAYERS = ["ann", "bob", "cy"]


def random_players(rng: random.Random, deck: list[str], number: int, names: list[str] = PLAYERS) -> list[dict[str, Any]]:
    """The players of a valid round ``number`` of the standard rules: n + 2 cards each, drawn from ``deck`` (a multiset of
    faces) without replacement; some laid as words, real or not, the rest unused."""
    pool = deck[:]
    rng.shuffle(pool)
    players = []
    for name in names:
        hand = [pool.pop() for _ in range(number + 2)]
        words = []
        while len(hand) >= 2 and rng.random() < 0.6:
            size = rng.randint(2, min(5, len(hand)))
            words.append(hand[:size])
            hand = hand[size:]
        players.append({"name": name, "words": words, "unused": hand, "went_out": False})
    return players

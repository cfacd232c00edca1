"""The one exception of seating, and the checks of its inputs that every method shares.

Misuse (a malformed id, sizes that do not add up to the field, a bad seed)
raises :class:`SeatingError` naming the input at fault, like
:class:`wordsvc.core.deal.DealError`; the web layer maps it to a 422.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["PLAYER_ID", "SeatingError", "check_players", "check_sizes"]

#: A player id: lowercase ASCII letters, digits, ``-`` and ``_`` (the ledger's ids).
PLAYER_ID = re.compile(r"^[a-z0-9_-]+$")


class SeatingError(ValueError):
    """A seating cannot be made: ``field`` is the input at fault (``players``, ``sizes``, ``event_seed``, ``session``, ``met`` ...)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def check_players(players: Iterable[str], field: str = "players") -> list[str]:
    """``players`` as a list, each a well-formed id and none twice; :class:`SeatingError` on ``field`` otherwise."""
    out = list(players)
    seen: set[str] = set()
    for player in out:
        if not isinstance(player, str) or not PLAYER_ID.match(player):
            raise SeatingError(field, f"{player!r} is not a player id (lowercase ASCII letters, digits, '-' and '_')")
        if player in seen:
            raise SeatingError(field, f"'{player}' is listed twice")
        seen.add(player)
    return out


def check_sizes(sizes: Sequence[int], count: int) -> list[int]:
    """``sizes`` as a list of positive table sizes that seat exactly ``count`` players."""
    out = list(sizes)
    if not out or any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in out):
        raise SeatingError("sizes", "sizes are one or more positive whole numbers")
    if sum(out) != count:
        raise SeatingError("sizes", f"the tables seat {sum(out)} players; there are {count}")
    return out

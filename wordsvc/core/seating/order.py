"""Who sits where at a table: seat 0 deals first (the dealer of round r is seat (r - 1) mod P, docs/deals.md section 6).

The players are ordered by how often they have sat in seat 0 before
(``firsts``, fewest first); players with as many are ordered by their place
in ``table`` rotated left by ``session - 1`` places, so that ties fall to a
different player each session. Seat 0, and with it the extra deals of a game
whose round count is not a multiple of the table's size, goes to whoever has
had it least.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import SeatingError, check_players

__all__ = ["seat_order"]


def seat_order(table: Sequence[str], firsts: Mapping[str, int], session: int) -> list[str]:
    """``table``'s players in seat order, seat 0 first: fewest earlier seat-0s first (absent counts as 0), ties by ``table`` order rotated by ``session - 1``."""
    players = check_players(table, "table")
    if not isinstance(session, int) or session < 1:
        raise SeatingError("session", "a session is a whole number from 1")
    if not players:
        return []
    shift = (session - 1) % len(players)

    def key(i: int) -> tuple[int, int]:
        return firsts.get(players[i], 0), (i - shift) % len(players)

    return [players[i] for i in sorted(range(len(players)), key=key)]

"""King of the Hill: the standings cut into tables, the leaders at table 1."""

from __future__ import annotations

from collections.abc import Sequence

from .errors import check_players, check_sizes
from .shuffle import cut

__all__ = ["standings_seating"]


def standings_seating(ranked: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """``ranked`` best first: table 1 gets the first ``sizes[0]`` players, table 2 the next ``sizes[1]``, and so on; each table in standing order."""
    field = check_players(ranked, "ranked")
    return cut(field, check_sizes(sizes, len(field)))

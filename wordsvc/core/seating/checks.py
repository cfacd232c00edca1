"""The checks of a manual seating: every problem at once, each with where it is.

Problems are values, ``(field, message)``: ``tables.<i>`` for a table of the
wrong size, ``tables.<i>.<j>`` for seat j of table i (both from 0), and
``players`` for a player left without a seat. No problem: an empty list.

The order (docs/seating.md section 11): table by table, its size first, then its seats in order, where the
first that applies is told: a player not of this session (at every seat they hold), then a player seated at
an earlier seat (at every seat after their first); then the unseated players in ``players`` order.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["check_seating"]


def check_seating(tables: Sequence[Sequence[str]], players: Sequence[str], smallest: int, largest: int) -> list[tuple[str, str]]:
    """Every problem of ``tables`` as a seating of exactly ``players`` at tables of ``smallest`` to ``largest``, in table and seat order, then unseated players in ``players`` order."""
    problems: list[tuple[str, str]] = []
    field = set(players)
    seated: set[str] = set()
    for i, table in enumerate(tables):
        if not smallest <= len(table) <= largest:
            problems.append((f"tables.{i}", f"{len(table)} players; a table seats {smallest} to {largest}"))
        for j, player in enumerate(table):
            where = f"tables.{i}.{j}"
            if player not in field:
                problems.append((where, f"'{player}' is not a player of this session"))
            elif player in seated:
                problems.append((where, f"'{player}' is seated twice"))
            seated.add(player)
    problems.extend(("players", f"'{player}' is not seated") for player in players if player not in seated)
    return problems

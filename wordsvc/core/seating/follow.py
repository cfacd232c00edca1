"""Following a published schedule when the field has changed since it was drawn.

Session k's planned tables, with (docs/seating.md, "Following a schedule"):

1. every player not in ``active`` taken out, and empty tables dropped;
2. the number of tables brought within ceil(n / largest) .. floor(n / smallest) for the n active players:
   while there are too many, the smallest table (the last among equals) is broken up, its players, in their
   order at it, to be seated again (so tables are broken smallest first, the last among equals first, and
   their players seated again in that order); while too few, an empty table is added at the end;
3. each table above ``largest`` loses its last player, again and again, to be seated again;
4. the players to seat (those of step 2 and 3, then the active players the plan does not have, in
   ``active`` order) each join the end of the table with room (below ``largest``) with the fewest players,
   then the fewest repeat meetings with them (pairs met before, ``met``), then the first;
5. while a table is below ``smallest``, the first such takes a player from the table with the most players
   (the last among equals): the one with the fewest repeat meetings at the table they join, the last at
   their table among equals.

Players the plan keeps stay at their planned table, in planned order; the tables keep the plan's order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import SeatingError, check_players

__all__ = ["follow_schedule"]


def follow_schedule(planned: Sequence[Sequence[str]], active: Sequence[str], smallest: int, largest: int, met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """The planned tables adjusted to the ``active`` players, every table within ``smallest``..``largest``; :class:`SeatingError` on ``players`` when no split fits."""
    field = check_players(active, "active")
    check_players((p for table in planned for p in table), "planned")
    if not isinstance(smallest, int) or not isinstance(largest, int) or not 1 <= smallest <= largest:
        raise SeatingError("sizes", f"a table seats {smallest} to {largest} players: not a range of table sizes")
    n = len(field)
    fewest, most = -(-n // largest), n // smallest
    if n < smallest or fewest > most:
        raise SeatingError("players", f"{n} players cannot be split into tables of {smallest} to {largest}")
    present = set(field)
    tables = [[p for p in table if p in present] for table in planned]
    tables = [t for t in tables if t]
    planned_players = {p for t in tables for p in t}
    pending: list[str] = []
    while len(tables) > most:
        smallest_at = min(range(len(tables)), key=lambda i: (len(tables[i]), -i))
        pending.extend(tables.pop(smallest_at))
    while len(tables) < fewest:
        tables.append([])
    for table in tables:
        while len(table) > largest:
            pending.append(table.pop())
    pending.extend(p for p in field if p not in planned_players)

    def repeats(player: str, table: list[str]) -> int:
        return sum(1 for other in table if met.get(frozenset((player, other)), 0) > 0)

    for player in pending:
        open_tables = [i for i in range(len(tables)) if len(tables[i]) < largest]
        target = min(open_tables, key=lambda i: (len(tables[i]), repeats(player, tables[i]), i))
        tables[target].append(player)
    while True:
        short = [i for i in range(len(tables)) if len(tables[i]) < smallest]
        if not short:
            return tables
        receiver = short[0]
        donor = max(range(len(tables)), key=lambda i: (len(tables[i]), i))
        giver = tables[donor]
        k = min(range(len(giver)), key=lambda j: (repeats(giver[j], tables[receiver]), -j))
        tables[receiver].append(giver.pop(k))

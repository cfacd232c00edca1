"""How many tables, and how big: a target size and what to do with the remainder.

The number of tables is chosen by the remainder rule, then the players are
spread as evenly as possible over them (sizes differ by at most one, the
larger tables first), then the number is moved, if it must be, to the
nearest one whose even spread keeps every table within the ruleset's player
range.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SeatingError

__all__ = ["REMAINDERS", "SizePolicy", "table_sizes"]

REMAINDERS = ("smaller", "larger")


@dataclass(frozen=True)
class SizePolicy:
    """``target`` players a table; ``remainder``: ``"smaller"`` makes some tables smaller than the target (13 at 4: 4, 3, 3, 3), ``"larger"`` some larger (13 at 4: 5, 4, 4)."""

    target: int
    remainder: str = "smaller"


def table_sizes(count: int, policy: SizePolicy, smallest: int, largest: int) -> list[int]:
    """The sizes of the tables for ``count`` players, table 1 (the largest) first, each within ``smallest``..``largest``.

    ``"smaller"`` takes ceil(count / target) tables, ``"larger"`` floor(count / target) (at least one);
    the count is then clamped into ceil(count / largest) .. floor(count / smallest), the numbers of tables
    whose even spread fits the range. :class:`SeatingError` on ``sizes`` for a bad policy or range, on
    ``players`` when no number of tables fits.
    """
    if not isinstance(smallest, int) or not isinstance(largest, int) or not 1 <= smallest <= largest:
        raise SeatingError("sizes", f"a table seats {smallest} to {largest} players: not a range of table sizes")
    if policy.remainder not in REMAINDERS:
        raise SeatingError("sizes", f"the remainder rule is one of {', '.join(REMAINDERS)}, not {policy.remainder!r}")
    if not isinstance(policy.target, int) or not smallest <= policy.target <= largest:
        raise SeatingError("sizes", f"a target of {policy.target} is outside the ruleset's {smallest} to {largest} players")
    if not isinstance(count, int) or count < smallest:
        raise SeatingError("players", f"{count} players cannot fill a table of {smallest} to {largest}")
    fewest, most = -(-count // largest), count // smallest
    if fewest > most:
        raise SeatingError("players", f"{count} players cannot be split into tables of {smallest} to {largest}")
    tables = -(-count // policy.target) if policy.remainder == "smaller" else max(1, count // policy.target)
    tables = min(max(tables, fewest), most)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)

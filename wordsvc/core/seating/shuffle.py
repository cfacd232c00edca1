"""The random seating, specification s1 (docs/seating.md sections 1 to 4): portable, seeded, unbiased.

The players sorted by id (code point order), shuffled by Fisher-Yates with a
SHA-256 counter stream, exactly the construction and the rejection rule of
the q1 deals (docs/deals.md sections 3 to 5, :mod:`wordsvc.core.deal`), under
the seating's own domain string; then cut into tables in order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..deal import DealError, counter_stream, fisher_yates, parse_seed
from .errors import SeatingError, check_players, check_sizes

__all__ = ["SPEC", "cut", "random_seating", "seating_stream"]

SPEC = "s1"
_DOMAIN = b"wordsvc-seating-s1\x00"


def seating_stream(event_seed: str, session: int) -> Iterator[int]:
    """Session ``session``'s stream: SHA-256("wordsvc-seating-s1" || 0x00 || event seed || session || k), read 4 bytes at a time (section 2)."""
    try:
        raw = parse_seed(event_seed)
    except DealError as e:
        raise SeatingError("event_seed", str(e)) from None
    if not isinstance(session, int) or not 1 <= session < 1 << 32:
        raise SeatingError("session", "a session is a whole number from 1")
    return counter_stream(_DOMAIN, raw, session)


def cut(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    """Table 1 takes the first ``sizes[0]`` of ``order``, table 2 the next ``sizes[1]``, and so on."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def random_seating(players: Sequence[str], sizes: Sequence[int], event_seed: str, session: int) -> list[list[str]]:
    """Session ``session``'s random seating of ``players`` at tables of ``sizes`` (sections 1 to 4); the same inputs give the same tables everywhere."""
    field = check_players(players)
    table_sizes = check_sizes(sizes, len(field))
    stream = seating_stream(event_seed, session)
    return cut(fisher_yates(sorted(field), stream), table_sizes)

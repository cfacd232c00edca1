"""A session's seating from what the ledger knows: who may play, the method asked for, the sessions before (docs/tournaments.md).

Pure: the ledger reads the rows and hands them here, so the same inputs
seat the same tables on any machine, and a checker can recompute a session
from an export. The methods themselves are :mod:`wordsvc.core.seating`'s.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import problem_codes as codes
from ..errors import InvalidRequest
from . import (
    SeatingError,
    SizePolicy,
    check_seating,
    follow_schedule,
    meetings,
    random_seating,
    seat_order,
    standings_seating,
    swiss_seating,
    table_sizes,
)

__all__ = ["MAX_EVENT_PLAYERS", "History", "Registration", "active", "draw_seed", "history", "plan_session", "sizes_for"]

#: Players an event may register: far above any real tournament, small enough that every answer and document of the event
#: stays bounded (the printed documents are tested at this size: tests/test_documents_size.py).
MAX_EVENT_PLAYERS = 2000
#: The table size asked for when a session names none (within the ruleset's range).
DEFAULT_TARGET = 4


@dataclass(frozen=True)
class Registration:
    """A registered player as seating sees them."""

    id: str
    checked_in: bool
    joined: int
    withdrawn: int | None

    def active_in(self, session: int) -> bool:
        """Checked in, entered by ``session`` and not withdrawn by it."""
        return self.checked_in and self.joined <= session and (self.withdrawn is None or self.withdrawn > session)


@dataclass(frozen=True)
class History:
    """What earlier sessions' seatings say: how often each pair shared a table, how often each player sat in seat 0."""

    met: Mapping[frozenset[str], int]
    firsts: Mapping[str, int]


def active(entrants: Sequence[Registration], session: int) -> list[str]:
    """The ids of the players seated in ``session``, in codepoint order."""
    return sorted(entrant.id for entrant in entrants if entrant.active_in(session))


def history(sessions: Sequence[Sequence[Sequence[str]]]) -> History:
    """:class:`History` of earlier sessions, each a list of tables in seat order."""
    met: Counter[frozenset[str]] = Counter()
    firsts: Counter[str] = Counter()
    for tables in sessions:
        met.update(meetings(tables))
        firsts.update(table[0] for table in tables if table)
    return History(met, firsts)


def sizes_for(count: int, target: int | None, remainder: str, smallest: int, largest: int) -> list[int]:
    """The table sizes for ``count`` players; the default target is 4, brought within ``smallest..largest``."""
    wanted = target if target is not None else min(max(DEFAULT_TARGET, smallest), largest)
    return table_sizes(count, SizePolicy(wanted, remainder), smallest, largest)


def draw_seed(event_seed: str, draw: int) -> str:
    """The seed of a session's ``draw``-th random seating: the event seed for the first, then SHA-256 of "wordsvc-redraw-q1", a zero byte, the seed and the draw (4 bytes, big-endian)."""
    if draw <= 1:
        return event_seed
    return hashlib.sha256(b"wordsvc-redraw-q1\x00" + bytes.fromhex(event_seed) + draw.to_bytes(4, "big")).hexdigest()


def plan_session(
    method: str,
    number: int,
    players: Sequence[str],
    sizes: Sequence[int],
    smallest: int,
    largest: int,
    past: History,
    *,
    seed: str | None = None,
    draw: int = 1,
    ranked: Sequence[str] = (),
    manual: Sequence[Sequence[str]] | None = None,
    planned: Sequence[Sequence[str]] | None = None,
) -> list[list[str]]:
    """Session ``number``'s tables, each in seat order, for ``players`` (the active ids) by ``method``.

    ``ranked``: the active players best first (standings and swiss); ``manual``:
    the director's tables; ``planned``: the published schedule's session
    ``number``; ``seed``: the event seed (random). :class:`SeatingError` names
    what is at fault.
    """
    if method == "random":
        if seed is None:
            raise SeatingError("method", "this event has no seed (it was created before every event drew one): random seating cannot be drawn")
        tables = random_seating(players, sizes, draw_seed(seed, draw), number)
    elif method == "standings":
        tables = standings_seating(_ranked(ranked, players), sizes)
    elif method == "swiss":
        tables = swiss_seating(_ranked(ranked, players), sizes, past.met)
    elif method == "schedule":
        if planned is None:
            raise SeatingError("method", f"no published schedule has a session {number}: publish one first (POST /events/{{event}}/schedule)")
        tables = follow_schedule(planned, players, smallest, largest, past.met)
    elif method == "manual":
        if manual is None:
            raise SeatingError("tables", "the manual method needs the tables")
        problems = check_seating(manual, players, smallest, largest)
        if problems:  # every problem at once, each under its own field
            listed: dict[str, list[str]] = {}
            for where, message in problems:
                listed.setdefault(where, []).append(message)
            raise InvalidRequest(f"Session {number} cannot be seated as given; see errors.", listed, code=codes.SEATING_IMPOSSIBLE)
        return [list(table) for table in manual]  # the director's seat order, as given
    else:
        raise SeatingError("method", f"no seating method {method!r}")
    return [seat_order(table, past.firsts, number) for table in tables]


def _ranked(ranked: Sequence[str], players: Sequence[str]) -> list[str]:
    """The active players in standings order; any the standings do not list (none yet) follow in id order."""
    wanted = set(players)
    head = [player for player in ranked if player in wanted]
    listed = set(head)
    return head + sorted(player for player in players if player not in listed)

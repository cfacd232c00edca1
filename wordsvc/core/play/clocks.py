"""Clocks of a hosted game, the pure part: the settings, the arithmetic of deadlines, the move a timeout makes, and when a seat goes to a bot.

Nothing here reads a clock: every time is an ``int`` of milliseconds since
the epoch, given by the caller, so the rules of time are tested like the
rules of play. The server stores each deadline, checks it and plays the
timeout (docs/play.md, "Clocks").

**A turn on the clock.** A seat's turn runs from the moment it is the seat to
move until its turn ends: the draw and the discard are one turn (the clock
does not restart between them); in phase ``lay`` the seat to lay is on the
clock; in a challenge window every seat that has not passed is on the clock,
from the window's opening until it passes (its challenges do not restart it).
:func:`on_clock` says who is on the clock; :func:`turns_started` which of them
began a turn with the move just applied.

**Settings** (:class:`Clock`): ``none``, a casual table, no limit; ``live``, a
limit per turn in seconds and a time bank in seconds per seat per game, drawn
on only when a turn outlasts its limit; ``correspondence``, a limit per turn
in hours.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..lexicon import Lexicon
from ..ruleset import Ruleset
from .dealing import face_of
from .engine import apply
from .knobs import DrawPileOut
from .moves import Discard, Draw, LayDown, Move, Pass, Take
from .state import GameState, Phase

__all__ = [
    "TIMEOUTS_TO_BOT",
    "Clock",
    "ClockError",
    "ClockKind",
    "bank_used",
    "deadline",
    "handed_to_bot",
    "on_clock",
    "timed_out",
    "timeout_move",
    "timeout_moves",
    "turns_started",
]

#: A seat that lets this many turns in a row run out is handed to a bot and its game counted as a forfeit. Two: one
#: timeout is a slip (a phone call, a dropped connection that comes back); a second in a row is a player who has
#: left, and the table should not wait for a third turn's limit (lichess likewise stops waiting for a player who is
#: gone rather than letting the clock run out turn after turn).
TIMEOUTS_TO_BOT = 2

#: The bounds of the settings: a live turn of 5 seconds to 10 minutes, a bank of up to an hour, a correspondence turn
#: of 1 hour to 14 days (lichess's correspondence games offer 1 to 14 days a move).
TURN_SECONDS = (5, 600)
BANK_SECONDS = (0, 3600)
TURN_HOURS = (1, 336)


class ClockKind(StrEnum):
    """``none``: casual, no limit; ``live``: seconds a turn and a bank; ``correspondence``: hours a turn."""

    NONE = "none"
    LIVE = "live"
    CORRESPONDENCE = "correspondence"


class ClockError(ValueError):
    """A clock setting that is not one: ``field`` names the part at fault (``kind``, ``turn_seconds``, ``bank_seconds``, ``turn_hours``)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


_FIELDS = {ClockKind.NONE: (), ClockKind.LIVE: ("turn_seconds", "bank_seconds"), ClockKind.CORRESPONDENCE: ("turn_hours",)}
_BOUNDS = {"turn_seconds": TURN_SECONDS, "bank_seconds": BANK_SECONDS, "turn_hours": TURN_HOURS}


@dataclass(frozen=True)
class Clock:
    """A table's clock. ``live`` needs ``turn_seconds`` and ``bank_seconds``, ``correspondence`` ``turn_hours``; the other fields stay ``None``.

    Built from anything else it raises :class:`ClockError` naming the field.
    """

    kind: ClockKind = ClockKind.NONE
    turn_seconds: int | None = None
    bank_seconds: int | None = None
    turn_hours: int | None = None

    def __post_init__(self) -> None:
        try:
            kind = ClockKind(self.kind)
        except ValueError:
            raise ClockError("kind", f"kind is one of {', '.join(ClockKind)}") from None
        object.__setattr__(self, "kind", kind)
        for name in ("turn_seconds", "bank_seconds", "turn_hours"):
            value = getattr(self, name)
            if name not in _FIELDS[kind]:
                if value is not None:
                    raise ClockError(name, f"a {kind.value} clock has no {name}")
                continue
            low, high = _BOUNDS[name]
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ClockError(name, f"a {kind.value} clock needs {name}, a whole number from {low} to {high}")

    @property
    def turn_ms(self) -> int | None:
        """The limit of one turn in milliseconds; ``None`` without a limit."""
        if self.kind is ClockKind.LIVE:
            return self.turn_seconds * 1000  # type: ignore[operator]
        if self.kind is ClockKind.CORRESPONDENCE:
            return self.turn_hours * 3_600_000  # type: ignore[operator]
        return None

    @property
    def bank_ms(self) -> int:
        """Each seat's time bank at the start of the game, in milliseconds (0 but for ``live``)."""
        return self.bank_seconds * 1000 if self.kind is ClockKind.LIVE else 0  # type: ignore[operator]

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: ``kind`` and the kind's own fields."""
        return {"kind": self.kind.value, **{name: getattr(self, name) for name in _FIELDS[self.kind]}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Clock:
        """The clock :meth:`to_dict` wrote; :class:`ClockError` naming the field for anything else (``kind`` missing, an unknown field)."""
        if not isinstance(data, Mapping) or "kind" not in data:
            raise ClockError("kind", "a clock is an object with its kind")
        unknown = sorted(set(data) - {"kind", "turn_seconds", "bank_seconds", "turn_hours"})
        if unknown:
            raise ClockError(unknown[0], f"a clock has no field {unknown[0]!r}")
        return cls(**dict(data))


def handed_to_bot(consecutive_timeouts: int) -> bool:
    """Whether a seat that has let ``consecutive_timeouts`` turns in a row run out goes to a bot (and its game counts as a forfeit).

    The server counts: a timeout adds one, a move the seat makes itself sets
    the count back to 0. At :data:`TIMEOUTS_TO_BOT` the seat is handed over.
    """
    return consecutive_timeouts >= TIMEOUTS_TO_BOT


def deadline(clock: Clock, started_at: int, bank_ms: int) -> int | None:
    """When a turn that started at ``started_at`` runs out: its limit, then the seat's remaining bank ``bank_ms``; ``None`` on a clock without limits."""
    turn = clock.turn_ms
    return None if turn is None else started_at + turn + max(0, bank_ms)


def bank_used(clock: Clock, started_at: int, moved_at: int) -> int:
    """What a turn from ``started_at`` to ``moved_at`` took from the seat's bank: the time beyond the turn's limit (0 within it, and without a bank)."""
    turn = clock.turn_ms
    if turn is None or clock.kind is not ClockKind.LIVE:
        return 0
    return max(0, moved_at - started_at - turn)


def timed_out(clock: Clock, started_at: int, bank_ms: int, now: int) -> bool:
    """Whether a turn that started at ``started_at``, with ``bank_ms`` left in the bank, has run out at ``now`` (at its deadline it has)."""
    end = deadline(clock, started_at, bank_ms)
    return end is not None and now >= end


def on_clock(state: GameState) -> tuple[int, ...]:
    """The seats whose clocks run: in a challenge window each seat that has not passed, else the seat to move; none once the game is over."""
    r = state.current
    if r is None:
        return ()
    if r.phase is Phase.CHALLENGES:
        return tuple(seat for seat, passed in enumerate(r.passed) if not passed)
    return (r.turn,)


def _turn(state: GameState, seat: int) -> tuple[int, bool, int]:
    r = state.current
    assert r is not None
    return r.number, r.phase is Phase.CHALLENGES, r.turns[seat]


def turns_started(before: GameState, after: GameState) -> tuple[int, ...]:
    """The seats on the clock in ``after`` whose turn began with the move that made it from ``before``: their clocks start at the move's time.

    A seat that stays on the clock through a move (its draw, a challenge) goes
    on with the same turn. A turn is told apart by its round, whether it is the
    challenge window, and the count of turns the seat has finished.
    """
    running = set(on_clock(before))
    return tuple(seat for seat in on_clock(after) if seat not in running or _turn(before, seat) != _turn(after, seat))


def timeout_move(state: GameState, seat: int, ruleset: Ruleset) -> Move:
    """The next move the server makes for ``seat`` when its time has run out; the seat must be on the clock.

    - Phase ``draw``: draw from the draw pile, or take the discard when the
      draw pile cannot be drawn (empty and not rebuilt, docs/play.md "The draw
      pile running out").
    - Phase ``discard``: discard the hand's highest-valued card (the value the
      ruleset's deck gives its face; of equal values, the first in card order;
      never the card just taken when the knobs forbid it). In a last turn after
      someone went out this lays down nothing, as a plain discard does.
    - Phase ``lay``: lay down nothing.
    - A challenge window: pass.

    A turn out of time is thus one or two moves (:func:`timeout_moves` plays them all).
    """
    r = state.current
    if r is None or seat not in on_clock(state):
        raise ValueError(f"seat {seat} is not on the clock")
    if r.phase is Phase.CHALLENGES:
        return Pass(seat)
    if r.phase is Phase.LAY:
        return LayDown(seat, ())
    if r.phase is Phase.DRAW:
        drawable = bool(r.draw_pile) or (state.knobs.draw_pile_out is DrawPileOut.RESHUFFLE and len(r.discard_pile) > 1)
        return Take(seat) if not drawable and r.discard_pile else Draw(seat)
    barred = None if state.knobs.discard_taken_card else r.taken
    cards = [card for card in r.hands[seat] if card != barred]
    return Discard(seat, max(cards, key=lambda card: (ruleset.deck.value(face_of(card)), -cards.index(card))))


def timeout_moves(state: GameState, seat: int, ruleset: Ruleset, lexicon: Lexicon) -> tuple[tuple[Move, ...], GameState]:
    """Every move a timeout makes for ``seat``, until its turn is over (the seat is off the clock or a new turn of it began), and the state after them."""
    moves: list[Move] = []
    while True:
        move = timeout_move(state, seat, ruleset)
        following = apply(state, move, ruleset, lexicon)
        moves.append(move)
        if seat not in on_clock(following) or seat in turns_started(state, following):
            return tuple(moves), following
        state = following

"""The moves of a round: small frozen records, each with a stable JSON form.

A game's log is its setup (ruleset, seed, seats, knobs) and its moves in
order; :func:`~wordsvc.core.play.engine.replay` rebuilds the state from them.
Every move names the seat making it (seats are numbered from 0, in the
table's order, docs/deals.md section 6) and the cards by their ids
(:mod:`wordsvc.core.play.dealing`: ``"qu.1"``). The JSON form of a move is
:func:`move_to_dict`'s, its keys sorted in the canonical bytes; it is read
back by :func:`move_from_dict`, which refuses anything else with
:class:`MoveFormatError` (a malformed move, not an illegal one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["Challenge", "Discard", "Draw", "GoOut", "LayDown", "Move", "MoveFormatError", "Pass", "Take", "move_from_dict", "move_to_dict"]

Words = tuple[tuple[str, ...], ...]


class MoveFormatError(ValueError):
    """A document that is not a move (unknown kind, a missing or mistyped field)."""


@dataclass(frozen=True)
class Draw:
    """Take the top card of the draw pile (the first half of a turn)."""

    seat: int
    kind = "draw"


@dataclass(frozen=True)
class Take:
    """Take the top card of the discard pile (the first half of a turn)."""

    seat: int
    kind = "take"


@dataclass(frozen=True)
class Discard:
    """Discard ``card``, ending the turn; in a last turn, lay down nothing and discard."""

    seat: int
    card: str
    kind = "discard"


@dataclass(frozen=True)
class GoOut:
    """Lay every card but one as ``words`` and discard the last one, ``discard`` (compulsory, rules-is.txt)."""

    seat: int
    words: Words
    discard: str | None
    kind = "go_out"


@dataclass(frozen=True)
class LayDown:
    """Lay down what words one can: in a last turn after a going out (then discard), or when the draw pile ended the round (no discard)."""

    seat: int
    words: Words
    discard: str | None = None
    kind = "lay_down"


@dataclass(frozen=True)
class Challenge:
    """In a challenge window: challenge word ``word`` (its index among the words ``player`` laid)."""

    seat: int
    player: int
    word: int
    kind = "challenge"


@dataclass(frozen=True)
class Pass:
    """In a challenge window: this seat challenges no more words this round."""

    seat: int
    kind = "pass"


Move = Draw | Take | Discard | GoOut | LayDown | Challenge | Pass
KINDS: dict[str, type] = {cls.kind: cls for cls in (Draw, Take, Discard, GoOut, LayDown, Challenge, Pass)}


def move_to_dict(move: Move) -> dict[str, object]:
    """The move's JSON form: ``kind``, ``seat`` and its own fields (words as lists of card ids)."""
    out: dict[str, object] = {"kind": move.kind, "seat": move.seat}
    for name in move.__dataclass_fields__:
        if name == "seat":
            continue
        value = getattr(move, name)
        out[name] = [list(word) for word in value] if name == "words" else value
    return out


def move_from_dict(data: Mapping[str, object]) -> Move:
    """The move :func:`move_to_dict` wrote; :class:`MoveFormatError` for anything else."""
    if not isinstance(data, Mapping):
        raise MoveFormatError("a move is an object")
    cls = KINDS.get(data.get("kind"))  # type: ignore[arg-type]
    if cls is None:
        raise MoveFormatError(f"kind must be one of {', '.join(KINDS)}")
    fields = cls.__dataclass_fields__
    unknown = sorted(set(data) - set(fields) - {"kind"})
    if unknown:
        raise MoveFormatError(f"a {cls.kind} move has no field {unknown[0]!r}")
    values: dict[str, object] = {}
    for name, spec in fields.items():
        if name not in data:
            if spec.default is None:
                values[name] = None
                continue
            raise MoveFormatError(f"a {cls.kind} move needs {name!r}")
        values[name] = _field(cls.kind, name, data[name])
    return cls(**values)


def _field(kind: str, name: str, value: object) -> object:
    if name in ("seat", "player", "word"):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise MoveFormatError(f"{kind}.{name} is a number from 0")
        return value
    if name in ("card", "discard"):
        if value is None and name == "discard":
            return None
        if not isinstance(value, str):
            raise MoveFormatError(f"{kind}.{name} is a card id")
        return value
    if name == "words":
        if not isinstance(value, list | tuple) or not all(isinstance(w, list | tuple) and all(isinstance(c, str) for c in w) for w in value):
            raise MoveFormatError(f"{kind}.words is a list of words, each a list of card ids")
        return tuple(tuple(word) for word in value)
    raise MoveFormatError(f"unknown field {name!r}")  # pragma: no cover - every field is one of the above

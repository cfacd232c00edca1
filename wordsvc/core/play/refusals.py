"""Why the engine refuses a move: one stable code a rule, and the exception that carries it.

An illegal move changes nothing: :func:`~wordsvc.core.play.engine.apply`
raises :class:`IllegalMove` and the state it was given stands (it is
immutable). A failed going-out claim is one of these refusals and costs
nothing: the rules give no penalty (RULES.md, "A game"; ``rules-et.txt``
suggests the round simply goes on), so the turn goes on.

The codes are registered in :mod:`wordsvc.core.problem_codes` (the registry of
every code an HTTP answer carries, with its status: a refused move is a 422),
whose :data:`REFUSALS` is their one list (docs/play.md, "Codes").
Clients switch on the code, never on the message.
"""

from __future__ import annotations

from ..problem_codes import REFUSALS

__all__ = ["REFUSALS", "IllegalMove"]



class IllegalMove(Exception):
    """A refused move: ``code`` (a key of :data:`REFUSALS`), a message for people, and ``details`` for programs.

    ``details`` of ``word_not_valid``: ``word`` (its index in the move) and
    ``reason`` (the verdict's reason code: ``not_in_lexicon``, ``too_short``, ...).
    """

    def __init__(self, code: str, message: str | None = None, **details: object):
        if code not in REFUSALS:
            raise ValueError(f"unknown refusal code {code!r}")
        super().__init__(message or REFUSALS[code])
        self.code = code
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": str(self), **self.details}

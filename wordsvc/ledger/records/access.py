"""Who may do what (docs/ledger.md): one function per kind of action, giving the actor back or raising 401 or 403.

A missing token is 401 (naming the header to send); a valid token whose role
or event does not allow the action is 403 naming the role it needs. An
admin token may do everything.
"""

from __future__ import annotations

from ...core import problem_codes as codes
from ..errors import Forbidden, Unauthorized
from .principals import Principal

__all__ = ["require_admin", "require_director", "require_judge", "require_read", "require_referee"]


def _present(actor: Principal | None, what: str) -> Principal:
    if actor is None:
        raise Unauthorized(f"To {what}, send a bearer token: Authorization: Bearer wsv_...", {"authorization": ["missing"]}, code=codes.TOKEN_MISSING)
    return actor


def require_admin(actor: Principal | None) -> Principal:
    actor = _present(actor, "create or import an event")
    if actor.role != "admin":
        raise Forbidden("Creating and importing events needs an admin token (wordsvc token create --admin).", {"authorization": ["needs role admin"]})
    return actor


def require_director(actor: Principal | None, event_id: str, what: str = "change the event") -> Principal:
    actor = _present(actor, what)
    if actor.role == "admin" or (actor.role == "director" and actor.event == event_id):
        return actor
    raise Forbidden(f"To {what}, use a director token of event {event_id} (or an admin token).", {"authorization": ["needs role director of this event"]})


def require_referee(actor: Principal | None, event_id: str, table: str) -> Principal:
    actor = _present(actor, "submit rounds or rulings")
    if actor.role == "admin" or (actor.event == event_id and actor.role == "director"):
        return actor
    if actor.event == event_id and actor.role == "referee":
        if actor.table is None or actor.table == table:
            return actor
        raise Forbidden(f"This referee token is for table {actor.table}, not {table}.", {"authorization": [f"limited to table {actor.table}"]})
    raise Forbidden(f"Submitting needs a referee or director token of event {event_id}.", {"authorization": ["needs role referee of this event"]})


def require_judge(actor: Principal | None, event_id: str, table: str) -> Principal:
    """Who may record a judge ruling at ``table``: whoever may submit its rounds, or a kiosk token of the event.

    A kiosk token (role ``kiosk``, optionally for one table) is what the judge kiosk holds: it sits where
    players can reach it, so it records rulings and reads the event, and can never store or correct a round
    or read a deal.
    """
    if actor is not None and actor.event == event_id and actor.role == "kiosk":
        if actor.table is None or actor.table == table:
            return actor
        raise Forbidden(f"This kiosk token is for table {actor.table}, not {table}.", {"authorization": [f"limited to table {actor.table}"]})
    return require_referee(actor, event_id, table)


def require_read(actor: Principal | None, event_id: str, private: bool) -> None:
    """Public events are open to anyone; a private one needs a token of the event (any role) or an admin token."""
    if not private:
        return
    actor = _present(actor, f"read private event {event_id}")
    if actor.role != "admin" and actor.event != event_id:
        raise Forbidden(f"Event {event_id} is private: use a token of this event.", {"authorization": ["needs a token of this event"]})

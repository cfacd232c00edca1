"""An event's players: registered once, checked in, withdrawn (docs/tournaments.md).

A player has an id within the event, a display name (checked as table
names are: none the same without case, none mixing scripts, none looking
alike), optionally a club and a rating id that is the same across events.
A player registered after the first session is a late entry: seated from
the next session. A withdrawal takes effect from the next session; past
games stay. Each is an audited write; the same request again is answered
with the first entry's receipt, a different registration is a 409.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest, Problems
from ...core.names import confusable_pairs
from ...core.seating.sessions import MAX_EVENT_PLAYERS
from ...data.names import mixed_script, skeleton
from .._db.canonical import now
from .._db.schema import players, sessions
from ..errors import Conflict, NotFound
from ..integrity.receipts import Appended
from ..records.access import require_director, require_read
from ..records.principals import Principal
from ..records.store import Store, check_id, refuse_if_closed

__all__ = ["Players", "last_session", "player_view"]


class Players:
    """Registering, checking in, withdrawing and listing an event's players."""

    def __init__(self, store: Store):
        self.store = store

    def register(
        self, actor: Principal | None, event_id: str, player_id: str, name: str, club: str | None = None, rating_id: str | None = None, checked_in: bool = False
    ) -> tuple[bool, dict[str, Any]]:
        """Register a player; ``(created, player)``. The same body again is a no-op; another is a 409."""
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)
        check_id(player_id, "player")
        if rating_id is not None:
            check_id(rating_id, "rating_id")
        mixed = mixed_script(name)
        if mixed:
            raise InvalidRequest(f"{name!r} mixes scripts a reader cannot tell apart.", {"name": [f"mixes {', '.join(sorted(s.title() for s in mixed))}"]}, code=codes.MIXED_SCRIPTS)
        asked = {"name": name, "club": club, "rating_id": rating_id}

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(players).where(players.c.event_id == event_id, players.c.id == player_id)).first()
            if row is not None:
                if {"name": row.name, "club": row.club, "rating_id": row.rating_id} != asked:
                    raise Conflict(
                        f"Player {player_id} of event {event_id} is registered otherwise: {row.name}.",
                        {"player": ["registered with another name, club or rating id"]},
                        code=codes.PLAYER_CONFLICT,
                    )
                return self.store.receipts.find(conn, event_id, ("player.registered",), lambda p: p.get("player") == player_id)
            refuse_if_closed(conn, event_id, "no more players can be registered")
            others = [(r.id, r.name) for r in conn.execute(select(players.c.id, players.c.name).where(players.c.event_id == event_id))]
            if len(others) >= MAX_EVENT_PLAYERS:
                raise Conflict(
                    f"Event {event_id} has {MAX_EVENT_PLAYERS:,} players, the most an event may register.",
                    {"player": [f"the event is full: {MAX_EVENT_PLAYERS} players"]},
                    code=codes.PLAYER_CONFLICT,
                )
            _check_name(name, others)
            joined = last_session(conn, event_id) + 1
            values = {**asked, "checked_in": checked_in, "joined": joined, "withdrawn": None}
            conn.execute(insert(players).values(event_id=event_id, id=player_id, created_at=now(), **values))
            payload = {"player": player_id, **{key: values[key] for key in ("name", "club", "rating_id", "checked_in", "joined")}}
            return self.store.append(conn, event_id, actor, "player.registered", payload)

        done = self.store.writer.run(event_id, work)
        return isinstance(done, Appended), self._view(event_id, player_id, done)

    def check_in(self, actor: Principal | None, event_id: str, player_id: str) -> dict[str, Any]:
        """Check a player in (audited); a player checked in already is answered with that entry's receipt.

        Checked in once a session is seated, the player enters from the next one (a late entry).
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = _player_row(conn, event_id, player_id)
            if row.checked_in:
                return self.store.receipts.find(conn, event_id, ("player.checked_in", "player.registered"), lambda p: p.get("player") == player_id)
            refuse_if_closed(conn, event_id, "no player can be checked in")
            joined = max(row.joined, last_session(conn, event_id) + 1)  # checked in after a session is seated: a late entry from the next
            conn.execute(update(players).where(players.c.event_id == event_id, players.c.id == player_id).values(checked_in=True, joined=joined))
            return self.store.append(conn, event_id, actor, "player.checked_in", {"player": player_id, "joined": joined})

        return self._view(event_id, player_id, self.store.writer.run(event_id, work))

    def withdraw(self, actor: Principal | None, event_id: str, player_id: str) -> dict[str, Any]:
        """Withdraw a player from the next session on (audited); past games stay. Again: that entry's receipt."""
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = _player_row(conn, event_id, player_id)
            if row.withdrawn is not None:
                return self.store.receipts.find(conn, event_id, ("player.withdrawn",), lambda p: p.get("player") == player_id)
            refuse_if_closed(conn, event_id, "no player can be withdrawn")
            start = last_session(conn, event_id) + 1
            conn.execute(update(players).where(players.c.event_id == event_id, players.c.id == player_id).values(withdrawn=start))
            return self.store.append(conn, event_id, actor, "player.withdrawn", {"player": player_id, "from": start})

        return self._view(event_id, player_id, self.store.writer.run(event_id, work))

    def players(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        event = self.store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(players).where(players.c.event_id == event_id).order_by(players.c.id)).all()
        return {"event": event_id, "players": [player_view(row) for row in rows]}

    def _view(self, event_id: str, player_id: str, done: Appended | tuple[int, str] | None) -> dict[str, Any]:
        with self.store.engine.connect() as conn:
            row = _player_row(conn, event_id, player_id)
        return {**player_view(row), "receipt": self.store.receipt(event_id, done)}


def player_view(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "club": row.club,
        "rating_id": row.rating_id,
        "checked_in": bool(row.checked_in),
        "joined": row.joined,
        "withdrawn": row.withdrawn,
    }


def last_session(conn: Connection, event_id: str) -> int:
    """The number of the event's newest session, 0 before the first."""
    return int(conn.execute(select(func.coalesce(func.max(sessions.c.number), 0)).where(sessions.c.event_id == event_id)).scalar_one())


def _player_row(conn: Connection, event_id: str, player_id: str) -> Any:
    row = conn.execute(select(players).where(players.c.event_id == event_id, players.c.id == player_id)).first()
    if row is None:
        raise NotFound(f"Event {event_id} has no player {player_id!r}.", {"player": [f"no player {player_id!r} in event {event_id}"]}, code=codes.PLAYER_NOT_FOUND)
    return row


def _check_name(name: str, others: list[tuple[str, str]]) -> None:
    """422 when ``name`` is another player's without case, or looks like one (a reader could not tell the two apart)."""
    problems = Problems()
    for other_id, other in others:
        if other.casefold() == name.casefold():
            problems.add("name", f"{name!r} is player {other_id}'s name (names are compared without case)", code=codes.DUPLICATE_NAME)
    names = [other for _, other in others] + [name]
    for i, j in confusable_pairs(names, skeleton):
        if len(names) - 1 in (i, j) and names[i].casefold() != names[j].casefold():
            problems.add("name", f"{name!r} looks like {names[i if j == len(names) - 1 else j]!r}: give players names people can tell apart", code=codes.NAMES_LOOK_ALIKE)
    problems.raise_if_any("The player cannot be registered; see errors.")

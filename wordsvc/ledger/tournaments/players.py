"""An event's players: registered once, checked in (one or many), withdrawn, deleted while they have no games (docs/tournaments.md).

A player has an id within the event, a display name (checked as table
names are: none the same without case, none mixing scripts, none looking
alike), optionally a club and a rating id that is the same across events.
A player registered after the first session is a late entry: seated from
the next session. A withdrawal takes effect from the next session; past
games stay. A registration with no games (never seated, not in the
published schedule) may be deleted instead. Each is an audited write; the same request again is answered
with the first entry's receipt, a different registration is a 409.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest, Problems
from ...core.names import confusable_pairs, folded_name
from ...core.seating.sessions import MAX_EVENT_PLAYERS
from ...data.names import mixed_script, skeleton
from .._db.canonical import now
from .._db.schema import players, schedules, seats, sessions
from ..errors import Conflict, NotFound
from ..integrity.receipts import Appended
from ..records.access import require_director, require_read
from ..records.principals import Principal
from ..records.store import Store, check_id, refuse_if_closed

__all__ = ["Players", "last_session", "name_problems", "player_view", "raise_similar"]


class Players:
    """Registering, checking in, withdrawing and listing an event's players."""

    def __init__(self, store: Store):
        self.store = store

    def register(
        self,
        actor: Principal | None,
        event_id: str,
        player_id: str,
        name: str,
        club: str | None = None,
        rating_id: str | None = None,
        checked_in: bool = False,
        allow_similar: bool = False,
    ) -> tuple[bool, dict[str, Any]]:
        """Register a player; ``(created, player)``. The same body again is a no-op; another is a 409.

        A name that is another player's once folded (``Zoe``, ``Zoë``) is a 409
        ``names_similar`` naming both, unless ``allow_similar``: the director's word.
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)
        check_id(player_id, "player")
        if rating_id is not None:
            check_id(rating_id, "rating_id")
        mixed = mixed_script(name)
        if mixed:
            raise InvalidRequest(
                f"{name!r} mixes scripts a reader cannot tell apart.",
                {"name": [f"mixes {', '.join(sorted(s.title() for s in mixed))}"]},
                code=codes.MIXED_SCRIPTS,
            )
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
            refused, similar = Problems(), Problems()
            name_problems(name, "name", others, refused, similar)
            refused.raise_if_any("The player cannot be registered; see errors.")
            if not allow_similar:
                raise_similar(similar)
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

    def check_in_many(self, actor: Principal | None, event_id: str, player_ids: list[str] | None) -> dict[str, Any]:
        """Check in ``player_ids`` (``None``: every player registered, not checked in and not withdrawn) in one write.

        All or none: an id the event does not have is a 422 naming its place
        in the list (``players.2``). Each player checked in now is one
        ``player.checked_in`` entry, as :meth:`check_in` writes; one checked in
        already writes nothing. The answer lists the players checked in now.
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> list[tuple[str, Appended]]:
            rows = {row.id: row for row in conn.execute(select(players).where(players.c.event_id == event_id).order_by(players.c.id))}
            if player_ids is None:
                wanted = [pid for pid, row in rows.items() if not row.checked_in and row.withdrawn is None]
            else:
                missing = Problems()
                for index, pid in enumerate(player_ids):
                    if pid not in rows:
                        missing.add(f"players.{index}", f"no player {pid!r} in event {event_id}", code=codes.PLAYER_NOT_FOUND)
                missing.raise_if_any("Some players cannot be checked in; see errors (players.N is the list's N-th id, from 0).")
                wanted = [pid for pid in dict.fromkeys(player_ids) if not rows[pid].checked_in]
            if not wanted:
                return []
            refuse_if_closed(conn, event_id, "no player can be checked in")
            start = last_session(conn, event_id) + 1
            done = []
            for pid in wanted:
                joined = max(rows[pid].joined, start)  # checked in after a session is seated: a late entry from the next
                conn.execute(update(players).where(players.c.event_id == event_id, players.c.id == pid).values(checked_in=True, joined=joined))
                done.append((pid, self.store.append(conn, event_id, actor, "player.checked_in", {"player": pid, "joined": joined})))
            return done

        done = self.store.writer.run(event_id, work)
        with self.store.engine.connect() as conn:
            rows = {row.id: row for row in conn.execute(select(players).where(players.c.event_id == event_id, players.c.id.in_([pid for pid, _ in done])))}
        return {"event": event_id, "players": [{**player_view(rows[pid]), "receipt": self.store.receipt(event_id, entry)} for pid, entry in done]}

    def delete(self, actor: Principal | None, event_id: str, player_id: str) -> dict[str, Any]:
        """Delete a registration that has no games (audited: ``player.deleted``); the answer names it, with the entry's receipt.

        A player seated in any session, or named by the published schedule, is
        a 409 ``player_has_games``: withdrawn, never deleted, so no stored game
        loses a player. Deleting again answers the first deletion's receipt
        (unless the id was registered again since: then that player is deleted).
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = conn.execute(select(players).where(players.c.event_id == event_id, players.c.id == player_id)).first()
            if row is None:
                found = self.store.receipts.find(conn, event_id, ("player.deleted",), lambda p: p.get("player") == player_id)
                if found is None:
                    _player_row(conn, event_id, player_id)  # the 404
                return found
            refuse_if_closed(conn, event_id, "no registration can be deleted")
            seated = conn.execute(select(func.count()).select_from(seats).where(seats.c.event_id == event_id, seats.c.player_id == player_id)).scalar_one()
            schedule = conn.execute(select(schedules.c.document_json).where(schedules.c.event_id == event_id)).scalar_one_or_none()
            if seated or (schedule is not None and player_id in json.loads(schedule).get("players", [])):
                why = f"seated in {seated} session(s)" if seated else "in the published schedule"
                raise Conflict(
                    f"Player {player_id} of event {event_id} is {why}: withdraw them instead (POST /events/{event_id}/players/{player_id}/withdraw).",
                    {"player": [f"{why}: withdraw instead"]},
                    code=codes.PLAYER_HAS_GAMES,
                )
            conn.execute(delete(players).where(players.c.event_id == event_id, players.c.id == player_id))
            return self.store.append(conn, event_id, actor, "player.deleted", {"player": player_id, "name": row.name})

        done = self.store.writer.run(event_id, work)
        return {"event": event_id, "player": player_id, "deleted": True, "receipt": self.store.receipt(event_id, done)}

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
        raise NotFound(
            f"Event {event_id} has no player {player_id!r}.", {"player": [f"no player {player_id!r} in event {event_id}"]}, code=codes.PLAYER_NOT_FOUND
        )
    return row


def name_problems(name: str, path: str, others: Sequence[tuple[str, str]], refused: Problems, similar: Problems) -> None:
    """What ``name`` (at ``path``) meets beside ``others`` (``(id, name)``, the event's players and earlier lines).

    Into ``refused`` (422): mixed scripts, another's name without case, a
    confusable of another's. Into ``similar`` (409 unless confirmed): another's
    name once folded, each message naming both names and the other's id.
    """
    mixed = mixed_script(name)
    if mixed:
        refused.add(path, f"mixes {', '.join(sorted(s.title() for s in mixed))}", code=codes.MIXED_SCRIPTS)
        return
    folded = folded_name(name)
    names = [other for _, other in others] + [name]
    look_alike = {i for pair in confusable_pairs(names, skeleton) if len(names) - 1 in pair for i in pair if i != len(names) - 1}
    for index, (other_id, other) in enumerate(others):
        if other.casefold() == name.casefold():
            refused.add(path, f"{name!r} is player {other_id}'s name (names are compared without case)", code=codes.DUPLICATE_NAME)
        elif index in look_alike:
            refused.add(path, f"{name!r} looks like {other!r} (player {other_id}): give players names people can tell apart", code=codes.NAMES_LOOK_ALIKE)
        elif folded_name(other) == folded:
            similar.add(
                path, f"{name!r} is {other!r} (player {other_id}) once accents and case are set aside: confirm with allow_similar", code=codes.NAMES_SIMILAR
            )


def raise_similar(similar: Problems) -> None:
    """The 409 that asks the director to confirm look-alike names (every pair listed), if any."""
    if similar:
        raise Conflict(
            "Some names are another player's once accents and case are set aside; register them anyway with allow_similar: true.",
            similar.items,
            code=codes.NAMES_SIMILAR,
        )

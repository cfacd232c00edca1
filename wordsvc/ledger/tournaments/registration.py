"""Registering many players in one request, and the name checks every registration shares (docs/tournaments.md).

A list of players (pasted or read from a CSV file by the console) is
registered whole or not at all: every line at fault is named by its index
(``players.3.name``), in three kinds, each refused with every line of its
kind at once:

- a 422 for what no registration may hold: a name mixing scripts, a name
  that is another's without case (``duplicate_name``), a name a reader
  could take for another's (``names_look_alike``: UTS #39 confusables, as at
  a table);
- a 409 ``player_conflict`` for what contradicts the event: an id
  registered with other details, more than the 2,000 players an event holds;
- a 409 ``names_similar`` for names that are one once folded as the service
  folds words (``Zoe Martin`` beside ``Zoë Martin``): likely one person
  typed twice, so registered only when the director says so
  (``allow_similar``), never silently.

A line without an id gets one made from its name
(:func:`~wordsvc.core.ids.id_from_name`), unique in the event. A line that
is a player registered already (its id, or without an id its exact name,
with the same club and rating id) is that player: a retry of the whole
request writes nothing and answers each line's first receipt. Each new
player is one ``player.registered`` entry, as a single registration writes.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select

from ...core import problem_codes as codes
from ...core.errors import Problems
from ...core.ids import id_from_name
from ...core.seating.sessions import MAX_EVENT_PLAYERS
from .._db.canonical import now
from .._db.schema import audit, players
from ..errors import Conflict
from ..integrity.receipts import Appended
from ..records.access import require_director
from ..records.principals import Principal
from ..records.store import Store, refuse_if_closed
from .players import last_session, name_problems, player_view, raise_similar

__all__ = ["Registration"]

#: A line's details that make it the same registration (``checked_in`` is not one: checking in is a write of its own).
DETAILS = ("name", "club", "rating_id")


class Registration:
    """Registering a list of players at once: all of them, or none and every line at fault named."""

    def __init__(self, store: Store):
        self.store = store

    def register_many(self, actor: Principal | None, event_id: str, lines: list[dict[str, Any]], allow_similar: bool = False) -> tuple[bool, dict[str, Any]]:
        """Register ``lines`` (each ``name``, optional ``id``, ``club``, ``rating_id``, ``checked_in``); ``(created any, answer)``.

        The answer lists every line's player, in the lines' order, each with
        the receipt of the entry that registered it (the first one, for a line
        registered already).
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> list[tuple[str, Appended | tuple[int, str] | None]]:
            rows = {row.id: row for row in conn.execute(select(players).where(players.c.event_id == event_id))}
            plan = _plan(lines, rows, allow_similar)
            done: list[tuple[str, Appended | tuple[int, str] | None]] = []
            new = [(player_id, line) for player_id, line, old in plan if not old]
            if new:
                refuse_if_closed(conn, event_id, "no more players can be registered")
                joined = last_session(conn, event_id) + 1
            registered = _registrations(conn, event_id) if len(new) < len(plan) else {}
            for player_id, line, old in plan:
                if old:
                    done.append((player_id, registered.get(player_id)))
                    continue
                values = {key: line.get(key) for key in DETAILS} | {"checked_in": bool(line.get("checked_in")), "joined": joined, "withdrawn": None}
                conn.execute(insert(players).values(event_id=event_id, id=player_id, created_at=now(), **values))
                payload = {"player": player_id, **{key: values[key] for key in ("name", "club", "rating_id", "checked_in", "joined")}}
                done.append((player_id, self.store.append(conn, event_id, actor, "player.registered", payload)))
            return done

        done = self.store.writer.run(event_id, work)
        with self.store.engine.connect() as conn:
            rows = {row.id: row for row in conn.execute(select(players).where(players.c.event_id == event_id, players.c.id.in_([pid for pid, _ in done])))}
        answered = [{**player_view(rows[pid]), "receipt": self.store.receipt(event_id, entry)} for pid, entry in done]
        return any(isinstance(entry, Appended) for _, entry in done), {"event": event_id, "players": answered}


def _registrations(conn: Connection, event_id: str) -> dict[str, tuple[int, str]]:
    """Each player's newest ``player.registered`` entry, ``(seq, hash)``: read once for a retry of a whole list."""
    found: dict[str, tuple[int, str]] = {}
    query = (
        select(audit.c.seq, audit.c.hash, audit.c.payload_json).where(audit.c.chain == event_id, audit.c.action == "player.registered").order_by(audit.c.seq)
    )
    for row in conn.execute(query):
        found[json.loads(row.payload_json)["player"]] = (row.seq, row.hash)
    return found


def _plan(lines: list[dict[str, Any]], rows: dict[str, Any], allow_similar: bool) -> list[tuple[str, dict[str, Any], bool]]:
    """Each line's player id and whether it is registered already, ``(id, line, old)``; raises naming every line at fault."""
    refused, conflicts, similar = Problems(), Problems(), Problems()
    by_name = {row.name: row for row in rows.values()}
    others = [(row.id, row.name) for row in rows.values()]
    assigned = set(rows)  # the ids of the event and of the lines so far
    taken = assigned | {line["id"] for line in lines if line.get("id") is not None}  # ids made from names leave every given id free
    plan: list[tuple[str, dict[str, Any], bool]] = []
    for index, line in enumerate(lines):
        asked = {key: line.get(key) for key in DETAILS}
        given = line.get("id")
        old = rows.get(given) if given is not None else by_name.get(line["name"])
        if old is not None and {key: getattr(old, key) for key in DETAILS} == asked:
            plan.append((old.id, line, True))
            continue
        if given is not None and old is not None:
            conflicts.add(f"players.{index}.id", f"player {given} is registered otherwise: {old.name}", code=codes.PLAYER_CONFLICT)
            continue
        if given is not None and given in assigned:
            conflicts.add(f"players.{index}.id", f"player {given} is on an earlier line", code=codes.PLAYER_CONFLICT)
            continue
        name_problems(line["name"], f"players.{index}.name", others, refused, similar)
        player_id = given if given is not None else id_from_name(line["name"], taken)
        assigned.add(player_id)
        taken.add(player_id)
        others.append((player_id, line["name"]))
        plan.append((player_id, line, False))
    refused.raise_if_any("The players cannot be registered; see errors (players.N is the list's line N, from 0).")
    added = sum(1 for _, _, old in plan if not old)
    if added and len(rows) + added > MAX_EVENT_PLAYERS:
        conflicts.add(
            "players",
            f"the event holds {len(rows)} players and {added} more are asked; an event registers {MAX_EVENT_PLAYERS} at most",
            code=codes.PLAYER_CONFLICT,
        )
    if conflicts:
        raise Conflict("Some players contradict the event's registrations; see errors.", conflicts.items, code=codes.PLAYER_CONFLICT)
    if not allow_similar:
        raise_similar(similar)
    return plan

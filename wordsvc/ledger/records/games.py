"""Games (tables): seating a table of an event, and reading it with its rounds and totals.

A table is seated once: the same players again is a no-op answered with
the receipt of the entry that seated it, different players a 409. Names
are checked as a reader would (no two the same without case, no mixed
scripts, none that look alike), and every table of a duplicate event seats
as many players, so each seat gets the same cards.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, insert, select

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest, Problems
from ...core.names import confusable_pairs
from ...data.names import mixed_script, skeleton
from .._db.canonical import canonical, now
from .._db.schema import games
from ..errors import Conflict, NotFound
from ..integrity.receipts import Appended
from .access import require_director, require_read
from .principals import Principal
from .rounds import current_totals, history, round_view, running
from .store import Store, check_id, refuse_if_closed

__all__ = ["Games"]


class Games:
    """Seating and reading an event's tables."""

    def __init__(self, store: Store):
        self.store = store

    def put_game(self, actor: Principal | None, event_id: str, game_id: str, players: Sequence[str]) -> tuple[bool, dict[str, Any]]:
        """Seat a table; ``(created, game)``. The same players again is a no-op; different players are a 409."""
        store = self.store
        event = store.event_row(event_id)
        actor = require_director(actor, event_id)
        check_id(game_id, "game")
        ruleset = store.ruleset(event)
        problems = Problems()
        if not ruleset.players_min <= len(players) <= ruleset.players_max:
            problems.add(
                "players", f"{len(players)} player(s); ruleset {ruleset.id} is for {ruleset.players_min} to {ruleset.players_max}", code=codes.PLAYER_COUNT
            )
        seen: dict[str, int] = {}  # by name without case: "Ann" and "ann" at one table is a slip, not two players
        for i, name in enumerate(players):
            key = name.casefold()
            if key in seen:
                problems.add(
                    f"players.{i}", f"duplicate player name {name!r} (also seat {seen[key]}; names are compared without case)", code=codes.DUPLICATE_NAME
                )
            seen.setdefault(key, i)
            mixed = mixed_script(name)
            if mixed:
                problems.add(
                    f"players.{i}",
                    f"{name!r} mixes scripts a reader cannot tell apart ({', '.join(sorted(s.title() for s in mixed))})",
                    code=codes.MIXED_SCRIPTS,
                )
        for i, j in confusable_pairs(players, skeleton):
            if players[i].casefold() != players[j].casefold():  # the same name twice is said above
                problems.add(
                    f"players.{j}",
                    f"{players[j]!r} looks like {players[i]!r} (seat {i}): give players names people can tell apart",
                    code=codes.NAMES_LOOK_ALIKE,
                )
        problems.raise_if_any("The table cannot be seated; see errors.")

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            row = store.game_row(conn, event_id, game_id)
            if row is None and event.duplicate:
                seated = {len(json.loads(text)) for (text,) in conn.execute(select(games.c.players_json).where(games.c.event_id == event_id))}
                if seated and seated != {len(players)}:
                    raise InvalidRequest(
                        f"Every table of duplicate event {event_id} seats {seated.pop()} players, so that each seat gets the same cards.",
                        {"players": ["must be as many as at the other tables"]},
                        code=codes.PLAYER_COUNT,
                    )
            if row is None:
                refuse_if_closed(conn, event_id, "no more tables can be seated")
                conn.execute(insert(games).values(event_id=event_id, id=game_id, players_json=canonical(list(players)), created_at=now()))
                return store.append(conn, event_id, actor, "game.created", {"game": game_id, "players": list(players)})
            if json.loads(row.players_json) != list(players):
                raise Conflict(
                    f"Table {game_id} of event {event_id} is seated with other players: {', '.join(json.loads(row.players_json))}.",
                    {"players": ["differ from the stored seating"]},
                    code=codes.TABLE_CONFLICT,
                )
            return store.receipts.find(conn, event_id, ("game.created",), lambda p: p.get("game") == game_id)  # seated before: that entry's receipt

        done = store.writer.run(event_id, work)
        return isinstance(done, Appended), {**self.game(actor, event_id, game_id), "receipt": store.receipt(event_id, done)}

    def game(self, actor: Principal | None, event_id: str, game_id: str) -> dict[str, Any]:
        """A table: its players, every round's current revision, and the totals."""
        store = self.store
        event = store.event_row(event_id)
        require_read(actor, event_id, event.private)
        with store.engine.connect() as conn:
            row = store.game_row(conn, event_id, game_id)
            if row is None:
                raise NotFound(
                    f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]}, code=codes.TABLE_NOT_FOUND
                )
            revs = history(conn, event_id, game_id)
        players = json.loads(row.players_json)
        totals = current_totals(revs)
        receipts = store.receipts.round_receipts(event_id, game_id)
        rounds = [round_view(event_id, game_id, players, revs[n], totals, n, receipts) for n in sorted(revs)]
        return {"event": event_id, "id": game_id, "players": players, "rounds": rounds, "totals": running(players, totals, None)}

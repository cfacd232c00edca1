"""Ratings across events: read from the stored games of every closed, public, rated event, never stored (docs/ratings.md).

A player carries a rating id across events; each closed event's complete
session games update the ratings of the rated players at each table, in
the order the events closed (:func:`wordsvc.core.ratings.ratings`); a
hosted game with a bot seat is left out. Nothing
holds a rating: every read recomputes them, so a correction, an exclusion
or an import shows at once, and anyone with the exports can recompute
them. A private event's games stay out (its games are read only with its
tokens); a director may leave an event out (``POST /events/{e}/rated``, audited).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select, update

from ...core import problem_codes as codes
from ...core.ratings import RATING_SYSTEM, RatedEvent, ratings
from .._db.schema import events, players
from ..errors import NotFound
from ..integrity.receipts import Appended
from ..records.access import require_director
from ..records.principals import Principal
from ..records.store import Store, check_id
from .tournament_standings import bot_seats, complete_games

__all__ = ["Ratings"]


class Ratings:
    """The ratings of every rated player, and a director's choice to leave an event out."""

    def __init__(self, store: Store):
        self.store = store

    def set_rated(self, actor: Principal | None, event_id: str, rated: bool, reason: str) -> dict[str, Any]:
        """Count the event in the ratings or leave it out (audited, with the reason); the same choice again changes nothing.

        Allowed after the close too: it changes the ladder, not the event's results.
        """
        self.store.event_row(event_id)
        actor = require_director(actor, event_id)

        def work(conn: Connection) -> Appended | tuple[int, str] | None:
            now_rated = bool(conn.execute(select(events.c.rated).where(events.c.id == event_id)).scalar_one())
            if now_rated == rated:
                return self.store.receipts.find(conn, event_id, ("ratings.changed",), lambda p: p.get("rated") == rated)
            conn.execute(update(events).where(events.c.id == event_id).values(rated=rated))
            return self.store.append(conn, event_id, actor, "ratings.changed", {"rated": rated, "reason": reason})

        done = self.store.writer.run(event_id, work)
        return {"event": event_id, "rated": rated, "receipt": self.store.receipt(event_id, done)}

    def ratings(self) -> dict[str, Any]:
        """Every rated player's rating, best first (ties by id), without the histories."""
        table = self._computed()
        lines = sorted(table.values(), key=lambda line: (-line["rating"], line["id"]))
        return {"system": RATING_SYSTEM, "ratings": [{key: value for key, value in line.items() if key != "history"} for line in lines]}

    def rating(self, rating_id: str) -> dict[str, Any]:
        """One player's rating with its value after each event."""
        check_id(rating_id, "rating_id")
        line = self._computed().get(rating_id)
        if line is None:
            raise NotFound(f"No rated games for rating id {rating_id!r}.", {"rating_id": [f"no rated games for {rating_id!r}"]}, code=codes.RATING_NOT_FOUND)
        return line

    def _computed(self) -> dict[str, dict[str, Any]]:
        with self.store.engine.connect() as conn:
            return ratings(self._events(conn))

    def _events(self, conn: Connection) -> list[RatedEvent]:
        """The closed, public, rated events with rated players, each game as (rating id, score) pairs of its rated players."""
        rows = conn.execute(
            select(events.c.id, events.c.closed_at)
            .where(events.c.status == "closed", events.c.private.is_(False), events.c.rated.is_(True))
            .order_by(events.c.closed_at, events.c.id)
        ).all()
        out = []
        for row in rows:
            rated = dict(conn.execute(select(players.c.id, players.c.rating_id).where(players.c.event_id == row.id, players.c.rating_id.is_not(None))).all())
            if not rated:
                continue
            rounds = len(self.store.ruleset(self.store.event_row(row.id)).rounds)
            played, with_bots = [], bot_seats(conn, row.id)
            for game in complete_games(conn, row.id, rounds):
                if game.table in with_bots:  # a game with a bot seat is never rated (docs/ratings.md)
                    continue
                scores = tuple((rated[player], score) for player, score in game.scores if player in rated)
                if len(scores) >= 2:
                    played.append(scores)
            if played:
                out.append(RatedEvent(row.id, row.closed_at, tuple(played)))
        return out

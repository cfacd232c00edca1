"""A seeded event's deals: the cards the service deals a table, and the check of them after the reveal (docs/deals.md, section 8).

:class:`Deals` deals round ``n`` of a table from the event's secret seed
(:func:`~wordsvc.core.deal.deal`) and says who may see it when: a referee
of the table once the round before is stored, a director at any time,
anyone who may read the event once it is closed and the seed revealed.

:func:`verify_deals` (``wordsvc deal verify EXPORT``) checks, from an
export alone: its audit chain and rows verify; the revealed seed is the
one committed to at creation; and every round's stored deal digest (and
deal id) is the deal the seed, the table and the round give.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import bindparam, select

from ...core import problem_codes as codes
from ...core.deal import Deal, DealError, commitment, deal, table_seed
from ...core.errors import InvalidRequest
from ...data.rulesets import ruleset_from_document
from .._db.prepared import Prepared
from .._db.schema import events
from ..errors import Conflict, Forbidden, NotFound
from ..integrity.audit import Records, verify
from .access import require_read, require_referee
from .principals import Principal
from .store import BRIEF, Store

__all__ = ["Deals", "verify_deals"]


class Deals:
    """The deals of seeded events, from their secret seeds."""

    def __init__(self, store: Store):
        self.store = store

    def round_deal(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        """The cards a seeded event deals a table in round ``number`` (docs/deals.md).

        Before the event is closed: a referee of the table gets the round once
        the round before it is stored (round 1 at once), a director any
        round, nobody else anything; the deal id (which holds the table's
        seed) is left out. After closing: anyone who may read the event, with
        the deal id.
        """
        store = self.store
        event = store.event_row(event_id)
        if event.private:
            require_read(actor, event_id, True)  # who may not read a private event learns nothing of it, not even whether it deals
        if event.deals != "seeded":
            raise NotFound(
                f'Event {event_id} has no seeded deals; it was created without "deals": "seeded".', {"event": ["no seeded deals"]}, code=codes.DEALS_NOT_FOUND
            )
        closed = event.status == "closed"
        if closed:
            require_read(actor, event_id, event.private)
        else:
            actor = require_referee(actor, event_id, game_id)
        with store.engine.connect() as conn:
            game = store.game_row(conn, event_id, game_id)
            if game is None:
                raise NotFound(
                    f"Event {event_id} has no table {game_id!r}.", {"game": [f"no table {game_id!r} in event {event_id}"]}, code=codes.TABLE_NOT_FOUND
                )
            played = {row.round for row in BRIEF.all(conn, {"event": event_id, "game": game_id})}
        if not closed and actor.role == "referee" and number > 1 and number - 1 not in played:
            raise Forbidden(
                f"Round {number} is dealt once round {number - 1} of table {game_id} is stored; a director may ask sooner.",
                {"round": ["not yet"]},
                code=codes.NOT_YET,
            )
        players = json.loads(game.players_json)
        try:
            dealt = self.deal(event, game_id, len(players), number)
        except DealError as err:
            raise InvalidRequest(f"No deal: {err}.", {err.field: [str(err)]}, code=codes.INVALID_DEAL) from None
        view = {
            "event": event_id,
            "game": game_id,
            "round": number,
            "dealer": dealt.dealer,
            "seats": [{"player": name, "hand": [face.upper() for face in hand]} for name, hand in zip(players, dealt.hands, strict=True)],
            "face_up": dealt.face_up.upper(),
            "draw_pile": [face.upper() for face in dealt.draw_pile],
            "digest": dealt.digest(),
            "deal_id": dealt.id if closed else None,
        }
        return view

    def deal(self, event: Any, game_id: str, players: int, number: int) -> Deal:
        """Round ``number`` of a table of a seeded event, from the event's secret seed (docs/deals.md, section 8)."""
        seed = self.store.readers.read(lambda reader: SEED.first(reader, {"event": event.id}))[0]
        if seed is None:  # imported from an export taken before the reveal, which leaves the seed out
            raise Conflict(f"Event {event.id} was imported without its seed (exported while open): it cannot deal.", {"event": ["no seed"]}, code=codes.NO_SEED)
        return deal(self.store.ruleset(event), players, number, table_seed(seed, None if event.duplicate else game_id))

    def view(self, event: Any) -> dict[str, Any]:
        """An event's deals as its view shows them: the seed (of its deals and its random seatings) only once the event is closed."""
        seed = None
        if event.status == "closed":
            seed = self.store.readers.read(lambda reader: SEED.first(reader, {"event": event.id}))[0]
        return {"mode": event.deals, "duplicate": bool(event.duplicate), "commitment": event.deal_commitment, "seed": seed}


def verify_deals(records: Records) -> tuple[list[str], int]:
    """``(problems, deals checked)``: the first problem first; no problems means every deal is the seed's."""
    problems = verify(records)
    if problems:
        return problems, 0
    event: dict[str, Any] = records.event
    if event.get("deals") != "seeded":
        return [f"event {event['id']}: it was not created with seeded deals"], 0
    seed = event.get("deal_seed")
    if event.get("status") != "closed" or not seed:
        return [f"event {event['id']}: its seed is not revealed yet (a director closes the event to reveal it)"], 0
    if commitment(seed) != event.get("deal_commitment"):
        return [f"event {event['id']}: the revealed seed does not match the commitment published at creation"], 0
    ruleset = ruleset_from_document(event["ruleset_id"], event["ruleset"])
    seats = {game["id"]: len(game["players"]) for game in records.games}
    checked = 0
    for row in records.revisions:
        where = f"revision {row['revision']} of game {row['game']} round {row['round']}"
        try:
            dealt = deal(ruleset, seats[row["game"]], row["round"], table_seed(seed, None if event.get("duplicate") else row["game"]))
        except (DealError, KeyError) as err:
            problems.append(f"{where}: no deal: {err}")
            continue
        if dealt.digest() != row.get("deal_digest"):
            problems.append(f"{where}: its deal digest is not the deal the seed gives")
        elif row.get("deal_id") not in (None, dealt.id):
            problems.append(f"{where}: its deal id is not the deal the seed gives")
        checked += 1
    return problems, checked


#: The event's secret seed (``None`` until it is drawn, or when an import left it out).
SEED = Prepared(select(events.c.deal_seed).where(events.c.id == bindparam("event")))

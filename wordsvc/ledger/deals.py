"""Checking a seeded event's deals after the reveal: ``wordsvc deal verify EXPORT`` (docs/deals.md, section 8).

From an export alone: its audit chain and rows verify; the revealed seed is
the one committed to at creation; and every round's stored deal digest (and
deal id) is the deal the seed, the table and the round give.
"""

from __future__ import annotations

from typing import Any

from ..core.deal import DealError, commitment, deal, table_seed
from ..data.rulesets import ruleset_from_document
from .audit import Records, verify

__all__ = ["verify_deals"]


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

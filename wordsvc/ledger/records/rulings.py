"""Judge rulings: a referee asks whether a table's words are acceptable under the event's snapshot, and the ruling is audited.

The answer says acceptable or not, how many words, and under which
ruleset and lexicon; never which word failed (docs/api.md, judge mode).
The words asked are kept in the audit entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

from ...core import problem_codes as codes
from ...core.errors import Problems
from ...core.verdict import judge
from ..integrity.receipts import Appended
from .access import require_judge
from .principals import Principal
from .store import Store, refuse_if_closed

__all__ = ["Rulings"]


class Rulings:
    """Judge mode, recorded."""

    def __init__(self, store: Store):
        self.store = store

    def judge(self, actor: Principal | None, event_id: str, table: str, round_number: int, words: Sequence[str]) -> dict[str, Any]:
        """Judge mode under the event's snapshot, recorded: acceptable or not, how many words, the lexicon; never which word."""
        store = self.store
        event = store.event_row(event_id)
        actor = require_judge(actor, event_id, table)
        ruleset = store.ruleset(event)
        problems = Problems()
        with store.engine.connect() as conn:
            if store.game_row(conn, event_id, table) is None:
                problems.add("table", f"no table {table!r} in event {event_id}", code=codes.TABLE_NOT_FOUND)
        if not 1 <= round_number <= len(ruleset.rounds):
            problems.add("round", f"must be between 1 and {len(ruleset.rounds)} in ruleset {ruleset.id}", code=codes.ROUND_OUT_OF_RANGE)
        problems.raise_if_any("The ruling cannot be recorded; see errors.")
        lexicon = store.event_lexicon(event)
        acceptable = all(judge(word, ruleset, lexicon).valid for word in words)
        ruling = {"acceptable": acceptable, "count": len(words), "ruleset": event.ruleset_id, "lexicon": lexicon.info.stamp()}
        payload = {"table": table, "round": round_number, "words": list(words), **ruling}

        def work(conn: Connection) -> Appended:
            refuse_if_closed(conn, event_id, "its play, and its rulings, are over")
            return store.append(conn, event_id, actor, "judge.ruling", payload)

        appended = store.writer.run(event_id, work)
        return {**ruling, "table": table, "round": round_number, "audit_seq": appended.seq, "receipt": store.receipts.of_write(event_id, appended)}

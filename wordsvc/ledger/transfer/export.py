"""Transfer: an event exported as one JSON document, and an export imported into another ledger.

An export holds everything needed to rebuild the event elsewhere (its row,
tables, every revision, its tokens without secrets or hashes, and its whole
audit chain, each entry with its signature) with the signed head of the
entries it holds; the seed and the deal ids, which hold it, only once the
event is closed. An export, like a checkpoint, is refused while the log ends
with an entry the service did not sign (:mod:`..integrity.entry_signatures`).

An import is refused unless every row is one a write could have stored
(:func:`~wordsvc.ledger.transfer.imports.check_import`), the chain and rows verify
(:func:`~wordsvc.ledger.integrity.audit.verify`), the export's own checkpoint, when it
has one, is the head of exactly its entries (and signed, when it names a key
this service trusts), and every entry signed by such a key verifies. It
keeps the entries as they are, so receipts taken before the export hold
against the new ledger; its ``event.imported`` entry, signed here, vouches
for the entries before it.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import Connection, insert, select

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.ids import EXPORT_FORMAT
from .._db.canonical import canonical
from .._db.plays import play_from_document
from .._db.schema import audit, events, games, players, revisions, schedules, seats, sessions, tokens
from ..errors import Conflict
from ..integrity.audit import Records, verify
from ..integrity.entry_signatures import signature_problem
from ..integrity.receipt_check import export_checkpoint_problems
from ..integrity.receipts import Appended, tree_root
from ..records.access import require_admin, require_director
from ..records.events import Events
from ..records.principals import Principal
from ..records.store import INSERT_REVISION, Store, audit_row, check_id, entry_of
from ..records.tokens import Tokens, token_view
from .imports import check_import, check_shape, records_from

__all__ = ["EXPORT_FORMAT", "Transfer", "records_of"]


class Transfer:
    """Export and import of whole events."""

    def __init__(self, store: Store, tokens: Tokens, events: Events):
        self.store = store
        self.tokens = tokens
        self.events = events

    def export(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        """Everything needed to rebuild the event elsewhere, as one JSON document (no token secrets or hashes), with the signed head of
        the entries it holds (a closed event's is its final checkpoint, or one that extends it if tokens changed since)."""
        self.store.event_row(event_id)
        require_director(actor, event_id, "export the event")
        records = self.records(event_id)
        self.store.receipts.trees.vouch.check(event_id, records.audit[-1])  # a head the service did not write is not signed
        root = tree_root([entry["hash"] for entry in records.audit])
        return {
            "format": EXPORT_FORMAT,
            "event": records.event,
            "games": records.games,
            "revisions": records.revisions,
            "tokens": records.tokens,
            "audit": records.audit,
            "players": records.players,
            "sessions": records.sessions,
            "seats": records.seats,
            "schedule": records.schedule,
            "checkpoint": self.store.receipts.signer.checkpoint(event_id, len(records.audit), root),
        }

    def import_event(self, actor: Principal | None, document: dict[str, Any]) -> dict[str, Any]:
        """Rebuild an exported event; refused (422) unless its chain and rows verify, 409 if the id is taken. Gives a new director token."""
        store = self.store
        actor = require_admin(actor)
        records, _ = check_import(document, store.loaded_lexicon)  # every row as a write would have it, every problem at once
        problems = verify(records)
        if problems:
            raise InvalidRequest(f"The export does not verify: {problems[0]}.", {"audit": problems[:50]}, code=codes.EXPORT_UNVERIFIED)
        trusted = store.receipts.signer.trusted
        if document.get("checkpoint") is not None:
            problems = export_checkpoint_problems(document["checkpoint"], records.event["id"], records.audit, trusted)
            if problems:
                raise InvalidRequest(f"The export does not verify: {problems[0]}.", {"checkpoint": problems}, code=codes.EXPORT_UNVERIFIED)
        signed = [entry for entry in records.audit if entry.get("key_id") in trusted]  # another service's signatures cannot be checked here
        problems = [problem for entry in signed if (problem := signature_problem(entry, trusted)) is not None]
        if problems:
            raise InvalidRequest(f"The export does not verify: {problems[0]}.", {"audit": problems[:50]}, code=codes.EXPORT_UNVERIFIED)
        event = records.event
        event_id = event["id"]
        check_id(event_id, "event.id")

        def work(conn: Connection) -> tuple[str, str, Appended]:
            if conn.execute(select(events.c.id).where(events.c.id == event_id)).first() is not None:
                raise Conflict(f"There is already an event {event_id!r}.", {"event.id": ["taken"]}, code=codes.EVENT_EXISTS)
            conn.execute(insert(events).values(event_row_of(event)))
            for p in records.players:
                conn.execute(insert(players).values(event_id=event_id, **{key: p[key] for key in _PLAYER_KEYS}))
            for k in records.sessions:
                conn.execute(
                    insert(sessions).values(
                        event_id=event_id,
                        number=k["number"],
                        request_json=canonical(k["request"]),
                        draws=k["draws"],
                        unfinished=k["unfinished"],
                        created_at=k["created_at"],
                    )
                )
            for game in records.games:
                conn.execute(
                    insert(games).values(
                        event_id=event_id, id=game["id"], players_json=canonical(game["players"]), created_at=game["created_at"], session=game.get("session")
                    )
                )
            for seat in records.seats:
                conn.execute(
                    insert(seats).values(event_id=event_id, session=seat["session"], player_id=seat["player"], game_id=seat["game"], seat=seat["seat"])
                )
            if records.schedule is not None:
                conn.execute(insert(schedules).values(event_id=event_id, document_json=canonical(records.schedule), created_at=records.schedule["created_at"]))
            for r in records.revisions:
                INSERT_REVISION.execute(
                    conn,
                    {
                        "event_id": event_id,
                        "game_id": r["game"],
                        "round": r["round"],
                        "revision": r["revision"],
                        "body_json": canonical(r["body"]),
                        "body_sha256": r["body_sha256"],
                        "result_json": canonical(r["result"]),
                        "totals_json": canonical(_totals_of(r["result"])),
                        "reason": r.get("reason"),
                        "actor": r["actor"],
                        "created_at": r["created_at"],
                        "deal_digest": r.get("deal_digest"),
                        "deal_id": r.get("deal_id"),
                    },
                )
            for e in records.audit:
                conn.execute(insert(audit).values(audit_row(e)))
            store.append(conn, event_id, actor, "event.imported", {"entries": len(records.audit), "head": records.audit[-1]["hash"]}, decision=True)
            return self.tokens.issue_director(conn, event_id, actor)

        return self.events.with_director(event_id, store.writer.run(event_id, work))

    def records(self, event_id: str, reveal: bool = False) -> Records:
        """The event as an export holds it; the seed and the deal ids (which hold it) only once the event is closed, or with ``reveal``."""
        with self.store.engine.connect() as conn:
            row = conn.execute(select(events).where(events.c.id == event_id)).one()
            game_rows = conn.execute(select(games).where(games.c.event_id == event_id).order_by(games.c.created_at, games.c.id)).all()
            rev_rows = conn.execute(
                select(revisions).where(revisions.c.event_id == event_id).order_by(revisions.c.game_id, revisions.c.round, revisions.c.revision)
            ).all()
            token_rows = conn.execute(select(tokens).where(tokens.c.event_id == event_id).order_by(tokens.c.created_at, tokens.c.id)).all()
            player_rows = conn.execute(select(players).where(players.c.event_id == event_id).order_by(players.c.id)).all()
            session_rows = conn.execute(select(sessions).where(sessions.c.event_id == event_id).order_by(sessions.c.number)).all()
            seat_rows = conn.execute(select(seats).where(seats.c.event_id == event_id).order_by(seats.c.session, seats.c.game_id, seats.c.seat)).all()
            schedule_row = conn.execute(select(schedules).where(schedules.c.event_id == event_id)).first()
            audit_rows = conn.execute(select(audit).where(audit.c.chain == event_id).order_by(audit.c.seq)).all()
        return Records(
            event={
                "id": row.id,
                "name": row.name,
                "private": bool(row.private),
                "ruleset_id": row.ruleset_id,
                "ruleset": json.loads(row.ruleset_json),
                "ruleset_sha256": row.ruleset_sha256,
                "lexicon": json.loads(row.lexicon_json),
                "created_at": row.created_at,
                "deals": row.deals,
                "duplicate": bool(row.duplicate),
                "deal_commitment": row.deal_commitment,
                "status": row.status,
                "deal_seed": row.deal_seed if row.status == "closed" or reveal else None,
                **({"format": json.loads(row.format_json)} if row.format_json else {}),
                "rated": bool(row.rated),
            },
            games=[{"id": g.id, "players": json.loads(g.players_json), "created_at": g.created_at, "session": g.session} for g in game_rows],
            revisions=[
                {
                    "game": r.game_id,
                    "round": r.round,
                    "revision": r.revision,
                    "body": json.loads(r.body_json),
                    "body_sha256": r.body_sha256,
                    "result": json.loads(r.result_json),
                    "totals": json.loads(r.totals_json),
                    "reason": r.reason,
                    "actor": r.actor,
                    "created_at": r.created_at,
                    "deal_digest": r.deal_digest,
                    "deal_id": r.deal_id if row.status == "closed" or reveal else None,
                }
                for r in rev_rows
            ],
            tokens=[token_view(t) for t in token_rows],
            audit=[entry_of(a) for a in audit_rows],
            players=[{key: getattr(p, key) for key in _PLAYER_KEYS} | {"checked_in": bool(p.checked_in)} for p in player_rows],
            sessions=[
                {"number": k.number, "request": json.loads(k.request_json), "draws": k.draws, "unfinished": bool(k.unfinished), "created_at": k.created_at}
                for k in session_rows
            ],
            seats=[{"session": t.session, "player": t.player_id, "game": t.game_id, "seat": t.seat} for t in seat_rows],
            schedule={**json.loads(schedule_row.document_json), "created_at": schedule_row.created_at} if schedule_row else None,
        )


def event_row_of(event: dict[str, Any]) -> dict[str, Any]:
    """An exported event as the row an import stores."""
    return {
        "id": event["id"],
        "name": event["name"],
        "private": event["private"],
        "ruleset_id": event["ruleset_id"],
        "ruleset_json": canonical(event["ruleset"]),
        "ruleset_sha256": event["ruleset_sha256"],
        "lexicon_json": canonical(event["lexicon"]),
        "created_at": event["created_at"],
        "deals": event.get("deals", "none"),
        "duplicate": event.get("duplicate", False),
        "deal_seed": event.get("deal_seed"),
        "deal_commitment": event.get("deal_commitment"),
        "status": event.get("status", "open"),
        "format_json": canonical(event["format"]) if event.get("format") is not None else None,
        "rated": event.get("rated", True),
    }


#: A player row's columns as an export names them.
_PLAYER_KEYS = ("id", "name", "club", "rating_id", "checked_in", "joined", "withdrawn", "created_at")


def records_of(document: Any) -> Records:
    """An export document as :class:`Records`, or a 422 naming what is missing."""
    check_shape(document)
    try:
        records = records_from(document)
        for row in records.revisions:
            play_from_document(row["body"], row["round"])  # a body must read back as a play
        _ = [records.event[k] for k in ("id", "name", "private", "ruleset_id", "ruleset", "ruleset_sha256", "lexicon", "created_at")]
        _ = [(g["id"], g["players"], g["created_at"]) for g in records.games]
        _ = [(r["game"], r["revision"], r["body_sha256"], r["result"], r["actor"], r["created_at"]) for r in records.revisions]
    except (KeyError, TypeError, AttributeError) as err:
        what = f"the field {err.args[0]!r}" if isinstance(err, KeyError) and err.args else "a field"
        raise InvalidRequest(
            f"The export document is incomplete: {what} is missing or malformed.", {"body": [f"{what} is missing or malformed"]}, code=codes.INVALID_EXPORT
        ) from None
    return records


def _totals_of(result: dict[str, Any]) -> dict[str, int]:
    """A round result's totals by player: what standings and running totals add up (audit verify holds them to the result)."""
    return {p["name"]: p["total"] for p in result["players"]}

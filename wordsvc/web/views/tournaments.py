"""A tournament over HTTP: players, sessions and their seating, the schedule, standings across sessions, the crosstable (docs/tournaments.md).

Like :mod:`.events`, this module maps HTTP onto the ledger, which decides
what each role may do; a write's token is checked before its body is read.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, jsonify, request

from ...core.standings.crosstable import CROSSTABLE_COLUMNS, crosstable_rows
from ...ledger import canonical, require_director
from ...schemas.tournaments import CsvQuery, PlayerBody, RatedBody, ScheduleBody, SessionBody, SwapBody
from ..requests import query_args, read_json
from .events import CHECKPOINT_HEADER, spreadsheet_text
from .ledger_access import ledger, principal, writer

__all__ = ["bp", "csv_response", "wants_csv"]

bp = Blueprint("tournaments", __name__)

PLAYER_BODY, SESSION_BODY, SWAP_BODY, SCHEDULE_BODY, RATED_BODY, CSV_QUERY = PlayerBody(), SessionBody(), SwapBody(), ScheduleBody(), RatedBody(), CsvQuery()


def _answer(created: bool, view: dict[str, Any], location: str) -> Response:
    response = jsonify(view)
    if created:
        response.status_code = 201
        response.headers["Location"] = location
    return response


def wants_csv(asked: str | None) -> bool:
    """CSV when ``format=csv``, or when no format is named and the Accept header prefers text/csv."""
    if asked is not None:
        return asked == "csv"
    return request.accept_mimetypes.best_match(["application/json", "text/csv"]) == "text/csv"


def csv_response(rows: list[list[Any]], filename: str, checkpoint: dict[str, Any] | None = None) -> Response:
    """``rows`` (a header first) as a CSV download; text cells a spreadsheet could run as a formula are defused."""
    out = io.StringIO()
    sheet = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        sheet.writerow([spreadsheet_text(cell) if isinstance(cell, str) else cell for cell in row])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    if checkpoint is not None:
        response.headers[CHECKPOINT_HEADER] = canonical(checkpoint)
    return response


# --- players ------------------------------------------------------------------------------------------


@bp.put("/events/<event:event>/players/<player>")
def put_player(event: str, player: str) -> Response:
    actor = require_director(writer(), event)
    body = PLAYER_BODY.load(read_json())
    created, view = ledger().register_player(actor, event, player, body["name"], body["club"], body["rating_id"], body["checked_in"])
    return _answer(created, view, f"/events/{event}/players/{player}")


@bp.get("/events/<event:event>/players")
def list_players(event: str) -> Response:
    return jsonify(ledger().players(principal(), event))


@bp.post("/events/<event:event>/players/<player>/check-in")
def check_in(event: str, player: str) -> Response:
    return jsonify(ledger().check_in(require_director(writer(), event), event, player))


@bp.post("/events/<event:event>/players/<player>/withdraw")
def withdraw(event: str, player: str) -> Response:
    return jsonify(ledger().withdraw(require_director(writer(), event), event, player))


# --- sessions -----------------------------------------------------------------------------------------


@bp.post("/events/<event:event>/sessions")
def create_session(event: str) -> Response:
    actor = require_director(writer(), event)
    body = SESSION_BODY.load(read_json())
    created, view = ledger().create_session(actor, event, body)
    return _answer(created, view, f"/events/{event}/sessions/{view['number']}")


@bp.get("/events/<event:event>/sessions")
def list_sessions(event: str) -> Response:
    return jsonify(ledger().sessions(principal(), event))


@bp.get("/events/<event:event>/sessions/<int:number>")
def show_session(event: str, number: int) -> Response:
    return jsonify(ledger().session(principal(), event, number))


@bp.post("/events/<event:event>/sessions/<int:number>/swap")
def swap(event: str, number: int) -> Response:
    actor = require_director(writer(), event)
    first, second = SWAP_BODY.load(read_json())["players"]
    return jsonify(ledger().swap(actor, event, number, first, second))


@bp.post("/events/<event:event>/sessions/<int:number>/redraw")
def redraw(event: str, number: int) -> Response:
    return jsonify(ledger().redraw(require_director(writer(), event), event, number))


@bp.post("/events/<event:event>/schedule")
def publish_schedule(event: str) -> Response:
    actor = require_director(writer(), event)
    body = SCHEDULE_BODY.load(read_json())
    created, view = ledger().publish_schedule(actor, event, body["sessions"], body["size"])
    return _answer(created, view, f"/events/{event}/schedule")


@bp.get("/events/<event:event>/schedule")
def show_schedule(event: str) -> Response:
    return jsonify(ledger().schedule(principal(), event))


@bp.post("/events/<event:event>/rated")
def set_rated(event: str) -> Response:
    actor = require_director(writer(), event)
    body = RATED_BODY.load(read_json())
    return jsonify(ledger().set_rated(actor, event, body["rated"], body["reason"]))


# --- standings across sessions ------------------------------------------------------------------------


@bp.get("/events/<event:event>/crosstable")
def crosstable(event: str) -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().crosstable(principal(), event)
    if not wants_csv(query["format"]):
        return jsonify(view)
    rows: list[list[Any]] = [list(CROSSTABLE_COLUMNS), *([row[key] for key in CROSSTABLE_COLUMNS] for row in crosstable_rows(view))]
    return csv_response(rows, f"{event}-crosstable.csv", view["checkpoint"])

"""The ledger over HTTP: ``/events``, their tables, rounds, standings, tokens, judge rulings and audit (docs/ledger.md).

Every view reads its bearer token (``Authorization: Bearer wsv_...``) and
hands the :class:`~wordsvc.ledger.Principal` to the ledger, which decides
what the role may do; this module only maps HTTP onto it: paths, bodies,
``ETag`` and ``If-Match``, CSV for standings. A write's token is checked
before its body is read, so a request without one is a 401 whatever it
sends, and one with the wrong role a 403.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.routing import BaseConverter

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...core.ids import RESERVED_IDS
from ...data.formats import format_document, known_formats
from ...ledger import canonical, require_admin, require_director, require_referee
from ...schemas.events import (
    AuditQuery,
    ConsistencyQuery,
    EventBody,
    GameBody,
    ImportBody,
    JudgeBody,
    ProofQuery,
    RoundSubmission,
    StandingsQuery,
    TokenBody,
    load_round_submission,
)
from ..requests import query_args, read_json, service
from .ledger_access import ledger, principal, writer

__all__ = ["bp", "ledger"]

bp = Blueprint("events", __name__)


class EventId(BaseConverter):
    """An event's path segment: anything but a reserved word (``/events/import`` is the import, never an event)."""

    regex = "(?!(?:" + "|".join(sorted(RESERVED_IDS)) + ")$)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("event", EventId))  # before the routes below are added

EVENT_BODY, GAME_BODY, ROUND_BODY, TOKEN_BODY, JUDGE_BODY = EventBody(), GameBody(), RoundSubmission(), TokenBody(), JudgeBody()
AUDIT_QUERY, STANDINGS_QUERY, IMPORT_BODY, PROOF_QUERY, CONSISTENCY_QUERY = AuditQuery(), StandingsQuery(), ImportBody(), ProofQuery(), ConsistencyQuery()
#: The header of the CSV standings that carries the event's checkpoint (its canonical JSON), leaving the CSV itself as it was.
CHECKPOINT_HEADER = "Wordsvc-Checkpoint"


def tournament_format(format_id: str | None) -> dict[str, Any] | None:
    """The snapshot of the format of formats/ named ``format_id`` (``None``: none named, the default applies); 422 for an unknown one."""
    if format_id is None:
        return None
    known = known_formats()
    if format_id not in known:
        raise InvalidRequest(f"No tournament format {format_id!r}; formats/ has {', '.join(sorted(known))}.", {"format": [f"one of {', '.join(sorted(known))}"]}, code=codes.FORMAT_NOT_FOUND)
    return format_document(known[format_id])


def _created(body: dict[str, Any], location: str) -> Response:
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response


@bp.get("/whoami")
def whoami() -> Response:
    actor = writer()
    return jsonify({"id": actor.token, "role": actor.role, "event": actor.event, "table": actor.table})


@bp.post("/events")
def create_event() -> Response:
    actor = require_admin(writer())
    body = EVENT_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    chosen = tournament_format(body["format"])
    event = ledger().create_event(actor, ruleset, lexicon, body["name"], body["id"], body["private"], body["deals"], body["duplicate"], chosen)
    return _created(event, f"/events/{event['id']}")


@bp.post("/events/import")
def import_event() -> Response:
    actor = require_admin(writer())
    request.max_content_length = max(current_app.extensions["wordsvc.settings"].max_import_body, current_app.config["MAX_CONTENT_LENGTH"])
    document = IMPORT_BODY.load(read_json())
    event = ledger().import_event(actor, document)
    return _created(event, f"/events/{event['id']}")


@bp.get("/events/<event:event>")
def show_event(event: str) -> Response:
    return jsonify(ledger().event(principal(), event))


@bp.put("/events/<event:event>/games/<game>")
def put_game(event: str, game: str) -> Response:
    actor = require_director(writer(), event)
    body = GAME_BODY.load(read_json())
    created, view = ledger().put_game(actor, event, game, body["players"])
    return _created(view, f"/events/{event}/games/{game}") if created else jsonify(view)


@bp.get("/events/<event:event>/games/<game>")
def show_game(event: str, game: str) -> Response:
    return jsonify(ledger().game(principal(), event, game))


@bp.put("/events/<event:event>/games/<game>/rounds/<int:number>")
def put_round(event: str, game: str, number: int) -> Response:
    actor = require_referee(writer(), event, game)  # a correction also needs a director: the ledger checks that once it has read the body
    body = _round_body(number)
    submitted = ledger().submit_round(actor, event, game, number, body["play"], body["correction"], request.headers.get("If-Match"))
    response = jsonify(submitted.round)
    response.status_code = submitted.status
    response.headers["ETag"] = submitted.round["etag"]
    if submitted.status == 201:
        response.headers["Location"] = f"/events/{event}/games/{game}/rounds/{number}"
    return response


@bp.post("/events/<event:event>/games/<game>/rounds/<int:number>/preview")
def preview_round(event: str, game: str, number: int) -> Response:
    actor = require_referee(writer(), event, game)
    body = _round_body(number)
    if body["correction"] is not None:
        raise InvalidRequest("A preview stores nothing, so it has nothing to correct: leave correction out.", {"correction": ["not part of a preview"]}, code=codes.NOT_CORRECTABLE)
    return jsonify(ledger().preview_round(actor, event, game, number, body["play"]))


def _round_body(number: int) -> dict[str, Any]:
    """A submission's body (``play``, ``correction``) for round ``number``: a round named in the body must be the path's."""
    body = load_round_submission(read_json(), ROUND_BODY)
    named = body["play"].round
    if named is not None and named != number:
        raise InvalidRequest(f"The body says round {named}; the path says {number}.", {"round": [f"must be {number}, the round in the path, or left out"]}, code=codes.ROUND_OUT_OF_RANGE)
    return body


@bp.get("/events/<event:event>/games/<game>/rounds/<int:number>")
def show_round(event: str, game: str, number: int) -> Response:
    view = ledger().round(principal(), event, game, number)
    response = jsonify(view)
    response.headers["ETag"] = view["etag"]
    return response


@bp.get("/events/<event:event>/games/<game>/rounds/<int:number>/deal")
def round_deal(event: str, game: str, number: int) -> Response:
    return jsonify(ledger().round_deal(principal(), event, game, number))


@bp.post("/events/<event:event>/close")
def close_event(event: str) -> Response:
    return jsonify(ledger().close_event(require_director(writer(), event, "close the event"), event))


@bp.get("/events/<event:event>/standings")
def standings(event: str) -> Response:
    query = STANDINGS_QUERY.load(query_args())
    table = ledger().standings(principal(), event, query["session"])
    wants_csv = query["format"] == "csv" or (query["format"] is None and request.accept_mimetypes.best_match(["application/json", "text/csv"]) == "text/csv")
    if not wants_csv:
        return jsonify(table)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if "overall" in table:  # a tournament: the ranking across sessions
        writer.writerow(OVERALL_COLUMNS)
        for line in table["overall"]["lines"]:
            writer.writerow([spreadsheet_text(line[key]) if isinstance(line[key], str) else line[key] for key in OVERALL_COLUMNS])
    else:
        writer.writerow(["rank", "player", "table", "rounds", "total"])
        for line in table["standings"]:
            writer.writerow([line["rank"], spreadsheet_text(line["player"]), line["table"], line["rounds"], line["total"]])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{event}-standings.csv"'
    response.headers[CHECKPOINT_HEADER] = canonical(table["checkpoint"])  # ASCII: an event id, digits, hex, a time and base64
    return response


#: The columns of a tournament's CSV standings.
OVERALL_COLUMNS = ("rank", "player", "name", "games", "played", "total", "average", "table_points", "wins", "best_game", "spread", "missed", "qualified", "withdrawn")


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV cell that a spreadsheet shows as text: a leading apostrophe when it would start a formula.

    A player named ``=HYPERLINK(...)`` would otherwise be a live formula in the
    director's spreadsheet (CSV injection); the JSON standings keep the name as seated.
    """
    return "'" + text if text[:1] in _FORMULA_STARTS else text


_FORMULA_STARTS = frozenset("=+-@")  # a name holds no tab or carriage return (control characters are refused)


@bp.get("/events/<event:event>/export")
def export_event(event: str) -> Response:
    return jsonify(ledger().export(principal(), event))


@bp.post("/events/<event:event>/judge")
def judge_play(event: str) -> Response:
    actor = writer()
    body = JUDGE_BODY.load(read_json())
    return jsonify(ledger().judge(actor, event, body["table"], body["round"], body["words"]))


@bp.get("/events/<event:event>/audit")
def audit_log(event: str) -> Response:
    query = AUDIT_QUERY.load(query_args())
    return jsonify(ledger().audit_entries(principal(), event, query["after"], query["limit"]))


@bp.get("/events/<event:event>/checkpoint")
def checkpoint(event: str) -> Response:
    return jsonify(ledger().checkpoint(principal(), event))


@bp.get("/events/<event:event>/proof")
def inclusion_proof(event: str) -> Response:
    query = PROOF_QUERY.load(query_args())
    return jsonify(ledger().inclusion_proof(principal(), event, query["seq"], query["tree_size"]))


@bp.get("/events/<event:event>/consistency")
def consistency_proof(event: str) -> Response:
    query = CONSISTENCY_QUERY.load(query_args())
    return jsonify(ledger().consistency_proof(principal(), event, query["first"], query["second"]))


@bp.post("/events/<event:event>/lexicon")
def accept_lexicon(event: str) -> Response:
    actor = writer()
    return jsonify(ledger().accept_lexicon(actor, event))


@bp.post("/events/<event:event>/tokens")
def issue_token(event: str) -> Response:
    actor = require_director(writer(), event)
    body = TOKEN_BODY.load(read_json())
    issued = ledger().issue_token(actor, event, body["role"], body["table"], body["label"])
    return _created(issued, f"/events/{event}/tokens/{issued['id']}")


@bp.get("/events/<event:event>/tokens")
def list_tokens(event: str) -> Response:
    return jsonify({"tokens": ledger().list_tokens(principal(), event)})


@bp.delete("/events/<event:event>/tokens/<token_id>")
def revoke_token(event: str, token_id: str) -> Response:
    return jsonify(ledger().revoke_token(writer(), event, token_id))

"""Ledger events over HTTP: creating, importing, reading, closing and exporting an event, its standings, lexicon and judge rulings (docs/ledger.md).

Its tables and rounds are in :mod:`.games`, its audit trail in :mod:`.trail`,
tokens in :mod:`.tokens`.

Every view reads its bearer token (``Authorization: Bearer wsv_...``) and
hands the :class:`~wordsvc.ledger.Principal` to the ledger, which decides
what the role may do; these modules only map HTTP onto it: paths, bodies,
``ETag`` and ``If-Match``, CSV for standings. A write's token is checked
before its body is read, so a request without one is a 401 whatever it
sends, and one with the wrong role a 403.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, current_app, jsonify, request

from ...core import problem_codes as codes
from ...core.errors import InvalidRequest
from ...data.formats import format_document, known_formats
from ...ledger import canonical, require_admin, require_director
from ...schemas.events import (
    EventBody,
    EventOut,
    ExportOut,
    ImportBody,
    JudgeBody,
    JudgeRulingOut,
    StandingsOut,
    StandingsQuery,
)
from ..endpoint_codes import CARDS, RESOLVE
from ..endpoints import PUBLIC, TOKEN, Endpoint, Resource
from ..ledger_problems import ACCESS, INTEGRITY, WRITE
from ..parameters import EVENT
from ..requests import query_args, read_json, service
from .ledger_access import created_response, creation_policy, ledger, principal, writer

__all__ = ["bp", "ledger"]

bp = Resource("events", __name__)


EVENT_BODY, JUDGE_BODY, IMPORT_BODY, STANDINGS_QUERY = EventBody(), JudgeBody(), ImportBody(), StandingsQuery()
#: The header of the CSV standings that carries the event's checkpoint (its canonical JSON), leaving the CSV itself as it was.
CHECKPOINT_HEADER = "Wordsvc-Checkpoint"


def tournament_format(format_id: str | None) -> dict[str, Any] | None:
    """The snapshot of the format of formats/ named ``format_id`` (``None``: none named, the default applies); 422 for an unknown one."""
    if format_id is None:
        return None
    known = known_formats()
    if format_id not in known:
        raise InvalidRequest(
            f"No tournament format {format_id!r}; formats/ has {', '.join(sorted(known))}.",
            {"format": [f"one of {', '.join(sorted(known))}"]},
            code=codes.FORMAT_NOT_FOUND,
        )
    return format_document(known[format_id])


@bp.declare(
    Endpoint(
        method="post",
        path="/events",
        operation_id="createEvent",
        tag="ledger",
        summary="Create an event",
        description="Who may create one is the service's policy, WORDSVC_EVENT_CREATION (docs/operations.md): `open` (the default), anyone, "
        "with no token or any token, up to WORDSVC_OPEN_EVENTS events created without an admin token (then 403 `open_events_exhausted`); `admin`, an "
        "admin token only. An admin token creates events under both, uncounted. Snapshots the ruleset and the lexicon stamp; the answer carries the "
        "event's director token, once.",
        body=EventBody,
        answers={201: EventOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=PUBLIC,
        problems=(
            codes.TOKEN_MISSING,
            codes.TOKEN_INVALID,
            codes.ROLE_REQUIRED,
            codes.OPEN_EVENTS_EXHAUSTED,
            codes.INVALID_ID,
            codes.EVENT_EXISTS,
            codes.CONFLICTING_FIELDS,
            codes.FORMAT_NOT_FOUND,
            codes.INVALID_FORMAT,
            codes.NO_WORD_LIST,
            *RESOLVE,
        ),
    )
)
def create_event() -> Response:
    actor, open_limit = creation_policy()  # the token (and the policy) before the body
    body = EVENT_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    chosen = tournament_format(body["format"])
    event = ledger().events.create_event(
        actor, ruleset, lexicon, body["name"], body["id"], body["private"], body["deals"], body["duplicate"], chosen, open_limit
    )
    return created_response(event, f"/events/{event['id']}")


@bp.declare(
    Endpoint(
        method="post",
        path="/events/import",
        operation_id="importEvent",
        tag="ledger",
        summary="Import an event",
        description="Admin token. An export document; refused (422) unless its audit chain and rows verify, its own checkpoint "
        "(when present) is the head of exactly its entries and every round scores as stored; 409 if the id is taken. The answer carries a new director token. "
        "Limits: the body at most WORDSVC_MAX_IMPORT_BODY bytes (16 MiB unless the server sets more; 413 past it) and each list at most 100,000 rows (422). "
        "A larger event moves with `wordsvc event export EVENT -o FILE` and `wordsvc event import FILE` on a machine that reaches the receiving "
        'database (the same checks, no body limit; docs/ledger.md, "Moving an event").',
        body=ImportBody,
        answers={201: EventOut},
        errors=(400, 401, 403, 409, 413, 415, 422),
        access=TOKEN,
        roles=("admin",),
        problems=(
            codes.TOKEN_MISSING,
            codes.TOKEN_INVALID,
            codes.ROLE_REQUIRED,
            codes.INVALID_ID,
            codes.EVENT_EXISTS,
            codes.INVALID_EXPORT,
            codes.EXPORT_UNVERIFIED,
            *INTEGRITY,
            *RESOLVE,
        ),
    )
)
def import_event() -> Response:
    actor = require_admin(writer())
    request.max_content_length = max(current_app.extensions["wordsvc.settings"].max_import_body, current_app.config["MAX_CONTENT_LENGTH"])
    document = IMPORT_BODY.load(read_json())
    event = ledger().transfer.import_event(actor, document)
    return created_response(event, f"/events/{event['id']}")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}",
        operation_id="getEvent",
        tag="ledger",
        summary="An event",
        description="Its ruleset snapshot, lexicon stamp, status and tables.",
        parameters=[EVENT],
        answers={200: EventOut},
        errors=(401, 403, 404),
        access=PUBLIC,
        problems=(*ACCESS,),
    )
)
def show_event(event: str) -> Response:
    return jsonify(ledger().events.event(principal(), event))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/close",
        operation_id="closeEvent",
        tag="ledger",
        summary="Close an event",
        description="Director token. The event is final: no more rounds, tables, judge rulings or lexicon changes (409); a seeded event's seed is revealed (audited).",
        parameters=[EVENT],
        answers={200: EventOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE,),
    )
)
def close_event(event: str) -> Response:
    return jsonify(ledger().events.close_event(require_director(writer(), event, "close the event"), event))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/standings",
        operation_id="getStandings",
        tag="ledger",
        summary="Standings",
        description="Rank, player, table, rounds played, total; equal totals share a rank. CSV with Accept: text/csv or format=csv (a name that would start a spreadsheet formula, with = + - or @, gets a leading apostrophe there).",
        parameters=[EVENT],
        query=StandingsQuery,
        answers={200: StandingsOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
        csv="rank,player,table,rounds,total (a tournament: the overall ranking's columns)",
        headers={
            CHECKPOINT_HEADER: {
                "description": "With text/csv: the event's checkpoint (as in the JSON standings), canonical JSON.",
                "schema": {"type": "string"},
            }
        },
        problems=(*ACCESS, *INTEGRITY, codes.LEXICON_CHANGED, codes.STANDINGS_NOT_YET, codes.SESSION_NOT_FOUND),
    )
)
def standings(event: str) -> Response:
    query = STANDINGS_QUERY.load(query_args())
    table = ledger().standings.standings(principal(), event, query["session"])
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
OVERALL_COLUMNS = (
    "rank",
    "player",
    "name",
    "games",
    "played",
    "total",
    "average",
    "table_points",
    "wins",
    "best_game",
    "spread",
    "missed",
    "qualified",
    "withdrawn",
)


def spreadsheet_text(text: str) -> str:
    """``text`` for a CSV cell that a spreadsheet shows as text: a leading apostrophe when it would start a formula.

    A player named ``=HYPERLINK(...)`` would otherwise be a live formula in the
    director's spreadsheet (CSV injection); the JSON standings keep the name as seated.
    """
    return "'" + text if text[:1] in _FORMULA_STARTS else text


_FORMULA_STARTS = frozenset("=+-@")  # a name holds no tab or carriage return (control characters are refused)


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/export",
        operation_id="exportEvent",
        tag="ledger",
        summary="Export an event",
        description="Director token. Everything needed to rebuild the event elsewhere (no token secrets).",
        parameters=[EVENT],
        answers={200: ExportOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*ACCESS, *INTEGRITY, codes.LEXICON_CHANGED),
    )
)
def export_event(event: str) -> Response:
    return jsonify(ledger().transfer.export(principal(), event))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/judge",
        operation_id="recordJudgeRuling",
        tag="ledger",
        summary="A recorded judge ruling",
        description="Kiosk, referee or director token. Acceptable or not, the count and the lexicon, never which word; recorded in the audit.",
        parameters=[EVENT],
        body=JudgeBody,
        answers={200: JudgeRulingOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("kiosk", "referee", "director"),
        problems=(*WRITE, *RESOLVE, *CARDS, codes.TABLE_NOT_FOUND, codes.ROUND_OUT_OF_RANGE, codes.EMPTY_WORD, codes.NO_WORD_LIST),
    )
)
def judge_play(event: str) -> Response:
    actor = writer()
    body = JUDGE_BODY.load(read_json())
    return jsonify(ledger().rulings.judge(actor, event, body["table"], body["round"], body["words"]))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/lexicon",
        operation_id="acceptLexicon",
        tag="ledger",
        summary="Accept the loaded lexicon",
        description="Director token. Moves the event to the lexicon the service has loaded now (audited); 409 if the event is closed.",
        parameters=[EVENT],
        answers={200: EventOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *INTEGRITY),
    )
)
def accept_lexicon(event: str) -> Response:
    actor = writer()
    return jsonify(ledger().events.accept_lexicon(actor, event))

"""A tournament over HTTP: players, sessions and their seating, the schedule, standings across sessions, the crosstable (docs/tournaments.md).

Like :mod:`.events`, this module maps HTTP onto the ledger, which decides
what each role may do; a write's token is checked before its body is read.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Response, jsonify, request

from ...core import problem_codes as codes
from ...core.standings.crosstable import CROSSTABLE_COLUMNS, crosstable_rows
from ...ledger import canonical, require_director
from ...schemas.tournaments import (
    CheckInBody,
    CrosstableOut,
    CsvQuery,
    EventPlayerListOut,
    EventPlayerOut,
    PlayerBody,
    PlayerDeletedOut,
    PlayersBody,
    RatedBody,
    RatedOut,
    ScheduleBody,
    ScheduleOut,
    SessionBody,
    SessionListOut,
    SessionOut,
    SwapBody,
)
from ..endpoints import PUBLIC, TOKEN, Endpoint, Resource
from ..ledger_problems import ACCESS, INTEGRITY, PLAYERS, ROUNDS, SESSIONS, WRITE
from ..parameters import EVENT, PLAYER, SESSION
from ..requests import query_args, read_json
from .events import CHECKPOINT_HEADER, spreadsheet_text
from .ledger_access import ledger, principal, writer

__all__ = ["bp", "csv_response", "wants_csv"]

bp = Resource("tournaments", __name__)

PLAYER_BODY, SESSION_BODY, SWAP_BODY, SCHEDULE_BODY, RATED_BODY, CSV_QUERY = PlayerBody(), SessionBody(), SwapBody(), ScheduleBody(), RatedBody(), CsvQuery()
PLAYERS_BODY, CHECK_IN_BODY = PlayersBody(), CheckInBody()


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


@bp.declare(
    Endpoint(
        method="put",
        path="/events/{event}/players/{player}",
        operation_id="registerPlayer",
        tag="tournaments",
        summary="Register a player",
        description="Director token. The id, display name, club and rating id; 201 the first time, 200 for the same body again, 409 for another. Registered after "
        "the first session, a player enters from the next session (a late entry). Names as for tables: no duplicates or look-alikes; a name that is another's once "
        "accents and case are set aside (Zoe, Zoë) is a 409 `names_similar` naming both, registered with `allow_similar: true`.",
        parameters=[EVENT, PLAYER],
        body=PlayerBody,
        answers={201: EventPlayerOut, 200: EventPlayerOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *PLAYERS, codes.INVALID_ID, codes.NAMES_SIMILAR),
    )
)
def put_player(event: str, player: str) -> Response:
    actor = require_director(writer(), event)
    body = PLAYER_BODY.load(read_json())
    created, view = ledger().players.register(actor, event, player, body["name"], body["club"], body["rating_id"], body["checked_in"], body["allow_similar"])
    return _answer(created, view, f"/events/{event}/players/{player}")


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/players",
        operation_id="registerPlayers",
        tag="tournaments",
        summary="Register a list of players",
        description="Director token. All of them or none: each line at fault is named by its index (`players.3.name`). A line without an id gets one made "
        "from the name (accents off, þ as th, unique in the event: `zoe-martin`, `zoe-martin-2`). A line registered already (its id, or its exact name, with "
        "the same club and rating id) is that player, so a retry writes nothing: 201 when a player was added, else 200. One audit entry per player added. "
        "Names another's once accents and case are set aside (Zoe, Zoë) are a 409 `names_similar` listing each pair, registered with `allow_similar: true`; "
        "duplicates and look-alikes a reader cannot tell apart are a 422.",
        parameters=[EVENT],
        body=PlayersBody,
        answers={201: EventPlayerListOut, 200: EventPlayerListOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *PLAYERS, codes.NAMES_SIMILAR),
    )
)
def post_players(event: str) -> Response:
    actor = require_director(writer(), event)
    body = PLAYERS_BODY.load(read_json())
    created, view = ledger().registration.register_many(actor, event, body["players"], body["allow_similar"])
    return _answer(created, view, f"/events/{event}/players")


@bp.declare(
    Endpoint(
        method="delete",
        path="/events/{event}/players/{player}",
        operation_id="deletePlayer",
        tag="tournaments",
        summary="Delete a registration that has no games",
        description="Director token. Only a player never seated and not in the published schedule: else a 409 `player_has_games` (withdraw instead). "
        "Audited (`player.deleted`); the player leaves the list, the standings, the display and the documents. Again: a 200 with the first receipt.",
        parameters=[EVENT, PLAYER],
        answers={200: PlayerDeletedOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.PLAYER_NOT_FOUND, codes.PLAYER_HAS_GAMES),
    )
)
def delete_player(event: str, player: str) -> Response:
    return jsonify(ledger().players.delete(require_director(writer(), event), event, player))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/check-in",
        operation_id="checkInPlayers",
        tag="tournaments",
        summary="Check in many players",
        description="Director token. `players`: the ids ticked; or `all: true`: every player registered, not checked in and not withdrawn. All or none (an "
        "unknown id is a 422 naming its index); one audit entry per player checked in now, as the one-player check-in writes; the answer lists them. "
        "Checked in once a session is seated, a player enters from the next one (a late entry).",
        parameters=[EVENT],
        body=CheckInBody,
        answers={200: EventPlayerListOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.PLAYER_NOT_FOUND, codes.CONFLICTING_FIELDS),
    )
)
def check_in_players(event: str) -> Response:
    actor = require_director(writer(), event)
    body = CHECK_IN_BODY.load(read_json())
    return jsonify(ledger().players.check_in_many(actor, event, None if body["all"] else body["players"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/players",
        operation_id="listPlayers",
        tag="tournaments",
        summary="The event's players",
        description="Every registered player, checked in or not, withdrawn or not.",
        parameters=[EVENT],
        answers={200: EventPlayerListOut},
        errors=(401, 403, 404),
        access=PUBLIC,
        problems=(*ACCESS,),
    )
)
def list_players(event: str) -> Response:
    return jsonify(ledger().players.players(principal(), event))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/players/{player}/check-in",
        operation_id="checkInPlayer",
        tag="tournaments",
        summary="Check a player in",
        description="Director token. Audited; again is a 200 with the first receipt.",
        parameters=[EVENT, PLAYER],
        answers={200: EventPlayerOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.PLAYER_NOT_FOUND, codes.PLAYER_CONFLICT),
    )
)
def check_in(event: str, player: str) -> Response:
    return jsonify(ledger().players.check_in(require_director(writer(), event), event, player))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/players/{player}/withdraw",
        operation_id="withdrawPlayer",
        tag="tournaments",
        summary="Withdraw a player",
        description="Director token. From the next session on: past games stay in the standings. Audited; again is a 200.",
        parameters=[EVENT, PLAYER],
        answers={200: EventPlayerOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.PLAYER_NOT_FOUND, codes.PLAYER_CONFLICT),
    )
)
def withdraw(event: str, player: str) -> Response:
    return jsonify(ledger().players.withdraw(require_director(writer(), event), event, player))


# --- sessions -----------------------------------------------------------------------------------------


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/sessions",
        operation_id="createSession",
        tag="tournaments",
        summary="Seat the next session",
        description="Director token. Seats every active player at tables within the ruleset's range by the method asked (docs/seating.md). 409 while the "
        "session before has tables with rounds missing, unless `unfinished: allow`. `number` names the session: a retry of the same request is a 200, never a second session.",
        parameters=[EVENT],
        body=SessionBody,
        answers={201: SessionOut, 200: SessionOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *SESSIONS, *PLAYERS),
    )
)
def create_session(event: str) -> Response:
    actor = require_director(writer(), event)
    body = SESSION_BODY.load(read_json())
    created, view = ledger().sessions.create(actor, event, body)
    return _answer(created, view, f"/events/{event}/sessions/{view['number']}")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/sessions",
        operation_id="listSessions",
        tag="tournaments",
        summary="The event's sessions",
        description="Each session's tables, seats and repeat meetings.",
        parameters=[EVENT],
        answers={200: SessionListOut},
        errors=(401, 403, 404),
        access=PUBLIC,
        problems=(*ACCESS,),
    )
)
def list_sessions(event: str) -> Response:
    return jsonify(ledger().sessions.sessions(principal(), event))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/sessions/{session}",
        operation_id="getSession",
        tag="tournaments",
        summary="A session",
        description="Its tables in seat order, whether it started and whether it is complete.",
        parameters=[EVENT, SESSION],
        answers={200: SessionOut},
        errors=(401, 403, 404),
        access=PUBLIC,
        problems=(*ACCESS, codes.SESSION_NOT_FOUND),
    )
)
def show_session(event: str, session: int) -> Response:
    return jsonify(ledger().sessions.session(principal(), event, session))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/sessions/{session}/swap",
        operation_id="swapPlayers",
        tag="tournaments",
        summary="Swap two players",
        description="Director token. The two exchange seats; 409 once a round of the session is stored.",
        parameters=[EVENT, SESSION],
        body=SwapBody,
        answers={200: SessionOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *SESSIONS, *PLAYERS, *ROUNDS),
    )
)
def swap(event: str, session: int) -> Response:
    actor = require_director(writer(), event)
    first, second = SWAP_BODY.load(read_json())["players"]
    return jsonify(ledger().sessions.swap(actor, event, session, first, second))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/sessions/{session}/redraw",
        operation_id="redrawSession",
        tag="tournaments",
        summary="Draw a session again",
        description="Director token. The same method and sizes again, a new draw for random; 409 once a round of the session is stored.",
        parameters=[EVENT, SESSION],
        answers={200: SessionOut},
        errors=(401, 403, 404, 409, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *SESSIONS, *ROUNDS),
    )
)
def redraw(event: str, session: int) -> Response:
    return jsonify(ledger().sessions.redraw(require_director(writer(), event), event, session))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/schedule",
        operation_id="publishSchedule",
        tag="tournaments",
        summary="Publish a schedule",
        description="Director token. The whole schedule for the checked-in players over `sessions` sessions, every pair meeting as evenly as possible; "
        "before the first session; the same request again is a 200.",
        parameters=[EVENT],
        body=ScheduleBody,
        answers={201: ScheduleOut, 200: ScheduleOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, *SESSIONS, *PLAYERS),
    )
)
def publish_schedule(event: str) -> Response:
    actor = require_director(writer(), event)
    body = SCHEDULE_BODY.load(read_json())
    created, view = ledger().sessions.publish_schedule(actor, event, body["sessions"], body["size"])
    return _answer(created, view, f"/events/{event}/schedule")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/schedule",
        operation_id="getSchedule",
        tag="tournaments",
        summary="The published schedule",
        description="404 when none is published.",
        parameters=[EVENT],
        answers={200: ScheduleOut},
        errors=(401, 403, 404),
        access=PUBLIC,
        problems=(*ACCESS, codes.SCHEDULE_NOT_FOUND),
    )
)
def show_schedule(event: str) -> Response:
    return jsonify(ledger().sessions.schedule(principal(), event))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/rated",
        operation_id="setRated",
        tag="tournaments",
        summary="Rate an event or not",
        description="Director token. `rated: false` leaves the event out of the ratings (audited, with a reason).",
        parameters=[EVENT],
        body=RatedBody,
        answers={200: RatedOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.CONFLICTING_FIELDS),
    )
)
def set_rated(event: str) -> Response:
    actor = require_director(writer(), event)
    body = RATED_BODY.load(read_json())
    return jsonify(ledger().ratings.set_rated(actor, event, body["rated"], body["reason"]))


# --- standings across sessions ------------------------------------------------------------------------


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/crosstable",
        operation_id="getCrosstable",
        tag="tournaments",
        summary="The crosstable",
        description="Who met whom, at which table, with what result. CSV with Accept: text/csv or format=csv.",
        parameters=[EVENT],
        query=CsvQuery,
        answers={200: CrosstableOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
        csv="player,opponent,session,table,score,opponent_score,result",
        problems=(*ACCESS, *INTEGRITY, codes.LEXICON_CHANGED, codes.STANDINGS_NOT_YET),
    )
)
def crosstable(event: str) -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().tournament_standings.crosstable(principal(), event)
    if not wants_csv(query["format"]):
        return jsonify(view)
    rows: list[list[Any]] = [list(CROSSTABLE_COLUMNS), *([row[key] for key in CROSSTABLE_COLUMNS] for row in crosstable_rows(view))]
    return csv_response(rows, f"{event}-crosstable.csv", view["checkpoint"])

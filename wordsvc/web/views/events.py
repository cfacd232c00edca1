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

from flask import Response, current_app, jsonify, request
from werkzeug.routing import BaseConverter

from ...core.errors import InvalidRequest
from ...core.ids import RESERVED_IDS
from ...data.formats import format_document, known_formats
from ...ledger import canonical, require_admin, require_director, require_referee
from ...schemas.events import (
    AuditOut,
    AuditQuery,
    CheckpointOut,
    ConsistencyProofOut,
    ConsistencyQuery,
    EventBody,
    EventOut,
    ExportOut,
    GameBody,
    GameOut,
    ImportBody,
    InclusionProofOut,
    IssuedTokenOut,
    JudgeBody,
    JudgeRulingOut,
    PreviewOut,
    ProofQuery,
    RoundDealOut,
    RoundDetailOut,
    RoundOut,
    RoundSubmission,
    StandingsOut,
    StandingsQuery,
    TokenBody,
    TokenListOut,
    TokenOut,
    WhoamiOut,
    load_round_submission,
)
from ..endpoints import PUBLIC, TOKEN, Endpoint, Resource
from ..parameters import EVENT, GAME, IF_MATCH, ROUND
from ..requests import query_args, read_json, service
from .ledger_access import ledger, principal, writer

__all__ = ["bp", "ledger"]

bp = Resource("events", __name__)


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
        raise InvalidRequest(f"No tournament format {format_id!r}; formats/ has {', '.join(sorted(known))}.", {"format": [f"one of {', '.join(sorted(known))}"]})
    return format_document(known[format_id])


def _created(body: dict[str, Any], location: str) -> Response:
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response


@bp.declare(
    Endpoint(
        method="get",
        path="/whoami",
        operation_id="whoami",
        tag="ledger",
        summary="Who a token is",
        description="Any live token: its id, role, event and table (never the token). 401 without one.",
        answers={200: WhoamiOut},
        errors=(401,),
        access=TOKEN,
    )
)
def whoami() -> Response:
    actor = writer()
    return jsonify({"id": actor.token, "role": actor.role, "event": actor.event, "table": actor.table})


@bp.declare(
    Endpoint(
        method="post",
        path="/events",
        operation_id="createEvent",
        tag="ledger",
        summary="Create an event",
        description="Admin token. Snapshots the ruleset and the lexicon stamp; the answer carries the event's director token, once.",
        body=EventBody,
        answers={201: EventOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("admin",),
    )
)
def create_event() -> Response:
    actor = require_admin(writer())
    body = EVENT_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    chosen = tournament_format(body["format"])
    event = ledger().events.create_event(actor, ruleset, lexicon, body["name"], body["id"], body["private"], body["deals"], body["duplicate"], chosen)
    return _created(event, f"/events/{event['id']}")


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
     "database (the same checks, no body limit; docs/ledger.md, \"Moving an event\").",
        body=ImportBody,
        answers={201: EventOut},
        errors=(400, 401, 403, 409, 413, 415, 422),
        access=TOKEN,
        roles=("admin",),
    )
)
def import_event() -> Response:
    actor = require_admin(writer())
    request.max_content_length = max(current_app.extensions["wordsvc.settings"].max_import_body, current_app.config["MAX_CONTENT_LENGTH"])
    document = IMPORT_BODY.load(read_json())
    event = ledger().transfer.import_event(actor, document)
    return _created(event, f"/events/{event['id']}")


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
    )
)
def show_event(event: str) -> Response:
    return jsonify(ledger().events.event(principal(), event))


@bp.declare(
    Endpoint(
        method="put",
        path="/events/{event}/games/{game}",
        operation_id="seatTable",
        tag="ledger",
        summary="Seat a table",
        description="Director token. Players in seat order; 201 the first time, 200 for the same players again, 409 for others.",
        parameters=[EVENT, GAME],
        body=GameBody,
        answers={201: GameOut, 200: GameOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
    )
)
def put_game(event: str, game: str) -> Response:
    actor = require_director(writer(), event)
    body = GAME_BODY.load(read_json())
    created, view = ledger().games.put_game(actor, event, game, body["players"])
    return _created(view, f"/events/{event}/games/{game}") if created else jsonify(view)


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}",
        operation_id="getTable",
        tag="ledger",
        summary="A table",
        description="Each round's current revision, result and running totals; the table's totals.",
        parameters=[EVENT, GAME],
        answers={200: GameOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
    )
)
def show_game(event: str, game: str) -> Response:
    return jsonify(ledger().games.game(principal(), event, game))


@bp.declare(
    Endpoint(
        method="put",
        path="/events/{event}/games/{game}/rounds/{round}",
        operation_id="submitRound",
        tag="ledger",
        summary="Submit a round",
        description="Referee or director token. The body of /score-round without ruleset or language. First time 201; the same play again 200 with the stored result; "
     "another play 409, unless a director sends `correction` with If-Match: the round's ETag (a stale one is 412, none is 428).",
        parameters=[EVENT, GAME, ROUND, IF_MATCH],
        body=RoundSubmission,
        answers={201: RoundOut, 200: RoundOut},
        errors=(400, 401, 403, 404, 409, 412, 413, 415, 422, 428),
        access=TOKEN,
        roles=("referee", "director"),
    )
)
def put_round(event: str, game: str, round: int) -> Response:
    actor = require_referee(writer(), event, game)  # a correction also needs a director: the ledger checks that once it has read the body
    body = _round_body(round)
    submitted = ledger().rounds.submit_round(actor, event, game, round, body["play"], body["correction"], request.headers.get("If-Match"))
    response = jsonify(submitted.round)
    response.status_code = submitted.status
    response.headers["ETag"] = submitted.round["etag"]
    if submitted.status == 201:
        response.headers["Location"] = f"/events/{event}/games/{game}/rounds/{round}"
    return response


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/rounds/{round}/preview",
        operation_id="previewRound",
        tag="ledger",
        summary="Preview a round",
        description="Referee or director token. The submission's body without `correction`: every check a submission makes, the result under the event's snapshot "
     "and the running totals with it; nothing is stored or audited.",
        parameters=[EVENT, GAME, ROUND],
        body=RoundSubmission,
        answers={200: PreviewOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("referee", "director"),
    )
)
def preview_round(event: str, game: str, round: int) -> Response:
    actor = require_referee(writer(), event, game)
    body = _round_body(round)
    if body["correction"] is not None:
        raise InvalidRequest("A preview stores nothing, so it has nothing to correct: leave correction out.", {"correction": ["not part of a preview"]})
    return jsonify(ledger().rounds.preview_round(actor, event, game, round, body["play"]))


def _round_body(number: int) -> dict[str, Any]:
    """A submission's body (``play``, ``correction``) for round ``number``: a round named in the body must be the path's."""
    body = load_round_submission(read_json(), ROUND_BODY)
    named = body["play"].round
    if named is not None and named != number:
        raise InvalidRequest(f"The body says round {named}; the path says {number}.", {"round": [f"must be {number}, the round in the path, or left out"]})
    return body


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/rounds/{round}",
        operation_id="getRound",
        tag="ledger",
        summary="A round",
        description="Its current revision with ETag, running totals and every revision kept.",
        parameters=[EVENT, GAME, ROUND],
        answers={200: RoundDetailOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
    )
)
def show_round(event: str, game: str, round: int) -> Response:
    view = ledger().rounds.round(principal(), event, game, round)
    response = jsonify(view)
    response.headers["ETag"] = view["etag"]
    return response


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/rounds/{round}/deal",
        operation_id="getRoundDeal",
        tag="ledger",
        summary="A seeded event's deal",
        description="The round's cards by seat, face-up card and draw pile (docs/deals.md). Before the event is closed: the table's referee once the round "
     "before is stored, a director at any time; after closing: anyone who may read the event, with the deal id.",
        parameters=[EVENT, GAME, ROUND],
        answers={200: RoundDealOut},
        errors=(401, 403, 404, 422),
        access=PUBLIC,
    )
)
def round_deal(event: str, game: str, round: int) -> Response:
    return jsonify(ledger().deals.round_deal(principal(), event, game, round))


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
        headers={CHECKPOINT_HEADER: {"description": "With text/csv: the event's checkpoint (as in the JSON standings), canonical JSON.", "schema": {"type": "string"}}},
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
OVERALL_COLUMNS = ("rank", "player", "name", "games", "played", "total", "average", "table_points", "wins", "best_game", "spread", "missed", "qualified", "withdrawn")


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
        description="Referee or director token. Acceptable or not, the count and the lexicon, never which word; recorded in the audit.",
        parameters=[EVENT],
        body=JudgeBody,
        answers={200: JudgeRulingOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("referee", "director"),
    )
)
def judge_play(event: str) -> Response:
    actor = writer()
    body = JUDGE_BODY.load(read_json())
    return jsonify(ledger().rulings.judge(actor, event, body["table"], body["round"], body["words"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/audit",
        operation_id="getAudit",
        tag="ledger",
        summary="The audit trail",
        description="Append-only, hash-chained entries of every write; `wordsvc audit verify` recomputes the chain.",
        parameters=[EVENT],
        query=AuditQuery,
        answers={200: AuditOut},
        errors=(400, 401, 403, 404, 422),
        access=PUBLIC,
    )
)
def audit_log(event: str) -> Response:
    query = AUDIT_QUERY.load(query_args())
    return jsonify(ledger().trail.audit_entries(principal(), event, query["after"], query["limit"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/checkpoint",
        operation_id="getCheckpoint",
        tag="ledger",
        summary="The event's signed head",
        description="How many audit entries the event's log holds, their RFC 9162 Merkle root and the time, signed with the service's Ed25519 key (unsigned, "
     "`signature` null, without WORDSVC_LEDGER_KEY_FILE). Keep it: a later log must extend it (docs/ledger.md). 409 if the chain has a gap, or ends "
     "with an entry the service did not sign: then every answer that would sign a head, and every write, is a 409 until an operator decides "
     "(`wordsvc audit accept`).",
        parameters=[EVENT],
        answers={200: CheckpointOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
    )
)
def checkpoint(event: str) -> Response:
    return jsonify(ledger().trail.checkpoint(principal(), event))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/proof",
        operation_id="getInclusionProof",
        tag="ledger",
        summary="An entry's inclusion proof",
        description="That audit entry `seq` is in the tree of the log's first `tree_size` entries (default: all): the entry's hash, that tree's root and the "
     "RFC 9162 audit path. 422 for a seq past tree_size or a tree_size past the log (a log shorter than a receipt's tree lost entries).",
        parameters=[EVENT],
        query=ProofQuery,
        answers={200: InclusionProofOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
    )
)
def inclusion_proof(event: str) -> Response:
    query = PROOF_QUERY.load(query_args())
    return jsonify(ledger().trail.inclusion_proof(principal(), event, query["seq"], query["tree_size"]))


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/consistency",
        operation_id="getConsistencyProof",
        tag="ledger",
        summary="A consistency proof",
        description="That the tree of the log's first `from` entries (a checkpoint's tree_size) is the start of the tree of its first `to` (default: all): "
     "both roots and the RFC 9162 proof. 422 for from past to or to past the log.",
        parameters=[EVENT],
        query=ConsistencyQuery,
        answers={200: ConsistencyProofOut},
        errors=(400, 401, 403, 404, 409, 422),
        access=PUBLIC,
    )
)
def consistency_proof(event: str) -> Response:
    query = CONSISTENCY_QUERY.load(query_args())
    return jsonify(ledger().trail.consistency_proof(principal(), event, query["first"], query["second"]))


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
    )
)
def accept_lexicon(event: str) -> Response:
    actor = writer()
    return jsonify(ledger().events.accept_lexicon(actor, event))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/tokens",
        operation_id="issueToken",
        tag="ledger",
        summary="Issue a token",
        description="Director token. A director, referee (optionally for one table) or viewer token, shown once.",
        parameters=[EVENT],
        body=TokenBody,
        answers={201: IssuedTokenOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
    )
)
def issue_token(event: str) -> Response:
    actor = require_director(writer(), event)
    body = TOKEN_BODY.load(read_json())
    issued = ledger().tokens.issue_token(actor, event, body["role"], body["table"], body["label"])
    return _created(issued, f"/events/{event}/tokens/{issued['id']}")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/tokens",
        operation_id="listTokens",
        tag="ledger",
        summary="The event's tokens",
        description="Director token. Ids, roles, tables, revocation; never a secret.",
        parameters=[EVENT],
        answers={200: TokenListOut},
        errors=(401, 403, 404),
        access=TOKEN,
        roles=("director",),
    )
)
def list_tokens(event: str) -> Response:
    return jsonify({"tokens": ledger().tokens.list_tokens(principal(), event)})


@bp.declare(
    Endpoint(
        method="delete",
        path="/events/{event}/tokens/{token_id}",
        operation_id="revokeToken",
        tag="ledger",
        summary="Revoke a token",
        description="Director token.",
        parameters=[EVENT, {"name": "token_id", "in": "path", "required": True, "description": "The token's id.", "schema": {"type": "string"}}],
        answers={200: TokenOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("director",),
    )
)
def revoke_token(event: str, token_id: str) -> Response:
    return jsonify(ledger().tokens.revoke_token(writer(), event, token_id))

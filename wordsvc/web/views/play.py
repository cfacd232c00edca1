"""Hosted games over HTTP (docs/play.md): a table created, a seat taken, the state read, moves sent, the table's stream, the log.

Every body and every stream message a viewer gets is built by the one
projection, :mod:`wordsvc.core.play.views`: a seat's token (role
``player``) sees its hand, anyone else the spectator's view. The seat is
the token's: a move names no seat. As every ledger view: the token first,
then the body.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, g, jsonify, request

from ...core import problem_codes as codes
from ...core.play import REFUSALS, Knobs, move_from_dict
from ...core.play.verify import game_log
from ...i18n import render
from ...ledger import Forbidden, Principal
from ...ledger.hosting.plays import IllegalPlay, StaleMove
from ...ledger.hosting.setup import TableSetup
from ...ledger.hosting.tables import check_setup
from ...schemas.play import CreatedTableOut, LogOut, MoveBody, MovedOut, PlayOut, SeatBody, SeatTakenOut, TableBody, TableOut, TablesOut
from ...schemas.stream import StreamQuery
from ...server.hosting import hosting_of
from ..endpoint_codes import RESOLVE
from ..endpoints import PUBLIC, TOKEN, Endpoint, Resource
from ..ledger_problems import ACCESS, WRITE
from ..openapi_schemas import EVENT_STREAM
from ..parameters import EVENT, GAME, LAST_EVENT_ID
from ..problems import problem
from ..requests import query_args, read_json, service
from .ledger_access import created_response, creation_policy, ledger, principal, writer
from .play_bots import play_bots
from .stream import RETRY_MS, last_event_id, message, watch_ledger

__all__ = ["bp", "changed"]

bp = Resource("play", __name__)
TABLE_BODY, SEAT_BODY, MOVE_BODY, STREAM_QUERY = TableBody(), SeatBody(), MoveBody(), StreamQuery()
_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: The codes a move can be refused with (422), the engine's first.
MOVE_CODES = (*REFUSALS, codes.MOVE_MALFORMED)
_TABLE = (codes.NOT_HOSTED, codes.GAME_NOT_STARTED, codes.LEXICON_CHANGED)


@bp.declare(
    Endpoint(
        method="post",
        path="/tables",
        operation_id="createTable",
        tag="play",
        summary="Create a hosted table",
        description="A one-table event whose table the server deals and referees (docs/play.md). Who may create one is WORDSVC_EVENT_CREATION's, "
        "as for `POST /events`. Seats: how many; `bots`: the seats the server's bots take, with their levels. The answer carries the event's director "
        "token, once, and the commitment to the server seed. A table with a bot is never rated.",
        body=TableBody,
        answers={201: CreatedTableOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=PUBLIC,
        problems=(
            codes.TOKEN_MISSING,
            codes.TOKEN_INVALID,
            codes.ROLE_REQUIRED,
            codes.OPEN_EVENTS_EXHAUSTED,
            codes.INVALID_ID,
            codes.EVENT_EXISTS,
            codes.PLAYER_COUNT,
            codes.NO_SUCH_SEAT,
            codes.NO_WORD_LIST,
            *RESOLVE,
        ),
    )
)
def create_table() -> Response:
    actor, open_limit = creation_policy()  # the token (and the policy) before the body
    body = TABLE_BODY.load(read_json())
    ruleset, lexicon = service().resolve(body["ruleset"], body["lang"])
    bots = {bot["seat"]: bot["level"] for bot in body["bots"]}
    setup = TableSetup(body["seats"], bots, Knobs(**body["knobs"]), body["clock"], body["rated"] and not bots, body["public"])
    check_setup(ruleset, setup)  # before the event is made: a table that cannot be played makes no event
    book = ledger()
    event = book.events.create_event(
        actor, ruleset, lexicon, body["name"] or f"Table {body['id'] or ''}".strip(), body["id"], not body["public"], open_limit=open_limit
    )
    director = book.tokens.authenticate(event["director_token"]["token"])
    if not setup.rated:
        book.ratings.set_rated(director, event["id"], False, "a casual hosted table" if not bots else "a hosted table with a bot")
    table = book.tables.create(director, event["id"], "table", setup)
    play_bots().nudge(event["id"], "table", changed())
    return created_response({**table, "director_token": event["director_token"]}, f"/events/{event['id']}/games/table/play")


@bp.declare(
    Endpoint(
        method="get",
        path="/tables",
        operation_id="listTables",
        tag="play",
        summary="Public tables waiting for players",
        description="Newest first, at most 100.",
        answers={200: TablesOut},
        access=PUBLIC,
        problems=(),
    )
)
def list_tables() -> Response:
    return jsonify({"tables": ledger().tables.open_tables()})


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/play",
        operation_id="getPlay",
        tag="play",
        summary="A hosted table and its game, as you may see it",
        description="The table (setup, seats, commitment; the server seed once the game is over) and `state`, the game as the requester may see it: "
        "a seat's token sees its own hand, anyone else the spectator's view (counts, the discard pile's top, the words laid, the scores). "
        "`ETag` is the state's `seq`, the move count a move quotes. A private event needs a token of the event.",
        parameters=[EVENT, GAME],
        answers={200: PlayOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*ACCESS, *_TABLE, codes.NOT_A_SEAT),
    )
)
def show_play(event: str, game: str) -> Response:
    actor = principal()
    book = ledger()
    play_bots().wake(changed())
    table = book.tables.table(actor, event, game)
    seat = book.tables.seat_of(actor, event, game)
    if seat is not None:
        book.tables.seen(event, game, seat)
    started = table["status"] == "playing" or table["status"] == "over" or (table["status"] == "aborted" and table.get("seed"))
    state = book.plays.view(seat, event, game) if started else None
    response = jsonify({**table, "state": state})
    if state is not None:
        response.headers["ETag"] = f'"{state["seq"]}"'
    return response


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/seats",
        operation_id="takeSeat",
        tag="play",
        summary="Take a seat",
        description="A public table's open seat, for anyone; a private table's, for its director (who hands the token on). The answer carries the seat's "
        "bearer token, once: it plays the seat and reads its hand. `nonce` is mixed into the game's seed. The game starts when the last seat is taken.",
        parameters=[EVENT, GAME],
        body=SeatBody,
        answers={201: SeatTakenOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=PUBLIC,
        problems=(*WRITE, codes.NOT_HOSTED, codes.TABLE_FULL, codes.SEAT_TAKEN, codes.NAME_TAKEN, codes.NO_SUCH_SEAT),
    )
)
def take_seat(event: str, game: str) -> Response:
    actor = principal()
    body = SEAT_BODY.load(read_json())
    taken = ledger().tables.sit(actor, event, game, body["seat"], body["name"], body["nonce"], body["bot"])
    play_bots().nudge(event, game, changed())
    return created_response(taken, f"/events/{event}/games/{game}/play")


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/moves",
        operation_id="playMove",
        tag="play",
        summary="Play a move",
        description="Seat token. `seq`: the state's move count the move was chosen in (409 `stale_move` with the current `state` if another move "
        "came first); `move_id`: the client's id (a retry is answered, never applied twice); `move`: `draw`, `take`, `discard` (`card`), `go_out` "
        "(`words`, `discard`), `lay_down` (`words`, `discard` or null), `challenge` (`player`, `word`) or `pass`, cards named by face. A move the rules "
        "refuse is a 422 whose code names the rule, in the requester's language; nothing changes.",
        parameters=[EVENT, GAME],
        body=MoveBody,
        answers={200: MovedOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("player",),
        problems=(*WRITE, *_TABLE, codes.NOT_A_SEAT, codes.STALE_MOVE, codes.MOVE_ID_REUSED, codes.GAME_ENDED, codes.SEAT_HANDED_OVER, *MOVE_CODES),
    )
)
def play_move(event: str, game: str) -> Response:
    actor = writer()
    book = ledger()
    seat = book.tables.seat_of(actor, event, game)
    if seat is None:
        raise _not_a_seat(game)
    body = MOVE_BODY.load(read_json())
    try:
        played = book.plays.move(actor, seat, event, game, body["seq"], body["move_id"], body["move"])
    except StaleMove as stale:
        return _with(problem(409, stale.detail, stale.problems, g.locale, code=stale.code), "state", stale.state)
    except IllegalPlay as refused:
        text = render(f"refusal.{refused.refusal.code}", g.locale)
        answer = problem(422, text, {"move": [text]}, g.locale, code=refused.refusal.code)
        return _with(answer, "refusal", refused.refusal.details)
    play_bots().nudge(event, game, changed())
    response = jsonify({"seq": played.seq, "repeat": played.repeat, "state": played.state})
    response.headers["ETag"] = f'"{played.state["seq"]}"'
    return response


def _not_a_seat(game: str) -> Forbidden:
    return Forbidden(f"Moves at table {game} need the token of one of its seats.", {"authorization": ["needs a seat of this table"]}, code=codes.NOT_A_SEAT)


def _with(response: Response, member: str, value: object) -> Response:
    """A problem answer with one more member (RFC 9457's extension members): a stale move's ``state``, a refusal's details."""
    body = json.loads(response.get_data())
    body[member] = value
    response.set_data(json.dumps(body, ensure_ascii=False))
    return response


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/play/log",
        operation_id="getPlayLog",
        tag="play",
        summary="A hosted game's moves",
        description="Every move as a spectator saw it, in order; once the game is over, `log` is the whole game log (card ids, the server seed, the "
        "nonces) that anyone can replay and check (`wordsvc verify-game`, docs/play.md).",
        parameters=[EVENT, GAME],
        answers={200: LogOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*ACCESS, *_TABLE),
    )
)
def show_log(event: str, game: str) -> Response:
    book = ledger()
    table = book.tables.table(principal(), event, game)
    moves = book.plays.public_moves(event, game)
    log = None
    if table["status"] == "over":
        played = book.plays.game(event, game)
        log = game_log(
            played.state, [move_from_dict(m) for m in book.plays.moves_of(event, game)], played.ruleset,
            commitment=table["commitment"], server_seed=table["server_seed"], nonces=[s["nonce"] or "" for s in table["seats"]],
        )  # fmt: skip
    return jsonify({"event": event, "game": game, "moves": moves, "log": log})


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/games/{game}/play/stream",
        operation_id="getPlayStream",
        tag="play",
        summary="A hosted table's events, pushed (Server-Sent Events)",
        description="The event stream (docs/streams.md) of one table: `ready`, then `play.seated`, `play.started`, `move` (each move as the requester "
        "may see it: a seat's own draws show the card drawn), `round.stored` and `play.ended`, each with its audit entry's seq as its id. "
        "`Last-Event-ID` (or `?after=`) resumes with nothing missed or repeated.",
        parameters=[EVENT, GAME, LAST_EVENT_ID],
        query=StreamQuery,
        answers={200: EVENT_STREAM},
        errors=(400, 401, 403, 404, 409, 422, 503),
        access=PUBLIC,
        problems=(*ACCESS, codes.NOT_HOSTED, codes.NOT_A_SEAT, codes.LAST_EVENT_ID, codes.TOO_MANY_STREAMS),
    )
)
def play_stream(event: str, game: str) -> Response:
    query = STREAM_QUERY.load(query_args())
    after = last_event_id(request.headers.get("Last-Event-ID"), query["after"])
    book = ledger()
    actor = principal()
    book.tables.table(actor, event, game)
    play_bots().wake(changed())
    seat = book.tables.seat_of(actor, event, game)
    if seat is not None:
        book.tables.seen(event, game, seat)
    head = book.feed.head(actor, event)
    cursor = head if after is None or after > head else after
    parts = [b"retry: %d\n\n" % RETRY_MS, message(cursor, "ready", {"event": event, "game": game, "head": head})]

    def fetch(past: int, keys: frozenset[str]) -> tuple[list[tuple[int, bytes]], int, bool, frozenset[str]]:
        changes = book.feed.read(event, past, keys)
        kept = [(seq, kind, data) for seq, kind, data in changes.messages if data.get("game", data.get("table")) == game]
        if seat is not None:
            drawn = book.plays.drawn(
                event, game, seat, [data["seq"] for _, kind, data in kept if kind == "move" and data["kind"] == "draw" and data["seat"] == seat]
            )
            kept = [
                (seq, kind, {**data, "card": drawn[data["seq"]]} if kind == "move" and data.get("seq") in drawn and data["seat"] == seat else data)
                for seq, kind, data in kept
            ]
        return [(seq, message(seq, kind, data)) for seq, kind, data in kept], changes.cursor, changes.more, changes.revoked

    hosting = hosting_of(request.environ)
    if hosting is None or hosting.changed is None:
        if cursor < head:
            parts += [data for _, data in fetch(cursor, frozenset())[0]]
    else:
        if request.method == "GET":
            watch_ledger(hosting.changed)
        hosting.hold(f"{event} {game} {'spectator' if seat is None else seat}", cursor, fetch, None if actor is None else actor.token)
    return Response(b"".join(parts), 200, _HEADERS, mimetype="text/event-stream")


def _seat_actor(event: str, game: str) -> tuple[Principal, int]:
    """The seat token's principal and seat (403 ``not_a_seat`` for any other token)."""
    actor = writer()
    seat = ledger().tables.seat_of(actor, event, game)
    if seat is None:
        raise _not_a_seat(game)
    return actor, seat


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/resign",
        operation_id="resignSeat",
        tag="play",
        summary="Resign: a bot plays the seat to the end",
        description="Seat token. The seat's player leaves the game: the server's bot plays the seat from now on and the game is the player's forfeit "
        "(`play.handed`). The table as anyone sees it.",
        parameters=[EVENT, GAME],
        answers={200: TableOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("player",),
        problems=(*WRITE, codes.NOT_HOSTED, codes.NOT_A_SEAT, codes.GAME_NOT_STARTED, codes.GAME_ENDED, codes.SEAT_HANDED_OVER),
    )
)
def resign(event: str, game: str) -> Response:
    actor, seat = _seat_actor(event, game)
    table = ledger().endings.resign(actor, seat, event, game)
    play_bots().nudge(event, game, changed())
    return jsonify(table)


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/abort",
        operation_id="abortGame",
        tag="play",
        summary="Abort a game before it has a result",
        description="A seat token of the table, or the event's director. Only before the first round is scored (409 `abort_too_late` after): the game "
        "ends with no result, nothing is rated, and the server seed is revealed.",
        parameters=[EVENT, GAME],
        answers={200: TableOut},
        errors=(401, 403, 404, 409),
        access=PUBLIC,
        problems=(*WRITE, codes.NOT_HOSTED, codes.NOT_A_SEAT, codes.GAME_ENDED, codes.ABORT_TOO_LATE),
    )
)
def abort(event: str, game: str) -> Response:
    return jsonify(ledger().endings.abort(writer(), event, game))


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/rematch",
        operation_id="acceptRematch",
        tag="play",
        summary="Play again",
        description="Seat token. Once the game is over, the first to accept makes the next table (`table` -> `table-2`: the same setup, a new server "
        "seed, every seat one place to the left); each person takes their seat there by accepting, and gets its token, once. The game starts when the "
        "last has accepted.",
        parameters=[EVENT, GAME],
        answers={201: SeatTakenOut},
        errors=(401, 403, 404, 409),
        access=TOKEN,
        roles=("player",),
        problems=(*WRITE, codes.NOT_HOSTED, codes.NOT_A_SEAT, codes.GAME_NOT_OVER, codes.SEAT_HANDED_OVER, codes.SEAT_TAKEN),
    )
)
def rematch(event: str, game: str) -> Response:
    actor, seat = _seat_actor(event, game)
    taken = ledger().endings.rematch(actor, seat, event, game)
    play_bots().nudge(event, taken["table"]["game"], changed())
    return created_response(taken, f"/events/{event}/games/{taken['table']['game']}/play")


def changed() -> Any:
    """This worker's streams' hook, for the bots' moves to reach them at once (``None`` under another server)."""
    hosting = hosting_of(request.environ)
    return None if hosting is None else hosting.changed

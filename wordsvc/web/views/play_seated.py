"""A seated table hosted online, and a seat handed to a bot, over HTTP (docs/play.md, "Seated tables").

A director's requests beside the protocol of :mod:`.play`: host a table
the event has seated (a tournament session's, or one seated by name), which
answers every player's seat token once, for the seat links; issue a seat's
link again (the old one revoked); and hand the seat of a player who has not
come to the server's bot. The table is then
played through the protocol like any other.
"""

from __future__ import annotations

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...core.play import Knobs
from ...schemas.play import HandBody, HostBody, HostedOut, IssuedSeatOut, TableOut
from ..endpoints import TOKEN, Endpoint, Resource
from ..ledger_problems import WRITE
from ..parameters import EVENT, GAME, SEAT
from ..requests import read_json
from .ledger_access import created_response, ledger, writer
from .play import changed
from .play_bots import play_bots

__all__ = ["bp"]

bp = Resource("play_seated", __name__)
HOST_BODY, HAND_BODY = HostBody(), HandBody()


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/host",
        operation_id="hostSeatedTable",
        tag="play",
        summary="Host a seated table online",
        description="Director token. A table the event has seated (a session's, or one seated by name) becomes a hosted table: its players sit in "
        "seat order, each seat reserved for its player, and the answer carries every player's seat token, once, for their seat links. `bots`: "
        "the seats the server's bots play (an absent player's, or seats after the players' for a table short of players); a seat a bot plays "
        "counts for nobody in the standings and ratings, and a game with a bot is never rated. The commitment to the server seed is published "
        "with the table and the game starts at once; each round is stored as the table's round when it is played.",
        parameters=[EVENT, GAME],
        body=HostBody,
        answers={201: HostedOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.TABLE_NOT_FOUND, codes.ALREADY_HOSTED, codes.TABLE_HAS_ROUNDS, codes.NO_SUCH_SEAT, codes.PLAYER_COUNT, codes.NAME_TAKEN),
    )
)
def host_seated(event: str, game: str) -> Response:
    actor = writer()
    body = HOST_BODY.load(read_json())
    bots = {bot["seat"]: bot["level"] for bot in body["bots"]}
    hosted = ledger().seated_tables.host(actor, event, game, bots, Knobs(**body["knobs"]), body["clock"])
    play_bots().nudge(event, game, changed())
    return created_response(hosted, f"/events/{event}/games/{game}/play")


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/seats/{seat}/token",
        operation_id="reissueSeatToken",
        tag="play",
        summary="Issue a seat's link again",
        description="Seat or director token. A person seat's token is revoked (`token.revoked`: its link no longer opens the seat) "
        "and a new one answered, once: for a player whose link was lost, or seen by someone else; with the seat's own token (its own seat only), a device "
        "taking the seat over from another (one device plays a seat at a time). Until the game is over.",
        parameters=[EVENT, GAME, SEAT],
        answers={201: IssuedSeatOut},
        errors=(401, 403, 404, 409, 422),
        access=TOKEN,
        roles=("player", "director"),
        problems=(*WRITE, codes.NOT_HOSTED, codes.GAME_ENDED, codes.NO_SUCH_SEAT, codes.SEAT_HANDED_OVER, codes.NOT_A_SEAT),
    )
)
def reissue_seat_token(event: str, game: str, seat: int) -> Response:
    issued = ledger().seated_tables.reissue(writer(), event, game, seat)
    return created_response(issued, f"/events/{event}/games/{game}/play")


@bp.declare(
    Endpoint(
        method="post",
        path="/events/{event}/games/{game}/play/seats/{seat}/bot",
        operation_id="handSeatToBot",
        tag="play",
        summary="Hand an absent player's seat to a bot",
        description="Director token. The server's bot (`level`, 2 when left out) plays the seat from now on (`handed: absent`); the seat's token "
        "still reads the game but no longer moves (409 `seat_handed_over`). The seat counts for nobody in the standings and ratings: its "
        "player has no game there. The table as anyone sees it.",
        parameters=[EVENT, GAME, SEAT],
        body=HandBody,
        answers={200: TableOut},
        errors=(400, 401, 403, 404, 409, 413, 415, 422),
        access=TOKEN,
        roles=("director",),
        problems=(*WRITE, codes.NOT_HOSTED, codes.GAME_ENDED, codes.NO_SUCH_SEAT, codes.SEAT_HANDED_OVER),
    )
)
def hand_seat(event: str, game: str, seat: int) -> Response:
    actor = writer()
    body = HAND_BODY.load(read_json())
    table = ledger().seated_tables.hand(actor, event, game, seat, body["level"])
    play_bots().nudge(event, game, changed())
    return jsonify(table)

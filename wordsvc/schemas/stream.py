"""The event stream's wire format (docs/streams.md): where a client resumes, and the data of each message type.

The data schemas document the stream in the OpenAPI document (each message
type's ``data`` as a component, named in the stream's item schema), and a
test checks real messages against them, as it does every JSON answer.
"""

from __future__ import annotations

from marshmallow import fields, validate

from .common import Strict
from .events import MAX_SEQ
from .play import FinishedRoundOut

__all__ = ["MESSAGE_DATA", "StreamQuery"]


class StreamQuery(Strict):
    after = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "Resume after this audit sequence number, for a client that cannot send Last-Event-ID (the header wins); default: from now."},
    )


class ReadyData(Strict):
    event = fields.String(required=True, metadata={"description": "The event's id."})
    game = fields.String(metadata={"description": "The table, on a hosted table's stream."})
    head = fields.Integer(required=True, metadata={"description": "The event's newest audit entry when the stream opened (0: none)."})


class RoundData(Strict):
    game = fields.String(required=True, metadata={"description": "The table."})
    round = fields.Integer(required=True)
    revision = fields.Integer(required=True, metadata={"description": "1 when stored, one more with each correction."})
    points = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True, metadata={"description": "Each player's score in the round."})


class RoundCorrectedData(RoundData):
    reason = fields.String(required=True, allow_none=True, metadata={"description": "Why the referee corrected it."})


class TableSeatedData(Strict):
    game = fields.String(required=True, metadata={"description": "The table."})
    players = fields.List(fields.String(), required=True, metadata={"description": "In seat order."})
    session = fields.Integer(metadata={"description": "The session it was seated for; absent for a table seated by name."})


class SessionStartedData(Strict):
    session = fields.Integer(required=True)
    tables = fields.Integer(required=True, metadata={"description": "How many tables it seated."})


class SessionReseatedData(Strict):
    session = fields.Integer(required=True)
    draws = fields.Integer(required=True, metadata={"description": "1, then one more for each redraw."})


class PlayerRegisteredData(Strict):
    player = fields.String(required=True)
    name = fields.String(required=True)


class PlayerCheckedInData(Strict):
    player = fields.String(required=True)
    joined = fields.Integer(required=True, metadata={"description": "The first session the player may be seated in."})


class PlayerWithdrawnData(Strict):
    player = fields.String(required=True)
    start = fields.Integer(data_key="from", required=True, metadata={"description": "The first session without the player."})


class PlayerDeletedData(Strict):
    player = fields.String(required=True, metadata={"description": "The id of the registration deleted (it had no games)."})


class RulingGivenData(Strict):
    table = fields.String(required=True)
    round = fields.Integer(required=True)
    acceptable = fields.Boolean(required=True)
    count = fields.Integer(required=True, metadata={"description": "How many words were judged (never the words)."})


class EventClosedData(Strict):
    pass


class PlaySeatOut(Strict):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True)
    name = fields.String(required=True, allow_none=True)
    level = fields.Integer(required=True, allow_none=True)


class PlayCreatedData(Strict):
    game = fields.String(required=True, metadata={"description": "The hosted table."})
    seats = fields.List(fields.Nested(PlaySeatOut), required=True)
    commitment = fields.String(required=True, metadata={"description": "The commitment to the server seed (docs/play.md)."})


class PlaySeatedData(Strict):
    game = fields.String(required=True)
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "`person` or `outside` (a program, shown as a bot)."})


class PlayStartedData(Strict):
    game = fields.String(required=True)
    players = fields.List(fields.String(), required=True, metadata={"description": "In seat order."})


class MoveData(Strict):
    game = fields.String(required=True)
    seq = fields.Integer(required=True, metadata={"description": "The move's number at its table (what the next move quotes)."})
    kind = fields.String(required=True)
    seat = fields.Integer(required=True)
    card = fields.String(metadata={"description": "The card taken or discarded; for a draw, only on the stream of the seat that drew."})
    reshuffled = fields.Boolean(metadata={"description": "A draw that rebuilt the draw pile from the discard pile."})
    words = fields.List(fields.List(fields.String()), metadata={"description": "Words laid, each its faces."})
    discard = fields.String(allow_none=True)
    player = fields.Integer()
    word = fields.Integer()
    round_over = fields.Nested(FinishedRoundOut, metadata={"description": "The round this move ended, scored."})


class PlayEndedData(Strict):
    game = fields.String(required=True)
    totals = fields.List(fields.Integer(), required=True, metadata={"description": "Each seat's total, in seat order."})


class PlayHandedData(Strict):
    game = fields.String(required=True)
    seat = fields.Integer(required=True, metadata={"description": "The seat a bot plays from now on."})
    reason = fields.String(
        required=True,
        validate=validate.OneOf(["resigned", "timeouts", "absent"]),
        metadata={"description": "`resigned`, `timeouts` (out of time twice in a row) or `absent` (the director handed an absent player's seat)."},
    )


class PlayAbortedData(Strict):
    game = fields.String(required=True)


#: Each message type and its data, in the order docs/api.md lists them; the OpenAPI component of each is ``Stream`` + the class name.
MESSAGE_DATA: dict[str, type[Strict]] = {
    "ready": ReadyData,
    "round.stored": RoundData,
    "round.corrected": RoundCorrectedData,
    "table.seated": TableSeatedData,
    "session.started": SessionStartedData,
    "session.reseated": SessionReseatedData,
    "player.registered": PlayerRegisteredData,
    "player.checked_in": PlayerCheckedInData,
    "player.withdrawn": PlayerWithdrawnData,
    "player.deleted": PlayerDeletedData,
    "ruling.given": RulingGivenData,
    "event.closed": EventClosedData,
    "play.created": PlayCreatedData,
    "play.seated": PlaySeatedData,
    "play.started": PlayStartedData,
    "move": MoveData,
    "play.ended": PlayEndedData,
    "play.handed": PlayHandedData,
    "play.aborted": PlayAbortedData,
}

"""Hosted games' documents: a table asked for, a seat taken, a move sent, and what each answers (docs/play.md)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ..core import problem_codes as codes
from ..core.play import Phase
from ..core.play.bot_levels import LEVELS
from ..core.play.clocks import BANK_SECONDS, TURN_HOURS, TURN_SECONDS, Clock, ClockError
from ..core.play.fairness import NONCE_MAX
from ..core.play.views import PUBLIC_MOVES
from ..core.problem_codes import coded
from .common import BoundedList, Strict, StrictBoolean, lang_field, name_field, ruleset_field
from .events import MAX_SEQ, SecretTokenOut, id_field

#: The levels of the server's bots (docs/play.md, "Bots"), and the most cards a word or a move names.
BOT_LEVELS = tuple(LEVELS)
MAX_CARDS = 10
#: A table's statuses, as the ledger stores them (ledger/hosting/): an enum in the document, so a generated client switches on a
#: typed value (docs/clients.md).
TABLE_STATUSES = ("waiting", "playing", "over", "aborted")


def _face(**kwargs: object) -> fields.String:
    return fields.String(
        validate=validate.Length(min=1, max=8), metadata={"description": "A card by its face, as the projection names it: `qu`, `e`, `þ`."}, **kwargs
    )


class KnobsBody(Strict):
    draw_pile_out = fields.String(
        load_default="reshuffle", validate=validate.OneOf(("reshuffle", "end_round")), metadata={"description": 'docs/play.md, "The draw pile running out".'}
    )
    no_going_out_first_turn = StrictBoolean(load_default=False)
    discard_taken_card = StrictBoolean(load_default=True)
    bonus_choice = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(("longest_word", "most_words")),
        metadata={"description": "Two players under a ruleset whose two-player bonus is a choice."},
    )


class ClockBody(Strict):
    kind = fields.String(
        load_default="none", validate=validate.OneOf(("none", "live", "correspondence")),
        metadata={"description": "`none`: a casual table; `live`: `turn_seconds` and `bank_seconds`; `correspondence`: `turn_hours` (docs/play.md, \"Clocks\")."},
    )  # fmt: skip
    turn_seconds = fields.Integer(validate=validate.Range(min=TURN_SECONDS[0], max=TURN_SECONDS[1]), metadata={"description": "A live table's limit per turn."})
    bank_seconds = fields.Integer(
        validate=validate.Range(min=BANK_SECONDS[0], max=BANK_SECONDS[1]), metadata={"description": "A live table's time bank per seat."}
    )
    turn_hours = fields.Integer(
        validate=validate.Range(min=TURN_HOURS[0], max=TURN_HOURS[1]), metadata={"description": "A correspondence table's limit per turn."}
    )

    @validates_schema
    def _kind_fields(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The fields of the clock's kind, and no other (:class:`~wordsvc.core.play.clocks.Clock` says which)."""
        try:
            Clock.from_dict(data)
        except ClockError as err:
            code = codes.CONFLICTING_FIELDS if data.get(err.field) is not None else codes.REQUIRED
            raise ValidationError({err.field: [coded(code, str(err))]}) from None


class BotSeat(Strict):
    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=9), metadata={"description": "The seat, from 0."})
    level = fields.Integer(
        required=True,
        validate=[validate.Range(min=min(BOT_LEVELS), max=max(BOT_LEVELS)), validate.OneOf(BOT_LEVELS)],
        metadata={"description": "The bot's level: 1 (weakest) to 4."},
    )


class TableBody(Strict):
    id = id_field(load_default=None, metadata={"description": "The table's id (the event's too); a random one when left out."})
    name = fields.String(load_default=None, validate=validate.Length(min=1, max=200), metadata={"description": "The event's name; `Table <id>` when left out."})
    ruleset = ruleset_field()
    lang = lang_field()
    seats = fields.Integer(required=True, validate=validate.Range(min=1, max=10), metadata={"description": "How many seats; the ruleset bounds it."})
    bots = BoundedList(fields.Nested(BotSeat), load_default=list, validate=validate.Length(max=10), metadata={"description": "Seats the server's bots take."})
    knobs = fields.Nested(KnobsBody, load_default=lambda: KnobsBody().load({}))
    clock = fields.Nested(ClockBody, load_default=lambda: {"kind": "none"})
    rated = StrictBoolean(load_default=False, metadata={"description": "A table with a bot is never rated."})
    public = StrictBoolean(
        load_default=True, metadata={"description": "Listed in `GET /tables` and open to any reader; a private table's seats are handed out by its director."}
    )


class SeatBody(Strict):
    name = name_field()
    seat = fields.Integer(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=9),
        metadata={"description": "The seat to take; the first open one when left out."},
    )
    nonce = fields.String(
        load_default=None, allow_none=True, validate=[validate.Length(max=NONCE_MAX), validate.Regexp(rf"^[A-Za-z0-9_-]{{0,{NONCE_MAX}}}$")],
        metadata={"description": f"Up to {NONCE_MAX} characters of A-Z a-z 0-9 _ -: mixed into the game's seed (docs/play.md, \"Verifiable deals\")."},
    )  # fmt: skip
    bot = StrictBoolean(load_default=False, metadata={"description": "An outside program takes the seat, shown to the table as a bot."})


class MoveSchema(Strict):
    kind = fields.String(required=True, validate=validate.OneOf(tuple(PUBLIC_MOVES)))
    card = _face()
    words = BoundedList(BoundedList(_face(), validate=validate.Length(max=MAX_CARDS)), validate=validate.Length(max=MAX_CARDS))
    discard = _face(allow_none=True)
    player = fields.Integer(validate=validate.Range(min=0, max=9))
    word = fields.Integer(validate=validate.Range(min=0, max=MAX_CARDS))


class MoveBody(Strict):
    seq = fields.Integer(
        required=True,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "The move count of the state the move was chosen in (its `seq`, the state's ETag)."},
    )
    move_id = fields.String(
        required=True, validate=[validate.Length(min=1, max=64), validate.Regexp(r"^(?!bot-|clock-)[A-Za-z0-9_-]{1,64}$")],
        metadata={"description": "The client's id of the move (1 to 64 of A-Z a-z 0-9 _ -; `bot-` and `clock-` are the server's): a retry with the same id is answered, never applied twice."},
    )  # fmt: skip
    move = fields.Nested(MoveSchema, required=True)


# ---------------------------------------------------------------- answers


class SeatOut(Strict):
    seat = fields.Integer(required=True)
    bank_ms = fields.Integer(required=True, allow_none=True, metadata={"description": "A live table: what is left of the seat's time bank."})
    deadline_ms = fields.Integer(
        required=True, allow_none=True, metadata={"description": "When the seat's turn runs out (ms since the epoch), while it is on the clock."}
    )
    timeouts = fields.Integer(required=True, metadata={"description": "The seat's turns in a row played by the clock."})
    present = fields.Boolean(
        required=True, metadata={"description": "The seat's token was used in the last 90 s (a read, a move, a stream opened); a bot's seat always is."}
    )
    handed = fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "Why a person's seat went to a bot: `timeouts`, `resigned` or `absent` (the director handed it: a seated table; the player's forfeit); null otherwise."},
    )
    kind = fields.String(
        required=True,
        metadata={
            "description": "`open`, `person`, `bot` (the server's, or a seat handed to one), `outside` (a program, shown as a bot) or `reserved` (a rematch's seat, for its player)."
        },
    )
    name = fields.String(required=True, allow_none=True)
    level = fields.Integer(required=True, allow_none=True)
    nonce = fields.String(required=True, allow_none=True)


class TableOut(Strict):
    event = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(
        required=True,
        validate=validate.OneOf(TABLE_STATUSES),
        metadata={"description": "`waiting` (for players), `playing`, `over` or `aborted`."},
    )
    setup = fields.Dict(required=True)
    commitment = fields.String(required=True, metadata={"description": 'SHA-256 commitment to the server seed (docs/play.md, "Verifiable deals").'})
    created_at = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatOut), required=True)
    server_seed = fields.String(metadata={"description": "Revealed once the game is over."})
    seed = fields.String(allow_none=True, metadata={"description": "The game's seed, revealed once the game is over."})
    rematch = fields.String(metadata={"description": "Once the game is over and a seat accepted a rematch: the next table's id."})


class CreatedTableOut(TableOut):
    director_token = fields.Nested(SecretTokenOut, required=True, metadata={"description": "The table's event's director token (the creator's): shown once."})


class TablesOut(Strict):
    tables = fields.List(fields.Nested(TableOut), required=True)


class SeatTakenOut(Strict):
    seat = fields.Integer(required=True)
    token = fields.String(
        required=True, metadata={"description": "The seat's bearer token: shown once, never logged; revoke it with DELETE /events/{e}/tokens/{id}."}
    )
    token_id = fields.String(required=True)
    table = fields.Nested(TableOut, required=True)


class HostBody(Strict):
    bots = BoundedList(
        fields.Nested(BotSeat),
        load_default=list,
        validate=validate.Length(max=10),
        metadata={"description": "Seats the server's bots play: a player's seat (that player is absent) or the seats after the players', in order (a table "
        "short of players). A seat a bot plays counts for nobody in the standings and ratings."},
    )
    knobs = fields.Nested(KnobsBody, load_default=lambda: KnobsBody().load({}))
    clock = fields.Nested(ClockBody, load_default=lambda: {"kind": "none"})


class HandBody(Strict):
    level = fields.Integer(
        load_default=2,
        validate=[validate.Range(min=min(BOT_LEVELS), max=max(BOT_LEVELS)), validate.OneOf(BOT_LEVELS)],
        metadata={"description": "The level of the bot that plays the seat from now on: 1 (weakest) to 4."},
    )


class IssuedSeatOut(Strict):
    seat = fields.Integer(required=True)
    name = fields.String(required=True, metadata={"description": "The seated player's name."})
    player = fields.String(required=True, allow_none=True, metadata={"description": "The registered player's id (a session's table); null for a table seated by name."})
    token = fields.String(
        required=True,
        metadata={"description": "The seat's bearer token, for the player's seat link (`/play/{event}/{game}#token=...`): shown once, never logged; revoke it "
        "with DELETE /events/{e}/tokens/{id}."},
    )
    token_id = fields.String(required=True)


class HostedOut(Strict):
    table = fields.Nested(TableOut, required=True)
    seats = fields.List(fields.Nested(IssuedSeatOut), required=True, metadata={"description": "Each player's seat, in seat order (the bots' seats have none)."})


class FinishedRoundOut(Strict):
    number = fields.Integer(required=True)
    words = fields.List(fields.List(fields.List(fields.String())), required=True, metadata={"description": "Each seat's words, each word its faces."})
    unused = fields.List(fields.List(fields.String()), required=True)
    out = fields.Integer(required=True, allow_none=True)
    challenges = fields.List(fields.List(fields.Integer()), required=True)
    totals = fields.List(fields.Integer(), required=True)


class RoundViewOut(Strict):
    number = fields.Integer(required=True)
    dealer = fields.Integer(required=True)
    hand_size = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    phase = fields.String(
        required=True,
        validate=validate.OneOf(tuple(p.value for p in Phase)),
        metadata={"description": '`draw`, `discard`, `lay` or `challenges` (docs/play.md, "State").'},
    )
    out = fields.Integer(required=True, allow_none=True)
    hand_counts = fields.List(fields.Integer(), required=True)
    draw_pile = fields.Integer(required=True, metadata={"description": "How many cards: never their order."})
    discard_pile = fields.Integer(required=True)
    discard_top = fields.String(required=True, allow_none=True)
    taken = fields.String(required=True, allow_none=True)
    turns = fields.List(fields.Integer(), required=True)
    words = fields.List(fields.List(fields.List(fields.String())), required=True)
    challenges = fields.List(fields.List(fields.Integer()), required=True)
    passed = fields.List(fields.Boolean(), required=True)
    hand = fields.List(fields.String(), metadata={"description": "The viewer's own hand (a seat's view only)."})


class StateOut(Strict):
    seq = fields.Integer(required=True, metadata={"description": "Moves played: the version a move quotes, and the ETag."})
    ruleset = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    viewer = fields.Integer(required=True, allow_none=True, metadata={"description": "The seat whose view this is; null for a spectator."})
    over = fields.Boolean(required=True)
    rounds = fields.List(fields.Nested(FinishedRoundOut), required=True)
    totals = fields.List(fields.Integer(), required=True)
    round = fields.Nested(RoundViewOut, required=True, allow_none=True)


class PlayOut(TableOut):
    state = fields.Nested(
        StateOut, required=True, allow_none=True, metadata={"description": "The game as the requester may see it; null while the table waits for players."}
    )


class MovedOut(Strict):
    seq = fields.Integer(required=True, metadata={"description": "The move's number."})
    repeat = fields.Boolean(required=True, metadata={"description": "The move id was taken before: this answers it again."})
    state = fields.Nested(StateOut, required=True)


class LogOut(Strict):
    event = fields.String(required=True)
    game = fields.String(required=True)
    moves = fields.List(fields.Dict(), required=True, metadata={"description": "Every move as a spectator saw it (faces), in order."})
    log = fields.Dict(
        allow_none=True,
        required=True,
        metadata={"description": 'Once the game is over: the whole game log with card ids, the server seed and the nonces (docs/play.md, "The game log").'},
    )


class ReplayQuery(Strict):
    at = fields.Integer(
        required=True,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "The moves played before the state shown: 0 is the first deal; past the moves played, the game as it stands."},
    )


class ReplayOut(Strict):
    at = fields.Integer(required=True, metadata={"description": "The moves replayed: the state is the one after them."})
    moves = fields.Integer(required=True, metadata={"description": "The moves the game holds now."})
    state = fields.Nested(StateOut, required=True, metadata={"description": "The game after `at` moves as the requester may see it."})
    hands = fields.List(
        fields.List(fields.String()),
        required=True,
        allow_none=True,
        metadata={"description": "Once the game is over (its seed revealed): every seat's hand after `at` moves, faces; else null."},
    )
    draw_pile = fields.List(
        fields.String(), required=True, allow_none=True, metadata={"description": "Once the game is over: the draw pile after `at` moves, top first; else null."}
    )


__all__ = [
    "BOT_LEVELS",
    "CreatedTableOut",
    "HandBody",
    "HostBody",
    "HostedOut",
    "IssuedSeatOut",
    "LogOut",
    "MoveBody",
    "MovedOut",
    "PlayOut",
    "ReplayOut",
    "ReplayQuery",
    "SeatBody",
    "SeatTakenOut",
    "StateOut",
    "TableBody",
    "TableOut",
    "TablesOut",
]

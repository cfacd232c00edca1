"""A tournament's documents: players, sessions and their seating, schedules, standings across sessions, ratings (docs/tournaments.md)."""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate, validates_schema

from ..core import problem_codes as codes
from ..core.problem_codes import coded
from ..core.seating.sessions import MAX_EVENT_PLAYERS
from .common import BoundedList, Strict, StrictBoolean, check_text, name_field
from .events import MAX_NAME, MAX_REASON, CheckpointOut, id_field, receipt_field

#: Sessions an event holds, tables a session seats: far above any real tournament, small enough to bound a request.
MAX_SESSIONS, MAX_TABLES = 64, 500
METHODS = ("random", "standings", "swiss", "schedule", "manual")
#: The fields of a session's body that each method takes, beside ``method``, ``number`` and ``unfinished`` (docs/tournaments.md):
#: a size policy for the methods that compute table sizes, the tables for a manual seating. A schedule is seated at its plan's sizes.
METHOD_FIELDS = {"random": ("size",), "standings": ("size",), "swiss": ("size",), "schedule": (), "manual": ("tables",)}
#: Why a field does not apply, by field: said in the 422 that names it.
_NOT_TAKEN = {
    "size": "the {method} method does not take a size: {why}",
    "tables": "only the manual method takes tables; the {method} method seats the players itself",
}
_WHY_NO_SIZE = {"schedule": "its tables are the published schedule's", "manual": "a manual seating's sizes are its tables'"}


def _text(most: int, **kwargs: object) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=most), check_text], **kwargs)  # type: ignore[arg-type]


class PlayerBody(Strict):
    name = name_field()
    club = _text(MAX_NAME, load_default=None, metadata={"description": "The player's club, shown beside the name."})
    rating_id = id_field(load_default=None, metadata={"description": "The player's id across events (GET /ratings/{id}); none: the player is not rated."})
    checked_in = StrictBoolean(load_default=False, metadata={"description": "Checked in at registration (or later with /check-in)."})
    allow_similar = StrictBoolean(
        load_default=False,
        metadata={"description": "Register although the name is another player's once accents and case are set aside (Zoe, Zoë): the director's word after a 409 `names_similar`."},
    )


class PlayerLine(Strict):
    id = id_field(load_default=None, metadata={"description": "The player's id; none: made from the name (accents off, þ as th, unique in the event: `zoe-martin`, `zoe-martin-2`)."})
    name = name_field()
    club = _text(MAX_NAME, load_default=None, metadata={"description": "The player's club, shown beside the name."})
    rating_id = id_field(load_default=None, metadata={"description": "The player's id across events; none: the player is not rated."})
    checked_in = StrictBoolean(load_default=False, metadata={"description": "Checked in at registration."})


class PlayersBody(Strict):
    players = BoundedList(
        fields.Nested(PlayerLine),
        required=True,
        validate=validate.Length(min=1, max=MAX_EVENT_PLAYERS),
        metadata={"description": "The players to register, all or none: a line at fault is named by its index (`players.3.name`)."},
    )
    allow_similar = StrictBoolean(
        load_default=False,
        metadata={"description": "Register names that are another's once accents and case are set aside (Zoe, Zoë): the director's word after a 409 `names_similar`."},
    )


class CheckInBody(Strict):
    players = BoundedList(
        id_field(),
        load_default=None,
        validate=validate.Length(min=1, max=MAX_EVENT_PLAYERS),
        metadata={"description": "The ids to check in; left out with `all: true`."},
    )
    all = StrictBoolean(load_default=False, metadata={"description": "Check in every player registered, not checked in and not withdrawn."})

    @validates_schema
    def _one_of(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Either the ids or ``all``, never both and never neither: a check-in of nobody is a mistake, not a no-op."""
        if (data.get("players") is None) == (not data.get("all")):
            raise ValidationError(coded(codes.CONFLICTING_FIELDS, "give either the players' ids or all: true"), "players")


class SizeBody(Strict):
    target = fields.Integer(required=True, strict=True, validate=validate.Range(min=2, max=16), metadata={"description": "The table size wanted."})
    remainder = fields.String(
        load_default="smaller",
        validate=validate.OneOf(("smaller", "larger")),
        metadata={"description": "When the players do not divide: `smaller` tables (13 at 4: 4+3+3+3) or `larger` ones (13 at 4: 5+4+4)."},
    )


class SessionBody(Strict):
    method = fields.String(
        required=True,
        validate=validate.OneOf(METHODS),
        metadata={"description": "How the players are seated (docs/seating.md). Each method takes only its own fields: `size` with random, standings and swiss; `tables` (required) with manual; a field a method does not take is a 422 naming it."},
    )
    size = fields.Nested(
        SizeBody,
        load_default=None,
        metadata={"description": "`random`, `standings` and `swiss` only: the size policy; default: target 4 (within the ruleset's range), smaller remainders."},
    )
    tables = BoundedList(
        BoundedList(id_field(), validate=validate.Length(min=1, max=16)),
        load_default=None,
        validate=validate.Length(min=1, max=MAX_TABLES),
        metadata={"description": "`manual` only, and required there: the tables, each a list of player ids in seat order."},
    )
    number = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1, max=MAX_SESSIONS),
        metadata={"description": "The session this seats, the next one: a retry of the same request is a 200, never a second session; another number is a 409."},
    )
    unfinished = fields.String(
        load_default=None,
        validate=validate.OneOf(("allow",)),
        metadata={"description": "`allow`: start it although the session before has tables with rounds missing (audited)."},
    )

    @validates_schema
    def _fields_of_the_method(self, data: dict[str, Any], **kwargs: Any) -> None:
        """A field the method does not take is refused, never dropped or stored unread; ``manual`` needs its tables. Every such problem at once."""
        method = data.get("method")
        if method not in METHOD_FIELDS:
            return  # the method's own error says it
        problems: dict[str, list[str]] = {}
        for name in ("size", "tables"):
            if data.get(name) is not None and name not in METHOD_FIELDS[method]:
                problems[name] = [coded(codes.CONFLICTING_FIELDS, _NOT_TAKEN[name].format(method=method, why=_WHY_NO_SIZE.get(method, "")))]
        if method == "manual" and data.get("tables") is None:
            problems["tables"] = [coded(codes.REQUIRED, "the manual method needs the tables: a list of tables, each a list of player ids in seat order")]
        if problems:
            raise ValidationError(problems)


class SwapBody(Strict):
    players = BoundedList(id_field(), required=True, validate=validate.Length(equal=2), metadata={"description": "The two players who exchange seats."})


class ScheduleBody(Strict):
    sessions = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=MAX_SESSIONS))
    size = fields.Nested(SizeBody, load_default=None)


class RatedBody(Strict):
    rated = StrictBoolean(required=True, metadata={"description": "false: the event's games are left out of the ratings."})
    reason = _text(MAX_REASON, required=True)


class CsvQuery(Strict):
    format = fields.String(load_default=None, validate=validate.OneOf(("json", "csv")), metadata={"description": "`csv`, or send Accept: text/csv."})


# --- answers -------------------------------------------------------------------------------------------


class EventPlayerOut(Strict):
    id = fields.String(required=True)
    name = fields.String(required=True)
    club = fields.String(required=True, allow_none=True)
    rating_id = fields.String(required=True, allow_none=True)
    checked_in = fields.Boolean(required=True)
    joined = fields.Integer(required=True, metadata={"description": "The first session the player may be seated in."})
    withdrawn = fields.Integer(required=True, allow_none=True, metadata={"description": "The first session the player is no longer seated in."})
    receipt = receipt_field(required=False)


class EventPlayerListOut(Strict):
    event = fields.String(required=True)
    players = fields.List(fields.Nested(EventPlayerOut), required=True)


class PlayerDeletedOut(Strict):
    event = fields.String(required=True)
    player = fields.String(required=True, metadata={"description": "The id of the registration deleted."})
    deleted = fields.Boolean(required=True)
    receipt = receipt_field()


class SeatOut(Strict):
    seat = fields.Integer(required=True, metadata={"description": "0 deals round 1."})
    player = fields.String(required=True)
    name = fields.String(required=True)


class SessionTableOut(Strict):
    game = fields.String(required=True, metadata={"description": "The table's game id, s<session>-t<table>."})
    seats = fields.List(fields.Nested(SeatOut), required=True)
    rounds_played = fields.Integer(required=True)
    online = fields.String(
        required=True,
        allow_none=True,
        validate=validate.OneOf(("waiting", "playing", "over", "aborted")),
        metadata={"description": "Hosted online (docs/play.md, \"Seated tables\"): its game's status; null for a table played with a referee."},
    )


class SessionOut(Strict):
    event = fields.String(required=True)
    number = fields.Integer(required=True)
    method = fields.String(required=True)
    size = fields.Dict(required=True, allow_none=True)
    draws = fields.Integer(required=True)
    unfinished = fields.Boolean(required=True)
    started = fields.Boolean(required=True, metadata={"description": "A round is stored: the seating is fixed."})
    complete = fields.Boolean(required=True, metadata={"description": "Every table has all its rounds."})
    tables = fields.List(fields.Nested(SessionTableOut), required=True)
    repeat_meetings = fields.Integer(required=True, metadata={"description": "Pairs at one table who had shared a table in an earlier session."})
    receipt = receipt_field(required=False)


class SessionListOut(Strict):
    event = fields.String(required=True)
    sessions = fields.List(fields.Nested(SessionOut), required=True)


class ScheduleOut(Strict):
    event = fields.String(required=True)
    sessions = fields.Integer(required=True)
    size = fields.Dict(required=True, allow_none=True)
    players = fields.List(fields.String(), required=True)
    schedule = fields.List(
        fields.List(fields.List(fields.String())), required=True, metadata={"description": "Session by session, table by table, player ids."}
    )
    receipt = receipt_field(required=False)


class OverallLineOut(Strict):
    rank = fields.Integer(required=True)
    player = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.Integer(required=True, metadata={"description": "Games counted, with missed ones where the format counts them."})
    played = fields.Integer(required=True, metadata={"description": "Games played."})
    total = fields.Float(required=True, metadata={"description": "A whole number unless the format counts a missed game at the player's average."})
    average = fields.Float(required=True, allow_none=True)
    table_points = fields.Float(required=True)
    wins = fields.Float(required=True)
    best_game = fields.Integer(required=True, allow_none=True)
    spread = fields.Float(required=True)
    missed = fields.Integer(required=True)
    qualified = fields.Boolean(required=True, metadata={"description": "Has the format's minimum number of games (else ranked below those who have)."})
    withdrawn = fields.Boolean(required=True)
    tie_break = fields.List(fields.Raw(allow_none=True), required=True, metadata={"description": "The format's tie-break values, in its order."})


class OverallOut(Strict):
    format = fields.Dict(required=True, metadata={"description": "The event's tournament format (formats/, docs/standings.md)."})
    through = fields.Integer(required=True, allow_none=True, metadata={"description": "The last session counted."})
    completed = fields.Integer(
        required=True, metadata={"description": "The last session k (at most `through`) with every game of sessions 1 to k complete; 0 before that: what a document calls \"after session k\"."}
    )
    provisional = fields.Boolean(
        required=True,
        metadata={"description": "True until the tournament's last session is complete: the event closed, or every session of its published schedule seated and complete (docs/standings.md)."},
    )
    lines = fields.List(fields.Nested(OverallLineOut), required=True)


class CrosstableOut(Strict):
    event = fields.String(required=True)
    players = fields.List(fields.String(), required=True)
    meetings = fields.Dict(
        required=True,
        metadata={
            "description": "player -> opponent -> meetings ({session, table, score, opponent_score, result}), each meeting from both sides (docs/standings.md)."
        },
    )
    checkpoint = fields.Nested(CheckpointOut, required=True)


class RatingHistoryOut(Strict):
    event = fields.String(required=True)
    closed_at = fields.String(required=True)
    rating = fields.Float(required=True)
    mu = fields.Float(required=True)
    sigma = fields.Float(required=True)
    games = fields.Integer(required=True)


class RatingOut(Strict):
    id = fields.String(required=True)
    rating = fields.Float(required=True, metadata={"description": "The number shown: round(mu - 2 sigma) (docs/ratings.md)."})
    mu = fields.Float(required=True, metadata={"description": "Glicko-2 rating, 1500-based."})
    sigma = fields.Float(required=True, metadata={"description": "Glicko-2 rating deviation."})
    volatility = fields.Float(required=True)
    games = fields.Integer(required=True)
    events = fields.Integer(required=True)
    provisional = fields.Boolean(required=True, metadata={"description": "Fewer than 10 rated games."})
    history = fields.List(fields.Nested(RatingHistoryOut), metadata={"description": "Only in GET /ratings/{id}."})


class RatingListOut(Strict):
    system = fields.Dict(
        required=True, metadata={"description": "The rating model, its parameters, the display formula and the provisional rule (docs/ratings.md)."}
    )
    ratings = fields.List(fields.Nested(RatingOut), required=True)


class RatedOut(Strict):
    event = fields.String(required=True)
    rated = fields.Boolean(required=True)
    receipt = receipt_field(required=False)


class DocumentQuery(Strict):
    """The query of ``GET /events/{e}/documents/{kind}`` (docs/documents.md)."""

    session = fields.Integer(
        load_default=None, validate=validate.Range(min=1, max=64),
        metadata={"description": "For seating and scorecards: the session to print (default: the latest; an event without sessions prints its tables' scorecards)."},
    )

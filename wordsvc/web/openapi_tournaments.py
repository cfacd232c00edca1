"""The tournament's part of the OpenAPI document: its operations, their names, queries and schemas (docs/tournaments.md).

Kept beside :mod:`.openapi`, which merges these lists into the one document,
so that each resource's part of the document stays short enough to read.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema

from ..core.ids import ID_PATTERN
from ..schemas import tournaments as t

__all__ = ["CSV_COLUMNS", "TOURNAMENT_ENDPOINTS", "TOURNAMENT_OPERATIONS", "TOURNAMENT_QUERIES", "TOURNAMENT_SCHEMAS"]


def _path(name: str, description: str, integer: bool = False) -> dict[str, Any]:
    schema = {"type": "integer", "minimum": 1, "maximum": t.MAX_SESSIONS} if integer else {"type": "string", "pattern": ID_PATTERN, "maxLength": 64}
    return {"name": name, "in": "path", "required": True, "description": description, "schema": schema}


EVENT = _path("event", "The event's id.")
PLAYER = _path("player", "The player's id within the event.")
SESSION = _path("session", "The session's number, 1 first.", integer=True)
RATING = _path("rating_id", "A player's rating id, the same across events.")
_WRITE = (400, 401, 403, 404, 409, 413, 415, 422)

#: (method, path, summary, description, parameters, request schema, {status: response schema}, error statuses, access), as LEDGER_ENDPOINTS.
TOURNAMENT_ENDPOINTS: list[tuple[str, str, str, str, list[dict[str, Any]], str | None, dict[int, str], tuple[int, ...], str]] = [
    ("put", "/events/{event}/players/{player}", "Register a player",
     "Director token. The id, display name, club and rating id; 201 the first time, 200 for the same body again, 409 for another. Registered after "
     "the first session, a player enters from the next session (a late entry). Names as for tables: no duplicates or look-alikes.",
     [EVENT, PLAYER], "PlayerBody", {201: "EventPlayer", 200: "EventPlayer"}, _WRITE, "token"),
    ("get", "/events/{event}/players", "The event's players", "Every registered player, checked in or not, withdrawn or not.",
     [EVENT], None, {200: "EventPlayerList"}, (401, 403, 404), "public"),
    ("post", "/events/{event}/players/{player}/check-in", "Check a player in", "Director token. Audited; again is a 200 with the first receipt.",
     [EVENT, PLAYER], None, {200: "EventPlayer"}, (401, 403, 404, 409), "token"),
    ("post", "/events/{event}/players/{player}/withdraw", "Withdraw a player",
     "Director token. From the next session on: past games stay in the standings. Audited; again is a 200.",
     [EVENT, PLAYER], None, {200: "EventPlayer"}, (401, 403, 404, 409), "token"),
    ("post", "/events/{event}/sessions", "Seat the next session",
     "Director token. Seats every active player at tables within the ruleset's range by the method asked (docs/seating.md). 409 while the "
     "session before has tables with rounds missing, unless `unfinished: allow`. `number` names the session: a retry of the same request is a 200, never a second session.",
     [EVENT], "SessionBody", {201: "Session", 200: "Session"}, _WRITE, "token"),
    ("get", "/events/{event}/sessions", "The event's sessions", "Each session's tables, seats and repeat meetings.",
     [EVENT], None, {200: "SessionList"}, (401, 403, 404), "public"),
    ("get", "/events/{event}/sessions/{session}", "A session", "Its tables in seat order, whether it started and whether it is complete.",
     [EVENT, SESSION], None, {200: "Session"}, (401, 403, 404), "public"),
    ("post", "/events/{event}/sessions/{session}/swap", "Swap two players",
     "Director token. The two exchange seats; 409 once a round of the session is stored.", [EVENT, SESSION], "SwapBody", {200: "Session"}, _WRITE, "token"),
    ("post", "/events/{event}/sessions/{session}/redraw", "Draw a session again",
     "Director token. The same method and sizes again, a new draw for random; 409 once a round of the session is stored.",
     [EVENT, SESSION], None, {200: "Session"}, (401, 403, 404, 409, 422), "token"),
    ("post", "/events/{event}/schedule", "Publish a schedule",
     "Director token. The whole schedule for the checked-in players over `sessions` sessions, every pair meeting as evenly as possible; "
     "before the first session; the same request again is a 200.",
     [EVENT], "ScheduleBody", {201: "Schedule", 200: "Schedule"}, _WRITE, "token"),
    ("get", "/events/{event}/schedule", "The published schedule", "404 when none is published.", [EVENT], None, {200: "Schedule"}, (401, 403, 404), "public"),
    ("post", "/events/{event}/rated", "Rate an event or not", "Director token. `rated: false` leaves the event out of the ratings (audited, with a reason).",
     [EVENT], "RatedBody", {200: "Rated"}, _WRITE, "token"),
    ("get", "/events/{event}/crosstable", "The crosstable", "Who met whom, at which table, with what result. CSV with Accept: text/csv or format=csv.",
     [EVENT], None, {200: "Crosstable"}, (400, 401, 403, 404, 409, 422), "public"),
    ("get", "/ratings", "Ratings", "Every rated player's rating across closed public events, recomputed from their games (docs/ratings.md). CSV too.",
     [], None, {200: "RatingList"}, (400, 422), "public"),
    ("get", "/ratings/{rating_id}", "A rating with its history", "One player's rating and its value after each event. CSV too.",
     [RATING], None, {200: "Rating"}, (400, 404, 422), "public"),
]

TOURNAMENT_OPERATIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("put", "/events/{event}/players/{player}"): ("registerPlayer", "tournaments"),
    ("get", "/events/{event}/players"): ("listPlayers", "tournaments"),
    ("post", "/events/{event}/players/{player}/check-in"): ("checkInPlayer", "tournaments"),
    ("post", "/events/{event}/players/{player}/withdraw"): ("withdrawPlayer", "tournaments"),
    ("post", "/events/{event}/sessions"): ("createSession", "tournaments"),
    ("get", "/events/{event}/sessions"): ("listSessions", "tournaments"),
    ("get", "/events/{event}/sessions/{session}"): ("getSession", "tournaments"),
    ("post", "/events/{event}/sessions/{session}/swap"): ("swapPlayers", "tournaments"),
    ("post", "/events/{event}/sessions/{session}/redraw"): ("redrawSession", "tournaments"),
    ("post", "/events/{event}/schedule"): ("publishSchedule", "tournaments"),
    ("get", "/events/{event}/schedule"): ("getSchedule", "tournaments"),
    ("post", "/events/{event}/rated"): ("setRated", "tournaments"),
    ("get", "/events/{event}/crosstable"): ("getCrosstable", "tournaments"),
    ("get", "/ratings"): ("listRatings", "ratings"),
    ("get", "/ratings/{rating_id}"): ("getRating", "ratings"),
}

TOURNAMENT_QUERIES: dict[str, type[Schema]] = {
    "/events/{event}/crosstable": t.CsvQuery,
    "/ratings": t.CsvQuery,
    "/ratings/{rating_id}": t.CsvQuery,
}

#: path -> the CSV's columns, for the document's text/csv alternative.
CSV_COLUMNS = {
    "/events/{event}/crosstable": "player,opponent,session,table,score,opponent_score,result",
    "/ratings": "id,rating,mu,sigma,games,events,provisional",
    "/ratings/{rating_id}": "event,closed_at,rating,mu,sigma,games",
}

TOURNAMENT_SCHEMAS: list[tuple[str, type[Schema]]] = [
    ("PlayerBody", t.PlayerBody),
    ("SessionBody", t.SessionBody),
    ("SwapBody", t.SwapBody),
    ("ScheduleBody", t.ScheduleBody),
    ("RatedBody", t.RatedBody),
    ("EventPlayer", t.EventPlayerOut),
    ("EventPlayerList", t.EventPlayerListOut),
    ("Session", t.SessionOut),
    ("SessionList", t.SessionListOut),
    ("Schedule", t.ScheduleOut),
    ("Rated", t.RatedOut),
    ("Crosstable", t.CrosstableOut),
    ("Rating", t.RatingOut),
    ("RatingList", t.RatingListOut),
]

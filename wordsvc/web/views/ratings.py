"""Ratings across events over HTTP: ``/ratings`` and ``/ratings/{id}``, JSON or CSV (docs/ratings.md).

Ratings are recomputed from the stored games of closed, public, rated
events on every read; nothing here or in the ledger stores a rating.
"""

from __future__ import annotations

from flask import Response, jsonify

from ...core import problem_codes as codes
from ...schemas.tournaments import CsvQuery, RatingListOut, RatingOut
from ..endpoints import PUBLIC, Endpoint, Resource
from ..parameters import RATING
from ..requests import query_args
from .ledger_access import ledger
from .tournaments import csv_response, wants_csv

__all__ = ["bp"]

bp = Resource("ratings", __name__)
CSV_QUERY = CsvQuery()
_COLUMNS = ("id", "rating", "mu", "sigma", "games", "events", "provisional")


@bp.declare(
    Endpoint(
        method="get",
        path="/ratings",
        operation_id="listRatings",
        tag="ratings",
        summary="Ratings",
        description="Every rated player's rating across closed public events, recomputed from their games (docs/ratings.md). CSV too.",
        query=CsvQuery,
        answers={200: RatingListOut},
        errors=(400, 422),
        access=PUBLIC,
        csv="id,rating,mu,sigma,games,events,provisional",
        problems=(),
    )
)
def ratings() -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().ratings.ratings()
    if not wants_csv(query["format"]):
        return jsonify(view)
    return csv_response([list(_COLUMNS), *([line[key] for key in _COLUMNS] for line in view["ratings"])], "ratings.csv")


@bp.declare(
    Endpoint(
        method="get",
        path="/ratings/{rating_id}",
        operation_id="getRating",
        tag="ratings",
        summary="A rating with its history",
        description="One player's rating and its value after each event. CSV too.",
        parameters=[RATING],
        query=CsvQuery,
        answers={200: RatingOut},
        errors=(400, 404, 422),
        access=PUBLIC,
        csv="event,closed_at,rating,mu,sigma,games",
        problems=(codes.RATING_NOT_FOUND, codes.INVALID_ID),
    )
)
def rating(rating_id: str) -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().ratings.rating(rating_id)
    if not wants_csv(query["format"]):
        return jsonify(view)
    header = ["event", "closed_at", "rating", "mu", "sigma", "games"]
    return csv_response([header, *([entry[key] for key in header] for entry in view["history"])], f"rating-{rating_id}.csv")

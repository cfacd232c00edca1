"""Ratings across events over HTTP: ``/ratings`` and ``/ratings/{id}``, JSON or CSV (docs/ratings.md).

Ratings are recomputed from the stored games of closed, public, rated
events on every read; nothing here or in the ledger stores a rating.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ...schemas.tournaments import CsvQuery
from ..requests import query_args
from .ledger_access import ledger
from .tournaments import csv_response, wants_csv

__all__ = ["bp"]

bp = Blueprint("ratings", __name__)
CSV_QUERY = CsvQuery()
_COLUMNS = ("id", "rating", "mu", "sigma", "games", "events", "provisional")


@bp.get("/ratings")
def ratings() -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().ratings()
    if not wants_csv(query["format"]):
        return jsonify(view)
    return csv_response([list(_COLUMNS), *([line[key] for key in _COLUMNS] for line in view["ratings"])], "ratings.csv")


@bp.get("/ratings/<rating_id>")
def rating(rating_id: str) -> Response:
    query = CSV_QUERY.load(query_args())
    view = ledger().rating(rating_id)
    if not wants_csv(query["format"]):
        return jsonify(view)
    header = ["event", "closed_at", "rating", "mu", "sigma", "games"]
    return csv_response([header, *([entry[key] for key in header] for entry in view["history"])], f"rating-{rating_id}.csv")

"""POST /events/{e}/sessions over HTTP, on SQLite and PostgreSQL: a field the method does not take is a 422 naming it.

``tables`` with random, standings, swiss or schedule, ``size`` with manual or schedule, and manual without
its tables: each answered in the one problem shape (checked against the OpenAPI document), nothing seated;
the same session with only its method's fields is then seated. Written from docs/tournaments.md.
"""

from __future__ import annotations

import itertools

import pytest

from .conftest import LedgerServer
from .test_events import Api

_ids = itertools.count()
SIZE = {"target": 2}
TABLES = [["p1", "p2"], ["p3", "p4"]]


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


def test_each_method_refuses_the_fields_it_does_not_take(api: Api, ledger_server: LedgerServer) -> None:
    event_id = f"fields{next(_ids)}-{ledger_server.backend}"
    token = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event_id, "name": "Fields"}).json()["director_token"]["token"]
    for player in ("p1", "p2", "p3", "p4"):
        api("PUT", f"/events/{event_id}/players/{player}", token, expect=201, json={"name": player.upper(), "checked_in": True})
    refused = [
        ({"method": "random", "tables": TABLES}, ["tables"]),
        ({"method": "standings", "tables": TABLES}, ["tables"]),
        ({"method": "swiss", "size": SIZE, "tables": TABLES}, ["tables"]),
        ({"method": "schedule", "size": SIZE}, ["size"]),
        ({"method": "schedule", "size": SIZE, "tables": TABLES}, ["size", "tables"]),
        ({"method": "manual", "size": SIZE, "tables": TABLES}, ["size"]),
        ({"method": "manual"}, ["tables"]),
    ]
    for body, fields in refused:
        errors = api("POST", f"/events/{event_id}/sessions", token, expect=422, json={**body, "number": 1}).json()["errors"]
        assert sorted(errors) == fields, body
    api("GET", f"/events/{event_id}/sessions/1", expect=404)
    seated = api("POST", f"/events/{event_id}/sessions", token, expect=201, json={"method": "manual", "number": 1, "tables": TABLES}).json()
    assert seated["size"] is None and [[seat["player"] for seat in table["seats"]] for table in seated["tables"]] == TABLES
    second = api("POST", f"/events/{event_id}/sessions", token, expect=201, json={"method": "random", "number": 2, "size": SIZE, "unfinished": "allow"}).json()
    assert second["size"] == {"target": 2, "remainder": "smaller"} and len(second["tables"]) == 2

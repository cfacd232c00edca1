"""POST /events/{e}/sessions takes only the fields of its method (docs/tournaments.md, "Writes"): any other is a 422 naming it.

``size`` goes with random, standings and swiss; ``tables`` with manual only, where it is required; a
schedule takes neither (it seats at its plan's sizes). A field that does not apply is never dropped nor
stored: the answer is the one problem shape, with the field at fault, and nothing is seated.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from marshmallow import ValidationError

from wordsvc.schemas.tournaments import METHOD_FIELDS, METHODS, SessionBody

SIZE = {"target": 3, "remainder": "smaller"}
TABLES = [["p1", "p2"], ["p3", "p4"]]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    database = tmp_path_factory.mktemp("ledger") / "l.db"
    return create_app(Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{database}", "WORDSVC_LANGUAGES": "en-US"})).test_client()


@pytest.fixture(scope="module")
def director(client: Any) -> str:
    from wordsvc.web.views.ledger_access import ledger

    with client.application.app_context():
        admin = str(ledger().tokens.create_admin_token("tests")[1])
    created = client.post("/events", json={"name": "Fields", "id": "fields"}, headers={"Authorization": f"Bearer {admin}"})
    token = str(created.get_json()["director_token"]["token"])
    for player in ("p1", "p2", "p3", "p4"):
        assert client.put(f"/events/fields/players/{player}", json={"name": player.upper(), "checked_in": True}, headers={"Authorization": f"Bearer {token}"}).status_code == 201
    return token


def test_every_method_says_which_fields_it_takes():
    assert set(METHOD_FIELDS) == set(METHODS)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"method": "random", "tables": TABLES}, "tables"),
        ({"method": "standings", "tables": TABLES}, "tables"),
        ({"method": "swiss", "tables": TABLES}, "tables"),
        ({"method": "schedule", "tables": TABLES}, "tables"),
        ({"method": "schedule", "size": SIZE}, "size"),
        ({"method": "manual", "size": SIZE, "tables": TABLES}, "size"),
        ({"method": "manual"}, "tables"),
    ],
)
def test_a_field_the_method_does_not_take_is_a_422_naming_it_and_nothing_is_seated(client: Any, director: str, body: dict, field: str):
    answer = client.post("/events/fields/sessions", json={**body, "number": 1}, headers={"Authorization": f"Bearer {director}"})
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    assert list(answer.get_json()["errors"]) == [field]
    assert client.get("/events/fields/sessions/1").status_code == 404


def test_a_schedule_with_both_fields_names_both():
    with pytest.raises(ValidationError) as caught:
        SessionBody().load({"method": "schedule", "number": 1, "size": SIZE, "tables": TABLES})
    assert set(caught.value.messages) == {"size", "tables"}


@pytest.mark.parametrize(("method", "extra"), [("random", {"size": SIZE}), ("swiss", {"size": SIZE}), ("standings", {}), ("manual", {"tables": TABLES}), ("random", {"size": None})])
def test_the_fields_a_method_takes_are_read(method: str, extra: dict):
    assert SessionBody().load({"method": method, "number": 1, **extra})["method"] == method


def test_a_manual_seating_is_stored_without_a_size(client: Any, director: str):
    answer = client.post("/events/fields/sessions", json={"method": "manual", "number": 1, "tables": TABLES}, headers={"Authorization": f"Bearer {director}"})
    assert answer.status_code == 201 and answer.get_json()["size"] is None

"""The ledger's URLs and their answers leak nothing and read only what they say: a private event's deal, a round number."""

from __future__ import annotations

import os
from typing import Any

import pytest


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    database = tmp_path_factory.mktemp("ledger") / "l.db"
    return create_app(Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{database}", "WORDSVC_LANGUAGES": "en-US"})).test_client()


@pytest.fixture(scope="module")
def admin(client: Any) -> str:
    from wordsvc.web.views.ledger_access import ledger

    with client.application.app_context():
        return str(ledger().tokens.create_admin_token("tests")[1])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def event(client: Any, admin: str, event_id: str, **extra: Any) -> str:
    created = client.post("/events", json={"name": event_id, "id": event_id, "ruleset": "standard", **extra}, headers=bearer(admin))
    assert created.status_code == 201, created.get_json()
    director = created.get_json()["director_token"]["token"]
    assert client.put(f"/events/{event_id}/games/t1", json={"players": ["ann", "bob"]}, headers=bearer(director)).status_code == 201
    return str(director)


def test_an_anonymous_request_learns_nothing_of_a_private_events_deals(client: Any, admin: str) -> None:
    event(client, admin, "private-seeded", private=True, deals="seeded")
    event(client, admin, "private-plain", private=True)
    seeded = client.get("/events/private-seeded/games/t1/rounds/1/deal")
    plain = client.get("/events/private-plain/games/t1/rounds/1/deal")
    assert seeded.status_code == plain.status_code == 401
    assert seeded.get_json()["errors"] == plain.get_json()["errors"]


def test_a_round_number_is_ascii_digits(client: Any, admin: str) -> None:
    event(client, admin, "digits")
    for other in ("\uff12", "\u0662"):  # a full-width 2, an Arabic-Indic 2: no route, not round 2
        answer = client.get(f"/events/digits/games/t1/rounds/{other}")
        assert answer.status_code == 404 and answer.get_json()["detail"].startswith("No endpoint")
    stored = client.get("/events/digits/games/t1/rounds/2")  # round 2 itself: a round, not stored yet
    assert stored.status_code == 404 and not stored.get_json()["detail"].startswith("No endpoint")

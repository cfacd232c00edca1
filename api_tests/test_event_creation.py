"""Who creates an event over HTTP (WORDSVC_EVENT_CREATION, docs/operations.md) and the venue's address the pages get (WORDSVC_PUBLIC_URL).

Two servers: one open to anyone with a limit of 2 events without an admin token and a public URL, one that
needs the admin token. Every answer is checked against the OpenAPI document (the codes each status may carry
included), every refusal is the one problem shape naming the field at fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .conftest import admin_token_for, running_server
from .contract import assert_problem

PUBLIC_URL = "http://192.0.2.7:8123"


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server where anyone creates events, 2 without an admin token, with links on the public URL; its URL and an admin token."""
    database = f"sqlite:///{tmp_path_factory.mktemp('open')}/ledger.sqlite3"
    env = {"WORDSVC_DATABASE_URL": database, "WORDSVC_OPEN_EVENTS": "2", "WORDSVC_PUBLIC_URL": PUBLIC_URL + "/"}
    with running_server("wordsvc-open-", env=env) as (url, log):
        _said_where(log, url)
        yield url, admin_token_for(database)


def _said_where(log: Any, url: str) -> None:
    """``wordsvc serve`` told, in its JSON log, the console's address, that it is this machine's alone, and the public URL links use."""
    venue = next(json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if '"event": "venue"' in line)
    assert venue["consoles"] == [f"{url}/console"] and venue["public_url"] == PUBLIC_URL
    assert "Only this machine can reach that address" in venue["notice"] and PUBLIC_URL in venue["notice"]


@pytest.fixture(scope="module")
def admin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    database = f"sqlite:///{tmp_path_factory.mktemp('admin')}/ledger.sqlite3"
    with running_server("wordsvc-admin-", env={"WORDSVC_DATABASE_URL": database, "WORDSVC_EVENT_CREATION": "admin"}) as (url, _log):
        yield url, admin_token_for(database)


def _post(url: str, body: Any, token: str | None = None) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.post(f"{url}/events", json=body, headers=headers, timeout=30)


def test_anyone_creates_an_event_until_the_limit_then_only_an_admin_token(open_server: tuple[str, str]) -> None:
    url, admin = open_server
    first = _post(url, {"name": "Harbour evening", "lang": "en-US", "format": "table-points", "private": True, "deals": "seeded"})
    assert first.status_code == 201, first.text
    made = first.json()
    assert made["private"] is True and made["deals"]["mode"] == "seeded" and made["director_token"]["token"].startswith("wsv_")
    director = made["director_token"]["token"]
    whoami = requests.get(f"{url}/whoami", headers={"Authorization": f"Bearer {director}"}, timeout=30).json()
    assert (whoami["role"], whoami["event"]) == ("director", made["id"])
    audit = requests.get(f"{url}/events/{made['id']}/audit", headers={"Authorization": f"Bearer {director}"}, timeout=30).json()["entries"]
    assert audit[0]["action"] == "event.created" and audit[0]["actor"] == {"token": "open", "role": "public"}
    assert _post(url, {"name": "Second"}, director).status_code == 201  # a director's token of another event: counted as anyone's
    refused = _post(url, {"name": "Third"})
    body = assert_problem(refused, 403)
    assert body["code"] == "open_events_exhausted" and list(body["errors"]) == ["authorization"]
    assert _post(url, {"name": "Third, by the administrator"}, admin).status_code == 201  # never counted, never refused
    assert_problem(_post(url, {"name": "x"}, "wsv_00000000_" + "A" * 43), 401)  # a token sent must be a live one


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({}, "name", 422),
        ({"name": ""}, "name", 422),
        ({"name": "x" * 201}, "name", 422),
        ({"name": "Bad id", "id": "Not An Id!"}, "id", 422),
        ({"name": "Bad rules", "ruleset": "no-such-rules"}, "ruleset", 404),
        ({"name": "Bad language", "lang": "xx-XX"}, "lang", 404),
        ({"name": "Bad format", "format": "elo"}, "format", 422),
        ({"name": "Bad deals", "deals": "shuffled"}, "deals", 422),
        ({"name": "Bad duplicate", "duplicate": True}, "duplicate", 422),
        ({"name": "Bad private", "private": "yes"}, "private", 422),
        ({"name": "Unknown field", "kind": "tournament"}, "kind", 422),
    ],
)
def test_a_bad_field_is_a_4xx_naming_it_and_creates_nothing(open_server: tuple[str, str], body: dict[str, Any], field: str, status: int) -> None:
    url, _admin = open_server
    refused = _post(url, body)
    problem = assert_problem(refused, refused.status_code)
    assert refused.status_code == status, refused.text
    assert field in problem["errors"], problem


def test_under_the_admin_policy_only_an_admin_token_creates(admin_server: tuple[str, str]) -> None:
    url, admin = admin_server
    assert assert_problem(_post(url, {"name": "Nobody's"}), 401)["code"] == "token_missing"
    created = _post(url, {"name": "The administrator's"}, admin)
    assert created.status_code == 201, created.text
    director = created.json()["director_token"]["token"]
    assert assert_problem(_post(url, {"name": "A director's"}, director), 403)["code"] == "role_required"
    assert assert_problem(_post(url, {}), 401)["code"] == "token_missing"  # the token is checked before the body


def test_the_openapi_document_lists_the_policy_and_its_codes(open_server: tuple[str, str]) -> None:
    url, _admin = open_server
    operation = requests.get(f"{url}/openapi.json", timeout=30).json()["paths"]["/events"]["post"]
    assert {} in operation["security"] and {"bearer": []} in operation["security"]  # a token is optional
    assert "open_events_exhausted" in operation["responses"]["403"]["x-problem-codes"]
    assert "token_missing" in operation["responses"]["401"]["x-problem-codes"]
    assert "WORDSVC_EVENT_CREATION" in operation["description"]


def test_the_pages_get_the_public_url_and_the_policy(open_server: tuple[str, str], admin_server: tuple[str, str]) -> None:
    for (url, _admin), public, policy in ((open_server, PUBLIC_URL, "open"), (admin_server, None, "admin")):
        page = requests.get(f"{url}/console", timeout=30).text
        config = json.loads(re.search(r'<script type="application/json" id="page-config">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
        assert (config["public_url"], config["event_creation"]) == (public, policy)

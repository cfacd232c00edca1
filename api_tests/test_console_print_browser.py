"""The console's print buttons (docs/documents.md) in headless Chromium against a real server.

A tournament of eight, session 1 seated through the API: the director signs in, prints session 1's
scorecards from the tournament view and the standings from the standings area; each click fetches the
PDF with the director's token, once, and the service answers a PDF. A private event, so a fetch without
the token would have been a 401.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page
from .conftest import admin_token_for, running_server

EVENT = "print-cup"


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server (SQLite) with the private event print-cup, eight players checked in and session 1 seated."""
    database = f"sqlite:///{tmp_path_factory.mktemp('print')}/ledger.sqlite3"
    with running_server("wordsvc-print-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events", json={"name": "Print cup", "id": EVENT, "ruleset": "standard", "lang": "en-US", "private": True},
            headers={"Authorization": f"Bearer {admin}"}, timeout=30,
        )
        assert created.status_code == 201, created.text
        director = created.json()["director_token"]["token"]
        server = PagesServer(url, database, EVENT, Tokens(admin, director, "", "", ""))
        for i in range(1, 9):
            assert server.api("PUT", f"/events/{EVENT}/players/p{i}", director, json={"name": f"Player {i}", "checked_in": True}).status_code == 201
        seated = server.api("POST", f"/events/{EVENT}/sessions", director, json={"method": "random", "size": {"target": 4}, "number": 1})
        assert seated.status_code == 201, seated.text
        yield server


def test_a_director_prints_the_scorecards_and_the_standings(browser: Any, cup: PagesServer) -> None:
    context, page, traffic = open_page(browser, cup.url + "/console")
    try:
        page.fill("#signin-token", cup.tokens.director)
        page.keyboard.press("Enter")
        button = page.locator("#sessions details[data-session='1'] button[data-print=scorecards]")
        button.wait_for()
        assert button.inner_text() == "Print the scorecards"
        with context.expect_page() as opened:
            button.click()
        answered = traffic.answered(page, "GET", f"/events/{EVENT}/documents/scorecards")
        assert [call["status"] for call in answered] == [200]
        assert answered[0]["url"].endswith("?session=1")
        assert opened.value.url.startswith("blob:")
        assert len(traffic.sent(page, "GET", f"/events/{EVENT}/documents/scorecards")) == 1

        page.wait_for_selector("#standings:not([hidden]) #standings-print button[data-print=standings]")
        with context.expect_page():
            page.click("#standings-print button[data-print=standings]")
        assert [call["status"] for call in traffic.answered(page, "GET", f"/events/{EVENT}/documents/standings")] == [200]
        assert page.inner_text("#standings-print-error") == "" and page.inner_text("#seating-error") == ""
        assert page.is_visible("#dashboard-audit")
        assert_accessible(page, "print buttons shown")
        assert page.errors == []
    finally:
        context.close()

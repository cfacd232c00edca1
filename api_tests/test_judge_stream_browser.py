"""The judge kiosk follows its event's stream (docs/pages.md, "Live updates"), in headless Chromium against a real server.

A kiosk set up at table t1: a round stored there through the API moves the round in its header on
(the round the next ruling is recorded under) within two seconds, and the event closing is told at
once, in a banner, before anyone types a challenge. The event is closed here, so the module has a
server of its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page
from .conftest import admin_token_for, running_server

EVENT = "closing-night"
PLAYERS = ["Ann", "Bob"]
#: Two seconds: the issue's bound from a change stored to a screen showing it.
SHOWN_WITHIN_MS = 2000


@pytest.fixture(scope="module")
def closing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    database = f"sqlite:///{tmp_path_factory.mktemp('closing')}/ledger.sqlite3"
    with running_server("wordsvc-closing-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events", json={"id": EVENT, "name": "Closing night", "ruleset": "standard"}, headers={"Authorization": f"Bearer {admin}"}, timeout=30
        )
        assert created.status_code == 201, created.text
        server = PagesServer(url, database, EVENT, Tokens(admin, created.json()["director_token"]["token"], "", "", ""), {"t1": PLAYERS})
        assert server.api("PUT", f"/events/{EVENT}/games/t1", server.tokens.director, json={"players": PLAYERS}).status_code == 201
        server.tokens.referee_t1 = server.api("POST", f"/events/{EVENT}/tokens", server.tokens.director, json={"role": "referee", "table": "t1"}).json()[
            "token"
        ]
        yield server


def test_the_kiosk_moves_its_round_on_and_tells_the_event_closed_as_they_are_stored(browser: Any, closing: PagesServer) -> None:
    context, page, traffic = open_page(browser, closing.url + "/judge")
    try:
        page.fill("#setup-token", closing.tokens.referee_t1)
        page.keyboard.press("Enter")
        page.wait_for_selector("#count:not([hidden])")
        assert page.inner_text("#locked-to") == "Event Closing night · table t1 · round 1"
        assert [call["status"] for call in traffic.answered(page, "GET", f"/events/{EVENT}/stream")] == [200]

        body = {"players": [{"name": "Ann", "words": ["cat"]}, {"name": "Bob", "words": ["dog"]}]}
        assert closing.api("PUT", f"/events/{EVENT}/games/t1/rounds/1", closing.tokens.director, json=body).status_code == 201
        page.wait_for_selector("#locked-to:text-is('Event Closing night · table t1 · round 2')", timeout=SHOWN_WITHIN_MS)

        assert page.is_hidden("#event-closed")
        assert closing.api("POST", f"/events/{EVENT}/close", closing.tokens.director).status_code == 200
        closed_at = time.monotonic()
        page.wait_for_selector("#event-closed:not([hidden])", timeout=SHOWN_WITHIN_MS)
        assert time.monotonic() - closed_at < SHOWN_WITHIN_MS / 1000
        assert page.inner_text("#event-closed") == "The event is closed: no more rulings can be made."
        assert page.is_visible("#count")  # the kiosk stays where it was; a press would be refused, and say the same
        assert_accessible(page, "the kiosk of a closed event")
        assert page.errors == []
    finally:
        context.close()

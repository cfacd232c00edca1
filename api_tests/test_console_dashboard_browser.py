"""The director's dashboard and the referees' sign-in links in the console (/console), in headless Chromium against a real server (docs/pages.md).

An event of three tables (seated through the API): the dashboard lists them with their players, what is
stored and what is still to enter; one click opens table t2, named at the top; a kiosk ruling at t3 shows
up as a count with its time and result (never the word); a referee link for t1 is issued with its QR code,
opened in a page of its own, and revoked. The token is never in anything the browser sent, nor in the
server's log. axe-core finds nothing; at 390 pixels nothing scrolls sideways.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest
import requests

from .browser import PHONE, STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page, same_origin, screenshot
from .conftest import admin_token_for, running_server

EVENT = "harbour-open"
TABLES = {"t1": ["Ann", "Bob", "Cy"], "t2": ["Dee", "Eve"], "t3": ["Fay", "Gus", "Hal"]}


@pytest.fixture(scope="module")
def harbour(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PagesServer, Path]]:
    """A server (SQLite, polled every second) with event harbour-open and its three tables; and the server's log."""
    database = f"sqlite:///{tmp_path_factory.mktemp('harbour')}/ledger.sqlite3"
    env = {"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_STANDINGS_POLL_SECONDS": "1", "WORDSVC_LOG_FORMAT": "json"}
    with running_server("wordsvc-harbour-", env=env) as (url, log):
        admin = admin_token_for(database)
        body = {"name": "Harbour open", "id": EVENT, "ruleset": "standard", "lang": "en-US"}
        created = requests.post(f"{url}/events", json=body, headers={"Authorization": f"Bearer {admin}"}, timeout=30)
        assert created.status_code == 201, created.text
        server = PagesServer(url, database, EVENT, Tokens(admin, created.json()["director_token"]["token"], "", "", ""), dict(TABLES))
        for table, players in TABLES.items():
            assert server.api("PUT", f"/events/{EVENT}/games/{table}", server.tokens.director, json={"players": players}).status_code == 201
        yield server, log


def _store_round(server: PagesServer, game: str, n: int) -> None:
    """Round n at `game`: each player lays "ox" or "at" and keeps the rest of the hand, cards drawn without reuse."""
    event = server.api("GET", f"/events/{EVENT}").json()
    deck = event["ruleset"]["snapshot"]["deck"]
    hands = cycle([face for face, card in sorted(deck.items()) if len(face) == 1 and face not in "oxat" for _ in range(card["count"])])
    size = event["ruleset"]["rounds"][n - 1]
    body = {
        "players": [
            {"name": name, "words": [["ox", "at"][i % 2]], "unused": "".join(next(hands) for _ in range(size - 2))} for i, name in enumerate(TABLES[game])
        ]
    }
    stored = server.api("PUT", f"/events/{EVENT}/games/{game}/rounds/{n}", server.tokens.director, json=body)
    assert stored.status_code == 201, stored.text


def _card(page: Any, game: str) -> Any:
    return page.locator(f"#dashboard article[data-game={game}]")


def test_a_director_sees_every_table_opens_one_and_hands_a_referee_a_sign_in_link(browser: Any, harbour: tuple[PagesServer, Path]) -> None:
    server, log = harbour
    for n in (1, 2, 3):
        _store_round(server, "t2", n)
    _store_round(server, "t3", 1)
    context, page, traffic = open_page(browser, server.url + "/console")
    try:
        page.fill("#signin-token", server.tokens.director)
        page.keyboard.press("Enter")
        page.wait_for_selector("#dashboard:not([hidden]) article[data-game=t3] [data-stored='1']")

        # Every table: players, state, the last round stored, what is still to enter, the kiosk rulings.
        assert page.locator("#dashboard article[data-game]").evaluate_all("(cards) => cards.map((c) => c.dataset.game)") == ["t1", "t2", "t3"]
        t1, t2 = _card(page, "t1"), _card(page, "t2")
        assert t1.locator(".players").inner_text() == "Ann, Bob, Cy"
        assert t1.locator("[data-state]").inner_text() == "Not started"
        assert t1.locator("[data-missing]").inner_text() == "To enter: rounds 1–8"
        assert t2.locator("[data-state]").inner_text() == "Playing"
        assert re.fullmatch(r"Last stored: round 3 of 8, at \d\d:\d\d( [AP]M)?", t2.locator("[data-stored]").inner_text())
        assert t2.locator("[data-missing]").inner_text() == "To enter: rounds 4–8"
        assert t2.locator("[data-rulings]").inner_text() == "No kiosk ruling"
        assert page.is_hidden("#open-table")

        # One click opens a table; the top of the page names it, with its players and the round to enter.
        t2.locator("button[data-open=t2]").click()
        page.wait_for_selector("#open-table:not([hidden])")
        assert page.inner_text("#open-table") == "Table t2: Dee, Eve — round 4"
        assert page.is_visible("#entry fieldset[data-player=Dee]")
        assert t2.locator("button[data-open=t2]").get_attribute("aria-current") == "true"
        _store_round(server, "t2", 4)  # stored at the table meanwhile: the next poll moves the line on
        page.wait_for_selector("#open-table:text-is('Table t2: Dee, Eve — round 5')")

        # A kiosk ruling at t3: counted, with its time and result, never its words.
        ruling = server.api("POST", f"/events/{EVENT}/judge", server.tokens.director, json={"words": ["ox", "qzxv"], "table": "t3", "round": 2})
        assert ruling.status_code == 200 and ruling.json()["acceptable"] is False
        page.wait_for_selector("#dashboard article[data-game=t3] [data-rulings='1']")
        assert re.fullmatch(r"Kiosk rulings: 1; the last at \d\d:\d\d( [AP]M)?: not acceptable", _card(page, "t3").locator("[data-rulings]").inner_text())
        assert "qzxv" not in page.inner_text("#dashboard")

        # A referee link for t1: the link (absolute, the token in its fragment) and its QR code, drawn by the service.
        t1.locator("button[data-link=t1]").click()
        page.wait_for_selector("#dashboard article[data-game=t1] .signin-link .qr svg[role=img]")
        link = t1.locator(".link-url").input_value()
        match = re.fullmatch(re.escape(f"{server.url}/console#event={EVENT}&table=t1&token=") + r"(wsv_[0-9a-f]{8}_[A-Za-z0-9_-]{43})", link)
        assert match, link
        token = match.group(1)
        assert t1.locator(".qr svg").get_attribute("aria-label") == "QR code of the sign-in link for table t1"
        assert t1.locator(".qr svg path").count() >= 1
        assert "Shown once" in t1.locator(".signin-link").inner_text()
        token_id = token.split("_")[1]
        assert t1.locator(f"li[data-token='{token_id}']").count() == 1
        whoami = server.api("GET", "/whoami", token).json()
        assert (whoami["role"], whoami["event"], whoami["table"]) == ("referee", EVENT, "t1")
        assert_accessible(page, "the dashboard with a sign-in link")
        screenshot(page, "console-dashboard-desktop")

        # Opened on the referee's device: the browser never sends the fragment, so the token reaches no server log.
        referee_context, referee_page, referee_traffic = open_page(browser, link)
        try:
            assert same_origin(referee_traffic, server.url) == []
            assert not [r["url"] for r in referee_traffic.requests if token in r["url"]]
            assert referee_page.errors == []
        finally:
            referee_context.close()

        # Revoked: gone from the card, and the token signs in no more.
        t1.locator(f"button[data-revoke='{token_id}']").click()
        page.wait_for_selector(f"#dashboard-status:text-is('Token {token_id} is revoked: it signs in no more.')")
        assert t1.locator(".signin-link").count() == 0 and t1.locator("li[data-token]").count() == 0
        assert server.api("GET", "/whoami", token).status_code == 401

        # At 390 pixels nothing of the dashboard scrolls sideways.
        page.set_viewport_size(PHONE)
        t1.locator("button[data-link=t1]").click()
        page.wait_for_selector("#dashboard article[data-game=t1] .signin-link .qr svg")
        wide = page.evaluate(
            """() => [document.documentElement, ...document.querySelectorAll('#dashboard, #dashboard *')]
                 .filter((node) => node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'hidden' && node.clientWidth > 0)
                 .map((node) => node.id || node.className || node.tagName)"""
        )
        assert wide == [], wide
        assert page.evaluate("() => document.querySelector('#dashboard').getBoundingClientRect().right") <= PHONE["width"]
        assert_accessible(page, "the dashboard at phone width")
        screenshot(page, "console-dashboard-phone")

        assert same_origin(traffic, server.url) == []
        assert page.errors == []
    finally:
        context.close()

    # The server's log: every request, and no token of a sign-in link in any of them (nor the body sent to POST /qr).
    logged = log.read_text(encoding="utf-8")
    assert '"path": "/console"' in logged or '"path":"/console"' in logged, logged[-2000:]
    assert "/qr" in logged
    assert token not in logged


def test_a_referee_sees_no_dashboard_but_the_table_named_at_the_top(browser: Any, harbour: tuple[PagesServer, Path]) -> None:
    server, _log = harbour
    referee = server.api("POST", f"/events/{EVENT}/tokens", server.tokens.director, json={"role": "referee", "table": "t3"}).json()["token"]
    context, page, _traffic = open_page(browser, server.url + "/console")
    try:
        page.fill("#signin-token", referee)
        page.keyboard.press("Enter")
        page.wait_for_selector("#open-table:not([hidden])")
        assert page.inner_text("#open-table") == "Table t3: Fay, Gus, Hal — round 2"
        assert page.is_hidden("#dashboard")
        assert page.errors == []
    finally:
        context.close()

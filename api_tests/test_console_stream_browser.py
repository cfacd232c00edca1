"""The console follows its event's stream instead of polling (docs/pages.md, "Live updates"), in headless Chromium against a real server.

The server's poll period is one second (WORDSVC_STANDINGS_POLL_SECONDS=1), so polling, were the console
doing it, would show in a few seconds. With the stream live, the standings are read once when they are
shown and once when the stream opens, then never while nothing changes; a round stored through the API
shows within two seconds, for one more read. When the stream cannot be had (Playwright answers it 503),
the console polls every second and still shows a stored round; once the stream answers again, the
polling stops.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, PagesServer, Tokens, Traffic, open_page, same_origin
from .conftest import admin_token_for, running_server

EVENT = "stream-night"
TABLES = {"t1": ["Ann", "Bob"], "t2": ["Cy", "Dee"]}
#: Two seconds: the issue's bound from a round stored to its total on a screen.
SHOWN_WITHIN_MS = 2000
#: The server's poll period in these tests, in seconds: what the console falls back to.
POLL_SECONDS = 1
#: How long nothing may be read while nothing changes: three poll periods, so polling could not hide in it.
QUIET_MS = 3 * POLL_SECONDS * 1000
STREAM = re.compile(r"/events/[^/]+/stream(\?|$)")
#: What a server with no room for another stream answers (docs/streams.md).
BUSY = '{"type": "/docs#problem-unavailable", "title": "Service unavailable", "status": 503, "detail": "No room for another stream.", "errors": {}}'


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    database = f"sqlite:///{tmp_path_factory.mktemp('stream')}/ledger.sqlite3"
    env = {"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_STANDINGS_POLL_SECONDS": str(POLL_SECONDS)}
    with running_server("wordsvc-stream-", env=env) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events", json={"id": EVENT, "name": "Stream night", "ruleset": "standard"}, headers={"Authorization": f"Bearer {admin}"}, timeout=30
        )
        assert created.status_code == 201, created.text
        server = PagesServer(url, database, EVENT, Tokens(admin, created.json()["director_token"]["token"], "", "", ""), dict(TABLES))
        for table, players in TABLES.items():
            assert server.api("PUT", f"/events/{EVENT}/games/{table}", server.tokens.director, json={"players": players}).status_code == 201
        yield server


def _store(server: PagesServer, game: str, n: int, words: list[str]) -> dict[str, int]:
    """Round n at `game`, one word each and nothing left in hand (a hand of n + 2 cards: words of that length); the event's totals after it."""
    body = {"players": [{"name": name, "words": [word]} for name, word in zip(TABLES[game], words, strict=True)]}
    stored = server.api("PUT", f"/events/{EVENT}/games/{game}/rounds/{n}", server.tokens.director, json=body)
    assert stored.status_code == 201, stored.text
    lines = server.api("GET", f"/events/{EVENT}/standings").json()["standings"]
    return {line["player"]: line["total"] for line in lines}


def _referee(server: PagesServer, table: str) -> str:
    return server.api("POST", f"/events/{EVENT}/tokens", server.tokens.director, json={"role": "referee", "table": table}).json()["token"]


def _sign_in(page: Any, token: str) -> None:
    page.fill("#signin-token", token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#standings:not([hidden]) #standings-table tbody tr")


def _standings_reads(page: Any) -> int:
    return len(Traffic.sent(page, "GET", f"/events/{EVENT}/standings"))


def _wait_for_total(page: Any, player: str, total: int, timeout_ms: float) -> None:
    page.locator("#standings-table tbody tr").filter(has=page.locator(f"th:text-is('{player}')")).locator("td:last-child").filter(
        has_text=re.compile(rf"^{total}$")
    ).wait_for(timeout=max(1, timeout_ms))


def test_the_console_reads_the_standings_when_the_stream_says_and_never_polls(browser: Any, night: PagesServer) -> None:
    context, page, traffic = open_page(browser, night.url + "/console")
    try:
        _sign_in(page, _referee(night, "t1"))
        assert [call["status"] for call in traffic.answered(page, "GET", f"/events/{EVENT}/stream")] == [200]
        # Read when shown, and once more for the stream's first message (`ready`): whatever changed before it opened.
        page.wait_for_function(f"() => window.__sent.filter(([m, url]) => m === 'GET' && url.endsWith('/events/{EVENT}/standings')).length >= 2")
        reads = _standings_reads(page)
        page.wait_for_timeout(QUIET_MS)  # three poll periods: a console that polled would have read three more times
        assert _standings_reads(page) == reads == 2

        stored_at = time.monotonic()
        totals = _store(night, "t2", 1, ["cat", "dog"])
        _wait_for_total(page, "Cy", totals["Cy"], SHOWN_WITHIN_MS - (time.monotonic() - stored_at) * 1000)
        _wait_for_total(page, "Dee", totals["Dee"], SHOWN_WITHIN_MS - (time.monotonic() - stored_at) * 1000)
        assert _standings_reads(page) == reads + 1  # one message, one read
        assert len(Traffic.sent(page, "GET", f"/events/{EVENT}/stream")) == 1
        assert same_origin(traffic, night.url) == []
        assert page.errors == []
    finally:
        context.close()


def test_without_the_stream_the_console_polls_and_stops_once_the_stream_is_back(browser: Any, night: PagesServer) -> None:
    context, page, traffic = open_page(browser, night.url + "/console")
    page.route(STREAM, lambda route: route.fulfill(status=503, content_type="application/problem+json", headers={"Retry-After": "1"}, body=BUSY))
    try:
        _sign_in(page, _referee(night, "t1"))
        traffic.answered(page, "GET", f"/events/{EVENT}/stream")
        # Polling: a read every second.
        reads = _standings_reads(page)
        page.wait_for_function(
            f"(reads) => window.__sent.filter(([m, url]) => m === 'GET' && url.endsWith('/events/{EVENT}/standings')).length >= reads + 2",
            arg=reads,
            timeout=4 * POLL_SECONDS * 1000,
        )
        stored_at = time.monotonic()
        totals = _store(night, "t1", 1, ["cat", "dog"])
        _wait_for_total(page, "Ann", totals["Ann"], SHOWN_WITHIN_MS - (time.monotonic() - stored_at) * 1000)  # a poll period and a read

        # The stream answers again: the console, which kept trying it in the background, takes it and stops polling.
        page.unroute(STREAM)
        for _ in range(1500):  # at most 30 s: the longest wait between two tries is 15 s
            if any(call["status"] == 200 for call in traffic.calls("GET", f"/events/{EVENT}/stream")):
                break
            page.wait_for_timeout(20)
        statuses = [call["status"] for call in traffic.calls("GET", f"/events/{EVENT}/stream")]
        assert statuses[-1] == 200 and set(statuses[:-1]) == {503}, statuses
        reads = _standings_reads(page)
        page.wait_for_timeout(QUIET_MS)
        assert _standings_reads(page) - reads <= 1, "polled on with the stream live"  # at most the read of the stream's `ready`
        assert page.errors == []
    finally:
        context.close()

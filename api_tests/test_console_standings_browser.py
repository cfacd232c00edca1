"""A tournament's standings in the console, on the projector and on paper, and the director's pages on a phone, in headless Chromium
against a real server (docs/pages.md, "Standings" and "On a phone"; docs/standings.md).

Eight players, two sessions at tables of 4: session 1 played to the end, session 2 seated and not played. The console's
standings are one row a player, marked provisional, and the per-table lines are session 1's only; the crosstable is on
screen from the same answer as the printed one; seats read from 1 in the console and on the projector; a table's
points read alike on screen and in the PDF; at 390 x 844 the director's views are parts of a switcher, none scrolls
sideways, each is a screen or two long, and every target in them is at least 44 px. axe-core finds nothing.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest
import requests

from .browser import PHONE, STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page, screenshot
from .conftest import admin_token_for, running_server

EVENT = "autumn-cup"
PLAYERS = [("ann", "Ann"), ("bob", "Bob"), ("cy", "Cy"), ("dee", "Dee"), ("eve", "Eve"), ("fay", "Fay"), ("gus", "Gus"), ("hal", "Hal")]
#: One word a seat lays each round (two cards), the rest of the hand left unused: four different scores at a table.
WORDS = ["ox", "at", "go", "is"]
#: 1366 x 768, the walk's laptop.
LAPTOP = {"width": 1366, "height": 768}
#: The issue's phone page was 6,200 px long; a part of the switcher is at most three screens.
MOST_PART_HEIGHT = 3 * PHONE["height"]


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server (SQLite, standings polled every second) with autumn-cup: eight players, session 1 played, session 2 seated only."""
    database = f"sqlite:///{tmp_path_factory.mktemp('autumn')}/ledger.sqlite3"
    with running_server("wordsvc-autumn-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_STANDINGS_POLL_SECONDS": "1"}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events", json={"name": "Autumn cup", "id": EVENT, "ruleset": "standard", "lang": "en-US"}, headers={"Authorization": f"Bearer {admin}"}, timeout=30
        )
        assert created.status_code == 201, created.text
        server = PagesServer(url, database, EVENT, Tokens(admin, created.json()["director_token"]["token"], "", "", ""))
        for pid, name in PLAYERS:
            assert server.api("PUT", f"/events/{EVENT}/players/{pid}", server.tokens.director, json={"name": name, "checked_in": True}).status_code == 201
        seated = server.api("POST", f"/events/{EVENT}/sessions", server.tokens.director, json={"method": "random", "size": {"target": 4}, "number": 1})
        assert seated.status_code == 201, seated.text
        for table in seated.json()["tables"]:
            _store_rounds(server, table["game"])
        assert server.api("POST", f"/events/{EVENT}/sessions", server.tokens.director, json={"method": "standings", "size": {"target": 4}, "number": 2}).status_code == 201
        yield server


def _store_rounds(server: PagesServer, game: str) -> None:
    """Every round of ``game``: each seat lays its word of WORDS and keeps the rest of its hand, cards drawn from the deck without reuse."""
    seats = server.api("GET", f"/events/{EVENT}/games/{game}").json()["players"]
    event = server.api("GET", f"/events/{EVENT}").json()
    deck = event["ruleset"]["snapshot"]["deck"]
    pool = cycle([face for face, card in sorted(deck.items()) if len(face) == 1 and face not in "oxatgis" for _ in range(card["count"])])
    for n, size in enumerate(event["ruleset"]["rounds"], start=1):
        body = {"players": [{"name": name, "words": [WORDS[i]], "unused": "".join(next(pool) for _ in range(size - 2))} for i, name in enumerate(seats)]}
        stored = server.api("PUT", f"/events/{EVENT}/games/{game}/rounds/{n}", server.tokens.director, json=body)
        assert stored.status_code == 201, stored.text


def _sign_in(page: Any, token: str) -> None:
    page.fill("#signin-token", token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#standings-table tbody tr", state="attached")  # on a phone, in a part not shown yet


def _pdf_text(server: PagesServer, kind: str, tmp_path: Path) -> str:
    answer = server.api("GET", f"/events/{EVENT}/documents/{kind}", server.tokens.director)
    assert answer.status_code == 200, answer.text
    path = tmp_path / f"{kind}.pdf"
    path.write_bytes(answer.content)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True, timeout=60).stdout


def test_the_console_standings_follow_the_tournament_one_row_a_player_marked_provisional(browser: Any, cup: PagesServer) -> None:
    standings = cup.api("GET", f"/events/{EVENT}/standings").json()
    overall = standings["overall"]
    assert (overall["through"], overall["completed"], overall["provisional"]) == (2, 1, True)
    context, page, _traffic = open_page(browser, cup.url + "/console", LAPTOP)
    try:
        _sign_in(page, cup.tokens.director)
        rows = page.locator("#standings-table tbody tr")
        assert rows.count() == len(PLAYERS)  # one row a player, never a row a player and table (16 here)
        assert [row.get_attribute("data-player") for row in rows.all()] == [line["player"] for line in overall["lines"]]
        assert all(line["games"] == 1 for line in overall["lines"])  # the seated, unplayed session 2 counts no game
        state = page.locator("#standings-state")
        assert state.get_attribute("data-provisional") == "true"
        assert state.inner_text() == "Provisional: the games played through session 2; final once the last session is complete."
        # The tables' lines: the last session played only, ranked within it.
        page.wait_for_selector("#standings-session:not([hidden])")
        assert page.inner_text("#standings-tables-heading") == "Session 1: standings by table"
        tables = {row.get_attribute("data-table") for row in page.locator("#standings-session-table tbody tr").all()}
        assert tables == {"s1-t1", "s1-t2"}
        screenshot(page, "console-tournament-standings-laptop")
        assert_accessible(page, "the tournament's standings")
        assert page.errors == []
    finally:
        context.close()


def test_the_crosstable_is_on_screen_from_the_same_answer_as_the_printed_one(browser: Any, cup: PagesServer) -> None:
    crosstable = cup.api("GET", f"/events/{EVENT}/crosstable").json()
    context, page, traffic = open_page(browser, cup.url + "/console", LAPTOP)
    try:
        _sign_in(page, cup.tokens.director)
        page.wait_for_selector("#crosstable tbody[data-player] tr[data-opponent]")
        assert traffic.sent(page, "GET", f"/events/{EVENT}/crosstable")
        shown = [body.get_attribute("data-player") for body in page.locator("#crosstable tbody").all()]
        assert shown == crosstable["players"]  # in the order of the standings
        for player in crosstable["players"]:
            rows = page.locator(f"#crosstable tbody[data-player={player}] tr[data-opponent]")
            expected = sorted((m["session"], opponent) for opponent, games in crosstable["meetings"][player].items() for m in games)
            assert sorted((int(row.get_attribute("data-session")), row.get_attribute("data-opponent")) for row in rows.all()) == expected
        first = crosstable["players"][0]
        opponent, games = next(iter(crosstable["meetings"][first].items()))
        cells = page.locator(f"#crosstable tbody[data-player={first}] tr[data-opponent={opponent}] td").all_inner_texts()
        names = dict(PLAYERS)
        assert cells == [names[opponent], games[0]["table"], f"{games[0]['score']} : {games[0]['opponent_score']}", {"win": "won", "loss": "lost", "tie": "tied"}[games[0]["result"]]]
        assert page.errors == []
    finally:
        context.close()


def test_seats_are_numbered_from_1_in_the_console_and_on_the_projector(browser: Any, cup: PagesServer) -> None:
    session = cup.api("GET", f"/events/{EVENT}/sessions/2").json()
    table = session["tables"][0]
    first = next(seat for seat in table["seats"] if seat["seat"] == 0)
    context, page, _traffic = open_page(browser, cup.url + "/console", LAPTOP)
    try:
        _sign_in(page, cup.tokens.director)
        seating = page.locator(f"#sessions .seating[data-game={table['game']}] tbody tr")
        seating.first.wait_for()
        shown = [row.locator("td").first.inner_text() for row in seating.all()]
        assert shown == ["1 (deals first)", *(str(n) for n in range(2, len(table["seats"]) + 1))]
        assert seating.first.locator("th").inner_text() == first["name"]
    finally:
        context.close()
    context, page, _traffic = open_page(browser, f"{cup.url}/events/{EVENT}/display")
    try:
        card = page.locator(f"#seating-box article[data-game={table['game']}]")
        card.wait_for()
        numbered = page.evaluate(
            "(game) => { const list = document.querySelector(`#seating-box article[data-game='${game}'] ol`); return [list.start, list.reversed, getComputedStyle(list).listStyleType]; }",
            table["game"],
        )
        assert numbered == [1, False, "decimal"]  # the list numbers its seats 1, 2, 3 ...
        assert first["name"] in card.locator("li").first.inner_text()
    finally:
        context.close()


def test_table_points_read_the_same_on_screen_and_in_the_pdf(browser: Any, cup: PagesServer, tmp_path: Path) -> None:
    lines = cup.api("GET", f"/events/{EVENT}/standings").json()["overall"]["lines"]
    two_thirds = [line for line in lines if abs(line["table_points"] - 2 / 3) < 1e-9]
    assert two_thirds, lines  # a second place at a table of 4: 2 of its 3 others beaten
    context, page, _traffic = open_page(browser, cup.url + "/console", LAPTOP)
    try:
        _sign_in(page, cup.tokens.director)
        page.wait_for_selector(f"#overall-table tbody tr[data-player={two_thirds[0]['player']}]")
        headings = page.locator("#overall-table thead th").all_inner_texts()
        column = headings.index("Table points")
        on_screen = {row.get_attribute("data-player"): row.locator("th, td").nth(column).inner_text() for row in page.locator("#overall-table tbody tr").all()}
        assert {on_screen[line["player"]] for line in two_thirds} == {"0.67"}
    finally:
        context.close()
    text = _pdf_text(cup, "standings", tmp_path)
    for line in two_thirds:
        row = next(row for row in text.splitlines() if f" {line['name']} " in f" {row} ")
        assert "0.67" in row.split(), row
    assert "0.7" not in text.split() and "0.3" not in text.split()  # never one decimal on paper


#: tests/test_formats.py's ROUNDINGS: what wordsvc.core.standings.rounded gives paper, which the pages must show alike.
ROUNDINGS = [(2 / 3, 2, "0.67"), (1 / 3, 2, "0.33"), (0.125, 2, "0.13"), (1.005, 2, "1.01"), (1 / 7, 2, "0.14"), (12.5, 0, "13"), (3.0, 2, "3"), (-0.001, 2, "0"), (1234.5, 2, "1234.5")]


def test_the_pages_round_a_number_as_the_documents_do(browser: Any, cup: PagesServer) -> None:
    context, page, _traffic = open_page(browser, cup.url + "/console", LAPTOP)
    try:
        shown = page.evaluate(
            """async (cases) => {
              const { formatNumber } = await import("/assets/common.js");
              return cases.map(([value, decimals]) => formatNumber(value, decimals));
            }""",
            [[value, decimals] for value, decimals, _ in ROUNDINGS],
        )
        assert shown == [text for _, _, text in ROUNDINGS]
    finally:
        context.close()


@pytest.mark.parametrize("part", ["sessions", "tables", "standings"])
def test_the_directors_pages_fit_a_phone_one_part_at_a_time_with_44_px_targets(browser: Any, cup: PagesServer, part: str) -> None:
    context, page, _traffic = open_page(browser, cup.url + "/console", PHONE)
    try:
        _sign_in(page, cup.tokens.director)
        page.wait_for_selector("#sessions .seating input[data-pick]", state="attached")  # session 2's seating, its swap boxes, drawn
        page.wait_for_selector("#crosstable tbody tr", state="attached")
        assert page.is_visible("#parts")
        page.click(f"#parts button[data-show={part}]")
        assert page.get_attribute(f"#parts button[data-show={part}]", "aria-pressed") == "true"
        sizes = page.evaluate("() => ({width: document.documentElement.clientWidth, scroll: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})")
        assert sizes["scroll"] <= sizes["width"], f"{part}: the page scrolls sideways ({sizes})"
        assert sizes["height"] <= MOST_PART_HEIGHT, f"{part}: {sizes['height']} px long"
        small = page.evaluate(
            """() => [...document.querySelectorAll("main button, main select, main input, main summary, main a[href]")]
              .filter((node) => node.offsetParent !== null && !node.closest(".visually-hidden"))
              .map((node) => [node.outerHTML.slice(0, 80), node.getBoundingClientRect().width, node.getBoundingClientRect().height])
              .filter(([, width, height]) => width < 44 || height < 44)"""
        )
        assert small == [], f"{part}: targets under 44 px: {small}"
        if part == "sessions":  # the swap boxes, 13 px before
            box = page.locator("#sessions input[data-pick]").first.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
        if part == "standings":
            assert page.is_visible("#standings-table") and page.is_hidden("#dashboard")
            assert page.is_hidden("#crosstable")  # folded on a phone: a tap opens it
            page.click("#crosstable-box summary")
            assert page.is_visible("#crosstable tbody tr")
            width = page.evaluate("() => [document.documentElement.clientWidth, document.documentElement.scrollWidth]")
            assert width[1] <= width[0], f"the crosstable scrolls sideways: {width}"
        screenshot(page, f"console-director-phone-{part}")
        assert_accessible(page, f"the {part} part at 390 px")
        assert page.errors == []
    finally:
        context.close()


def test_entering_a_tables_rounds_on_a_phone_switches_to_the_rounds_part(browser: Any, cup: PagesServer) -> None:
    context, page, _traffic = open_page(browser, cup.url + "/console", PHONE)
    try:
        _sign_in(page, cup.tokens.director)
        page.wait_for_selector("#parts button[data-show=players][aria-pressed=true]")  # a tournament's director starts at the players
        page.click("#parts button[data-show=sessions]")
        page.click("#sessions button[data-open=s2-t1]")
        page.wait_for_selector("#entry:not([hidden]) fieldset.player")
        assert page.get_attribute("#parts button[data-show=entry]", "aria-pressed") == "true"
        assert page.is_hidden("#sessions") and page.is_visible("#words-0")
        width = page.evaluate("() => [document.documentElement.clientWidth, document.documentElement.scrollWidth]")
        assert width[1] <= width[0], f"the entry scrolls sideways: {width}"
        assert page.errors == []
    finally:
        context.close()

"""The director's tournament view of the console (/console) in headless Chromium against a real server (docs/pages.md, "The tournament").

One small tournament walked as a director does it: players registered (some through the API, two in the
page), checked in, one withdrawn; session 1 seated at random at tables of 4, two players swapped; its
tables opened for their rounds, which go in through the API; session 2 refused in Icelandic while session
1 is unfinished, then seated by swiss once it is done; the standings across sessions, after each session,
and their CSV; session 3 seated anyway while session 2 is unfinished.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page, same_origin, screenshot
from .conftest import admin_token_for, running_server

EVENT = "spring-cup"
#: Registered through the API (id, name); two more are registered in the page.
API_PLAYERS = [("ann", "Ann"), ("bob", "Bob"), ("cy", "Cy"), ("dee", "Dee"), ("eve", "Eve"), ("fay", "Fay")]
PAGE_PLAYERS = [("gus", "Gus", "Tartu"), ("hal", "Hal", "")]
#: One word a player lays each round (two cards), the rest of the hand left unused: scores that differ.
WORDS = ["ox", "at", "go", "is"]


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server (SQLite, standings polled every second) with event spring-cup (standard rules, English) and no player yet."""
    database = f"sqlite:///{tmp_path_factory.mktemp('cup')}/ledger.sqlite3"
    with running_server("wordsvc-cup-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_STANDINGS_POLL_SECONDS": "1"}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events",
            json={"name": "Spring cup", "id": EVENT, "ruleset": "standard", "lang": "en-US"},
            headers={"Authorization": f"Bearer {admin}"},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        director = created.json()["director_token"]["token"]
        yield PagesServer(url, database, EVENT, Tokens(admin, director, "", "", ""))


def _hands(server: PagesServer, seats: list[str], cards: int) -> dict[str, Any]:
    """A round's body for a table: each player lays a word of WORDS and keeps the rest of the hand, cards drawn from the deck without reuse."""
    deck = server.api("GET", f"/events/{EVENT}").json()["ruleset"]["snapshot"]["deck"]
    pool = [face for face, card in sorted(deck.items()) if len(face) == 1 and face not in "oxatgis" for _ in range(card["count"])]
    hands = cycle(pool)
    return {"players": [{"name": name, "words": [WORDS[i]], "unused": "".join(next(hands) for _ in range(cards - 2))} for i, name in enumerate(seats)]}


def _store_rounds(server: PagesServer, game: str, rounds: range) -> None:
    seats = server.api("GET", f"/events/{EVENT}/games/{game}").json()["players"]
    sizes = server.api("GET", f"/events/{EVENT}").json()["ruleset"]["rounds"]
    for n in rounds:
        stored = server.api("PUT", f"/events/{EVENT}/games/{game}/rounds/{n}", server.tokens.director, json=_hands(server, seats, sizes[n - 1]))
        assert stored.status_code == 201, stored.text


def _seated(page: Any, number: int) -> dict[str, list[str]]:
    """Session `number` as the page shows it: table -> names in seat order."""
    box = page.locator(f"#sessions details[data-session='{number}']")
    return {table.get_attribute("data-game"): table.locator("tbody th").all_inner_texts() for table in box.locator(".seating").all()}


def _stored(server: PagesServer, number: int) -> dict[str, list[str]]:
    session = server.api("GET", f"/events/{EVENT}/sessions/{number}").json()
    return {table["game"]: [seat["name"] for seat in table["seats"]] for table in session["tables"]}


def test_a_director_runs_a_small_tournament_from_the_console(browser: Any, cup: PagesServer) -> None:
    server = cup
    for pid, name in [*API_PLAYERS, ("zed", "Zed")]:
        assert server.api("PUT", f"/events/{EVENT}/players/{pid}", server.tokens.director, json={"name": name, "checked_in": pid == "zed"}).status_code == 201
    context, page, traffic = open_page(browser, server.url + "/console")
    try:
        page.fill("#signin-token", server.tokens.director)
        page.keyboard.press("Enter")
        page.wait_for_selector("#tournament:not([hidden]) #player-table tbody tr[data-player=zed]")
        assert page.is_hidden("#table-pick")  # no table before the first session
        assert page.inner_text("#seat") == "Seat session 1"

        # Registering in the page: a problem is shown beside its field, in the page's words.
        page.click("#register-form button[type=submit]")
        page.wait_for_selector("#reg-name-error:text-is('From 1 to 64 characters.')")
        assert page.get_attribute("#reg-name", "aria-invalid") == "true"
        page.click("#reg-id-choose summary")
        page.fill("#reg-id", "ann")
        page.fill("#reg-name", "Annabel")
        page.click("#register-form button[type=submit]")
        page.wait_for_selector("#reg-id-error:text-is('ann is already registered with another name, club or rating id.')")
        for pid, name, club in PAGE_PLAYERS:
            page.fill("#reg-id", pid)
            page.fill("#reg-name", name)
            page.fill("#reg-club", club)
            page.click("#register-form button[type=submit]")
            page.wait_for_selector(f"#player-table tbody tr[data-player={pid}]")
        assert page.get_attribute("#reg-name", "aria-invalid") is None and page.inner_text("#reg-id-error") == ""
        assert page.locator("#player-table tbody tr[data-player=gus] td.club").inner_text() == "Tartu"

        # Check-in, one button a player; a withdrawal asks first.
        for pid in [p[0] for p in API_PLAYERS + PAGE_PLAYERS]:
            page.click(f"button[data-check-in={pid}]")
            page.wait_for_selector(f"#player-table tbody tr[data-player={pid}] td.state:text-is('✓ checked in')")
        page.click("button[data-withdraw=zed]")
        assert "Withdraw Zed from session 1 on?" in page.inner_text("#player-table tbody tr[data-player=zed]")
        page.click("button[data-cancel=zed]")
        page.wait_for_selector("button[data-withdraw=zed]")
        assert server.api("GET", f"/events/{EVENT}/players").json()["players"][-1]["withdrawn"] is None
        page.click("button[data-withdraw=zed]")
        page.click("button[data-confirmed=withdraw]")
        page.wait_for_selector("#player-table tbody tr[data-player=zed] td.state:text-is('withdrawn from session 1')")
        assert page.inner_text("#players-count") == "9 registered, 8 checked in and playing."

        # Session 1, random at 4: one request however often it is clicked, two tables of 4.
        page.select_option("#session-method", "random")
        page.fill("#session-target", "4")
        held: list[Any] = []  # the request is held until both clicks are in: the second meets it in flight on any machine
        page.route(f"{server.url}/events/{EVENT}/sessions", lambda route: held.append(route) if route.request.method == "POST" else route.continue_())
        page.dblclick("#seat")
        for _ in range(500):  # the held request reaches the test as an event: wait for it, at most 10 s
            if held:
                break
            page.wait_for_timeout(20)
        assert len(held) == 1 and page.is_disabled("#seat")
        held[0].continue_()
        page.wait_for_selector("#sessions details[data-session='1'] .seating[data-game=s1-t2]")
        page.unroute(f"{server.url}/events/{EVENT}/sessions")
        assert len(traffic.sent(page, "POST", f"/events/{EVENT}/sessions")) == 1
        seated = _seated(page, 1)
        assert seated == _stored(server, 1) and sorted(map(len, seated.values())) == [4, 4]
        assert all("Zed" not in names for names in seated.values())
        assert page.inner_text("#sessions details[data-session='1'] [data-state]") == "Not started: the seating may still change."
        assert page.inner_text("#next-heading") == "Next session: 2"
        page.wait_for_selector("#table-pick:not([hidden]) #table-select option[value=s1-t2]", state="attached")  # the picker has the new tables
        assert_accessible(page, "session 1 seated")

        # A swap: one player of each table, picked, swapped, shown.
        a, b = seated["s1-t1"][1], seated["s1-t2"][2]
        ids = {name: pid for pid, name in API_PLAYERS} | {name: pid for pid, name, _ in PAGE_PLAYERS}
        page.check(f"input[data-pick={ids[a]}]")
        page.check(f"input[data-pick={ids[b]}]")
        assert page.inner_text("button[data-swap='1']") == f"Swap {a} and {b}"
        page.click("button[data-swap='1']")
        page.wait_for_selector(f".seating[data-game=s1-t1] tbody tr[data-seat='1'] th:text-is('{b}')")
        swapped = _seated(page, 1)
        assert swapped == _stored(server, 1) and swapped["s1-t2"][2] == a
        assert page.inner_text("#tournament-status") == f"{a} and {b} have swapped seats."
        screenshot(page, "console-tournament-desktop")

        # Starting: a table opens in the console for its rounds; once one is stored the seating is fixed.
        page.click("button[data-open=s1-t1]")
        page.wait_for_selector("#entry:not([hidden]) fieldset.player")
        assert page.locator("#players legend").all_inner_texts() == swapped["s1-t1"]
        _store_rounds(server, "s1-t1", range(1, 2))
        page.wait_for_selector("#sessions details[data-session='1'] [data-state=started]")
        assert page.locator("#sessions input[data-pick], button[data-swap], button[data-redraw]").count() == 0
        assert "1 of 8 rounds" in page.inner_text(".seating[data-game=s1-t1] caption")

        # Session 2 while session 1 is unfinished: refused, said in Icelandic, nothing seated.
        page.select_option("#language", "is")
        page.select_option("#session-method", "swiss")
        page.click("#seat")
        page.wait_for_selector("#unfinished:not([hidden])")
        assert page.inner_text("#unfinished-text").startswith("Lotu 1 er ekki lokið: á borðum s1-t1, s1-t2 á enn eftir að vista umferðir.")
        assert page.inner_text("#seat-anyway") == "Raða samt"
        assert server.api("GET", f"/events/{EVENT}/sessions").json()["sessions"][-1]["number"] == 1
        page.select_option("#language", "en")
        assert page.inner_text("#seat-anyway") == "Seat anyway"

        # Session 1 finished through the API; session 2 seated by swiss in the page.
        _store_rounds(server, "s1-t1", range(2, 9))
        _store_rounds(server, "s1-t2", range(1, 9))
        page.wait_for_selector("#sessions details[data-session='1'] [data-state=started]:text-is('Finished: every table has all its rounds.')")
        page.click("#seat")
        page.wait_for_selector("#sessions details[data-session='2'] .seating[data-game=s2-t2]")
        assert page.is_hidden("#unfinished")
        seated2 = _seated(page, 2)
        assert seated2 == _stored(server, 2) and sorted(map(len, seated2.values())) == [4, 4]
        assert "Session 2 · swiss · 2 table(s)" in page.inner_text("#sessions details[data-session='2'] summary")

        # The standings across sessions, after the latest session and after session 1, and their CSV.
        overall = server.api("GET", f"/events/{EVENT}/standings").json()["overall"]
        page.wait_for_selector(f"#overall-table tbody tr[data-player={overall['lines'][0]['player']}]")
        assert page.locator("#overall-table thead th").all_inner_texts() == ["Rank", "Player", "Games", "Total", "Table points", "Wins"]
        shown = [row.split("\t")[:4] for row in page.locator("#overall-table tbody tr").all_inner_texts()]
        assert (
            shown
            == [[str(x["rank"]), x["name"] + (" (withdrawn)" if x["withdrawn"] else ""), str(x["games"]), str(round(x["total"]))] for x in overall["lines"]]
            and len(shown) == 9
        )
        assert page.locator("#overall-through option").all_inner_texts() == ["the latest session", "session 1", "session 2"]
        page.select_option("#overall-through", "1")
        page.wait_for_function("() => document.getElementById('overall-format').textContent.includes('up to 1.')")
        after1 = server.api("GET", f"/events/{EVENT}/standings?session=1").json()["overall"]["lines"]
        assert [row.split("\t")[1] for row in page.locator("#overall-table tbody tr").all_inner_texts()] == [
            x["name"] + (" (withdrawn)" if x["withdrawn"] else "") for x in after1
        ]
        assert page.get_attribute("#overall-csv", "href") == f"/events/{EVENT}/standings?format=csv&session=1"
        with page.expect_download() as download:
            page.click("#overall-csv")
        csv_text = Path(download.value.path()).read_text(encoding="utf-8")
        assert csv_text.splitlines()[0].startswith("rank,player,name,games") and download.value.suggested_filename == f"{EVENT}-standings-after-1.csv"
        assert_accessible(page, "two sessions and the standings")

        # Session 3 while session 2 has no round: refused, then seated anyway, which the session records.
        page.select_option("#session-method", "standings")
        page.click("#seat")
        page.wait_for_selector("#unfinished:not([hidden])")
        page.click("#seat-anyway")
        page.wait_for_selector("#sessions details[data-session='3']")
        third = server.api("GET", f"/events/{EVENT}/sessions/3").json()
        assert third["unfinished"] is True and third["method"] == "standings"
        assert len(traffic.sent(page, "POST", f"/events/{EVENT}/sessions")) == 5  # 1, 2 refused, 2, 3 refused, 3 anyway
        assert same_origin(traffic, server.url) == [] and page.errors == []
    finally:
        context.close()

"""A session played online from the director's console, in headless Chromium against a real server (docs/pages.md, "The tournament").

Seven players seated at a table of four and one of three; *Play session 1 online* with the short table filled
by a bot hosts both tables in one click and shows every player's seat link with its QR code; each link opens
its own seat; a no-show's seat is handed to a bot from the page; the dashboard and the projector say how
each hosted table stands, and neither page errs on the hosted games' stream messages; axe finds nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest
import requests

from .browser import PHONE, STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page
from .conftest import admin_token_for, running_server

EVENT = "online-night"
#: The controls of the online part smaller than 44 px on a phone (WCAG 2.5.5), by their text.
SMALL_TARGETS = """() => [...document.querySelectorAll('#sessions .online :is(button, select, a, label.check, textarea)')]
  .filter((node) => node.offsetParent !== null)
  .map((node) => [node.textContent.trim() || node.id, node.getBoundingClientRect()])
  .filter(([, r]) => r.height < 44 || r.width < 44)
  .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server (SQLite) with public event online-night: seven players checked in, session 1 seated (tables of 4 and 3)."""
    database = f"sqlite:///{tmp_path_factory.mktemp('online')}/ledger.sqlite3"
    with running_server("wordsvc-online-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events", json={"name": "Online night", "id": EVENT, "ruleset": "standard", "lang": "en-US"}, headers={"Authorization": f"Bearer {admin}"}, timeout=30
        )
        assert created.status_code == 201, created.text
        server = PagesServer(url, database, EVENT, Tokens(admin, created.json()["director_token"]["token"], "", "", ""))
        players = [{"name": name, "checked_in": True} for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")]
        assert server.api("POST", f"/events/{EVENT}/players", server.tokens.director, json={"players": players}).status_code == 201
        seated = server.api("POST", f"/events/{EVENT}/sessions", server.tokens.director, json={"method": "random", "number": 1, "size": {"target": 4}})
        assert seated.status_code == 201, seated.text
        yield server


def test_a_director_plays_a_session_online_and_hands_out_the_seat_links(browser: Any, night: PagesServer) -> None:
    server = night
    tables = {t["game"]: t for t in server.api("GET", f"/events/{EVENT}/sessions/1").json()["tables"]}
    short = next(game for game, table in tables.items() if len(table["seats"]) == 3)
    context, page, _traffic = open_page(browser, server.url + "/console")
    try:
        page.fill("#signin-token", server.tokens.director)
        page.keyboard.press("Enter")
        page.wait_for_selector("#sessions [data-online='1'] button[data-host='1']")
        assert_accessible(page, "the session, before it is hosted")
        page.check("#fill-1")
        page.select_option("#level-1", "1")
        page.click("button[data-host='1']")
        page.wait_for_selector("#tournament-status:text-is('Session 1 is played online: hand each player their seat link.')")
        page.wait_for_function("() => document.querySelectorAll('.seat-slips .signin-link .qr svg').length === 7")

        page.wait_for_selector("#sessions details[data-session='1'] [data-state=online]")
        assert page.locator("#sessions details[data-session='1'] input[data-pick]").count() == 0  # hosted: no swap, no redraw
        hosted = server.api("GET", f"/events/{EVENT}/sessions/1").json()["tables"]
        assert [t["online"] for t in hosted] == ["playing", "playing"]
        bot_seat = server.api("GET", f"/events/{EVENT}/games/{short}/play").json()["seats"][3]
        assert (bot_seat["kind"], bot_seat["level"]) == ("bot", 1)

        # Each box's link opens its own seat: the table page's address, the token in the fragment.
        for game, table in tables.items():
            for seat in table["seats"]:
                link = page.input_value(f"#link-seat-{game}-{seat['seat']}")
                found = re.fullmatch(rf"{re.escape(server.url)}/play/{EVENT}/{game}#token=(wsv_[^&]+)", link)
                assert found, link
                state = server.api("GET", f"/events/{EVENT}/games/{game}/play", unquote(found.group(1))).json()["state"]
                assert state["viewer"] == seat["seat"] and state["players"][seat["seat"]] == seat["name"]
        assert page.get_attribute(f"a[data-watch='{short}']", "href") == f"/play/{EVENT}/{short}"
        assert_accessible(page, "the seat links of a hosted session")

        # A player who has not come: the director hands the seat to a bot; the link is gone from the page.
        first = next(iter(tables))
        name = tables[first]["seats"][0]["name"]
        page.click(f"button[data-seat-bot='{first}/0']")
        page.wait_for_selector(f"#tournament-status:text-is('A bot plays {name}\\'s seat from now on.')")
        page.wait_for_selector(f"#link-seat-{first}-0", state="detached")
        assert page.inner_text(f"[data-seat-line='{first}/0'][data-bot=true]") == f"{name}: a bot plays this seat."
        seat0 = server.api("GET", f"/events/{EVENT}/games/{first}/play").json()["seats"][0]
        assert (seat0["kind"], seat0["handed"]) == ("bot", "absent")

        # The dashboard: each hosted table's game, and a link to watch it (a public event).
        page.wait_for_selector(f"#dashboard [data-game='{short}'] p.online[data-online=playing]")
        assert "Online: round 1 of 8 being played." in page.inner_text(f"#dashboard [data-game='{short}'] p.online")
        assert page.get_attribute(f"#dashboard a[data-watch='{short}']", "href") == f"/play/{EVENT}/{short}"

        # On a phone: the sessions part, its seat links with nothing scrolling sideways and every control 44 px.
        page.set_viewport_size(PHONE)
        page.click(".parts button[data-show=sessions]")
        page.wait_for_selector("#sessions .seat-slips .signin-link .qr svg")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert page.evaluate(SMALL_TARGETS) == []
        assert_accessible(page, "390 px: the seat links")
        assert page.errors == []
    finally:
        context.close()

    # The projector: the session's tables with how their games stand, through the hosted games' messages.
    context, display, _traffic = open_page(browser, f"{server.url}/events/{EVENT}/display")
    try:
        display.wait_for_selector(f".seating-table[data-game='{short}'] .online[data-online=playing]")
        assert display.inner_text(f".seating-table[data-game='{short}'] .online") == "online, round 1 of 8"
        seat = server.api("GET", f"/events/{EVENT}/games/{short}/play").json()
        assert seat["status"] == "playing"
        assert display.errors == []
    finally:
        context.close()

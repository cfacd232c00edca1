"""The console's players list (/console, players.js) in headless Chromium against a real server (docs/pages.md, "The tournament").

A room registered as a director does it: twelve names pasted (accented ones among them) and all checked in
within a handful of actions, ids made from the names; a CSV file read into the list; a look-alike name warned
about with both names shown, registered only when the director says so; an id that is no id told in a plain
sentence, never its pattern; a mistaken registration deleted, a seated player only withdrawn; the ticked players
checked in; and the list at 390 px with no sideways scroll and every target 44 px. axe-core finds nothing, of
any impact, in every state.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .browser import PHONE, STEADY_TIMINGS, PagesServer, Tokens, assert_accessible, open_page, same_origin, screenshot
from .conftest import admin_token_for, running_server

_events = itertools.count()
#: Twelve players as a director pastes them: tab, ";" and "," separators, clubs and a rating id, accents of three languages.
ROOM = """Þórdís Jónsdóttir\tReykjavík
Õnne Saar;Tartu
Zoë Martin, Lyon, zoe-martin-fr
Ann Lee
Bob Ray
Cy Dee

Dee Fox
Ævar Ørn
Eve Gray
Fay Hill
Gus Ives
Hal Jones
"""
ROOM_IDS = ["thordis-jonsdottir", "onne-saar", "zoe-martin", "ann-lee", "bob-ray", "cy-dee", "dee-fox", "aevar-orn", "eve-gray", "fay-hill", "gus-ives", "hal-jones"]

#: Every visible touch target in the players list smaller than 44 CSS px (WCAG 2.5.5): buttons both ways; fields and a checkbox's label in height.
SMALL_TARGETS = """() => [...document.querySelectorAll('#players-list :is(button, select, input:not([type=checkbox]), label.check, summary)')]
  .filter((node) => node.offsetParent !== null)
  .map((node) => [node.id || node.getAttribute('aria-label') || node.textContent.trim(), node.getBoundingClientRect(), node.tagName === 'BUTTON'])
  .filter(([, r, button]) => r.height < 44 || (button && r.width < 44))
  .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server on SQLite; each test makes its own event (:func:`_event`)."""
    database = f"sqlite:///{tmp_path_factory.mktemp('players')}/ledger.sqlite3"
    with running_server("wordsvc-players-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        yield PagesServer(url, database, "", Tokens(admin_token_for(database), "", "", "", ""))


def _event(server: PagesServer) -> tuple[str, str]:
    """A new event (standard rules, English): its id and director token."""
    event = f"room-{next(_events)}"
    created = requests.post(
        f"{server.url}/events", json={"name": "Room night", "id": event, "ruleset": "standard", "lang": "en-US"}, headers={"Authorization": f"Bearer {server.tokens.admin}"}, timeout=30
    )
    assert created.status_code == 201, created.text
    return event, created.json()["director_token"]["token"]


def _sign_in(browser: Any, server: PagesServer, token: str, viewport: dict[str, int] | None = None) -> tuple[Any, Any, Any]:
    context, page, traffic = open_page(browser, server.url + "/console", **({"viewport": viewport} if viewport else {}))
    page.fill("#signin-token", token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#tournament:not([hidden]) #register-form")
    return context, page, traffic


def _players(server: PagesServer, event: str) -> list[dict[str, Any]]:
    return server.api("GET", f"/events/{event}/players").json()["players"]  # type: ignore[no-any-return]


def _state(page: Any, pid: str) -> str:
    return page.inner_text(f"#player-table tr[data-player='{pid}'] td.state")  # type: ignore[no-any-return]


def test_twelve_pasted_names_are_registered_and_all_checked_in_within_a_handful_of_actions(browser: Any, server: PagesServer) -> None:
    event, token = _event(server)
    context, page, traffic = _sign_in(browser, server, token)  # actions 1 and 2: the token, Enter
    try:
        assert page.is_hidden("#player-table") and page.is_hidden("#reg-id")  # the id is made from the name unless asked for
        page.fill("#paste-list", ROOM)  # 3
        page.click("#paste-register")  # 4
        page.wait_for_selector("#players-status:text-is('12 players are registered.')")
        assert page.locator("#player-table tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)") == sorted(ROOM_IDS)
        assert page.input_value("#paste-list") == ""
        row = page.locator("#player-table tr[data-player='zoe-martin']")
        assert row.locator("th").inner_text() == "Zoë Martin" and row.locator("td.club").inner_text() == "Lyon"
        assert page.inner_text("#check-in-all") == "Check in all 12 players not checked in"
        assert_accessible(page, "twelve players registered")
        page.click("#check-in-all")  # 5
        page.wait_for_selector("#players-status:text-is('12 players are checked in.')")
        assert all(p["checked_in"] for p in _players(server, event)) and len(_players(server, event)) == 12
        assert [_state(page, pid) for pid in ROOM_IDS] == ["✓ checked in"] * 12
        assert page.inner_text("#players-count") == "12 registered, 12 checked in and playing."
        assert page.is_disabled("#check-in-all") and page.is_disabled("#check-in-ticked")
        posts = [r for r in traffic.requests if r["method"] == "POST"]
        assert [r["url"].removeprefix(server.url) for r in posts] == [f"/events/{event}/players", f"/events/{event}/check-in"]  # one request each
        entries = server.api("GET", f"/events/{event}/audit").json()["entries"]
        assert [e["action"] for e in entries].count("player.registered") == 12 and [e["action"] for e in entries].count("player.checked_in") == 12
        assert_accessible(page, "everyone checked in")
        screenshot(page, "console-players-desktop")
        assert same_origin(traffic, server.url) == [] and page.errors == []
    finally:
        context.close()


def test_a_look_alike_name_is_shown_beside_the_other_and_registered_only_when_confirmed(browser: Any, server: PagesServer) -> None:
    event, token = _event(server)
    context, page, _traffic = _sign_in(browser, server, token)
    try:
        page.fill("#reg-name", "Zoë Martin")
        page.click("#reg-submit")
        page.wait_for_selector("#players-status:text-is('Zoë Martin is registered as zoe-martin.')")

        page.fill("#paste-list", "Ann Lee\nZoe Martin\nAnn Lée")
        page.click("#paste-register")
        page.wait_for_selector("#similar:not([hidden])")
        assert page.locator("#similar-list li").all_inner_texts() == ["Line 2: “Zoe Martin” looks like “Zoë Martin”.", "Line 3: “Ann Lée” looks like “Ann Lee”."]
        assert page.evaluate("document.activeElement.id") == "register-anyway"
        assert len(_players(server, event)) == 1  # nothing registered yet
        assert_accessible(page, "a look-alike warning")
        page.click("#similar-cancel")
        assert page.is_hidden("#similar") and page.evaluate("document.activeElement.id") == "paste-list"
        page.click("#paste-register")
        page.click("#register-anyway")
        page.wait_for_selector("#players-status:text-is('3 players are registered.')")
        assert page.is_hidden("#similar")
        assert [p["id"] for p in _players(server, event)] == ["ann-lee", "ann-lee-2", "zoe-martin", "zoe-martin-2"]

        # the one-player form warns too, in the page's language
        page.select_option("#language", "de")
        page.fill("#reg-name", "Zoé Martin")
        page.click("#reg-submit")
        page.wait_for_selector("#similar:not([hidden])")
        assert page.locator("#similar-list li").all_inner_texts() == ["„Zoé Martin“ ähnelt „Zoë Martin“.", "„Zoé Martin“ ähnelt „Zoe Martin“."]
        page.click("#register-anyway")
        page.wait_for_selector("#players-status:text-is('Zoé Martin ist als zoe-martin-3 angemeldet.')")
        page.select_option("#language", "en")

        # an id chosen by hand that is no id: a plain sentence, never the pattern
        page.click("#reg-id-choose summary")
        page.fill("#reg-id", "Þórdís")
        page.fill("#reg-name", "Þórdís Björk")
        page.click("#reg-submit")
        page.wait_for_selector("#reg-id-error:text-is('An id is lowercase letters a–z, digits, - and _ (64 at most). Leave it empty and one is made from the name.')")
        assert page.get_attribute("#reg-id", "aria-invalid") == "true"
        assert "[a-z0-9]" not in page.content()
        page.fill("#reg-id", "")
        page.click("#reg-submit")
        page.wait_for_selector("#players-status:text-is('Þórdís Björk is registered as thordis-bjork.')")
        assert page.get_attribute("#reg-id", "aria-invalid") is None

        # a line at fault is named by its line, in a plain sentence
        page.fill("#paste-list", "Eve Gray\nann lee\n\nCy Dee;;Not An Id")
        page.click("#paste-register")
        page.wait_for_selector("#paste-error p")
        assert page.locator("#paste-error p").all_inner_texts() == ["Line 4 (Cy Dee): A rating id is lowercase letters a–z, digits, - and _ (64 at most)."]
        page.fill("#paste-list", "Eve Gray\nann lee\n\nCy Dee")
        page.click("#paste-register")
        page.wait_for_selector("#paste-error p:has-text('Line 2')")
        assert page.locator("#paste-error p").all_inner_texts() == ["Line 2 (ann lee): “ann lee” is already a player's name (names are compared without case)."]
        assert_accessible(page, "a list refused line by line")
    finally:
        context.close()


def test_a_csv_file_is_read_into_the_list_then_registered(browser: Any, server: PagesServer) -> None:
    event, token = _event(server)
    context, page, _traffic = _sign_in(browser, server, token)
    try:
        text = '\ufeffname,club,rating_id\r\n"Martin, Zoë",Lyon,zm-lyon\r\nDóra Jónsdóttir,"Félag ""Ás""",\r\n\r\nHekla,,\r\n'
        page.set_input_files("#csv-file", {"name": "room.csv", "mimeType": "text/csv", "buffer": text.encode("utf-8")})
        page.wait_for_selector("#players-status:text-is('3 players read from room.csv: check the list, then register it.')")
        assert page.input_value("#paste-list") == 'Martin, Zoë\tLyon\tzm-lyon\nDóra Jónsdóttir\tFélag "Ás"\nHekla'
        page.click("#paste-register")
        page.wait_for_selector("#players-status:text-is('3 players are registered.')")
        got = {p["id"]: (p["name"], p["club"], p["rating_id"]) for p in _players(server, event)}
        assert got == {"martin-zoe": ("Martin, Zoë", "Lyon", "zm-lyon"), "dora-jonsdottir": ("Dóra Jónsdóttir", 'Félag "Ás"', None), "hekla": ("Hekla", None, None)}
        page.set_input_files("#csv-file", {"name": "wrong.csv", "mimeType": "text/csv", "buffer": b"player;club\nAnn;X\n"})
        page.wait_for_selector("#paste-error p")
        assert page.inner_text("#paste-error") == "wrong.csv has no name column: its first row names the columns (name, club, rating_id)."
    finally:
        context.close()


def test_a_mistaken_registration_is_deleted_and_a_seated_player_only_withdrawn_ticked_players_checked_in(browser: Any, server: PagesServer) -> None:
    event, token = _event(server)
    lines = [{"name": n, "checked_in": True} for n in ("Ann Lee", "Bob Ray", "Cy Dee", "Dee Fox")] + [{"name": "Mistaken Entry"}, {"name": "Eve Gray"}, {"name": "Fay Hill"}]
    assert server.api("POST", f"/events/{event}/players", token, json={"players": lines}).status_code == 201
    context, page, _traffic = _sign_in(browser, server, token)
    try:
        page.wait_for_selector("#player-table tr[data-player='mistaken-entry']")
        page.click("button[data-delete='mistaken-entry']")
        row = page.locator("#player-table tr[data-player='mistaken-entry']")
        assert "Delete the registration of Mistaken Entry? They have no games." in row.inner_text()
        assert page.evaluate("document.activeElement.dataset.confirmed") == "delete"
        assert_accessible(page, "a deletion asked")
        page.click("button[data-cancel='mistaken-entry']")
        assert page.evaluate("document.activeElement.dataset.delete") == "mistaken-entry"
        page.click("button[data-delete='mistaken-entry']")
        page.click("button[data-confirmed='delete']")
        page.wait_for_selector("#players-status:text-is('The registration of Mistaken Entry is deleted.')")
        assert page.locator("#player-table tr[data-player='mistaken-entry']").count() == 0
        assert "mistaken-entry" not in [p["id"] for p in _players(server, event)]
        assert server.api("GET", f"/events/{event}/audit").json()["entries"][-1]["action"] == "player.deleted"

        # ticked players checked in; the rest stay out
        page.check("input[data-tick='eve-gray']")
        assert page.inner_text("#check-in-ticked") == "Check in the 1 ticked player"
        page.click("#check-in-ticked")
        page.wait_for_selector("#players-status:text-is('1 player is checked in.')")
        assert _state(page, "eve-gray") == "✓ checked in" and _state(page, "fay-hill") == "– not checked in"

        # once seated, a player is withdrawn, never deleted; a late entry comes from the same list
        seated = server.api("POST", f"/events/{event}/sessions", token, json={"method": "random", "number": 1, "size": {"target": 5}})
        assert seated.status_code == 201, seated.text
        page.wait_for_selector("#players-late:text-is('Registered or checked in now, a player plays from session 2 on (a late entry).')")
        assert page.locator("button[data-delete='ann-lee']").count() == 0 and page.locator("button[data-withdraw='ann-lee']").count() == 1
        assert page.locator("button[data-delete='fay-hill']").count() == 1  # never seated
        page.click("button[data-check-in='fay-hill']")
        page.wait_for_selector("#player-table tr[data-player='fay-hill'] td.state:text-is('✓ checked in, plays from session 2')")
        page.click("button[data-withdraw='bob-ray']")
        page.click("button[data-confirmed='withdraw']")
        page.wait_for_selector("#player-table tr[data-player='bob-ray'] td.state:text-is('withdrawn from session 2')")
        assert_accessible(page, "a session seated, a late entry and a withdrawal")
    finally:
        context.close()


def test_at_390_px_the_list_has_no_sideways_scroll_and_44_px_targets(browser: Any, server: PagesServer) -> None:
    event, token = _event(server)
    lines = [{"name": name, "club": "Reykjavíkur skákfélag" if i % 3 == 0 else None} for i, name in enumerate(ROOM.split("\n")) if name]
    body = {"players": [{"name": line["name"].split("\t")[0].split(";")[0].split(",")[0], **({"club": line["club"]} if line["club"] else {})} for line in lines]}
    assert server.api("POST", f"/events/{event}/players", token, json=body).status_code == 201
    context, page, _traffic = _sign_in(browser, server, token, viewport=PHONE)
    try:
        page.wait_for_selector("#player-table tr[data-player='hal-jones']")
        page.check("input[data-tick='ann-lee']")
        page.click("button[data-delete='bob-ray']")
        for state in ("a list of cards", "the similar warning"):
            if state == "the similar warning":
                page.fill("#paste-list", "Zoe Martin")
                page.click("#paste-register")
                page.wait_for_selector("#similar:not([hidden])")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], state
            assert page.evaluate(SMALL_TARGETS) == [], state
            assert_accessible(page, f"390 px: {state}")
        card = page.locator("#player-table tr[data-player='ann-lee']").bounding_box()
        assert card is not None and card["width"] <= PHONE["width"]
        screenshot(page, "console-players-phone")
    finally:
        context.close()

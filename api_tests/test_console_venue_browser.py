"""An event created from the console, the room's sign-in links and one link per table, in headless Chromium against real servers
(docs/pages.md, "A new event" and "Sign-in links"; docs/venue.md).

A server open to anyone (the default policy) at 127.0.0.1: the director creates a private, seeded event on the sign-in screen,
lands signed in as its director with the sign-in link and QR code to keep or print (never the bare token), is warned that the
links point at a loopback address, and hands out the kiosk's and the projector's links, each opened on a device of its own.
A table's link is the same from the dashboard and the tournament view, shown again rather than issued again, and renewed
only when asked, the old one revoked. A second server with a public URL and the admin policy: no form, no warning, and
every link on the public address. Tokens are in no URL the browser sent; axe-core finds nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from .browser import DESKTOP, PHONE, STEADY_TIMINGS, assert_accessible, open_page, same_origin
from .conftest import admin_token_for, running_server

TOKEN = r"(wsv_[0-9a-f]{8}_[A-Za-z0-9_-]{43})"
PUBLIC_URL = "http://192.0.2.7:8123"
#: window.print, replaced in the page: what was marked for printing at the moment the page asked to print.
PRINT_SPY = "() => { window.__printed = []; window.print = () => { window.__printed.push({box: document.querySelector('.print-target')?.dataset.linkBox, one: document.body.classList.contains('print-one')}); }; }"


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """A server where anyone creates events (the default), on 127.0.0.1 with no public URL: its URL, an admin token and its log."""
    database = f"sqlite:///{tmp_path_factory.mktemp('venue')}/ledger.sqlite3"
    env = {"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_STANDINGS_POLL_SECONDS": "1", "WORDSVC_LOG_FORMAT": "json"}
    with running_server("wordsvc-venue-", env=env) as (url, log):
        yield url, admin_token_for(database), log


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server with WORDSVC_PUBLIC_URL and the admin policy: its URL and an admin token."""
    database = f"sqlite:///{tmp_path_factory.mktemp('published')}/ledger.sqlite3"
    env = {"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS, "WORDSVC_PUBLIC_URL": PUBLIC_URL, "WORDSVC_EVENT_CREATION": "admin"}
    with running_server("wordsvc-published-", env=env) as (url, _log):
        yield url, admin_token_for(database)


def _api(url: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, url + path, headers=headers, timeout=30, **kwargs)


def _box(page: Any, key: str) -> Any:
    page.wait_for_selector(f"[data-link-box='{key}'] .qr svg[role=img]")
    return page.locator(f"[data-link-box='{key}']")


def _bare_token_shown(page: Any, token: str) -> int:
    """How many elements show ``token`` as text outside a link's field."""
    return page.evaluate("(tok) => [...document.querySelectorAll('body *:not(textarea)')].filter((n) => [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.includes(tok))).length", token)


def test_a_director_creates_an_event_from_the_console_and_hands_out_the_rooms_links(browser: Any, venue: tuple[str, str, Path]) -> None:
    url, _admin, log = venue
    context, page, traffic = open_page(browser, url + "/console")
    tokens: list[str] = []
    try:
        page.evaluate(PRINT_SPY)
        # The sign-in screen offers a new event, warned that links would point at this computer alone.
        page.wait_for_selector("#new-event-submit:not([disabled])")
        assert page.is_visible("#new-event-loopback") and url in page.inner_text("#new-event-loopback")
        assert "only this computer can open" in page.inner_text("#new-event-loopback")
        assert page.input_value("#new-event-lang") == "en-US" and page.input_value("#new-event-ruleset") == "standard"  # the language's own deck
        assert page.locator("#new-event-format option").all_inner_texts() == ["Total", "Table points", "Wins", "Average"]
        assert page.is_disabled("#new-event-duplicate")
        assert_accessible(page, "the sign-in screen with its new event form")
        page.set_viewport_size(PHONE)  # the form on a phone: nothing scrolls sideways
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert_accessible(page, "the new event form at phone width")
        page.set_viewport_size(DESKTOP)

        page.click("#new-event-submit")  # no name: said, nothing sent
        assert page.inner_text("#new-event-error") == "Give the event a name (up to 200 characters)."
        assert traffic.sent(page, "POST", "/events") == []

        page.fill("#new-event-name", "Harbour evening")
        page.select_option("#new-event-format", "table-points")
        page.check("#new-event-seeded")
        page.check("#new-event-private")
        page.click("#new-event-submit")

        # Signed in as the new event's director, the sign-in link and its QR code shown at once.
        director = _box(page, "venue-director")
        link = director.locator(".link-url").input_value()
        match = re.fullmatch(re.escape(f"{url}/console#event=") + r"(e[0-9a-f]{8})&token=" + TOKEN, link)
        assert match, link
        event, token = match.groups()
        tokens.append(token)
        assert "Harbour evening is created and you are signed in as its director." in director.inner_text()
        assert director.locator(".qr svg").get_attribute("aria-label") == "QR code: Your director link"
        assert page.is_hidden("#signin") and page.is_hidden("#new-event") and page.is_visible("#dashboard") and page.is_visible("#tournament")
        whoami = _api(url, "GET", "/whoami", token).json()
        assert (whoami["role"], whoami["event"]) == ("director", event)
        made = _api(url, "GET", f"/events/{event}", token).json()
        assert (made["name"], made["private"], made["deals"]["mode"], made["ruleset"]["id"]) == ("Harbour evening", True, "seeded", "standard")
        assert _api(url, "GET", f"/events/{event}").status_code == 401  # private: nobody reads it without a token
        assert _bare_token_shown(page, token) == 0
        assert page.is_visible("#loopback-warning") and url in page.inner_text("#loopback-warning")

        # Print: the box alone is marked for the browser's print, and unmarked after.
        director.locator("button[data-print-link]").click()
        assert page.evaluate("window.__printed") == [{"box": "venue-director", "one": True}]
        page.wait_for_function("() => !document.body.classList.contains('print-one') && !document.querySelector('.print-target')")
        assert_accessible(page, "the dashboard with the director's sign-in link")

        # The kiosk's link: a referee token of the event for no table; a second click shows the same link.
        assert _api(url, "PUT", f"/events/{event}/games/t1", token, json={"players": ["Ann", "Bob"]}).status_code == 201
        page.click("#venue-link-kiosk")
        kiosk_link = _box(page, "venue-kiosk").locator(".link-url").input_value()
        kiosk_match = re.fullmatch(re.escape(f"{url}/judge#event={event}&token=") + TOKEN, kiosk_link)
        assert kiosk_match, kiosk_link
        tokens.append(kiosk_match.group(1))
        page.click("#venue-link-kiosk")
        assert page.locator("[data-link-box='venue-kiosk'] .link-url").input_value() == kiosk_link
        live = _api(url, "GET", f"/events/{event}/tokens", token).json()["tokens"]
        assert [(tk["role"], tk["table"]) for tk in live if tk["revoked_at"] is None and tk["role"] == "kiosk"] == [("kiosk", None)]
        kiosk_context, kiosk, kiosk_traffic = open_page(browser, kiosk_link)
        try:
            kiosk.wait_for_selector("#setup-table-field:not([hidden])")  # signed in by the link: which table does it serve?
            assert "token" not in kiosk.url and kiosk.url.endswith("/judge")
            kiosk.select_option("#setup-table", "t1")
            kiosk.click("#setup-form button[type=submit]")
            kiosk.wait_for_selector("#count:not([hidden])")
            assert "table t1" in kiosk.inner_text("#locked-to")
            assert not [r["url"] for r in kiosk_traffic.requests if tokens[1] in r["url"]]
            assert kiosk.errors == []
        finally:
            kiosk_context.close()

        # The projector's link: the event is private, so a viewer token rides in the fragment.
        page.click("#venue-link-projector")
        projector = _box(page, "venue-projector")
        display_link = projector.locator(".link-url").input_value()
        display_match = re.fullmatch(re.escape(f"{url}/events/{event}/display#token=") + TOKEN, display_link)
        assert display_match, display_link
        tokens.append(display_match.group(1))
        assert _api(url, "GET", "/whoami", display_match.group(1)).json()["role"] == "viewer"
        assert "private" in projector.inner_text()
        display_context, display, display_traffic = open_page(browser, display_link)
        try:
            assert display_traffic.answered(display, "GET", f"/events/{event}")[0]["status"] == 200
            assert "token" not in display.url
            assert display.errors == []
        finally:
            display_context.close()
        assert_accessible(page, "the dashboard with the kiosk's and the projector's links")
        page.set_viewport_size(PHONE)
        assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")
        assert same_origin(traffic, url) == []
        assert not [r["url"] for r in traffic.requests if any(tok in r["url"] for tok in tokens)]
        assert page.errors == []
    finally:
        context.close()
    logged = log.read_text(encoding="utf-8")
    assert tokens and not [tok for tok in tokens if tok in logged]


def test_a_tables_link_is_one_from_either_view_shown_again_and_renewed_only_when_asked(browser: Any, venue: tuple[str, str, Path]) -> None:
    url, admin, _log = venue
    created = _api(url, "POST", "/events", admin, json={"name": "Quay cup", "id": "quay-cup", "format": "total"}).json()
    director = created["director_token"]["token"]
    for pid in ("ann", "bob", "cy", "dee"):
        assert _api(url, "PUT", f"/events/quay-cup/players/{pid}", director, json={"name": pid.title(), "checked_in": True}).status_code == 201
    session = _api(url, "POST", "/events/quay-cup/sessions", director, json={"method": "random", "size": {"target": 4}, "number": 1}).json()
    game = session["tables"][0]["game"]

    def live() -> list[str]:
        return [tk["id"] for tk in _api(url, "GET", "/events/quay-cup/tokens", director).json()["tokens"] if tk["table"] == game and tk["revoked_at"] is None]

    context, page, _traffic = open_page(browser, url + "/console")
    try:
        page.fill("#signin-token", director)
        page.keyboard.press("Enter")
        card = page.locator(f"#dashboard article[data-game='{game}']")
        card.locator(f"button[data-link='{game}']").wait_for()
        card.locator(f"button[data-link='{game}']").click()
        first = _box(page, f"table-{game}").first.locator(".link-url").input_value()
        assert re.fullmatch(re.escape(f"{url}/console#event=quay-cup&table={game}&token=") + TOKEN, first), first
        assert "Shown once" in card.locator(".signin-link").inner_text()
        assert len(live()) == 1

        # Hidden, then asked again: the same link, said to be the one issued here, and no second live token.
        card.locator(f"button[data-hide='{game}']").click()
        assert card.locator(".signin-link").count() == 0
        card.locator(f"button[data-link='{game}']").click()
        card.locator(".signin-link .qr svg").wait_for()
        assert card.locator(".link-url").input_value() == first
        assert "This link was issued on this device at" in card.locator(".signin-link").inner_text()
        assert len(live()) == 1

        # The tournament view hands out the same link for the table.
        seating = page.locator(f"#sessions .seating[data-game='{game}']")
        seating.locator(f"button[data-token='{game}']").click()
        seating.locator(".signin-link .qr svg").wait_for()
        assert seating.locator(".link-url").input_value() == first
        assert len(live()) == 1
        assert_accessible(page, "a table's link in the dashboard and the tournament view")

        # Renewed only when asked: a new link, the old one revoked; still one live token for the table.
        seating.locator(f"button[data-renew='{game}']").click()
        page.wait_for_function(
            "([sel, old]) => { const f = document.querySelector(sel); return f && f.value !== old; }", arg=[f"#sessions .seating[data-game='{game}'] .link-url", first]
        )
        second = seating.locator(".link-url").input_value()
        assert second != first and "Shown once" in seating.locator(".signin-link").inner_text()
        old_token, new_token = first.rsplit("token=", 1)[1], second.rsplit("token=", 1)[1]
        assert _api(url, "GET", "/whoami", old_token).status_code == 401
        assert _api(url, "GET", "/whoami", new_token).json()["table"] == game
        assert len(live()) == 1

        page.click("#venue-link-kiosk")
        kiosk_first = _box(page, "venue-kiosk").locator(".link-url").input_value()

        # A reload keeps the links issued on this device, the table's and the kiosk's; signing out forgets them.
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        card.locator(f"button[data-link='{game}']").wait_for()
        card.locator(f"button[data-link='{game}']").click()
        card.locator(".signin-link .qr svg").wait_for()
        assert card.locator(".link-url").input_value() == second and len(live()) == 1
        page.click("#venue-link-kiosk")
        kiosk = _box(page, "venue-kiosk")
        assert kiosk.locator(".link-url").input_value() == kiosk_first and "This link was issued on this device at" in kiosk.inner_text()
        kiosk.locator("button[data-renew-room=kiosk]").click()
        page.wait_for_function("(old) => { const f = document.querySelector('#link-venue-kiosk'); return f && f.value !== old; }", arg=kiosk_first)
        assert _api(url, "GET", "/whoami", kiosk_first.rsplit("token=", 1)[1]).status_code == 401
        assert _api(url, "GET", "/whoami", page.input_value("#link-venue-kiosk").rsplit("token=", 1)[1]).json()["role"] == "kiosk"
        assert_accessible(page, "the kiosk's link shown again after a reload")
        kept = "() => Object.keys(localStorage).filter((key) => /^wordsvc\\.(table|room)-links/.test(key)).sort()"
        assert page.evaluate(kept) == ["wordsvc.room-links/quay-cup", "wordsvc.table-links/quay-cup"]
        page.click("#sign-out")
        assert page.evaluate(kept) == []
        assert page.errors == []
    finally:
        context.close()


def test_with_a_public_url_every_link_uses_it_and_no_warning_shows(browser: Any, published: tuple[str, str]) -> None:
    url, admin = published
    context, page, traffic = open_page(browser, url + "/console")
    try:
        # The admin policy: no form, a sentence saying who creates events.
        assert page.is_hidden("#new-event-form") and page.is_visible("#new-event-closed") and page.is_hidden("#new-event-loopback")
        assert "created by its administrator" in page.inner_text("#new-event-closed")
        created = _api(url, "POST", "/events", admin, json={"name": "Pier night", "id": "pier-night"}).json()
        assert _api(url, "PUT", "/events/pier-night/games/t1", created["director_token"]["token"], json={"players": ["Ann", "Bob"]}).status_code == 201
        page.fill("#signin-token", created["director_token"]["token"])
        page.keyboard.press("Enter")
        page.wait_for_selector("#venue-links:not([hidden])")
        assert page.is_hidden("#loopback-warning")
        page.click("#venue-link-projector")
        link = _box(page, "venue-projector").locator(".link-url").input_value()
        assert link == f"{PUBLIC_URL}/events/pier-night/display"  # a public event: no token at all
        assert "no token" not in link
        assert json.loads(traffic.answered(page, "POST", "/qr")[-1]["sent"]) == {"text": link}  # the QR code holds the same link
        card = page.locator("#dashboard article[data-game=t1]")
        card.locator("button[data-link=t1]").click()
        table_link = _box(page, "table-t1").locator(".link-url").input_value()
        assert table_link.startswith(f"{PUBLIC_URL}/console#event=pier-night&table=t1&token=wsv_")
        assert_accessible(page, "the dashboard with links on the public address")
        assert page.errors == []
    finally:
        context.close()

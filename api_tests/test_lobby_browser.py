"""The players' lobby, /play, in Chromium (docs/pages.md, "The lobby (/play)"): a table made with bots and its invite,
the name kept on the device, the open public tables and their "Join", a private table's seat links, refusals as
sentences, three languages with their plural forms, axe-core, and the phone's layout.

One back end (SQLite): the lobby's calls are the protocol's, which api_tests/test_play.py plays on both. The server
sets WORDSVC_PUBLIC_URL, so every link the lobby hands out must start with it; a second server, with creation
closed (WORDSVC_EVENT_CREATION=admin), shows the page a player sees there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
import requests

from .browser import DESKTOP, PHONE, assert_accessible, open_page, screenshot
from .conftest import running_server

#: The venue's address the server is given: every link and QR code must start with it.
PUBLIC_URL = "http://quiddler.venue.example:8000"
#: A key of the catalogue shown as it is, never as its text ("lobby.open.join").
RAW_KEY = re.compile(r"\b(?:lobby|links|page|play|dashboard)\.[a-z_]+(?:\.[a-z_]+)*\b")
#: What the service says that a page must never show: its English detail or title, a field path, a status.
API_WORDS = ("Conflict", "Invalid request", "see errors", "taken at this table", "409", "422", "Failed to fetch")


@pytest.fixture(scope="module")
def lobby_url() -> Iterator[str]:
    with running_server("wordsvc-lobby-", env={"WORDSVC_PUBLIC_URL": PUBLIC_URL}) as (url, _log):
        yield url


def _api(url: str, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.request(method, url + path, headers=headers, timeout=30, **kwargs)


def _table(url: str, name: str, seats: int, bots: tuple[int, ...] | list[int] = (), people: tuple[str, ...] = (), **body: Any) -> dict[str, Any]:
    """A public table made through the API with `bots` (seats, level 2) and `people` seated: its event's id."""
    made = _api(url, "POST", "/tables", json={"name": name, "seats": seats, "bots": [{"seat": s, "level": 2} for s in bots], **body})
    assert made.status_code == 201, made.text
    event = made.json()["event"]
    for person in people:
        assert _api(url, "POST", f"/events/{event}/games/table/play/seats", json={"name": person}).status_code == 201
    return made.json()


def _make(page: Any, name: str, seats: int, choices: dict[int, str], private: bool = False) -> None:
    """Fills the form (seat `s` of `choices`, counted from 0: "person" or a bot level) and makes the table."""
    page.fill("#player-name", name)
    page.select_option("#table-seats", str(seats))
    for seat, choice in choices.items():
        page.select_option(f"#seat-{seat}", choice)
    if private:
        page.check('input[name="access"][value="private"]')
    page.click("#create-submit")
    page.wait_for_selector("#invite:not([hidden])")


def _visible_text(page: Any) -> str:
    return page.evaluate("document.body.innerText")


def _assert_phone_layout(page: Any, state: str) -> None:
    """No sideways scroll at 390 px, and every control a target of at least 44 px each way (a radio's is its label)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], f"{state}: sideways scroll"
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, select, input, textarea')].flatMap((node) => {
             const target = node.type === 'radio' || node.type === 'checkbox' ? node.closest('label') : node;
             const box = target.getBoundingClientRect();
             if (!box.width && !box.height) return [];  // hidden
             return box.width < 44 || box.height < 44 ? [`${node.id || node.textContent.trim() || node.name} ${box.width}x${box.height}`] : [];
           })"""
    )
    assert small == [], f"{state}: targets under 44 px: {small}"


def test_a_table_made_with_two_bots_shows_its_link_and_qr_code_and_keeps_the_seat(browser: Any, lobby_url: str) -> None:
    context, page, traffic = open_page(browser, lobby_url + "/play")
    _make(page, "Ann", 4, {1: "1", 2: "4"})
    sent = traffic.answered(page, "POST", "/tables")[0]
    body = json.loads(sent["sent"])
    assert body["bots"] == [{"seat": 1, "level": 1}, {"seat": 2, "level": 4}] and body["seats"] == 4 and body["public"] is True
    event = json.loads(sent["answer"])["event"]
    link = page.input_value("[data-link-box=table] textarea")
    assert link == f"{PUBLIC_URL}/play/{event}/table"
    assert page.get_attribute("[data-link-box=table] svg", "role") == "img"
    assert "QR" in page.get_attribute("[data-link-box=table] svg", "aria-label")
    assert page.get_attribute("#go-to-table", "href") == f"/play/{event}/table"
    assert page.is_hidden("#invite-loopback"), "the venue's address is not this computer's"
    seats = _api(lobby_url, "GET", f"/events/{event}/games/table/play").json()["seats"]
    assert [(s["kind"], s["name"], s["level"]) for s in seats] == [
        ("person", "Ann", None),
        ("bot", seats[1]["name"], 1),
        ("bot", seats[2]["name"], 4),
        ("open", None, None),
    ]
    kept = page.evaluate("[JSON.parse(localStorage['wordsvc.play.seats']), JSON.parse(localStorage['wordsvc.play.tables'])]")
    seat, table = kept[0][f"{event}/table"], kept[1][f"{event}/table"]
    assert seat["seat"] == 0 and seat["name"] == "Ann" and seat["token"].startswith("wsv_")
    assert table["token"].startswith("wsv_") and table["token"] != seat["token"]
    mine = _api(lobby_url, "GET", f"/events/{event}/games/table/play", seat["token"])
    assert mine.status_code == 200 and mine.json()["seats"][0]["present"]
    page.click("#go-to-table")
    page.wait_for_url(f"**/play/{event}/table")
    assert page.errors == []
    context.close()


def test_a_table_whose_other_seats_are_bots_starts_at_once_and_its_link_is_to_watch(browser: Any, lobby_url: str) -> None:
    context, page, traffic = open_page(browser, lobby_url + "/play")
    _make(page, "Hal", 3, {1: "1", 2: "2"})
    event = json.loads(traffic.answered(page, "POST", "/tables")[0]["answer"])["event"]
    assert page.inner_text("#invite-hint") == "Every seat is taken and the game has begun: go to your table. Others can watch it at this link."
    assert page.input_value("[data-link-box=table] textarea") == f"{PUBLIC_URL}/play/{event}/table"
    assert _api(lobby_url, "GET", f"/events/{event}/games/table/play").json()["status"] == "playing"
    context.close()


def test_the_name_and_the_invite_are_there_after_a_reload(browser: Any, lobby_url: str) -> None:
    context, page, _traffic = open_page(browser, lobby_url + "/play")
    _make(page, "Bea Ñúñez", 3, {1: "2"})
    link = page.input_value("[data-link-box=table] textarea")
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#invite:not([hidden]) [data-link-box=table] svg")
    assert page.input_value("[data-link-box=table] textarea") == link, "a reload before sharing shows the same invite"
    page.click("#make-another")
    assert page.input_value("#player-name") == "Bea Ñúñez"
    assert page.evaluate("document.activeElement.id") == "player-name"
    other = context.new_page()  # another tab of the same browser: nothing of the first page's form is carried over
    other.goto(lobby_url + "/play")
    other.wait_for_selector("body[data-ready=true]")
    other.click("#make-another")
    assert other.input_value("#player-name") == "Bea Ñúñez"
    assert page.errors == []
    context.close()


def test_an_open_public_table_is_listed_and_join_opens_its_page(browser: Any, lobby_url: str) -> None:
    made = _table(lobby_url, "Open night", 3, bots=[2], people=("Dora",), clock={"kind": "live", "turn_seconds": 45, "bank_seconds": 120})
    started = _table(lobby_url, "Started", 2, bots=[1], people=("Eli",))
    context, page, _traffic = open_page(browser, lobby_url + "/play")
    row = page.locator(f"li.open-table[data-event={made['event']}]")
    row.wait_for()
    text = row.inner_text()
    assert "Open night" in text and "Standard" in text and "English (American)" in text
    assert "2 of 3 taken, 1 seat open" in text and "At the table: Dora" in text and "1 bot" in text
    assert "45 seconds a turn, a bank of 2 minutes" in text and "casual" in text
    assert page.locator(f"li.open-table[data-event={started['event']}]").count() == 0, "a table whose game started is not open"
    assert re.fullmatch(r"\d+ tables? (is|are) waiting for players\.", page.inner_text("#open-status"))
    row.get_by_role("link", name="Join").click()
    page.wait_for_url(f"**/play/{made['event']}/table")
    assert page.errors == []
    context.close()


def test_the_list_is_read_again_on_refresh(browser: Any, lobby_url: str) -> None:
    context, page, _traffic = open_page(browser, lobby_url + "/play")
    made = _table(lobby_url, "Late table", 2)
    assert page.locator(f"li.open-table[data-event={made['event']}]").count() == 0
    page.click("#open-refresh")
    page.locator(f"li.open-table[data-event={made['event']}]").wait_for()
    context.close()


def test_a_private_tables_seat_links_each_play_their_own_seat(browser: Any, lobby_url: str) -> None:
    context, page, _traffic = open_page(browser, lobby_url + "/play")
    _make(page, "Ann", 4, {1: "person", 2: "person", 3: "3"}, private=True)
    assert page.locator("form.invitee").count() == 2
    page.click("form.invitee[data-seat='1'] button")
    assert page.inner_text("#invitee-1-error") == "Type the name of the player at seat 2."
    page.fill("#invitee-1", "ann")
    page.click("form.invitee[data-seat='1'] button")
    taken = "“ann” is already at this table: choose a name the others can tell apart."
    page.wait_for_function("(said) => document.querySelector('#invitee-1-error').textContent === said", arg=taken)
    links = {}
    for seat, name in ((1, "Bo"), (2, "Cy")):
        page.fill(f"#invitee-{seat}", name)
        page.click(f"form.invitee[data-seat='{seat}'] button")
        page.wait_for_selector(f"[data-link-box=seat-{seat}] svg")
        links[seat] = page.input_value(f"[data-link-box=seat-{seat}] textarea")
        assert page.inner_text(f"[data-link-box=seat-{seat}] h3") == f"Seat {seat + 1}: {name}"
    assert page.locator("form.invitee").count() == 0
    event = urlsplit(page.get_attribute("#go-to-table", "href")).path.split("/")[2]
    for seat, link in links.items():
        address, fragment = link.split("#", 1)
        assert address == f"{PUBLIC_URL}/play/{event}/table" and fragment.startswith("token=wsv_")
        token = unquote(fragment.removeprefix("token="))
        play = _api(lobby_url, "GET", f"/events/{event}/games/table/play", token)
        assert play.status_code == 200, play.text
        assert play.json()["status"] == "playing" and play.json()["state"]["viewer"] == seat
    assert _api(lobby_url, "GET", f"/events/{event}/games/table/play").status_code == 401, "a private table is not for everyone"
    assert all(t["event"] != event for t in _api(lobby_url, "GET", "/tables").json()["tables"])
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_hidden("#invite"), "a table whose game started is not offered again"
    assert page.errors == []
    assert not any(word in _visible_text(page) for word in API_WORDS)
    context.close()


def test_a_revoked_director_token_is_told_in_words_when_a_seat_link_is_made(browser: Any, lobby_url: str) -> None:
    context, page, traffic = open_page(browser, lobby_url + "/play", locale="de-DE")
    _make(page, "Uli", 2, {}, private=True)
    made = json.loads(traffic.answered(page, "POST", "/tables")[0]["answer"])
    director = made["director_token"]
    path = f"/events/{made['event']}/tokens/{director['id']}"
    assert _api(lobby_url, "DELETE", path, director["token"]).status_code == 200
    page.fill("#invitee-1", "Vera")
    page.click("form.invitee[data-seat='1'] button")
    page.wait_for_function("() => document.querySelector('#invitee-1-error').textContent !== ''")
    assert page.inner_text("#invitee-1-error") == (
        "Der auf diesem Gerät gespeicherte Schlüssel zu diesem Tisch gilt nicht mehr: Links zu seinen Plätzen können hier nicht erstellt werden."
    )
    assert page.get_attribute("#invitee-1", "aria-invalid") == "true"
    context.close()


def test_refusals_are_sentences_in_the_pages_language(browser: Any, lobby_url: str) -> None:
    context, page, _traffic = open_page(browser, lobby_url + "/play?locale=pl")
    page.click("#create-submit")
    assert page.inner_text("#create-error") == "Wpisz swoje imię: pozostali gracze widzą je przy stole."
    assert page.get_attribute("#player-name", "aria-invalid") == "true"
    page.fill("#player-name", "Ola")
    page.check('input[name="clock"][value="live"]')
    page.fill("#turn-seconds", "3")
    page.click("#create-submit")
    assert page.inner_text("#create-error").startswith("Sprawdź zegar: od 5 do 600 sekund na ruch")
    page.fill("#turn-seconds", "30")
    offline = page.evaluate("JSON.parse(document.getElementById('page-config').textContent).strings.pl['page.offline']")
    context.set_offline(True)
    page.click("#create-submit")
    page.wait_for_function("(said) => document.querySelector('#create-error').textContent === said", arg=offline)
    context.set_offline(False)
    assert not any(word in _visible_text(page) for word in API_WORDS)
    context.close()


def test_a_service_closed_to_new_tables_says_so_and_still_lists_open_ones(browser: Any) -> None:
    with running_server("wordsvc-lobby-closed-", env={"WORDSVC_EVENT_CREATION": "admin"}) as (url, _log):
        for locale, said in (("en-US", "This service lets only its administrator make tables"), ("is", "Aðeins stjórnandi þjónustunnar getur búið til borð")):
            context, page, _traffic = open_page(browser, url + "/play", locale=locale)
            assert page.is_hidden("#create-form")
            assert page.inner_text("#create-closed").startswith(said)
            assert page.is_visible("#open-refresh")
            assert_accessible(page, f"closed lobby ({locale})")
            refused = page.evaluate(
                "fetch('/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{\"seats\": 2}'}).then((r) => r.status)"
            )
            assert refused == 401
            context.close()


#: The open seats' text of a table of 8 seats with `open` of them open, per language: its plural form.
SEAT_FORMS = {
    "en-US": {1: "7 of 8 taken, 1 seat open", 2: "6 of 8 taken, 2 seats open", 5: "3 of 8 taken, 5 seats open"},
    "pl": {1: "Zajęto 7 z 8, 1 wolne miejsce", 2: "Zajęto 6 z 8, 2 wolne miejsca", 5: "Zajęto 3 z 8, 5 wolnych miejsc"},
    "is": {1: "Setið í 7 af 8, 1 laust sæti", 2: "Setið í 6 af 8, 2 laus sæti", 5: "Setið í 3 af 8, 5 laus sæti"},
}
#: What the form and the list say in each language (the catalogue's words).
WORDS = {
    "en-US": ("Make a table", "Bot: expert", "Join"),
    "pl": ("Załóż stół", "Bot: ekspert", "Dołącz"),
    "is": ("Búðu til borð", "Vélmenni: sérfræðingur", "Setjast"),
}


@pytest.fixture(scope="module")
def eight_seat_tables(lobby_url: str) -> dict[int, str]:
    """Tables of 8 seats with 1, 2 and 5 seats open: open count -> event."""
    names = {1: "Friday club", 2: "Lunch break", 5: "Beginners welcome"}
    return {open_: _table(lobby_url, name, 8, bots=list(range(1, 8 - open_)), people=("Ida",))["event"] for open_, name in names.items()}


@pytest.mark.parametrize("locale", list(SEAT_FORMS))
def test_the_lobby_speaks_english_polish_and_icelandic_with_their_plural_forms(
    browser: Any, lobby_url: str, eight_seat_tables: dict[int, str], locale: str
) -> None:
    context, page, _traffic = open_page(browser, lobby_url + "/play", locale=locale)
    page.locator(f"li.open-table[data-event={eight_seat_tables[5]}]").wait_for()
    heading, expert, join = WORDS[locale]
    assert page.inner_text("#create-heading") == heading
    assert expert in page.inner_text("#seat-1")
    for open_, event in eight_seat_tables.items():
        row = page.locator(f"li.open-table[data-event={event}]")
        assert row.locator(".open-seats").inner_text() == SEAT_FORMS[locale][open_]
        assert row.get_by_role("link").inner_text() == join
    page.select_option("#table-seats", "3")
    page.check('input[name="clock"][value="correspondence"]')
    page.check('input[name="access"][value="private"]')
    raw = RAW_KEY.findall(_visible_text(page)) + RAW_KEY.findall(
        " ".join(page.eval_on_selector_all("[aria-label], option", "(nodes) => nodes.map((n) => (n.getAttribute('aria-label') || '') + ' ' + n.textContent)"))
    )
    assert raw == [], f"{locale}: keys shown raw: {raw}"
    assert page.evaluate("document.documentElement.lang") == locale.split("-")[0]
    assert page.errors == []
    context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_lobby_passes_axe_and_fits_a_phone(browser: Any, lobby_url: str, eight_seat_tables: dict[int, str], viewport: str) -> None:
    size = DESKTOP if viewport == "desktop" else PHONE
    context, page, _traffic = open_page(browser, lobby_url + "/play", viewport=size)
    page.locator(f"li.open-table[data-event={eight_seat_tables[1]}]").wait_for()
    page.fill("#player-name", "Fay")
    page.select_option("#table-seats", "4")
    page.select_option("#seat-2", "3")
    page.check('input[name="clock"][value="live"]')
    assert_accessible(page, f"{viewport}: the form, a live clock, the open tables")
    if viewport == "phone":
        _assert_phone_layout(page, "the form")
    screenshot(page, f"lobby-{viewport}")
    page.check('input[name="access"][value="private"]')
    page.click("#create-submit")
    page.wait_for_selector("form.invitee")
    assert page.evaluate("document.activeElement.id") == "invite"
    assert_accessible(page, f"{viewport}: a private table's invite")
    page.fill("#invitee-1", "Gus")
    page.click("form.invitee[data-seat='1'] button")
    page.wait_for_selector("[data-link-box=seat-1] svg")
    assert_accessible(page, f"{viewport}: a seat link")
    if viewport == "phone":
        _assert_phone_layout(page, "the invite")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[data-link-box]') !== null")
    assert page.errors == []
    context.close()

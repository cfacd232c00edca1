"""The event display (/events/{event}/display) in headless Chromium at 1920 x 1080 against a real server (docs/pages.md, "The display").

Three events on one server: ``harbour-night`` (English, two tables seated by name), ``reykjavik-open``
(Icelandic, a tournament of 40 players with session 1 seated at ten tables) and ``tallinn-cup``
(Estonian, private, read with a viewer token). Rounds are real plays: a deal of the event's ruleset
(``GET /deal``) and each hand's best play (``POST /best-meld``), stored through the API.

A stored round shows on the display within two seconds, from the event's stream; the display asks
nothing of another origin; a long list pages by itself, measured on the page's fake clock; a private
event's display takes its token from the address's fragment and never sends it in a URL; each display
speaks its event's language; axe-core finds nothing. Screenshots: docs/screenshots/display-standings.png
and display-seating.png.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, assert_accessible, open_page, same_origin, screenshot
from .conftest import admin_token_for, running_server

FULL_HD = {"width": 1920, "height": 1080}
SEED = "5eed" * 16
#: Two seconds: the issue's bound from a round stored to its total on the display.
SHOWN_WITHIN_MS = 2000
HARBOUR = {"t1": ["Ann", "Bob", "Cy"], "t2": ["Dee", "Eve"]}
ICELANDIC = [
    "Anna Jónsdóttir",
    "Bjarni Sigurðsson",
    "Guðrún Ólafsdóttir",
    "Sigríður Einarsdóttir",
    "Jón Gunnarsson",
    "Kristín Magnúsdóttir",
    "Ólafur Stefánsson",
    "Helga Pálsdóttir",
]
TALLINN = {"t1": ["Mari", "Jaan", "Kadri"], "t2": ["Tõnu", "Ülle"]}


class Venue:
    """The server, its admin token and each event's director token."""

    def __init__(self, url: str, admin: str) -> None:
        self.url = url
        self.admin = admin
        self.directors: dict[str, str] = {}

    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return requests.request(method, self.url + path, headers=headers, timeout=30, **kwargs)

    def create(self, event: str, name: str, ruleset: str, private: bool = False) -> str:
        created = self.api("POST", "/events", self.admin, json={"id": event, "name": name, "ruleset": ruleset, "private": private})
        assert created.status_code == 201, created.text
        self.directors[event] = created.json()["director_token"]["token"]
        return self.directors[event]

    def play_round(self, event: str, game: str, n: int) -> dict[str, Any]:
        """Round n at `game`, as dealt from SEED, each player laying the best play of the hand; the stored round's answer."""
        director = self.directors[event]
        detail = self.api("GET", f"/events/{event}", director).json()
        players = next(g["players"] for g in detail["games"] if g["id"] == game)
        ruleset = detail["ruleset"]["id"]
        deal = self.api("GET", "/deal", params={"ruleset": ruleset, "players": len(players), "round": n, "seed": SEED}).json()
        body = []
        for name, hand in zip(players, deal["hands"], strict=True):
            best = self.api("POST", "/best-meld", json={"ruleset": ruleset, "hand": hand}).json()
            body.append({"name": name, "words": [word["cards"] for word in best["words"]], "unused": best["unused"]})
        stored = self.api("PUT", f"/events/{event}/games/{game}/rounds/{n}", director, json={"players": body})
        assert stored.status_code == 201, stored.text
        return stored.json()

    def totals(self, event: str, game: str | None = None) -> dict[str, int]:
        """Each player's total in the event's standings (at table `game` only, if named), as the service answers them now."""
        lines = self.api("GET", f"/events/{event}/standings", self.directors[event]).json()["standings"]
        return {line["player"]: line["total"] for line in lines if game in (None, line["table"])}


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    database = f"sqlite:///{tmp_path_factory.mktemp('display')}/ledger.sqlite3"
    with running_server("wordsvc-display-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        venue = Venue(url, admin_token_for(database))
        director = venue.create("harbour-night", "Harbour night", "standard")
        for table, players in HARBOUR.items():
            assert venue.api("PUT", f"/events/harbour-night/games/{table}", director, json={"players": players}).status_code == 201
        director = venue.create("reykjavik-open", "Reykjavíkurmótið", "islenska")
        for i in range(1, 41):
            body = {"name": f"{ICELANDIC[i % len(ICELANDIC)]} {i}", "checked_in": True}
            assert venue.api("PUT", f"/events/reykjavik-open/players/p{i:02}", director, json=body).status_code == 201
        seated = venue.api("POST", "/events/reykjavik-open/sessions", director, json={"method": "random", "size": {"target": 4}, "number": 1})
        assert seated.status_code == 201, seated.text
        for game in ("s1-t1", "s1-t2", "s1-t3"):
            venue.play_round("reykjavik-open", game, 1)
        director = venue.create("tallinn-cup", "Tallinna karikas", "eesti", private=True)
        for table, players in TALLINN.items():
            assert venue.api("PUT", f"/events/tallinn-cup/games/{table}", director, json={"players": players}).status_code == 201
        yield venue


def _row(page: Any, player: str) -> Any:
    return page.locator("#standings-table tbody tr").filter(has=page.locator(f"th:text-is('{player}')"))


def _wait_for_totals(page: Any, totals: dict[str, int], timeout_ms: int) -> None:
    """Waits, at most `timeout_ms`, until the standings show each player's total as `totals` says."""
    page.wait_for_function(
        """(totals) => [...document.querySelectorAll('#standings-table tbody tr')]
             .every((row) => String(totals[row.querySelector('th').textContent]) === row.querySelector('td.total').textContent)""",
        arg=totals,
        timeout=max(1, timeout_ms),
    )


def _page_config(page: Any) -> dict[str, Any]:
    return page.evaluate("JSON.parse(document.getElementById('page-config').textContent)")


def _items_shown(page: Any, box: str, items: str) -> list[str]:
    """The texts of the items of `box` on the page now, each checked to lie wholly inside the box."""
    return page.evaluate(
        """([box, items]) => {
             const bottom = document.querySelector(box).getBoundingClientRect().bottom;
             return [...document.querySelectorAll(items)].filter((item) => !item.hidden).map((item) => {
               if (item.getBoundingClientRect().bottom > bottom + 0.5) throw new Error(`${item.textContent} runs past the bottom of ${box}`);
               return item.querySelector('th, h3').textContent;
             });
           }""",
        [box, items],
    )


def test_a_stored_round_shows_on_the_display_within_two_seconds(browser: Any, venue: Venue) -> None:
    context, page, traffic = open_page(browser, venue.url + "/events/harbour-night/display", FULL_HD)
    try:
        page.wait_for_selector("#standings-table tbody tr")
        assert page.inner_text("#event-name") == "Harbour night" and page.inner_text("#standings-heading") == "Standings"
        assert page.locator("#standings-table tbody th").all_inner_texts() == ["Ann", "Bob", "Cy", "Dee", "Eve"]
        assert page.is_hidden("#seating-panel") and page.is_hidden("#standings-page") and page.is_hidden("#reconnecting")
        assert [call["status"] for call in traffic.answered(page, "GET", "/events/harbour-night/stream")] == [200]

        for game in ("t1", "t2"):
            venue.play_round("harbour-night", game, 1)
            stored_at = time.monotonic()
            totals = venue.totals("harbour-night")
            assert any(totals[player] for player in HARBOUR[game]), totals  # the round changed what the display shows
            _wait_for_totals(page, totals, SHOWN_WITHIN_MS - round((time.monotonic() - stored_at) * 1000))
            assert _row(page, HARBOUR[game][0]).locator("td").nth(2).inner_text() == "1"  # rounds played
        assert page.locator("#standings-table tbody td.total").all_inner_texts() == [str(total) for total in sorted(totals.values(), reverse=True)]
        assert_accessible(page, "the display of an event's standings")
        screenshot(page, "display-standings")

        assert same_origin(traffic, venue.url) == []  # nothing from, nor to, another origin
        assert page.errors == []
    finally:
        context.close()


def test_a_tournaments_display_speaks_icelandic_and_pages_long_lists_by_itself(browser: Any, venue: Venue) -> None:
    """40 players and ten tables: more than a 1080-pixel screen holds. A page turns every ``display.page_seconds``, on the fake clock."""
    context, page, _traffic = open_page(browser, venue.url + "/events/reykjavik-open/display", FULL_HD, paused_clock=True)
    try:
        page.wait_for_selector("#seating-panel:not([hidden]) .seating-table")
        assert page.evaluate("document.documentElement.lang") == "is"  # the event's lexicon, not the browser's English
        assert page.inner_text("#standings-heading") == "Staðan" and page.inner_text("#seating-heading") == "Sætaskipan, lota 1"
        assert page.locator("#standings-table thead th").all_inner_texts() == ["Sæti", "Leikmaður", "Leikir", "Samtals"]
        assert page.inner_text("#seating-box .seating-table h3 >> nth=0") == "Borð s1-t1"
        screenshot(page, "display-seating")

        seconds = _page_config(page)["display"]["page_seconds"]
        label = lambda panel: page.inner_text(f"#{panel}-page")  # noqa: E731
        standings_pages, seating_pages = (int(label(panel).rsplit(" ", 1)[1]) for panel in ("standings", "seating"))
        assert standings_pages >= 2 and seating_pages >= 2
        players: list[str] = []
        tables: list[str] = []
        for turn in range(max(standings_pages, seating_pages)):
            shown = {"standings": turn % standings_pages + 1, "seating": turn % seating_pages + 1}
            assert label("standings") == f"Síða {shown['standings']} af {standings_pages}" and label("seating") == f"Síða {shown['seating']} af {seating_pages}"
            if turn < standings_pages:
                players += _items_shown(page, "#standings-box", "#standings-table tbody tr")
            if turn < seating_pages:
                tables += _items_shown(page, "#seating-box", "#seating-box > .seating-table")
            page.clock.run_for(seconds * 1000 - 1)
            assert label("standings") == f"Síða {shown['standings']} af {standings_pages}"  # not a millisecond early
            page.clock.run_for(1)
        # Every player and every table was on exactly one page.
        assert sorted(players) == sorted(f"{ICELANDIC[i % len(ICELANDIC)]} {i}" for i in range(1, 41))
        assert sorted(tables) == sorted(f"Borð s1-t{i}" for i in range(1, 11))
        page.clock.resume()  # axe-core needs its timers
        assert_accessible(page, "the display of a tournament's standings and seating")
        assert page.errors == []
    finally:
        context.close()


def test_a_round_stored_at_a_tournament_table_shows_in_its_seating_within_two_seconds(browser: Any, venue: Venue) -> None:
    context, page, traffic = open_page(browser, venue.url + "/events/reykjavik-open/display", FULL_HD)
    try:
        card = page.locator("#seating-box article[data-game='s1-t1']")
        card.wait_for(state="attached")
        assert card.locator(".played").inner_text() == "1 af 8 umferðum"
        traffic.answered(page, "GET", "/events/reykjavik-open/stream")
        venue.play_round("reykjavik-open", "s1-t1", 2)
        stored_at = time.monotonic()
        totals = venue.totals("reykjavik-open", "s1-t1")
        # The card's round and every seat's total, both. Not one read: a read begun before the round was stored
        # may show the round from its seating and the totals from before (the round's message reads again).
        # Attached, not visible: the card may be on a page not shown at this moment.
        page.wait_for_function(
            """([totals, played]) => {
                 const card = document.querySelector("#seating-box article[data-game='s1-t1']");
                 const seats = [...(card?.querySelectorAll("li") ?? [])];
                 return card?.querySelector(".played").textContent === played && seats.length === Object.keys(totals).length
                   && seats.every((li) => String(totals[li.lastChild.textContent]) === li.querySelector(".score").textContent);
               }""",
            arg=[totals, "2 af 8 umferðum"],
            timeout=SHOWN_WITHIN_MS,
        )
        assert time.monotonic() - stored_at < SHOWN_WITHIN_MS / 1000
        assert page.errors == []
    finally:
        context.close()


def test_a_slow_answer_read_before_a_later_one_is_never_drawn_over_it_and_waits_for_nothing(browser: Any, venue: Venue) -> None:
    """The pages read what they show through common.js's ``newestWins`` (the display, the console's standings, open table
    and tournament view, the kiosk).

    Two reads in flight can be answered out of order: a slow standings read begun before a round was stored would be
    drawn last, over the totals read after it. So an answer is drawn only if no read begun after it has been drawn; and
    a read never waits for another, so one the network never answers holds nothing up. Driven by hand: each read ends
    only when the test says so.
    """
    context, page, _traffic = open_page(browser, venue.url + "/events/harbour-night/display", FULL_HD)
    try:
        log = page.evaluate(
            """async () => {
              const { newestWins } = await import("/assets/common.js");
              const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
              const log = [];
              const answers = [];
              const read = newestWins(async (current, name) => {
                log.push(`start ${name}`);
                await new Promise((resolve) => answers.push(resolve));
                log.push(current() ? `draw ${name}` : `drop ${name}`);
              });
              read("slow"); // begun before the round was stored
              read("after"); // begun on the round's message: it starts at once, waiting for nothing
              await settle();
              answers[1]();
              await settle();
              answers[0](); // the slow answer comes last: not drawn
              await settle();
              read("next");
              read("last");
              await settle();
              answers[2]();
              await settle();
              answers[3](); // in order: both drawn
              await settle();
              read("never answered");
              read("later");
              await settle();
              answers[5]();
              await settle();
              return log;
            }"""
        )
        assert log == [
            "start slow",
            "start after",
            "draw after",
            "drop slow",
            "start next",
            "start last",
            "draw next",
            "draw last",
            "start never answered",
            "start later",
            "draw later",
        ]
        assert page.errors == []
    finally:
        context.close()


def test_a_private_events_display_takes_its_token_from_the_fragment_and_speaks_estonian(browser: Any, venue: Venue) -> None:
    viewer = venue.api("POST", "/events/tallinn-cup/tokens", venue.directors["tallinn-cup"], json={"role": "viewer"}).json()["token"]
    venue.play_round("tallinn-cup", "t2", 1)
    context, page, traffic = open_page(browser, f"{venue.url}/events/tallinn-cup/display#token={viewer}", FULL_HD)
    try:
        page.wait_for_selector("#standings-table tbody tr")
        assert page.url == f"{venue.url}/events/tallinn-cup/display"  # the fragment is out of the address at once
        assert page.inner_text("#standings-heading") == "Paremusjärjestus" and page.inner_text("#event-name") == "Tallinna karikas"
        assert page.locator("#standings-table thead th").all_inner_texts() == ["Koht", "Mängija", "Laud", "Voore", "Kokku"]
        assert [call["status"] for call in traffic.answered(page, "GET", "/events/tallinn-cup/stream")] == [200]  # a private stream: the token went along

        venue.play_round("tallinn-cup", "t1", 1)
        _wait_for_totals(page, venue.totals("tallinn-cup"), SHOWN_WITHIN_MS)
        totals = venue.totals("tallinn-cup")

        page.reload()  # the projector's browser reloads: this tab kept the token
        page.wait_for_selector("body[data-ready=true] #standings-table tbody tr")
        assert _row(page, "Mari").locator("td.total").inner_text() == str(totals["Mari"])
        assert not [call["url"] for call in traffic.requests if viewer in call["url"]]
        assert same_origin(traffic, venue.url) == []
        assert page.errors == []
    finally:
        context.close()

    # Without the token: the page says what it needs, in the browser's language, since the event's cannot be read.
    context, page, _traffic = open_page(browser, f"{venue.url}/events/tallinn-cup/display", FULL_HD, locale="et-EE")
    try:
        assert page.inner_text("#problem").startswith("See võistlus on privaatne")
        assert page.is_hidden("#standings-panel")
        assert page.errors == []
    finally:
        context.close()


def test_the_address_may_ask_for_another_language_than_the_events(browser: Any, venue: Venue) -> None:
    context, page, _traffic = open_page(browser, venue.url + "/events/reykjavik-open/display?locale=en", FULL_HD)
    try:
        page.wait_for_selector("#seating-panel:not([hidden])")
        assert page.inner_text("#standings-heading") == "Standings" and page.inner_text("#seating-heading") == "Seating, session 1"
        assert page.errors == []
    finally:
        context.close()


#: A text with a count as the catalogue sends one to a page: its form of each CLDR category of the language (docs/translations.md).
COUNTED = {
    "pl": {"one": "{n} stół", "few": "{n} stoły", "many": "{n} stołów", "other": "{n} stołu"},
    "is": {"one": "{n} keppandi", "other": "{n} keppendur"},
    "pt": {"one": "{n} mesa", "many": "{n} de mesas", "other": "{n} mesas"},
}


def test_a_page_shows_a_count_in_the_form_the_catalogues_cldr_rule_gives_it(browser: Any, venue: Venue) -> None:
    """No page text holds a count yet; ``tn`` is how one does: the browser's ``Intl.PluralRules``, for the tag whose
    rules the language's catalogue follows (``pt-PT``: 0 is plural in Portugal, singular in Brazil), names the form."""
    context, page, _traffic = open_page(browser, venue.url + "/events/harbour-night/display", FULL_HD)
    try:
        assert _page_config(page)["plural_rules"] == {**{locale: locale for locale in _page_config(page)["locales"]}, "pt": "pt-PT"}
        shown = page.evaluate(
            """async (counted) => {
                 const common = await import("/assets/common.js");
                 const out = {};
                 for (const [locale, forms] of Object.entries(counted)) {
                   common.config.strings[locale]["display.example_tables"] = forms;
                   common.setLocale(locale);
                   out[locale] = [0, 1, 2, 5, 21, 22].map((n) => common.tn("display.example_tables", n));
                 }
                 return out;
               }""",
            COUNTED,
        )
        assert shown == {
            "pl": ["0 stołów", "1 stół", "2 stoły", "5 stołów", "21 stołów", "22 stoły"],
            "is": ["0 keppendur", "1 keppandi", "2 keppendur", "5 keppendur", "21 keppandi", "22 keppendur"],
            "pt": ["0 mesas", "1 mesa", "2 mesas", "5 mesas", "21 mesas", "22 mesas"],
        }
        assert page.errors == []
    finally:
        context.close()


def test_an_unknown_event_is_said_so(browser: Any, venue: Venue) -> None:
    context, page, _traffic = open_page(browser, venue.url + "/events/no-such-night/display", FULL_HD)
    try:
        assert page.inner_text("#problem") == "There is no event no-such-night. Check the address."
        assert page.inner_text("#event-name") == "no-such-night"
    finally:
        context.close()


def test_an_unreachable_service_keeps_the_last_standings_up_with_a_mark(browser: Any, venue: Venue) -> None:
    context, page, _traffic = open_page(browser, venue.url + "/events/harbour-night/display", FULL_HD)
    try:
        page.wait_for_selector("#standings-table tbody tr")
        before = page.inner_text("#standings-table")
        context.set_offline(True)  # the venue's network is gone: the stream drops, and every read fails
        page.wait_for_selector("#reconnecting:not([hidden])")
        assert page.inner_text("#reconnecting") == "⟳ Reconnecting…"
        assert page.inner_text("#standings-table") == before and page.is_hidden("#problem")
        context.set_offline(False)
        page.wait_for_selector("#reconnecting", state="hidden")
        assert page.inner_text("#standings-table") == before
        assert [error for error in page.errors if not error.startswith("request failed:")] == []  # what was asked offline failed, as it had to
    finally:
        context.close()

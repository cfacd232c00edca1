"""The judge kiosk on a phone and in three languages (docs/pages.md): a tap clears a ruling, the longest words fit unbroken,
the double-card hint comes from the event's deck, every control is a touch target, every refusal is in the page's words.

The kiosks run on a paused fake clock (``open_page(paused_clock=True)``) where a delay matters, and on a
phone-sized context with touch (``has_touch``); axe-core, which needs the page's real timers, runs on
``steady_server`` with no filter on the impact of a violation.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest

from .browser import CLOCK_START, PHONE, PagesServer, open_page
from .test_judge_browser import KEY_DELAY, assert_no_axe_violation

#: The longest forms the lexicons hold, each a word a player may type, none a word a ruleset accepts
#: (a word has at most 10 cards): BÍN's longest ordinary forms (build/lexicons/is/forms.marisa, 39 and 40
#: letters), and an Estonian compound Vabamorf analyses (30 letters).
LONGEST = {
    "is": ["verðbréfamarkaðseftirlitsstofnunarinnar", "alþjóðadýraheilbrigðismálastofnunarinnar"],
    "et": ["sünnipäevapeoettevalmistustega"],
}
#: The event made per deck language, its ruleset and the hint the kiosk shows for it: the first example of
#: The first of each language's double_examples (its manifest's) whose double card the deck has (the Estonian and Icelandic decks have no QU).
DECKS = {"en": ("standard", "(qu)iz"), "is": ("islenska", "b(ar)n"), "et": ("eesti", "(is)a")}
WIDTHS = {"phone": 390, "narrow phone": 320}
#: The refusals a test provokes, in each language as the catalogue words them (wordsvc/i18n/locales/*.po).
CLOSED = {
    "en": "The event is closed: no more rulings can be made.",
    "et": "Võistlus on lõppenud: otsuseid enam teha ei saa.",
    "is": "Mótinu er lokið: ekki er hægt að úrskurða meira.",
}
OFFLINE = {
    "en": "The service cannot be reached; nothing was judged. Check the network and try again.",
    "et": "Teenusega ei saa ühendust; midagi ei otsustatud. Kontrolli võrku ja proovi uuesti.",
    "is": "Ekki næst samband við þjónustuna; ekkert var úrskurðað. Athugaðu netið og reyndu aftur.",
}
CLEARS = {
    "en": "Clears by itself, or press a key or tap.",
    "et": "Kustub iseenesest, või vajuta klahvi või puuduta ekraani.",
    "is": "Hverfur af sjálfu sér, eða ýttu á takka eða snertu skjáinn.",
}
#: What the service says that a page must never show: its detail and title of a refusal, field paths, statuses.
API_WORDS = ("see errors", "Conflict", "Invalid request", "words.0", "409", "422", "is closed: its play", "Failed to fetch")


@dataclass
class DeckEvent:
    id: str
    referee: str  # limited to table t1
    snapshot: dict[str, Any]


@pytest.fixture(scope="module")
def deck_events(steady_server: PagesServer) -> dict[str, DeckEvent]:
    """One event per deck language on the steady server (en: its own club-night), each with table t1 and a referee token for it."""
    server, admin = steady_server, steady_server.tokens.admin
    events = {"en": DeckEvent(server.event, server.tokens.referee_t1, {})}
    for lang, (ruleset, _hint) in DECKS.items():
        if lang == "en":
            continue
        created = server.api("POST", "/events", admin, json={"name": f"Deck {lang}", "id": f"deck-{lang}", "ruleset": ruleset})
        assert created.status_code == 201, created.text
        assert server.api("PUT", f"/events/deck-{lang}/games/t1", admin, json={"players": ["ann", "bo"]}).status_code == 201
        referee = server.api("POST", f"/events/deck-{lang}/tokens", admin, json={"role": "referee", "table": "t1"}).json()["token"]
        events[lang] = DeckEvent(f"deck-{lang}", referee, {})
    for event in events.values():
        event.snapshot = server.api("GET", f"/events/{event.id}", admin).json()["ruleset"]["snapshot"]
    return events


_CLOSING = itertools.count(1)


@pytest.fixture
def closed_event(pages_server: PagesServer) -> Iterator[DeckEvent]:
    """A fresh event with table t1 and its referee token, closed by its director once the kiosk is set up (``close()``)."""
    server, admin = pages_server, pages_server.tokens.admin
    event_id = f"closing-{next(_CLOSING)}"
    created = server.api("POST", "/events", admin, json={"name": "Closing night", "id": event_id, "ruleset": "standard"})
    assert created.status_code == 201, created.text
    assert server.api("PUT", f"/events/{event_id}/games/t1", admin, json={"players": ["ann", "bo"]}).status_code == 201
    referee = server.api("POST", f"/events/{event_id}/tokens", admin, json={"role": "referee", "table": "t1"}).json()["token"]
    yield DeckEvent(event_id, referee, {})


def _touch_page(browser: Any, url: str, width: int = PHONE["width"], locale: str = "en-US", paused_clock: bool = True) -> tuple[Any, Any]:
    """A kiosk page on a touch screen ``width`` pixels wide (``open_page`` gives touch to PHONE alone), on a paused fake clock as ``open_page`` runs one."""
    context = browser.new_context(viewport={**PHONE, "width": width}, locale=locale, is_mobile=True, has_touch=True)
    if paused_clock:
        context.clock.install(time=CLOCK_START)
        context.clock.pause_at(CLOCK_START + timedelta(hours=1))
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url + "/judge")
    page.wait_for_selector("body[data-ready=true]")
    return context, page


def _kiosk_by_touch(browser: Any, url: str, token: str, width: int = PHONE["width"], paused_clock: bool = True) -> tuple[Any, Any]:
    """:func:`_touch_page`, set up with ``token`` by a tap on its button."""
    context, page = _touch_page(browser, url, width, paused_clock=paused_clock)
    page.fill("#setup-token", token)
    page.tap("#setup-form button[type=submit]")
    page.wait_for_selector("#count:not([hidden])")
    return context, page


def _type_words(page: Any, words: list[str]) -> None:
    """The count and the words as a phone's keyboard types them; the opponent judges with a tap."""
    page.tap("#count-input")
    page.keyboard.type(str(len(words)))
    page.wait_for_selector(f"#word-{len(words)}")
    for word in words:
        page.keyboard.type(word)
        page.keyboard.press("Enter")


def _judge_by_tap(page: Any) -> None:
    page.tap("#judge-button")
    page.wait_for_selector("#result:not([hidden])")


def _no_sideways_scroll(page: Any, state: str) -> None:
    """Nothing wider than the screen: the document, the ruling (fixed, so it would scroll on its own) and every word shown."""
    sizes = page.evaluate(
        """() => ({
          width: innerWidth,
          document: document.documentElement.scrollWidth,
          result: document.getElementById("result").scrollWidth,
          boxes: [...document.querySelectorAll("#result li, input, button, p, h1, label")]
            .filter((e) => e.offsetParent !== null || getComputedStyle(e).position === "fixed")
            .map((e) => [e.id || e.textContent.slice(0, 20), e.getBoundingClientRect().left, e.getBoundingClientRect().right]),
        })"""
    )
    assert sizes["document"] <= sizes["width"], f"{state}: the page scrolls sideways ({sizes['document']} > {sizes['width']})"
    assert sizes["result"] <= sizes["width"], f"{state}: the ruling scrolls sideways"
    outside = [box for box in sizes["boxes"] if box[1] < 0 or box[2] > sizes["width"] + 0.5]
    assert outside == [], f"{state}: off the screen: {outside}"


def _words_unbroken(page: Any, state: str) -> None:
    """Every word of the ruling on one line: shrunk to fit, never broken at a letter (a split word reads as two)."""
    lines = page.evaluate(
        """() => [...document.querySelectorAll("#result-words li")].map((li) => {
          const range = document.createRange();
          range.selectNodeContents(li);
          return [li.textContent, new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size];
        })"""
    )
    assert [word for word, count in lines if count != 1] == [], f"{state}: a word broken across lines: {lines}"


def test_a_tap_clears_a_ruling_as_a_key_does_once_the_key_delay_has_passed(browser: Any, pages_server: PagesServer) -> None:
    context, page = _kiosk_by_touch(browser, pages_server.url, pages_server.tokens.referee_t1)
    try:
        _type_words(page, ["cat"])
        _judge_by_tap(page)
        assert page.inner_text("#result .hint") == CLEARS["en"]
        page.tap("#result")  # the finger that judged, still on the glass: nothing
        assert page.is_visible("#result")
        page.clock.run_for(round(KEY_DELAY * 1000) - 1)
        page.tap("#result-words")  # anywhere on the ruling, a millisecond early: nothing
        assert page.is_visible("#result")
        page.clock.run_for(1)
        page.tap("#result-lexicon")
        page.wait_for_selector("#count:not([hidden])")
        # The tap went to the ruling only: nothing behind it was opened, typed in or pressed.
        assert not page.is_visible("#leave-dialog") and page.input_value("#count-input") == "" and page.locator("#word-fields input").count() == 0
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["is", "et"])
@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_the_longest_words_a_lexicon_holds_fit_a_phone_without_sideways_scrolling(
    browser: Any, steady_server: PagesServer, deck_events: dict[str, DeckEvent], width: int, lang: str
) -> None:
    event = deck_events[lang]
    for word in LONGEST[lang]:  # each a word the lexicon holds: refused for its length (or a class) only, never as unknown
        verdict = steady_server.api("GET", "/validate", params={"word": word, "ruleset": DECKS[lang][0]}).json()
        assert "not_in_lexicon" not in {reason["code"] for reason in verdict["reasons"]}, verdict
    context, page = _kiosk_by_touch(browser, steady_server.url, event.referee, width, paused_clock=False)  # axe-core needs real timers
    try:
        _no_sideways_scroll(page, "count")
        words = [*LONGEST[lang], DECKS[lang][1]]
        _type_words(page, words)
        _no_sideways_scroll(page, "words")
        _judge_by_tap(page)
        assert page.locator("#result-words li").all_inner_texts() == words
        _no_sideways_scroll(page, "ruling")
        _words_unbroken(page, f"ruling at {width} px")
        assert_no_axe_violation(page, f"ruling at {width} px")
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", DECKS)
def test_the_double_card_hint_shows_a_card_of_the_events_deck_and_is_itself_acceptable(
    browser: Any, steady_server: PagesServer, deck_events: dict[str, DeckEvent], lang: str
) -> None:
    event = deck_events[lang]
    hint = DECKS[lang][1]
    doubles = {face for face in event.snapshot["deck"] if len(face) > 1}
    assert hint[hint.index("(") + 1 : hint.index(")")] in doubles
    context, page, _traffic = open_page(browser, steady_server.url + "/judge", PHONE, paused_clock=True)
    try:
        page.fill("#setup-token", event.referee)
        page.keyboard.press("Enter")
        page.wait_for_selector("#count:not([hidden])")
        page.keyboard.press("1")
        page.wait_for_selector("#word-1")
        prompt = page.inner_text("#words-prompt")
        assert prompt.endswith(f": {hint}."), prompt
        named = {part.split(")")[0] for part in prompt.split("(")[1:]}
        assert named <= doubles, f"the hint names a card the deck lacks: {named - doubles}"
        if "qu" not in doubles:
            assert "(qu)" not in prompt
        page.keyboard.type(hint)
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        page.wait_for_selector("#result:not([hidden])")
        assert page.get_attribute("body", "data-verdict") == "acceptable", f"the hint's example {hint} is not a word of {event.id}"
    finally:
        context.close()


@pytest.mark.parametrize("width", WIDTHS.values(), ids=WIDTHS.keys())
def test_every_control_of_every_step_is_a_touch_target_of_44_pixels(browser: Any, steady_server: PagesServer, width: int) -> None:
    context, page = _touch_page(browser, steady_server.url, width)
    small: list[tuple[str, str, dict[str, float]]] = []

    def measure(state: str) -> None:
        for control in page.locator("button:visible, input:visible, select:visible").all():
            box = control.bounding_box()
            if box["width"] < 44 or box["height"] < 44:
                small.append((state, control.evaluate("e => e.id || e.textContent"), box))

    try:
        measure("set-up")
        page.fill("#setup-token", steady_server.tokens.referee_any)
        page.tap("#setup-form button[type=submit]")
        page.wait_for_selector("#setup-table-field:not([hidden])")
        measure("set-up, the table")
        page.select_option("#setup-table", "t1")
        page.tap("#setup-form button[type=submit]")
        page.wait_for_selector("#count:not([hidden])")
        measure("count")
        _type_words(page, ["cat", "dog"])
        measure("words")
        page.tap("#leave")
        page.wait_for_selector("#leave-dialog[open]")
        measure("leaving")
        assert small == [], json.dumps(small, ensure_ascii=False, indent=1)
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en", "et", "is"])
def test_a_refusal_and_an_outage_are_told_in_the_pages_language_never_in_api_words(
    browser: Any, pages_server: PagesServer, closed_event: DeckEvent, locale: str
) -> None:
    context, page, _traffic = open_page(browser, pages_server.url + "/judge", PHONE, locale=locale, paused_clock=True)
    try:
        page.fill("#setup-token", closed_event.referee)
        page.keyboard.press("Enter")
        page.wait_for_selector("#count:not([hidden])")
        # The network gone: an outage, not a verdict.
        context.set_offline(True)
        page.keyboard.press("1")
        page.wait_for_selector("#word-1")
        page.keyboard.type("cat")
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        page.wait_for_selector("#judge-error:text-matches('.+')")
        assert page.inner_text("#judge-error") == OFFLINE[locale]
        assert page.is_visible("#words") and page.input_value("#word-1") == "cat"  # nothing typed is lost
        # Back, and the event closed by its director meanwhile: the service's 409, in the page's words.
        context.set_offline(False)
        closed = pages_server.api("POST", f"/events/{closed_event.id}/close", pages_server.tokens.admin)
        assert closed.status_code == 200, closed.text
        page.tap("#judge-button")
        page.wait_for_selector(f"#judge-error:text-is('{CLOSED[locale]}')")
        text = page.inner_text("body")
        for words in API_WORDS:
            assert words not in text, words
        # The language switched: the refusal shown is told again in the new one.
        other = "is" if locale == "en" else "en"
        page.select_option("#language", other)
        assert page.inner_text("#judge-error") == CLOSED[other]
        assert [error for error in page.errors if not error.startswith("request failed:")] == []  # the request made offline failed, as it had to
    finally:
        context.close()


def test_a_word_the_service_cannot_take_is_named_by_its_place_and_marked(browser: Any, pages_server: PagesServer) -> None:
    """A word past the endpoint's 256 characters (the field stops typing there; a paste through script does not): word 2, in Estonian."""
    context, page, _traffic = open_page(browser, pages_server.url + "/judge", PHONE, locale="et-EE", paused_clock=True)
    try:
        page.fill("#setup-token", pages_server.tokens.referee_t1)
        page.keyboard.press("Enter")
        page.wait_for_selector("#count:not([hidden])")
        page.keyboard.press("2")
        page.wait_for_selector("#word-2")
        assert page.get_attribute("#word-2", "maxlength") == "256"
        page.keyboard.type("kass")
        page.evaluate("document.getElementById('word-2').value = 'a'.repeat(300)")
        page.tap("#judge-button")
        page.wait_for_selector("#judge-error:text-matches('.+')")
        assert page.inner_text("#judge-error") == (
            "Sõna 2 ei saa otsustada: see on liiga pikk või sisaldab märki, mida ühelgi kaardil pole. Paranda see ja otsusta uuesti."
        )
        assert page.get_attribute("#word-2", "aria-invalid") == "true" and page.evaluate("document.activeElement.id") == "word-2"
        assert page.get_attribute("#word-1", "aria-invalid") is None
    finally:
        context.close()


def test_a_token_not_accepted_at_set_up_says_what_to_do_in_icelandic(browser: Any, pages_server: PagesServer) -> None:
    context, page, _traffic = open_page(browser, pages_server.url + "/judge", PHONE, locale="is-IS", paused_clock=True)
    try:
        page.fill("#setup-token", pages_server.tokens.referee_t1[:-3] + "xyz")
        page.tap("#setup-form button[type=submit]")
        page.wait_for_selector("#setup-error:text-matches('.+')")
        assert page.inner_text("#setup-error") == (
            "Þessi lykill var ekki samþykktur. Athugaðu hann og skrifaðu hann aftur, eða biddu mótsstjóra um dómaralykil þessa borðs."
        )
    finally:
        context.close()

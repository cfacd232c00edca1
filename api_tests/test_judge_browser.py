"""The judge kiosk (/judge) in headless Chromium against a real server: the flow, the clock, the lock, and no leak of which word failed.

Every kiosk here runs on a paused fake clock (``open_page(paused_clock=True)``): a ruling stays up,
a key clears it and unfinished input clears itself only when the test moves the clock, so the
clock rules are checked to the millisecond and a slow machine never clears a screen mid-test. The
accessibility pass needs the page's real timers (axe-core runs on them): it runs on a server whose
kiosk timings are an hour (``steady_server``).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .browser import AXE, AXE_TAGS, VIEWPORTS, PagesServer, Traffic, open_page, same_origin, screenshot

RESULT_SECONDS, KEY_DELAY, IDLE_SECONDS = 2.5, 0.5, 2.5  # browser.TIMINGS
STEADY_KEY_DELAY = 0.5  # the default: browser.STEADY_TIMINGS leaves it
ASSETS = ("common.js", "judge.js", "pages.css", "stream.js")


def assert_no_axe_violation(page: Any, state: str) -> None:
    """axe-core (WCAG 2.1 A/AA and best practice) finds no violation of any impact, minor and moderate too.

    The kiosk holds itself to more than ``browser.assert_accessible``, which fails on serious and critical ones only.
    """
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # by the driver: the page's CSP still holds for the page itself
    result = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", AXE_TAGS)
    violations = [{"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]} for v in result["violations"]]
    assert not violations, f"{state}: axe-core reports\n" + json.dumps(violations, indent=1)


def _kiosk(browser: Any, server: PagesServer, token: str, **kwargs: Any) -> tuple[Any, Any, Traffic]:
    context, page, traffic = open_page(browser, server.url + "/judge", paused_clock=True, **kwargs)
    page.fill("#setup-token", token)
    page.keyboard.press("Enter")
    page.wait_for_selector("#count:not([hidden])")
    return context, page, traffic


def _challenge(page: Any, words: list[str]) -> None:
    """The challenger's keys: the count, each word and Enter; the opponent's Enter judges."""
    page.keyboard.press(str(len(words)))
    page.wait_for_selector(f"#word-{len(words)}")
    for word in words:
        page.keyboard.type(word)
        page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")


def _rulings(server: PagesServer) -> list[dict[str, Any]]:
    entries = server.api("GET", f"/events/{server.event}/audit", server.tokens.director).json()["entries"]
    return [e["payload"] for e in entries if e["action"] == "judge.ruling"]


def test_an_acceptable_play_fills_the_screen_with_the_words_and_the_lexicon_and_is_recorded(browser: Any, pages_server: PagesServer) -> None:
    before = len(_rulings(pages_server))
    context, page, _traffic = _kiosk(browser, pages_server, pages_server.tokens.referee_t1)
    try:
        assert "table t1" in page.inner_text("#locked-to")
        event = pages_server.api("GET", f"/events/{pages_server.event}").json()
        assert f"{event['lexicon']['id']} {event['lexicon']['version']}" in page.inner_text("#lexicon-line")
        _challenge(page, ["cat", "(qu)iz"])
        assert page.get_attribute("body", "data-verdict") == "acceptable"
        assert page.inner_text("#result-symbol") == "✓"
        assert "ACCEPTABLE" in page.inner_text("#result-text") and "UNACCEPTABLE" not in page.inner_text("#result-text")
        assert page.locator("#result-words li").all_inner_texts() == ["cat", "(qu)iz"]
        assert event["lexicon"]["version"] in page.inner_text("#result-lexicon")
        rulings = _rulings(pages_server)
        assert len(rulings) == before + 1
        assert rulings[-1]["acceptable"] is True and rulings[-1]["words"] == ["cat", "(qu)iz"] and rulings[-1]["table"] == "t1"
        assert page.errors == []
    finally:
        context.close()


def test_an_unacceptable_play_never_names_the_failing_word_on_the_page_or_on_the_wire(browser: Any, pages_server: PagesServer) -> None:
    words = ["cat", "xyzzy", "dog"]  # xyzzy is not in the lexicon
    context, page, traffic = _kiosk(browser, pages_server, pages_server.tokens.referee_t1)
    try:
        _challenge(page, words)
        assert page.get_attribute("body", "data-verdict") == "unacceptable"
        assert page.inner_text("#result-symbol") == "✗" and "UNACCEPTABLE" in page.inner_text("#result-text")
        # The DOM: the three words shown alike, and nothing that marks one of them.
        items = page.locator("#result-words li")
        assert items.all_inner_texts() == words
        assert len({json.dumps(item.evaluate("e => [...e.attributes].map(a => [a.name, a.value])")) for item in items.all()}) == 1
        html = page.evaluate("document.body.outerHTML")  # all of the page but the head, whose strings are the same before any ruling
        assert "xyzzy" in html and html.count("xyzzy") == html.count(">cat<") == 1
        for telltale in ("not_in_lexicon", "reason", "invalid", "not valid", "ógilt", "ei kehti"):
            assert telltale not in html.lower(), telltale
        # The wire: one ruling asked for; no answer says anything per word.
        assert len(traffic.sent(page, "POST", f"/events/{pages_server.event}/judge")) == 1
        judged = traffic.answered(page, "POST", f"/events/{pages_server.event}/judge")  # the last call: every answer is in
        assert len(judged) == 1 and json.loads(judged[0]["sent"])["words"] == words
        assert set(json.loads(judged[0]["answer"])) == {"acceptable", "count", "ruleset", "lexicon", "table", "round", "audit_seq", "receipt"}  # a receipt holds hashes only
        called = {re.sub(r"^https?://[^/]+", "", c["url"]).split("?")[0] for c in traffic.requests}
        kiosk_calls = {"/judge", "/whoami", f"/events/{pages_server.event}", f"/events/{pages_server.event}/judge", f"/events/{pages_server.event}/stream"}
        assert called <= kiosk_calls | {f"/assets/{a}" for a in ASSETS}, called  # the stream says what changed, never a word (docs/streams.md)
        for call in traffic.requests:
            if call["answer"].startswith("{"):  # every JSON answer: the assets are the page's own text
                assert "xyzzy" not in call["answer"] and "reason" not in call["answer"], call["url"]
        assert same_origin(traffic, pages_server.url) == []
        assert page.errors == []
    finally:
        context.close()


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def test_a_ruling_clears_after_its_time_or_on_a_key_after_the_delay_and_unfinished_input_clears_when_idle(browser: Any, pages_server: PagesServer) -> None:
    context, page, _traffic = _kiosk(browser, pages_server, pages_server.tokens.referee_t1)
    try:
        # By itself, after RESULT_SECONDS: up a millisecond before, gone at it.
        _challenge(page, ["cat"])
        page.clock.run_for(_ms(RESULT_SECONDS) - 1)
        assert page.is_visible("#result") and not page.is_visible("#count")
        page.clock.run_for(1)
        page.wait_for_selector("#count:not([hidden])")
        # A key at once (a key still held from typing) does not clear it, nor one a millisecond before KEY_DELAY; one at it does.
        _challenge(page, ["dog"])
        page.keyboard.press("x")
        assert page.is_visible("#result")
        page.clock.run_for(_ms(KEY_DELAY) - 1)
        page.keyboard.press("x")
        assert page.is_visible("#result")
        page.clock.run_for(1)
        page.keyboard.press("x")
        page.wait_for_selector("#count:not([hidden])")
        # Unfinished input: a count and half a word, then no key for IDLE_SECONDS.
        page.keyboard.press("2")
        page.wait_for_selector("#word-2")
        page.keyboard.type("ca")
        page.clock.run_for(_ms(IDLE_SECONDS) - 1)
        assert page.input_value("#word-1") == "ca" and not page.is_visible("#count")
        page.clock.run_for(1)
        page.wait_for_selector("#count:not([hidden])")
        assert page.input_value("#count-input") == "" and page.locator("#word-fields input").count() == 0
        assert page.errors == []
    finally:
        context.close()


def test_the_first_press_locks_the_input_and_sends_one_ruling(browser: Any, pages_server: PagesServer) -> None:
    before = len(_rulings(pages_server))
    context, page, traffic = _kiosk(browser, pages_server, pages_server.tokens.referee_t1)
    try:
        page.keyboard.press("1")
        page.wait_for_selector("#word-1")
        page.keyboard.type("cat")
        page.keyboard.press("Enter")
        page.click("#judge-button", click_count=3, delay=10)
        page.wait_for_selector("#result:not([hidden])")
        assert len(traffic.sent(page, "POST", "/judge")) == 1
        assert len(_rulings(pages_server)) == before + 1
    finally:
        context.close()


@pytest.fixture
def any_table_kiosk(browser: Any, pages_server: PagesServer) -> Any:
    context, page, _traffic = open_page(browser, pages_server.url + "/judge", paused_clock=True)
    yield page
    context.close()


def test_a_token_for_every_table_picks_its_table_then_leaving_needs_the_director(any_table_kiosk: Any, pages_server: PagesServer) -> None:
    page = any_table_kiosk
    page.fill("#setup-token", pages_server.tokens.referee_any)
    page.keyboard.press("Enter")
    page.wait_for_selector("#setup-table-field:not([hidden])")
    page.select_option("#setup-table", "t2")
    page.click("#setup-form button[type=submit]")
    page.wait_for_selector("#count:not([hidden])")
    assert "table t2" in page.inner_text("#locked-to")
    page.reload()
    page.wait_for_selector("#count:not([hidden])")  # still locked: no token asked for again
    assert "table t2" in page.inner_text("#locked-to")
    page.click("#leave")
    page.fill("#leave-token", pages_server.tokens.referee_any)  # a referee cannot leave
    page.keyboard.press("Enter")
    page.wait_for_selector("#leave-error:text-matches('.+')")
    assert page.is_visible("#leave-dialog") and not page.is_visible("#setup")
    page.fill("#leave-token", pages_server.tokens.director)
    page.keyboard.press("Enter")
    page.wait_for_selector("#setup:not([hidden])")
    page.reload()
    page.wait_for_selector("#setup:not([hidden])")  # unlocked for good


def test_the_kiosk_speaks_the_browsers_language_and_switches(browser: Any, pages_server: PagesServer) -> None:
    context, page, _traffic = open_page(browser, pages_server.url + "/judge", locale="is-IS")
    try:
        assert page.inner_text("h1") == "Orðadómari" and page.get_attribute("html", "lang") == "is"
        page.select_option("#language", "et")
        assert page.inner_text("h1") == "Sõnakohtunik" and page.get_attribute("html", "lang") == "et"
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.inner_text("h1") == "Sõnakohtunik"
        page.select_option("#language", "en")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_every_step_of_the_kiosk_passes_axe_and_is_photographed(browser: Any, steady_server: PagesServer, viewport: str) -> None:
    context, page, _traffic = open_page(browser, steady_server.url + "/judge", VIEWPORTS[viewport])
    page.clock.install()  # running: axe-core needs its timers to fire, and the kiosk's are an hour (STEADY_TIMINGS)
    try:
        assert_no_axe_violation(page, "set-up")
        screenshot(page, f"judge-setup-{viewport}")
        page.fill("#setup-token", steady_server.tokens.referee_t1)
        page.keyboard.press("Enter")
        page.wait_for_selector("#count:not([hidden])")
        assert_no_axe_violation(page, "count")
        page.keyboard.press("3")
        for word in ["cat", "xyzzy", "dog"]:
            page.keyboard.type(word)
            page.keyboard.press("Enter")
        assert_no_axe_violation(page, "words")
        screenshot(page, f"judge-words-{viewport}")
        page.keyboard.press("Enter")
        page.wait_for_selector("#result:not([hidden])")
        assert_no_axe_violation(page, "ruling")
        screenshot(page, f"judge-ruling-{viewport}")
        page.clock.run_for(_ms(STEADY_KEY_DELAY) + 1)
        page.keyboard.press("x")  # past the key delay: a key clears the ruling
        page.wait_for_selector("#count:not([hidden])")
        page.click("#leave")
        assert_no_axe_violation(page, "leaving")
    finally:
        context.close()

"""The judge kiosk and the display at a German and a Spanish table, in headless Chromium against a real server (docs/pages.md).

A kiosk speaks its table's language: the event's lexicon's (``de`` for the ``deutsch`` ruleset, ``es`` for
``espanol``), on a device whose browser nobody set to another language the service speaks (its browser here is
``en-US``, the usual default). A browser set to another such language, ``?locale=`` or the language switch wins
over the table's. The words expected are the catalogue's (wordsvc/i18n/locales/de.po and es.po), written out
here: these tests talk HTTP only and import nothing of the service.

The server keeps a ruling up for an hour (``STEADY_TIMINGS``) and each page runs on a fake clock that is not
paused (``page.clock.install()``), so axe-core's timers fire while nothing the kiosk times runs out on a slow
machine; the test moves the clock past the key's delay to clear a ruling.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from .browser import STEADY_TIMINGS, open_page
from .conftest import admin_token_for, running_server
from .test_judge_browser import STEADY_KEY_DELAY, assert_no_axe_violation


@dataclass(frozen=True)
class Table:
    """What a table of each language holds and how its kiosk says it."""

    ruleset: str
    event: str
    valid: tuple[str, ...]  # words its lexicon and deck accept, the second the words prompt's example of a double card
    invalid: tuple[str, ...]  # a play with a word that is not in its lexicon
    title: str  # judge.title
    locked_to: str  # judge.locked_to for table t1, round 1
    count_prompt: str  # judge.count_prompt
    word_label: str  # judge.word_label of word 1 of 2
    words_prompt: str  # judge.words_prompt with the example of its deck's double card (its manifest's double_examples)
    acceptable: str  # judge.acceptable
    unacceptable: str  # judge.unacceptable
    lexicon: str  # page.lexicon
    standings: str  # display.standings


TABLES = {
    "de": Table(
        ruleset="deutsch",
        event="turnier-de",
        valid=("rot", "i(ch)"),
        invalid=("rot", "xyzzy"),
        title="Wortrichter",
        locked_to="Turnier Spieleabend · Tisch t1 · Runde 1",
        count_prompt="Wie viele Wörter werden angefochten? Drücke eine Taste von 1 bis 8 oder gib die Zahl ein.",
        word_label="Wort 1 von 2",
        words_prompt="Gib jedes Wort ein; Enter springt zum nächsten. Eine Doppelkarte steht in Klammern: i(ch).",
        acceptable="Der Zug ist ZULÄSSIG",
        unacceptable="Der Zug ist UNZULÄSSIG",
        lexicon="Wörterbuch",
        standings="Rangliste",
    ),
    "es": Table(
        ruleset="espanol",
        event="torneo-es",
        valid=("sol", "(ch)ico"),
        invalid=("sol", "xyzzy"),
        title="Juez de palabras",
        locked_to="Torneo Noche de club · mesa t1 · ronda 1",
        count_prompt="¿Cuántas palabras se impugnan? Pulsa una tecla del 1 al 8 o escribe el número.",
        word_label="Palabra 1 de 2",
        words_prompt="Escribe cada palabra; Intro pasa a la siguiente. Una carta doble va entre paréntesis: (ch)ico.",
        acceptable="Jugada VÁLIDA",
        unacceptable="Jugada NO VÁLIDA",
        lexicon="Diccionario",
        standings="Clasificación",
    ),
}
NAMES = {"de": "Spieleabend", "es": "Noche de club"}


@dataclass(frozen=True)
class Venue:
    url: str
    referees: dict[str, str]  # language -> a referee token limited to table t1 of its event


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venue]:
    """A server with a German and a Spanish event, each with table t1 (two players) and a referee token for it."""
    database = f"sqlite:///{tmp_path_factory.mktemp('languages')}/ledger.sqlite3"
    with running_server("wordsvc-languages-", env={"WORDSVC_DATABASE_URL": database, **STEADY_TIMINGS}) as (url, _log):
        admin = {"Authorization": f"Bearer {admin_token_for(database)}"}
        referees = {}
        for lang, table in TABLES.items():
            created = requests.post(f"{url}/events", json={"name": NAMES[lang], "id": table.event, "ruleset": table.ruleset}, headers=admin, timeout=30)
            assert created.status_code == 201, f"the {table.ruleset} ruleset and the {lang} lexicon must be there (wordsvc build --only {lang}): {created.text}"
            assert created.json()["lexicon"]["id"].split("-")[0] == lang, created.json()["lexicon"]
            seated = requests.put(f"{url}/events/{table.event}/games/t1", json={"players": ["ana", "bo"]}, headers=admin, timeout=30)
            assert seated.status_code == 201, seated.text
            issued = requests.post(f"{url}/events/{table.event}/tokens", json={"role": "referee", "table": "t1"}, headers=admin, timeout=30)
            referees[lang] = issued.json()["token"]
            judged = {word: _valid(url, word, table.ruleset) for word in {*table.valid, *table.invalid}}  # the plays shown, as the API judges their words
            assert all(judged[word] for word in table.valid) and not all(judged[word] for word in table.invalid), judged
        yield Venue(url, referees)


def _valid(url: str, word: str, ruleset: str) -> bool:
    answer = requests.get(f"{url}/validate", params={"word": word, "ruleset": ruleset}, timeout=30)
    assert answer.status_code == 200, answer.text
    return bool(answer.json()["valid"])


def _kiosk(browser: Any, venue: Venue, lang: str, locale: str = "en-US", query: str = "") -> tuple[Any, Any]:
    """A kiosk set up with the referee token of the ``lang`` table, in a browser set to ``locale``."""
    context, page, _traffic = open_page(browser, f"{venue.url}/judge{query}", locale=locale)
    page.clock.install()  # running: axe-core needs its timers; the test moves it past the key's delay
    page.fill("#setup-token", venue.referees[lang])
    page.keyboard.press("Enter")
    page.wait_for_selector("#count:not([hidden])")
    return context, page


def _challenge(page: Any, words: tuple[str, ...]) -> None:
    """The challenger's keys: the count, each word and Enter; the opponent's Enter judges."""
    page.keyboard.press(str(len(words)))
    page.wait_for_selector(f"#word-{len(words)}")
    for word in words:
        page.keyboard.type(word)
        page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_selector("#result:not([hidden])")


def _clear(page: Any) -> None:
    page.clock.run_for(round(STEADY_KEY_DELAY * 1000) + 1)
    page.keyboard.press("x")
    page.wait_for_selector("#count:not([hidden])")


@pytest.mark.parametrize("lang", TABLES)
def test_the_kiosk_of_a_table_speaks_its_language_and_rules_in_it(browser: Any, venue: Venue, lang: str) -> None:
    table = TABLES[lang]
    context, page = _kiosk(browser, venue, lang)
    try:
        assert page.get_attribute("html", "lang") == lang and page.input_value("#language") == lang
        assert page.inner_text("h1") == table.title
        assert page.inner_text("#locked-to") == table.locked_to
        assert table.count_prompt in page.inner_text("#count")
        assert_no_axe_violation(page, f"count, {lang}")
        # A play its lexicon accepts.
        page.keyboard.press("2")
        page.wait_for_selector("#word-2")
        assert page.inner_text("label[for=word-1]") == table.word_label and page.inner_text("#words-prompt") == table.words_prompt
        for word in table.valid:
            page.keyboard.type(word)
            page.keyboard.press("Enter")
        page.keyboard.press("Enter")
        page.wait_for_selector("#result:not([hidden])")
        assert page.get_attribute("body", "data-verdict") == "acceptable"
        assert page.inner_text("#result-symbol") == "✓" and page.inner_text("#result-text") == table.acceptable
        assert page.locator("#result-words li").all_inner_texts() == list(table.valid)
        assert page.inner_text("#result-lexicon").startswith(f"{table.lexicon}: {lang}")
        assert_no_axe_violation(page, f"acceptable, {lang}")
        _clear(page)
        # A play with a word it does not hold.
        _challenge(page, table.invalid)
        assert page.get_attribute("body", "data-verdict") == "unacceptable"
        assert page.inner_text("#result-symbol") == "✗" and page.inner_text("#result-text") == table.unacceptable
        assert page.locator("#result-words li").all_inner_texts() == list(table.invalid)
        assert_no_axe_violation(page, f"unacceptable, {lang}")
        # Still its language after a reload: the kiosk stays locked to the table.
        page.reload()
        page.wait_for_selector("#count:not([hidden])")
        assert page.get_attribute("html", "lang") == lang and page.inner_text("#locked-to") == table.locked_to
        assert page.errors == []
    finally:
        context.close()


def test_a_browser_set_to_another_language_the_service_speaks_wins_over_the_tables(browser: Any, venue: Venue) -> None:
    context, page = _kiosk(browser, venue, "de", locale="es-ES")
    try:
        assert page.get_attribute("html", "lang") == "es" and page.inner_text("#locked-to") == "Torneo Spieleabend · mesa t1 · ronda 1"
        _challenge(page, TABLES["de"].valid)
        assert page.inner_text("#result-text") == TABLES["es"].acceptable
        assert page.errors == []
    finally:
        context.close()


def test_the_address_and_the_switch_win_over_the_tables_language_and_the_switch_is_kept(browser: Any, venue: Venue) -> None:
    context, page = _kiosk(browser, venue, "es", query="?locale=de")
    try:
        assert page.get_attribute("html", "lang") == "de" and page.inner_text("#locked-to") == "Turnier Noche de club · Tisch t1 · Runde 1"
        page.select_option("#language", "en")
        assert page.inner_text("#locked-to") == "Event Noche de club · table t1 · round 1"
        page.goto(f"{venue.url}/judge")  # no ?locale= now: the switch's choice is kept in this browser
        page.wait_for_selector("#count:not([hidden])")
        assert page.get_attribute("html", "lang") == "en" and page.input_value("#language") == "en"
        page.select_option("#language", "es")
        assert page.inner_text("h1") == TABLES["es"].title
        assert page.errors == []
    finally:
        context.close()


def test_the_language_switch_offers_german_and_spanish_by_their_own_names(browser: Any, venue: Venue) -> None:
    context, page, _traffic = open_page(browser, f"{venue.url}/judge", locale="de-DE")
    try:
        options = dict(page.eval_on_selector_all("#language option", "options => options.map((o) => [o.value, o.textContent])"))
        assert options["de"] == "Deutsch" and options["es"] == "Español"
        assert page.get_attribute("html", "lang") == "de" and page.inner_text("h1") == TABLES["de"].title  # not set up yet: the browser's language
    finally:
        context.close()


@pytest.mark.parametrize("lang", TABLES)
def test_the_display_of_a_german_or_spanish_event_speaks_its_language(browser: Any, venue: Venue, lang: str) -> None:
    context, page, _traffic = open_page(browser, f"{venue.url}/events/{TABLES[lang].event}/display")
    try:
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        page.wait_for_selector(f"text={TABLES[lang].standings}")
        assert page.errors == []
    finally:
        context.close()

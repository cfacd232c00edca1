"""The referee console's entry in headless Chromium against a real server (docs/pages.md, "Entering rounds").

Tried as a referee would at a real table: a half-typed round survives a reload and a new tab; a sign-in
link opens the table and leaves no token in the address; a typo in a token is told what to check; an
outage marks words "cannot check", is retried by itself and stores the round once when the service is
back; a round stored from another device is compared in words with this one; a round costs the keys of
its words and at most two more per player; a finished game sums up and offers the next table; at 390 px
nothing scrolls sideways and every button is at least 44 px; every state passes axe-core at any impact.

Each test opens a table of its own (:func:`_table`), so none depends on another's rounds. The outage is
the browser's: every request to the service fails at the network (``context.route``), as when the venue's
network drops, while the server itself keeps running.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import count, cycle
from typing import Any

import pytest

from .browser import EVERY_IMPACT, PHONE, TIMINGS, PagesServer, Traffic, assert_accessible, open_page, serve_event

#: Round 1 of a table of ana, bo and cy (3 cards each), as the slip says it: ana lays QU+I+Z and goes out, bo CAT, cy DO and keeps G.
SLIP = [("(qu)iz", "", True), ("cat", "", False), ("do", "g", False)]
PLAYERS = ["ana", "bo", "cy"]
_tables = count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """``wordsvc serve`` (SQLite, standings and the open table read again every second) with event club-night."""
    with serve_event(f"sqlite:///{tmp_path_factory.mktemp('entry')}/ledger.sqlite3", TIMINGS) as served:
        yield served


def _table(server: PagesServer, players: list[str] = PLAYERS) -> tuple[str, str]:
    """A new table of the event with ``players`` seated: its id and a referee token limited to it."""
    table = f"e{next(_tables)}"
    assert server.api("PUT", f"/events/{server.event}/games/{table}", server.tokens.director, json={"players": players}).status_code == 201
    token = server.api("POST", f"/events/{server.event}/tokens", server.tokens.director, json={"role": "referee", "table": table}).json()["token"]
    return table, token


def _link(server: PagesServer, table: str, token: str) -> str:
    return f"{server.url}/console#event={server.event}&table={table}&token={token}"


def _open(browser: Any, server: PagesServer, table: str, token: str, **kwargs: Any) -> tuple[Any, Any, Traffic]:
    """The console opened from the table's sign-in link, the table up (``locale``: the browser's language)."""
    context, page, traffic = open_page(browser, _link(server, table, token), **kwargs)
    page.wait_for_selector("#entry:not([hidden]) #entry-heading:text-matches('.')")
    return context, page, traffic


def _fill(page: Any, slip: list[tuple[str, str, bool]]) -> None:
    for i, (words, unused, out) in enumerate(slip):
        page.fill(f"#words-{i}", words)
        page.fill(f"#unused-{i}", unused)
        page.set_checked(f"#out-{i}", out)


def _stored(server: PagesServer, table: str) -> list[dict[str, Any]]:
    return server.api("GET", f"/events/{server.event}/games/{table}").json()["rounds"]  # type: ignore[no-any-return]


def _focused(page: Any) -> str:
    return page.evaluate("document.activeElement.id")  # type: ignore[no-any-return]


# --- 1. nothing typed is lost -------------------------------------------------------------------------------


def test_a_half_typed_round_survives_a_reload_and_the_page_says_what_it_restored(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _traffic = _open(browser, server, table, token)
    try:
        page.fill("#words-0", "(qu)iz")
        page.check("#out-0")
        page.fill("#words-1", "ca")  # half of bo's word: the referee was interrupted
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#entry:not([hidden]) #words-0")
        assert page.is_hidden("#signin")  # the sign-in is kept: no token asked again
        assert (page.input_value("#words-0"), page.is_checked("#out-0"), page.input_value("#words-1"), page.input_value("#words-2")) == (
            "(qu)iz",
            True,
            "ca",
            "",
        )
        status = page.inner_text("#submit-status")
        assert status.startswith("Restored what was typed for round 1 at ") and status.endswith("(ana, bo). Check it against the slip, or discard it.")
        # A new tab of the same console: signed in, the same table, and a form of its own (a tab is a device: docs/pages.md).
        other = context.new_page()
        other.goto(server.url + "/console")
        other.wait_for_selector("#entry:not([hidden]) #words-0")
        assert other.input_value("#words-1") == "" and other.is_hidden("#signin")
        other.close()
        # Discarded on purpose: gone, and a reload restores nothing.
        page.click("#discard")
        assert page.inner_text("#submit-status") == "The entry of round 1 was discarded."
        assert page.input_value("#words-0") == "" and _focused(page) == "words-0"
        page.reload()
        page.wait_for_selector("#entry:not([hidden]) #words-0")
        assert page.input_value("#words-0") == "" and page.is_hidden("#submit-status")
        # Sign out forgets the sign-in (never a draft): a reload asks for a token.
        page.fill("#words-1", "cat")
        page.click("#sign-out")
        page.reload()
        page.wait_for_selector("#signin:not([hidden])")
        assert page.is_hidden("#entry")
        assert page.errors == []
    finally:
        context.close()


def test_a_sign_in_link_opens_its_table_and_leaves_no_token_in_the_address_or_the_history(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, traffic = _open(browser, server, table, token)
    try:
        assert token not in page.url and page.url == server.url + "/console"
        # The link's entry in the history was replaced, not added to: back is the blank tab, forward the bare console.
        page.go_back()
        assert page.url == "about:blank"
        page.go_forward()
        page.wait_for_selector("#entry:not([hidden]) #words-0")
        assert page.url == server.url + "/console"
        assert "Table " + table + " · Round 1: 3 cards each" == page.inner_text("#entry-heading")
        assert _focused(page) == "words-0"
        assert all(token not in call["url"] for call in traffic.requests)  # the fragment never reaches the server
        assert_accessible(page, "opened from a link", EVERY_IMPACT)
    finally:
        context.close()


def test_a_mistyped_token_is_told_what_to_check_and_an_unknown_one_the_same_without_counting(browser: Any, server: PagesServer) -> None:
    context, page, traffic = open_page(browser, server.url + "/console")
    try:
        assert page.get_attribute("#signin-token", "type") == "password"
        page.click("#show-token")  # a 56-character token is checked by eye
        assert page.get_attribute("#signin-token", "type") == "text" and page.get_attribute("#show-token", "aria-pressed") == "true"
        page.fill("#signin-token", server.tokens.referee_t1[:-1])
        page.keyboard.press("Enter")
        page.wait_for_selector("#signin-error:text-matches('.+')")
        assert page.inner_text("#signin-error") == (
            "This token was not recognised: check that it starts with wsv_ and has 56 characters (this one has 55), or ask the director for the table's link."
        )
        assert traffic.sent(page, "GET", "/whoami") == []  # not a token's shape: nothing is sent
        unknown = server.tokens.referee_t1[:-4] + ("aaaa" if not server.tokens.referee_t1.endswith("aaaa") else "bbbb")
        page.fill("#signin-token", unknown)
        page.keyboard.press("Enter")
        page.wait_for_selector("#signin-error:text-matches('ask the director for the table.s link.$')")
        page.wait_for_function("() => !document.getElementById('signin-error').textContent.includes('this one has')")
        assert "check that it starts with wsv_ and has 56 characters, or ask" in page.inner_text("#signin-error")
        assert_accessible(page, "sign-in refused", EVERY_IMPACT)
    finally:
        context.close()


def test_a_round_stored_from_another_device_shows_up_beside_the_entry_kept_here_with_what_differs(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    here, page, _ = _open(browser, server, table, token)
    there, other, _ = _open(browser, server, table, token)  # another device: a browser of its own
    try:
        _fill(page, [("(qu)it", "", True), ("cat", "", False), ("do", "g", False)])
        _fill(other, SLIP)
        other.click("#submit")
        other.wait_for_selector("#stored-table tbody tr[data-round='1']")
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")  # the table is read again as the standings are
        assert page.inner_text("#conflict-heading") == "Round 1 was stored from another device or tab."
        assert page.locator("#conflict-list li").all_inner_texts() == ["ana laid QUIZ, here you have QUIT."]
        assert "Round 1" in page.inner_text("#entry-heading") and page.input_value("#words-0") == "(qu)it"  # kept as typed
        page.wait_for_selector("#stored-table tbody tr[data-round='1']")
        text = page.inner_text("body")
        assert "If-Match" not in text and "body:" not in text and "differs from the stored round" not in text
        assert len(_stored(server, table)) == 1
        assert_accessible(page, "stored elsewhere", EVERY_IMPACT)
    finally:
        here.close()
        there.close()


# --- 2. outages told as outages ----------------------------------------------------------------------------


def test_an_outage_marks_words_cannot_check_retries_by_itself_and_stores_the_round_once(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, traffic = _open(browser, server, table, token)
    try:
        page.fill("#words-0", "(qu)iz")
        page.wait_for_selector("#verdicts-0 li.ok")
        context.route(f"{server.url}/**", lambda route: route.abort("connectionrefused"))  # the venue's network drops
        page.fill("#words-1", "cat")
        page.wait_for_selector("#connection:not([hidden])")
        page.wait_for_selector("#verdicts-1 li.unknown")
        assert page.inner_text("#connection").startswith("Connection to the service lost, retrying…")
        assert page.inner_text("#verdicts-1") == "cat ? cannot check"
        assert "not valid" not in page.inner_text("#players")
        page.check("#out-0")
        page.fill("#words-2", "do")
        page.fill("#unused-2", "g")
        page.focus("#unused-2")
        page.keyboard.press("Enter")  # store from the last field: it waits for the connection
        page.wait_for_selector("#submit-status:text-matches('will be stored as soon as the connection is back')")
        assert page.inner_text("#submit") == "Waiting for the connection…" and page.is_disabled("#submit")
        page.click("#submit", force=True)  # a second press sends nothing more
        assert_accessible(page, "outage", EVERY_IMPACT)
        assert _stored(server, table) == [] and traffic.sent(page, "PUT", f"/games/{table}/rounds/1") == []
        context.unroute(f"{server.url}/**")  # back: the page finds out by itself
        page.wait_for_selector("#stored-table tbody tr[data-round='1']", timeout=60000)
        page.wait_for_selector("#connection", state="hidden")
        assert len(traffic.sent(page, "PUT", f"/games/{table}/rounds/1")) == 1
        rounds = _stored(server, table)
        assert len(rounds) == 1 and rounds[0]["revisions"] == 1
        assert "Round 1 stored as revision 1" in page.inner_text("#submit-status") and _focused(page) == "words-0"
        # Every mark is checked again once the service is back: a word typed in the outage gets its verdict.
        context.route(f"{server.url}/validate", lambda route: route.abort("connectionrefused"))
        page.fill("#words-1", "ox")
        page.wait_for_selector("#verdicts-1 li.unknown")
        context.unroute(f"{server.url}/validate")
        page.wait_for_selector("#verdicts-1 li.ok", timeout=60000)
        assert page.inner_text("#verdicts-1") == "ox ✓ valid · 14 pts"
    finally:
        context.close()


def test_a_store_whose_answer_is_lost_is_sent_again_with_the_same_body_and_stored_once(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, traffic = _open(browser, server, table, token)
    lost: list[str] = []

    def answer_lost(route: Any) -> None:
        """The PUT reaches the server and is stored; its answer never comes back."""
        if route.request.method == "PUT" and not lost:
            route.fetch()
            lost.append(route.request.post_data)
            route.abort("connectionreset")
        else:
            route.continue_()

    try:
        _fill(page, SLIP)
        page.wait_for_selector("#preview:not([hidden])")
        context.route(f"{server.url}/events/**", answer_lost)
        page.click("#submit")
        page.wait_for_selector("#stored-table tbody tr[data-round='1']", timeout=60000)
        sent = traffic.sent(page, "PUT", f"/games/{table}/rounds/1")
        assert len(sent) == 2 and lost  # sent again once the service answered the probe
        rounds = _stored(server, table)
        assert len(rounds) == 1 and rounds[0]["revisions"] == 1  # the retry was the same play: a 200, one round
        assert "Round 1 stored as revision 1" in page.inner_text("#submit-status")
        assert page.is_hidden("#connection")
    finally:
        context.close()


# --- 3. messages a referee reads ----------------------------------------------------------------------------

#: What the page says, per language: a typo'd token, a hand short of cards, a hand not yet typed (nothing), an outage.
SAID = {
    "en": {
        "typo": "This token was not recognised: check that it starts with wsv_ and has 56 characters (this one has 12), or ask the director for the table's link.",
        "short": "ana: 1 of 3 cards. Round 1 deals 3: add the missing cards to the words or to the cards left in hand.",
        "deck": "3 Z cards are on the slip, but the deck holds 2. Check whose Z is wrong.",
        "cannot": "ox ? cannot check",
        "banner": "Connection to the service lost, retrying…",
    },
    "et": {
        "typo": "Seda tunnust ei tuntud ära: kontrolli, et see algab wsv_ ja on 56 märki pikk (sellel on 12), või küsi peakohtunikult laua linki.",
        "short": "ana: 1 kaarti 3-st. Voorus 1 jagatakse 3: lisa puuduvad kaardid sõnadesse või kätte jäänud kaartide hulka.",
        "deck": "Lehel on 3 kaarti Z, aga pakis on neid 2. Kontrolli, kelle Z on vale.",
        "cannot": "ox ? ei saa kontrollida",
        "banner": "Ühendus teenusega katkes, proovin uuesti…",
    },
    "is": {
        "typo": "Þessi lykill þekktist ekki: athugaðu að hann byrji á wsv_ og sé 56 stafir (þessi er 12), eða biddu mótsstjórann um tengil borðsins.",
        "short": "ana: 1 af 3 spilum. Í umferð 1 eru gefin 3: bættu spilunum sem vantar við orðin eða spilin á hendi.",
        "deck": "3 Z spil eru á blaðinu, en stokkurinn hefur 2. Athugaðu hvers Z er rangt.",
        "cannot": "ox ? ekki hægt að athuga",
        "banner": "Sambandið við þjónustuna rofnaði, reyni aftur…",
    },
}


@pytest.mark.parametrize("locale", ["en", "et", "is"])
def test_slip_problems_and_refusals_are_said_in_the_pages_language_naming_the_player(browser: Any, server: PagesServer, locale: str) -> None:
    table, token = _table(server)
    said = SAID[locale]
    context, page, _traffic = open_page(browser, server.url + f"/console?locale={locale}")
    try:
        page.fill("#signin-token", "wsv_12345678")
        page.keyboard.press("Enter")
        page.wait_for_selector("#signin-error:text-matches('.+')")
        assert page.inner_text("#signin-error") == said["typo"]
    finally:
        context.close()
    context, page, _traffic = _open(browser, server, table, token, locale=locale)
    try:
        # Only the player being typed is checked for its hand: bo and cy, not reached yet, are never short of cards.
        page.click("#words-0")
        page.keyboard.type("(qu)")
        page.wait_for_selector("#warning-list li")
        assert page.locator("#warning-list li").all_inner_texts() == [said["short"]]
        assert page.inner_text("#count-0") in ("1/3 cards", "1/3 kaarti", "1/3 spil")
        page.fill("#words-0", "zzz")
        page.wait_for_selector(f"#warning-list li:text-is('{said['deck']}')")
        text = page.inner_text("#entry")
        assert "players." not in text and "card(s)" not in text and "bo:" not in text
        assert_accessible(page, f"warnings in {locale}", EVERY_IMPACT)
        context.route(f"{server.url}/**", lambda route: route.abort("connectionrefused"))
        page.fill("#words-0", "ox")
        page.wait_for_selector("#verdicts-0 li.unknown")
        assert page.inner_text("#verdicts-0") == said["cannot"]
        assert page.inner_text("#connection").startswith(said["banner"])
    finally:
        context.close()


def test_an_unknown_problem_is_a_sentence_of_the_page_with_the_services_words_only_beside_it(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _traffic = _open(browser, server, table, token)
    odd = {"type": "/docs#problem-invalid-request", "title": "Invalid request", "status": 422, "detail": "x", "errors": {"players.0.name": ["something new"]}}
    try:
        _fill(page, SLIP)
        page.wait_for_selector("#preview:not([hidden])")
        context.route(
            f"{server.url}/events/**/rounds/1", lambda route: route.fulfill(status=422, content_type="application/problem+json", body=json.dumps(odd))
        )
        page.click("#submit")
        page.wait_for_selector("#submit-error li")
        assert page.inner_text("#submit-error li") == "ana: this entry cannot be stored. Check it on the slip. (the service said: something new)"
        assert page.inner_text("#submit-error li small") == "(the service said: something new)"
    finally:
        context.close()


# --- 6. fast entry ------------------------------------------------------------------------------------------


def test_a_round_costs_the_keys_of_its_words_and_at_most_two_more_per_player(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _traffic = _open(browser, server, table, token)
    presses = 0

    def typed(text: str) -> None:
        nonlocal presses
        page.keyboard.type(text)
        presses += len(text)

    def enter() -> None:
        nonlocal presses
        page.keyboard.press("Enter")
        presses += 1

    try:
        assert _focused(page) == "words-0"  # the link opened the table with the first field ready
        for words, unused, _out in SLIP:
            typed(words)
            enter()  # to the cards left in hand
            typed(unused)
            enter()  # to the next player's words; from the last field, Store
        page.wait_for_selector("#stored-table tbody tr[data-round='1']")
        word_keys = sum(len(words) + len(unused) for words, unused, _out in SLIP)
        assert presses <= word_keys + 2 * len(SLIP), (presses, word_keys)
        body = server.api("GET", f"/events/{server.event}/games/{table}/rounds/1").json()["history"][0]["body"]
        assert [(p["name"], p["went_out"], p["unused"]) for p in body["players"]] == [("ana", True, []), ("bo", False, []), ("cy", False, ["g"])]
        # After Store: the first field of the next round has the focus, its counter at zero.
        assert _focused(page) == "words-0" and "Round 2: 4 cards each" in page.inner_text("#entry-heading")
        page.keyboard.type("ca")
        assert page.inner_text("#count-0") == "2/4 cards"
        # The double-letter buttons come after the fields in the tab order.
        page.focus(f"#out-{len(SLIP) - 1}")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.card") is not None
    finally:
        context.close()


# --- 8. a finished game -------------------------------------------------------------------------------------


def _round_bodies(server: PagesServer, players: list[str]) -> list[dict[str, Any]]:
    """Every round of a table: each player lays one word and keeps the rest of the hand, cards drawn without reuse."""
    event = server.api("GET", f"/events/{server.event}").json()
    deck = event["ruleset"]["snapshot"]["deck"]
    pool = cycle([face for face, card in sorted(deck.items()) if len(face) == 1 and face not in "oxat" for _ in range(card["count"])])
    words = ["ox", "at"]
    return [
        {
            "players": [
                {"name": name, "words": [words[i]], "unused": "".join(next(pool) for _ in range(cards - 2)), "went_out": False}
                for i, name in enumerate(players)
            ]
        }
        for cards in event["ruleset"]["rounds"]
    ]


def test_a_finished_game_shows_its_totals_its_bonus_winners_and_the_next_table(browser: Any, server: PagesServer) -> None:
    players = ["fay", "gus"]
    table, referee = _table(server, players)
    bodies = _round_bodies(server, players)
    for n, body in enumerate(bodies[:-1], start=1):
        assert server.api("PUT", f"/events/{server.event}/games/{table}/rounds/{n}", referee, json=body).status_code == 201
    context, page, _traffic = _open(browser, server, table, server.tokens.director)
    try:
        assert "Round 8: 10 cards each" in page.inner_text("#entry-heading")
        last = bodies[-1]["players"]
        _fill(page, [(p["words"][0], p["unused"], False) for p in last])
        page.wait_for_selector("#preview:not([hidden])")
        page.click("#submit")
        page.wait_for_selector("#finished:not([hidden])")
        assert page.inner_text("#entry-heading") == f"Table {table}: every round is stored"
        assert page.is_hidden("#entry-form") and "already stored" not in page.inner_text("#entry")
        rounds = _stored(server, table)
        final = sorted(rounds[-1]["running_totals"], key=lambda p: -p["total"])
        assert page.locator("#final-totals li").all_inner_texts() == [f"{p['name']}: {p['total']}" for p in final]
        lines = page.locator("#final-bonuses li").all_inner_texts()
        assert len(lines) == sum(len(r["result"]["bonuses"]) for r in rounds)  # one line a bonus, never one a tied name
        assert lines[0] == "Round 1 · longest word: tied (fay, gus), nobody scores it"
        page.wait_for_selector("#next-table:not([hidden])")
        offered = page.inner_text("#next-table")
        assert offered.startswith("Open the next table: ") and table not in offered.split(":")[1].split("(")[0]
        assert_accessible(page, "finished", EVERY_IMPACT)
        page.click("#next-table")
        page.wait_for_selector("#entry-form:not([hidden]) #words-0")
        assert "Round 1" in page.inner_text("#entry-heading") and _focused(page) == "words-0"
    finally:
        context.close()
    # A referee whose token is for this table alone is sent to the director for the next one.
    context, page, _traffic = _open(browser, server, table, referee)
    try:
        page.wait_for_selector("#no-next:not([hidden])")
        assert page.inner_text("#no-next") == "Ask the director for the link of your next table."
    finally:
        context.close()


# --- 7. phone size ------------------------------------------------------------------------------------------

NO_SIDEWAYS_SCROLL = """() => {
  const wide = [...document.querySelectorAll('#entry .scroll, #stored .scroll, #standings .scroll')]
    .filter((box) => box.offsetParent !== null && box.scrollWidth > box.clientWidth)
    .map((box) => box.parentElement.id);
  return {page: document.documentElement.scrollWidth, wide};
}"""

#: Every visible touch target smaller than 44 CSS px (WCAG 2.5.5): buttons both ways; fields, lists and a checkbox's label in height.
SMALL_TARGETS = """() => [...document.querySelectorAll('button, select, input:not([type=checkbox]), label.check')]
  .filter((node) => node.offsetParent !== null)
  .map((node) => [node.id || node.textContent.trim(), node.getBoundingClientRect(), node.tagName === 'BUTTON'])
  .filter(([, r, button]) => r.height < 44 || (button && r.width < 44))
  .map(([name, r]) => `${name}: ${Math.round(r.width)}x${Math.round(r.height)}`)"""


def test_at_390_px_the_preview_stored_rounds_and_standings_fit_and_buttons_are_44_px(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, ["annabella", "bartholomew", "cyrillus", "dorothea"])
    context, page, _traffic = _open(browser, server, table, token, viewport=PHONE)
    try:
        for round_slip in (
            [("(qu)iz", "", True), ("cat", "", False), ("do", "g", False), ("ox", "e", False)],
            [("(qu)ite", "", True), ("cats", "", False), ("dog", "e", False), ("ox", "en", False)],
        ):
            _fill(page, round_slip)
            page.wait_for_selector("#preview:not([hidden])")
            fit = page.evaluate(NO_SIDEWAYS_SCROLL)
            assert fit["page"] <= PHONE["width"] and fit["wide"] == [], fit
            page.click("#submit")
            page.wait_for_function(
                "(n) => document.querySelectorAll('#stored-table tbody tr[data-round]:not(.more)').length === n", arg=len(_stored(server, table))
            )
        page.wait_for_selector("#standings-table tbody tr")
        page.click("#stored-table button[data-history='1']")
        page.wait_for_selector("#history:not([hidden])")
        page.click("#stored-table td.receipt summary >> nth=0")
        fit = page.evaluate(NO_SIDEWAYS_SCROLL)
        assert fit["page"] <= PHONE["width"] and fit["wide"] == [], fit
        assert page.evaluate(SMALL_TARGETS) == []
        assert_accessible(page, "phone, two rounds stored", EVERY_IMPACT)
    finally:
        context.close()


def test_in_a_tournament_a_finished_table_offers_the_next_sessions_table_of_the_same_players(browser: Any, server: PagesServer) -> None:
    created = server.api("POST", "/events", server.tokens.admin, json={"name": "Next cup", "id": "next-cup", "ruleset": "standard", "lang": "en-US"})
    assert created.status_code == 201, created.text
    director = created.json()["director_token"]["token"]
    for pid, name in [("p1", "Ann"), ("p2", "Bob"), ("p3", "Cy"), ("p4", "Dee")]:
        assert server.api("PUT", f"/events/next-cup/players/{pid}", director, json={"name": name, "checked_in": True}).status_code == 201
    seated = server.api("POST", "/events/next-cup/sessions", director, json={"method": "manual", "number": 1, "tables": [["p1", "p2"], ["p3", "p4"]]})
    assert seated.status_code == 201, seated.text
    cup = PagesServer(server.url, server.database, "next-cup", server.tokens)
    players = server.api("GET", "/events/next-cup/games/s1-t1", director).json()["players"]
    for n, body in enumerate(_round_bodies(cup, players), start=1):
        assert server.api("PUT", f"/events/next-cup/games/s1-t1/rounds/{n}", director, json=body).status_code == 201
    second = {"method": "manual", "number": 2, "tables": [["p3", "p4"], ["p2", "p1"]], "unfinished": "allow"}  # s1-t2 has not played
    assert server.api("POST", "/events/next-cup/sessions", director, json=second).status_code == 201
    context, page, _traffic = _open(browser, cup, "s1-t1", director)
    try:
        page.wait_for_selector("#next-table:not([hidden])")
        assert page.inner_text("#next-table") == "Open the next table: s2-t2 (Bob, Ann)"  # not s1-t2, which has rounds to play
        page.click("#next-table")
        page.wait_for_selector("#entry-heading:text-is('Table s2-t2 · Round 1: 3 cards each')")
        assert page.locator("#players legend").all_inner_texts() == ["Bob", "Ann"]
    finally:
        context.close()


def test_a_gateway_error_is_an_outage_too_and_a_sign_in_it_stopped_is_tried_again(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _traffic = open_page(browser, server.url + "/console")
    unavailable = {"status": 503, "content_type": "text/html", "body": "<h1>503 Service Unavailable</h1>"}  # a proxy in front of a stopped service
    try:
        context.route(f"{server.url}/**", lambda route: route.fulfill(**unavailable) if "/assets/" not in route.request.url else route.continue_())
        page.fill("#signin-token", token)
        page.keyboard.press("Enter")
        page.wait_for_selector("#connection:not([hidden])")
        assert page.inner_text("#signin-error").startswith("The service cannot be reached. Nothing is lost")
        assert "503" not in page.inner_text("body")
        context.unroute(f"{server.url}/**")
        page.wait_for_selector("#entry:not([hidden]) #entry-heading:text-matches('.')", timeout=60000)  # signed in once the service answers
        assert page.is_hidden("#connection") and page.is_hidden("#signin")
        assert f"Table {table}" in page.inner_text("#entry-heading")
    finally:
        context.close()


def test_a_draft_of_a_round_stored_meanwhile_is_compared_with_it_when_the_table_opens_again(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _traffic = _open(browser, server, table, token)
    try:
        _fill(page, [("(qu)iz", "", True), ("act", "", False)])
        page.close()  # the tab is closed mid-round; another device stores the round
        body = {"players": [{"name": n, "words": [w], "unused": u, "went_out": o} for n, (w, u, o) in zip(PLAYERS, SLIP, strict=True)]}
        assert server.api("PUT", f"/events/{server.event}/games/{table}/rounds/1", token, json=body).status_code == 201
        page = context.new_page()  # a new tab takes over the closed tab's draft
        page.goto(server.url + "/console")
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        assert page.locator("#conflict-list li").all_inner_texts() == [
            "bo laid CAT, here you have ACT.",
            "cy laid DO, here you have nothing.",
            "cy kept G in hand, here you have nothing.",
        ]
        assert "Round 1" in page.inner_text("#entry-heading") and page.input_value("#words-1") == "act"
        page.click("#conflict-discard")
        page.wait_for_selector("#entry-heading:text-matches('Round 2')")
        assert page.is_hidden("#conflict") and page.input_value("#words-1") == "" and _focused(page) == "words-0"
        page.reload()
        page.wait_for_selector("#entry:not([hidden]) #entry-heading:text-matches('Round 2')")
        assert page.is_hidden("#conflict")  # discarded: the draft is gone
    finally:
        context.close()

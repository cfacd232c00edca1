"""Two devices at one table, in headless Chromium against a real server (docs/pages.md, "Another tab or device").

A referee's entry is never erased by another device's: each tab keeps its own draft of the round it typed;
a round stored elsewhere while it was typed here is shown beside the entry kept here, with only the
differences the ledger sees (words in another order are the same play), near the form and with the next
step offered; Store sends only the round that was typed, and refuses with an explanation once the table
moved on; every message ends with its cause (a store's slip problems once the slip typed again is
previewed, "stored from another device" at the next round and on a finished game's summary). A word's
verdict sits beside its field on a 1366 x 768 laptop and right under it on a phone. Axe at every impact.

Each device is a browser context of its own (its own storage, as two phones are); two tabs are two pages
of one context. Each test opens a table of its own, its earlier rounds stored through the API.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count, cycle
from typing import Any

import pytest

from .browser import EVERY_IMPACT, PHONE, TIMINGS, PagesServer, Traffic, assert_accessible, open_page, serve_event

PLAYERS = ["ana", "bo", "cy"]
LAPTOP = {"width": 1366, "height": 768}
#: Round 6 (8 cards each) as the other device stored it.
STORED_6 = [(["job", "vex"], "ug", False), (["(qu)it", "ran"], "ds", False), (["domes", "cat"], "", True)]
#: Round 6 as typed here: ana's and cy's words in another order and capitals (the same play to the ledger), bo's QUIZ for QUIT.
TYPED_6 = [("vex JOB", "gu", False), ("(qu)iz ran", "ds", False), ("CAT domes", "", True)]
_tables = count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """``wordsvc serve`` (SQLite, the open table read again every second) with event club-night."""
    with serve_event(f"sqlite:///{tmp_path_factory.mktemp('drafts')}/ledger.sqlite3", TIMINGS) as served:
        yield served


def _table(server: PagesServer, stored: int = 0) -> tuple[str, str]:
    """A new table of ana, bo and cy with rounds 1 to ``stored`` stored: its id and a referee token limited to it."""
    table = f"d{next(_tables)}"
    assert server.api("PUT", f"/events/{server.event}/games/{table}", server.tokens.director, json={"players": PLAYERS}).status_code == 201
    token = server.api("POST", f"/events/{server.event}/tokens", server.tokens.director, json={"role": "referee", "table": table}).json()["token"]
    for n, body in enumerate(_filler_rounds(server)[:stored], start=1):
        assert _put(server, table, token, n, body).status_code == 201
    return table, token


def _filler_rounds(server: PagesServer) -> list[dict[str, Any]]:
    """Every round of the table: each player lays one word and keeps the rest of the hand, cards drawn without reuse."""
    event = server.api("GET", f"/events/{server.event}").json()
    deck = event["ruleset"]["snapshot"]["deck"]
    pool = cycle([face for face, card in sorted(deck.items()) if len(face) == 1 and face not in "oxatby" for _ in range(card["count"])])
    words = ["ox", "at", "by"]
    return [
        {"players": [{"name": name, "words": [words[i]], "unused": "".join(next(pool) for _ in range(cards - 2)), "went_out": False} for i, name in enumerate(PLAYERS)]}
        for cards in event["ruleset"]["rounds"]
    ]


def _body(slip: list[tuple[list[str], str, bool]]) -> dict[str, Any]:
    return {"players": [{"name": name, "words": words, "unused": unused, "went_out": out} for name, (words, unused, out) in zip(PLAYERS, slip, strict=True)]}


def _put(server: PagesServer, table: str, token: str, n: int, body: dict[str, Any]) -> Any:
    return server.api("PUT", f"/events/{server.event}/games/{table}/rounds/{n}", token, json=body)


def _open(browser: Any, server: PagesServer, table: str, token: str, **kwargs: Any) -> tuple[Any, Any, Traffic]:
    """A device: the console opened from the table's sign-in link in a browser context of its own."""
    context, page, traffic = open_page(browser, f"{server.url}/console#event={server.event}&table={table}&token={token}", **kwargs)
    page.wait_for_selector("#entry:not([hidden]) #entry-heading:text-matches('.')")
    return context, page, traffic


def _type(page: Any, slip: list[tuple[str, str, bool]]) -> None:
    for i, (words, unused, out) in enumerate(slip):
        page.fill(f"#words-{i}", words)
        page.fill(f"#unused-{i}", unused)
        page.set_checked(f"#out-{i}", out)


def _values(page: Any) -> list[tuple[str, str, bool]]:
    return [(page.input_value(f"#words-{i}"), page.input_value(f"#unused-{i}"), page.is_checked(f"#out-{i}")) for i in range(len(PLAYERS))]


def _focused(page: Any) -> str:
    return page.evaluate("document.activeElement.id")  # type: ignore[no-any-return]


def _rounds(server: PagesServer, table: str) -> list[dict[str, Any]]:
    return server.api("GET", f"/events/{server.event}/games/{table}").json()["rounds"]  # type: ignore[no-any-return]


def _in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


# --- another device stores the round being typed here ------------------------------------------------------


def test_a_round_stored_elsewhere_keeps_the_typing_here_beside_it_with_real_differences_and_the_next_step(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, stored=5)
    here, page, _traffic = _open(browser, server, table, token, viewport=LAPTOP)
    try:
        assert "Round 6" in page.inner_text("#entry-heading")
        _type(page, TYPED_6[:2])
        page.fill("#words-2", "CAT domes")
        page.check("#out-2")
        page.focus("#unused-2")  # the referee is still at cy's cards
        assert _put(server, table, token, 6, _body(STORED_6)).status_code == 201  # another device stores round 6
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        # The typing is kept: the form as typed, the focus where it was.
        assert "Round 6" in page.inner_text("#entry-heading")
        assert _values(page) == [(w, u, o) for w, u, o in TYPED_6]
        assert _focused(page) == "unused-2"
        # Where the referee looks: beside the form, inside the window, said in a live region.
        assert _in_view(page, "#conflict-heading") and _in_view(page, "#conflict-help")
        assert page.get_attribute("#conflict-help", "role") == "alert"
        assert page.inner_text("#conflict-heading") == "Round 6 was stored from another device or tab."
        # Only the real difference: ana's and cy's words in another order and in capitals are the same play.
        assert page.locator("#conflict-list li").all_inner_texts() == ["bo laid QUIT RAN, here you have QUIZ RAN."]
        rows = page.locator("#conflict-table tbody tr")
        assert rows.count() == 3 and page.locator("#conflict-table tbody tr.differs").all_inner_texts() == ["bo\t(QU)IT RAN (DS)\t(QU)IZ RAN (DS)"]
        assert page.locator("#conflict-table tbody tr[data-player='cy'] td").all_inner_texts() == ["CAT DOMES · cy went out", "CAT DOMES · cy went out"]  # the ledger keeps words in its own order
        # The next step: a correction request for the director, or discarding the entry.
        assert page.is_visible("#conflict-ask") and page.inner_text("#conflict-discard") == "Discard my entry of round 6"
        assert page.is_hidden("#conflict-correct")  # a referee asks; a director would correct
        page.click("#conflict-ask")
        request = page.input_value("#conflict-request")
        assert _focused(page) == "conflict-request"
        assert request.startswith(f"Table {table}, round 6 was stored from another device as: ana: JOB VEX (GU); bo: (QU)IT RAN (DS); cy: CAT DOMES · cy went out.")
        assert "The slip typed here says: ana: VEX JOB (GU); bo: (QU)IZ RAN (DS); cy: CAT DOMES · cy went out." in request
        assert_accessible(page, "a round stored elsewhere beside the entry", EVERY_IMPACT)
        # Store refuses: the round is stored; nothing is sent for it or for any other round.
        page.click("#submit")
        assert page.inner_text("#submit-error") == "Round 6 is already stored from another device: nothing was sent. Your entry is kept above, beside the stored round."
        assert _focused(page) == "conflict-heading"
        assert [url for url in Traffic.sent(page, "PUT", "") if "/rounds/" in url] == []
        # A reload keeps this device's entry and tells it apart again.
        page.reload()
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        assert _values(page) == [(w, u, o) for w, u, o in TYPED_6]
        # Discarded: the next round, empty, and nothing said of round 6 any more.
        page.click("#conflict-discard")
        page.wait_for_selector("#entry-heading:text-matches('Round 7')")
        assert page.is_hidden("#conflict") and page.input_value("#words-0") == "" and _focused(page) == "words-0"
        assert page.inner_text("#submit-status") == "The entry of round 6 was discarded."
        page.fill("#words-0", "o")
        assert "another device" not in page.inner_text("#entry") and page.is_hidden("#submit-status")
        assert [r["round"] for r in _rounds(server, table)] == [1, 2, 3, 4, 5, 6]
        assert page.errors == []
    finally:
        here.close()


def test_store_pressed_as_another_device_stores_sends_only_the_typed_round_and_says_why_it_was_refused(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, stored=5)
    here, page, _ = _open(browser, server, table, token, viewport=LAPTOP)
    there, other, other_traffic = _open(browser, server, table, token, viewport=LAPTOP)
    try:
        _type(page, TYPED_6)
        _type(other, [(" ".join(w), u, o) for w, u, o in STORED_6])
        other.click("#submit")  # B stores round 6; A presses Store as soon as it is stored, before or after its page has heard
        other_traffic.answered(other, "PUT", "/rounds/6")
        page.click("#submit")
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        assert page.locator("#conflict-list li").all_inner_texts() == ["bo laid QUIT RAN, here you have QUIZ RAN."]
        sent = [url for url in Traffic.sent(page, "PUT", "") if "/rounds/" in url]
        assert all(url.endswith("/rounds/6") for url in sent) and len(sent) <= 1  # round 6 as typed, or nothing; never round 7, never empty
        assert "Round 6" in page.inner_text("#entry-heading") and _values(page) == [(w, u, o) for w, u, o in TYPED_6]
        # Pressed again once the page knows: refused here, with the reason, and still nothing else sent.
        page.click("#submit")
        page.wait_for_selector("#submit-error li")
        assert page.inner_text("#submit-error").startswith("Round 6 is already stored from another device: nothing was sent.")
        assert [url for url in Traffic.sent(page, "PUT", "") if "/rounds/" in url] == sent
        stored = _rounds(server, table)
        assert [r["round"] for r in stored] == [1, 2, 3, 4, 5, 6] and stored[-1]["revisions"] == 1
        assert_accessible(page, "a store refused after another device stored", EVERY_IMPACT)
    finally:
        here.close()
        there.close()


def test_the_same_play_stored_elsewhere_in_another_order_is_said_simply_and_gone_at_the_next_round(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, stored=5)
    here, page, _ = _open(browser, server, table, token, viewport=LAPTOP)
    try:
        same = [("vex JOB", "gu", False), ("RAN (QU)IT", "sd", False), ("CAT domes", "", True)]
        _type(page, same)
        page.focus("#words-2")
        assert _put(server, table, token, 6, _body(STORED_6)).status_code == 201
        page.wait_for_selector("#entry-heading:text-matches('Round 7')")
        assert page.inner_text("#submit-status") == "Round 6 was stored from another device or tab. It holds the same as was typed here."
        assert page.is_hidden("#conflict") and page.input_value("#words-0") == "" and _focused(page) == "words-0"
        # The next round: once typed in, nothing more is said of round 6; nor once it is stored.
        bodies = _filler_rounds(server)
        slip7 = [(p["words"][0], p["unused"], p["went_out"]) for p in bodies[6]["players"]]
        _type(page, slip7)
        assert page.is_hidden("#submit-status") and "another device" not in page.inner_text("#entry")
        page.click("#submit")
        page.wait_for_selector("#submit-status:text-matches('^Round 7 stored')")
        assert "another device" not in page.inner_text("#entry")
        # The last round stored elsewhere, the same play: the summary follows, and says nothing of another device.
        slip8 = [(p["words"][0], p["unused"], p["went_out"]) for p in bodies[7]["players"]]
        _type(page, slip8)
        assert _put(server, table, token, 8, bodies[7]).status_code == 201
        page.wait_for_selector("#finished:not([hidden]) #final-totals li")
        entry = page.inner_text("#entry")
        assert "another device" not in entry and page.is_hidden("#conflict") and page.is_hidden("#elsewhere")
        assert page.errors == []
    finally:
        here.close()


def test_a_director_corrects_the_round_stored_elsewhere_with_the_entry_typed_here(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, stored=5)
    here, page, _ = _open(browser, server, table, server.tokens.director, viewport=LAPTOP)
    try:
        _type(page, TYPED_6)
        assert _put(server, table, token, 6, _body(STORED_6)).status_code == 201
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        assert page.is_hidden("#conflict-ask") and page.inner_text("#conflict-correct") == "Correct round 6 with this entry"
        page.click("#conflict-correct")
        page.wait_for_selector("#reason-field:not([hidden])")
        assert _focused(page) == "reason" and page.is_hidden("#conflict") and _values(page) == [(w, u, o) for w, u, o in TYPED_6]
        page.fill("#reason", "the slip says QUIZ")
        page.click("#submit")
        page.wait_for_selector("#submit-status:text-matches('^Round 6 stored as revision 2')")
        latest = server.api("GET", f"/events/{server.event}/games/{table}/rounds/6").json()["history"][-1]
        assert latest["reason"] == "the slip says QUIZ" and ["qu", "i", "z"] in next(p["words"] for p in latest["body"]["players"] if p["name"] == "bo")
        page.reload()  # the entry became the correction: nothing is left to tell apart
        page.wait_for_selector("#entry:not([hidden]) #entry-heading:text-matches('Round 7')")
        assert page.is_hidden("#conflict") and page.input_value("#words-0") == ""
        assert page.errors == []
    finally:
        here.close()


def test_on_a_phone_the_entry_kept_beside_the_stored_round_fits_the_screen(browser: Any, server: PagesServer) -> None:
    table, token = _table(server, stored=5)
    here, page, _ = _open(browser, server, table, token, viewport=PHONE)
    try:
        _type(page, TYPED_6)
        page.focus("#words-1")
        assert _put(server, table, token, 6, _body(STORED_6)).status_code == 201
        page.wait_for_selector("#conflict:not([hidden]) #conflict-list li")
        assert _in_view(page, "#conflict-heading") and _focused(page) == "words-1"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for button in ("#conflict-ask", "#conflict-discard"):
            box = page.locator(button).bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, button
        page.click("#conflict-ask")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_accessible(page, "a round stored elsewhere on a phone", EVERY_IMPACT)
    finally:
        here.close()


# --- a draft per device ------------------------------------------------------------------------------------


def test_two_tabs_of_one_browser_keep_a_draft_each(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, first, _ = _open(browser, server, table, token)
    try:
        first.fill("#words-0", "(qu)iz")
        first.check("#out-0")
        second = context.new_page()  # the same browser: the sign-in is shared, the draft is not
        second.goto(server.url + "/console")
        second.wait_for_selector("#entry:not([hidden]) #words-0")
        assert second.input_value("#words-0") == "" and second.is_hidden("#submit-status")
        second.fill("#words-1", "cat")
        for page, kept in ((first, [("(qu)iz", "", True), ("", "", False)]), (second, [("", "", False), ("cat", "", False)])):
            page.reload()
            page.wait_for_selector("#entry:not([hidden]) #submit-status:text-matches('^Restored')")
            assert _values(page)[:2] == kept
        ids = {page.evaluate("sessionStorage.getItem('wordsvc.console.device')") for page in (first, second)}
        assert len(ids) == 2 and None not in ids
        # One tab's discard leaves the other's entry alone.
        first.click("#discard")
        second.reload()
        second.wait_for_selector("#entry:not([hidden]) #submit-status:text-matches('^Restored')")
        assert second.input_value("#words-1") == "cat"
    finally:
        context.close()


# --- messages end with their cause ---------------------------------------------------------------------------


def test_a_failed_stores_slip_problems_are_gone_once_the_slip_typed_again_is_previewed(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    context, page, _ = _open(browser, server, table, token, viewport=LAPTOP)
    try:
        page.fill("#words-0", "(qu)iz")
        page.click("#submit")  # bo and cy typed nothing: refused for their hands
        page.wait_for_selector("#submit-error li")
        assert "bo: 0 of 3 cards" in page.inner_text("#submit-error")
        page.fill("#words-1", "cat")  # typing again: the refusal stands until the preview speaks for the slip as typed now
        page.fill("#words-2", "do")
        page.fill("#unused-2", "g")
        page.check("#out-0")
        page.wait_for_selector("#preview:not([hidden]) tbody tr")
        page.wait_for_function("() => document.getElementById('submit-error').children.length === 0")
        assert page.is_hidden("#warnings") and page.inner_text("#submit-error") == ""
        # Store with nothing typed is refused here: an empty round is never sent.
        page.click("#submit")
        page.wait_for_selector("#submit-status:text-matches('^Round 1 stored')")
        page.click("#submit")
        assert page.inner_text("#submit-error") == "Nothing is typed for round 2 yet: nothing was sent."
        assert [url for url in Traffic.sent(page, "PUT", "") if url.endswith("/rounds/2")] == []
        page.fill("#words-0", "o")
        assert page.inner_text("#submit-error") == ""  # gone with its cause
        assert_accessible(page, "messages cleared", EVERY_IMPACT)
    finally:
        context.close()


# --- a word's verdict beside its field ------------------------------------------------------------------------


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box  # type: ignore[no-any-return]


def test_a_words_verdict_sits_beside_its_field_on_a_laptop_and_right_under_it_on_a_phone(browser: Any, server: PagesServer) -> None:
    table, token = _table(server)
    for viewport in (LAPTOP, PHONE):
        context, page, _ = _open(browser, server, table, token, viewport=viewport)
        try:
            page.fill("#words-1", "cat dgo")
            page.wait_for_selector("#verdicts-1 li.no")
            field, marks, unused = _box(page, "#words-1"), _box(page, "#verdicts-1"), _box(page, "#unused-1")
            if viewport is LAPTOP:
                assert marks["x"] >= field["x"] + field["width"] - 1  # to the right of the field ...
                assert marks["y"] < field["y"] + field["height"] and marks["y"] + marks["height"] > field["y"]  # ... on its line
                assert marks["x"] + marks["width"] <= unused["x"] + 1  # and before the cards left
            else:
                assert field["y"] + field["height"] <= marks["y"] < unused["y"]  # right under the field, before the cards left
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert page.get_attribute("#words-1", "aria-describedby") == "verdicts-1"
            assert_accessible(page, f"verdicts at {viewport['width']} px", EVERY_IMPACT)
        finally:
            context.close()

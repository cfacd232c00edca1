"""The referee console (/console) in headless Chromium against a real server: a round from the slip, a correction, standings, languages."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .browser import EVERY_IMPACT, VIEWPORTS, PagesServer, Traffic, assert_accessible, open_page, same_origin, screenshot

#: Round 1 of table t1 as the slip says it (3 cards each): ana lays QU+I+Z and goes out, bo lays CAT, cy lays DO and keeps G.
SLIP = {"ana": ("(qu)iz", "", True), "bo": ("cat", "", False), "cy": ("do", "g", False)}


def _sign_in(browser: Any, server: PagesServer, token: str, table: str | None = None, **kwargs: Any) -> tuple[Any, Any, Traffic]:
    context, page, traffic = open_page(browser, server.url + "/console", **kwargs)
    page.fill("#signin-token", token)
    page.keyboard.press("Enter")
    if table is not None:
        page.wait_for_selector("#table-pick:not([hidden])")
        page.select_option("#table-select", table)
        page.click("#table-form button[type=submit]")
    page.wait_for_selector("#entry:not([hidden]) #words-0")
    return context, page, traffic


def _enter(page: Any, slip: dict[str, tuple[str, str, bool]], players: list[str]) -> None:
    for i, name in enumerate(players):
        words, unused, out = slip[name]
        page.fill(f"#words-{i}", words)
        page.fill(f"#unused-{i}", unused)
        page.set_checked(f"#out-{i}", out)


def _preview_row(page: Any, player: str) -> list[str]:
    return page.locator(f"#preview tr[data-player={player}] > *").all_inner_texts()  # type: ignore[no-any-return]


def test_a_round_from_the_slip_is_judged_as_typed_previewed_stored_once_and_echoed(browser: Any, pages_server: PagesServer) -> None:
    server = pages_server
    players = server.players["t1"]
    context, page, traffic = _sign_in(browser, server, server.tokens.referee_t1)
    try:
        assert "Round 1: 3 cards each" in page.inner_text("#entry-heading")
        # The card picker writes a double-letter card into the field last used.
        page.click("#words-0")
        page.click("#card-buttons button[data-card=qu]")
        page.keyboard.type("iz")
        assert page.input_value("#words-0") == "(qu)iz"
        _enter(page, {**SLIP, "ana": ("(qu)iz", "", True)}, players)
        # Each word's verdict and points, as typed (debounced /validate).
        page.wait_for_selector("#verdicts-0 li")
        assert page.inner_text("#verdicts-0") == "(qu)iz ✓ valid · 25 pts"
        page.fill("#words-1", "cta")
        page.wait_for_selector("#verdicts-1 li.no")
        assert "✗ not valid" in page.inner_text("#verdicts-1")
        page.fill("#words-1", "cat")
        page.wait_for_selector("#verdicts-1 li.ok")
        # The preview, under the event's snapshot: the same numbers the ledger will store.
        page.wait_for_selector("#preview:not([hidden]) tr[data-player=cy]")
        expected = server.api("POST", f"/events/{server.event}/games/t1/rounds/1/preview", server.tokens.referee_t1, json={"players": _body(SLIP, players)}).json()
        for player in expected["result"]["players"]:
            row = _preview_row(page, player["name"])
            assert row[0] == player["name"] and row[3] == str(player["total"]), row
        assert "longest word +10" in _preview_row(page, "ana")[1]
        # A tie is one line under the table, never repeated on every tied player's row.
        assert page.locator("#preview-bonuses li").all_inner_texts() == ["longest word: ana +10", "most words: tied (ana, bo, cy), nobody scores it"]
        assert "tied" not in page.inner_text("#preview tbody")
        assert _preview_row(page, "cy")[2] == "−6"
        screenshot(page, "console-entry-desktop")
        # Submitting: a double click stores one round.
        page.dblclick("#submit")
        page.wait_for_selector("#stored-table tbody tr[data-round='1']")
        assert len(traffic.sent(page, "PUT", "/events/club-night/games/t1/rounds/1")) == 1
        assert "Round 1 stored as revision 1" in page.inner_text("#submit-status")
        game = server.api("GET", f"/events/{server.event}/games/t1").json()
        assert len(game["rounds"]) == 1 and game["rounds"][0]["revisions"] == 1
        echo = page.locator("#stored-table tbody tr[data-round='1'] td").all_inner_texts()
        for cell, total in zip(echo, game["rounds"][0]["running_totals"], strict=False):
            assert cell.endswith(f"→ {total['total']}"), (cell, total)
        entries = server.api("GET", f"/events/{server.event}/audit", server.tokens.director).json()["entries"]
        assert sum(e["action"] == "round.submitted" and e["payload"]["game"] == "t1" for e in entries) == 1
        # The round's receipt, short (its entry and the root's first 12 hex digits), the whole of it on opening.
        stored_entry = next(e for e in entries if e["action"] == "round.submitted" and e["payload"]["game"] == "t1")
        receipt = page.locator("#stored-table tbody tr[data-round='1'] td.receipt")
        summary = receipt.locator("summary").inner_text()
        assert summary.startswith(f"entry {stored_entry['seq']} · root "), summary
        receipt.locator("summary").click()
        shown = json.loads(receipt.locator("pre").inner_text())
        assert (shown["seq"], shown["entry_hash"]) == (stored_entry["seq"], stored_entry["hash"]) == (game["rounds"][0]["receipt"]["seq"], game["rounds"][0]["receipt"]["entry_hash"])
        assert summary.startswith(f"entry {shown['seq']} · root {shown['root'][:12]}") and shown["checkpoint"]["root"] == shown["root"]
        # The console has moved on to the next round, and a referee cannot correct.
        assert "Round 2: 4 cards each" in page.inner_text("#entry-heading")
        assert page.locator("button[data-correct]").count() == 0
        assert same_origin(traffic, server.url) == [] and page.errors == []
    finally:
        context.close()


def _body(slip: dict[str, tuple[str, str, bool]], players: list[str]) -> list[dict[str, Any]]:
    return [{"name": name, "words": slip[name][0].split(), "unused": slip[name][1], "went_out": slip[name][2]} for name in players]


def test_an_entry_that_does_not_add_up_is_warned_about_before_anything_is_stored(browser: Any, pages_server: PagesServer) -> None:
    server = pages_server
    context, page, traffic = _sign_in(browser, server, server.tokens.referee_t2)
    try:
        page.fill("#words-0", "cats")  # 4 cards in a round of 3
        page.fill("#words-1", "zzz")  # 3 Z cards: the deck holds 2
        page.wait_for_selector("#warnings:not([hidden]) li")
        page.wait_for_selector("#warning-list li:text-matches('deck holds 2')")
        warnings = page.inner_text("#warning-list")
        assert "dan: 4 cards, but round 1 deals 3. Remove the extra cards." in warnings
        assert "3 Z cards are on the slip, but the deck holds 2" in warnings
        assert "players." not in warnings and "card(s)" not in warnings
        assert page.is_hidden("#preview")
        # What adds up but looks wrong on a slip is pointed out beside the preview.
        page.fill("#words-0", "cat")
        page.fill("#words-1", "ox")
        page.fill("#unused-1", "t")
        page.wait_for_selector("#preview:not([hidden])")
        page.wait_for_selector("#warning-list li:text-is('Nobody is marked as going out.')")
        page.check("#out-1")
        page.wait_for_selector("#warning-list li:text-matches('^eve is marked as going out but')")
        assert not traffic.sent(page, "PUT", "/rounds/1")
    finally:
        context.close()


def test_a_director_corrects_a_stored_round_with_a_reason_and_sees_every_revision(browser: Any, pages_server: PagesServer) -> None:
    server = pages_server
    players = server.players["t1"]
    stored = server.api("GET", f"/events/{server.event}/games/t1/rounds/1")
    if stored.status_code == 404:  # this test on its own: the slip goes in through the API
        assert server.api("PUT", f"/events/{server.event}/games/t1/rounds/1", server.tokens.referee_t1, json={"players": _body(SLIP, players)}).status_code == 201
    context, page, traffic = _sign_in(browser, server, server.tokens.director, table="t1")
    try:
        page.click("button[data-correct='1']")
        page.wait_for_selector("#correcting:not([hidden])")
        assert page.input_value("#words-0") == "(qu)iz" and page.input_value("#unused-2") == "g"
        page.fill("#words-2", "dog")  # the slip said DOG; it was typed as DO and G
        page.fill("#unused-2", "")
        page.click("#submit")
        assert page.inner_text("#submit-error") == "A correction needs a reason."
        assert not traffic.sent(page, "PUT", "/rounds/1")
        page.fill("#reason", "cy laid DOG, not DO")
        page.click("#submit")
        page.wait_for_selector("#history-list li:nth-child(2)")
        assert "Round 1 stored as revision 2" in page.inner_text("#submit-status")
        history = page.locator("#history-list li").all_inner_texts()
        assert "cy: do (g)" in history[0] and "cy: dog" in history[1] and "Reason: cy laid DOG, not DO" in history[1]
        detail = server.api("GET", f"/events/{server.event}/games/t1/rounds/1").json()
        assert detail["revisions"] == 2 and detail["history"][1]["reason"] == "cy laid DOG, not DO"
        cy = next(p for p in detail["result"]["players"] if p["name"] == "cy")
        assert page.locator("#stored-table tbody tr[data-round='1'] td").nth(2).inner_text().startswith(f"{cy['total']} →")
        assert_accessible(page, "correction", EVERY_IMPACT)
        screenshot(page, "console-correction-desktop")
        # A stale ETag is refused and said so: another director changed the round meanwhile.
        page.click("button[data-correct='1']")
        page.wait_for_selector("#correcting:not([hidden])")
        body = {"players": _body({**SLIP, "cy": ("dog", "", False), "bo": ("act", "", False)}, players), "correction": {"reason": "bo laid ACT"}}
        etag = server.api("GET", f"/events/{server.event}/games/t1/rounds/1").headers["ETag"]
        assert server.api("PUT", f"/events/{server.event}/games/t1/rounds/1", server.tokens.director, json=body, headers={"If-Match": etag}).status_code == 200
        page.fill("#words-1", "tac")
        page.fill("#reason", "another try")
        page.click("#submit")
        # Told in words, never as an ETag: the new version is in the form, and what it changed of this correction.
        page.wait_for_selector("#elsewhere:not([hidden])")
        told = page.locator("#elsewhere-list li").all_inner_texts()
        assert told[0] == "Someone changed round 1 since you opened it: here is the new version. Make your correction again on it, then store it."
        assert "bo: the new version has ACT, you had TAC." in told
        assert page.input_value("#words-1") == "act" and '"' not in page.inner_text("#entry")
        assert page.errors == []
    finally:
        context.close()


def test_standings_refresh_by_themselves_when_another_table_stores_a_round(browser: Any, pages_server: PagesServer) -> None:
    server = pages_server
    context, page, _traffic = _sign_in(browser, server, server.tokens.referee_t1)
    try:
        page.wait_for_selector("#standings-table tbody tr")
        before = {row.split("\t")[1]: row for row in page.locator("#standings-table tbody tr").all_inner_texts()}
        assert "dan" in before and before["dan"].split("\t")[3] == "0"
        body = {"players": [{"name": "dan", "words": ["(qu)iz"], "went_out": True}, {"name": "eve", "words": ["ox"], "unused": "t"}]}
        assert server.api("PUT", f"/events/{server.event}/games/t2/rounds/1", server.tokens.referee_t2, json=body).status_code in (200, 201)
        page.wait_for_function("() => [...document.querySelectorAll('#standings-table tbody tr')].some(r => r.cells[1].textContent === 'dan' && r.cells[3].textContent === '1')")  # the next poll of the standings
        standings = server.api("GET", f"/events/{server.event}/standings").json()["standings"]
        shown = [row.split("\t") for row in page.locator("#standings-table tbody tr").all_inner_texts()]
        assert [(r[0], r[1], r[4]) for r in shown] == [(str(s["rank"]), s["player"], str(s["total"])) for s in standings]
    finally:
        context.close()


def test_the_console_speaks_the_browsers_language_and_switches(browser: Any, pages_server: PagesServer) -> None:
    context, page, _traffic = open_page(browser, pages_server.url + "/console", locale="et-EE")
    try:
        assert page.inner_text("h1") == "Kohtuniku pult" and page.get_attribute("html", "lang") == "et"
        page.select_option("#language", "is")
        assert page.inner_text("h1") == "Dómaraborð"
        page.fill("#signin-token", pages_server.tokens.referee_t2)
        page.keyboard.press("Enter")
        page.wait_for_selector("#words-0")
        assert "Umferð" in page.inner_text("#entry-heading")
        page.fill("#words-0", "xq")
        page.wait_for_selector("#verdicts-0 li")
        assert "✗ ógilt" in page.inner_text("#verdicts-0")
        page.select_option("#language", "en")
        assert "✗ not valid" in page.inner_text("#verdicts-0")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_every_state_of_the_console_passes_axe_and_is_photographed(browser: Any, steady_server: PagesServer, viewport: str) -> None:
    server = steady_server
    context, page, _traffic = open_page(browser, server.url + "/console", VIEWPORTS[viewport])
    try:
        assert_accessible(page, "sign-in", EVERY_IMPACT)
        screenshot(page, f"console-signin-{viewport}")
        page.fill("#signin-token", server.tokens.director)
        page.keyboard.press("Enter")
        page.wait_for_selector("#table-pick:not([hidden])")
        assert_accessible(page, "table", EVERY_IMPACT)
        table = {"desktop": "t1", "phone": "t2"}[viewport]  # each its own table: round 1 on both
        page.select_option("#table-select", table)
        page.focus("#table-select")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # the keyboard alone opens the table
        page.wait_for_selector("#words-0")
        slip = {"ana": ("(qu)iz", "", True), "bo": ("cta", "", False), "cy": ("do", "g", False), "dan": ("(qu)iz", "", True), "eve": ("ox", "t", False)}
        _enter(page, slip, server.players[table])
        page.wait_for_selector("#preview:not([hidden])")
        page.wait_for_selector("#verdicts-1 li")
        assert_accessible(page, "entry with preview", EVERY_IMPACT)
        if viewport == "phone":
            screenshot(page, "console-entry-phone")
        page.click("#submit")
        page.wait_for_selector("#stored-table tbody tr[data-round='1']")
        page.wait_for_selector("#standings-table tbody tr")
        assert_accessible(page, "stored", EVERY_IMPACT)
        screenshot(page, f"console-stored-{viewport}")
    finally:
        context.close()

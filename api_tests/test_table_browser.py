"""The table page, /play/{event}/{game}, in Chromium (docs/pages.md, "The table").

Two people in two browser contexts and two of the server's bots play a whole
eight-round game to its end screen while a spectator watches the same table in a
third context; a seat is reloaded, reopened and cut off the network mid-turn; the
phone layout; axe-core on every state of the page. The server's bots move at once
(``WORDSVC_BOT_DELAY_MS=0``), so nothing here waits on a clock: every wait is for
the page to show what the service answered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from babel import Locale

from wordsvc.i18n import PAGE_PLURALS

from .browser import DESKTOP, PHONE, assert_accessible, open_page, same_origin, screenshot
from .conftest import running_server

#: A card id (``e.7``, ``qu.2``): never on a page; its copy number tells the dealing order.
CARD_ID = re.compile(r'"[a-zæøåäöüþðéíóúáß]{1,2}\.\d+"')
TURNS = 2000  # a bound on the loop of a whole game: far more turns than eight rounds take


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("wordsvc-table-") as (url, _log):
        yield url


def new_table(url: str, seats: int, bots: list[dict[str, int]], **more: Any) -> tuple[str, str]:
    made = requests.post(f"{url}/tables", json={"seats": seats, "bots": bots, "ruleset": "standard", "lang": "en-US", "public": True, **more}, timeout=30)
    assert made.status_code == 201, made.text
    return made.json()["event"], made.json()["game"]


def sit(browser: Any, url: str, event: str, game: str, name: str, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any, Any]:
    """A new browser context at the table's page, seated as ``name`` through its own form."""
    context, page, traffic = open_page(browser, f"{url}/play/{event}/{game}", viewport=viewport)
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_selector("#join", state="hidden")
    return context, page, traffic


def at_turn(browser: Any, server: str, name: str, viewport: dict[str, int] = DESKTOP, level: int = 1) -> tuple[str, str, Any, Any]:
    """A new table of ``name`` and a bot of ``level``, ``name`` seated through the page and to draw: the event, the table, the context, the page."""
    event, game = new_table(server, 2, [{"seat": 1, "level": level}])
    context, page, _ = sit(browser, server, event, game, name, viewport)
    until(page, lambda: page.locator("#play:visible #draw:enabled").count() > 0, f"{name}'s turn")
    return event, game, context, page


def seat_token(page: Any, event: str, game: str) -> str:
    return json.loads(page.evaluate("localStorage.getItem('wordsvc.play.seats')"))[f"{event}/{game}"]["token"]


def until(page: Any, done: Any, what: str) -> None:
    """Waits (at most 30 s) for ``done()``: what the page shows once the service answered."""
    for _ in range(600):
        if done():
            return
        page.wait_for_timeout(50)
    said = [page.locator(f"#{part}").inner_text() for part in ("turn-line", "notice", "problem")]
    raise AssertionError(f"never came: {what}; the page says {said}")


def seq(page: Any) -> int:
    """The move count of the state the page shows."""
    return int(page.locator("body").get_attribute("data-seq") or 0)


def my_turn(page: Any) -> bool:
    return page.locator("#play:visible #draw:enabled, #play:visible #discard:enabled").count() > 0


def play_turn(page: Any) -> None:
    """Draw from the pile, then discard the first card of the hand (in a last turn: lay nothing down)."""
    if page.locator("#draw:enabled").count():
        page.click("#draw")
        page.wait_for_selector("#discard:enabled")
    page.click("#discard")
    before = seq(page)
    page.locator("#hand button").first.click()
    until(page, lambda: seq(page) > before, "the discard played")


def spectator_sees_no_hand(page: Any, traffic: Any) -> None:
    """Nothing a spectator's page received or shows holds a hand: no ``hand`` in any state, no drawn card, no card id."""
    assert page.locator("#play").is_hidden()
    assert page.locator(".card").count() == 0
    for call in traffic.requests:
        answer = call.get("answer") or ""
        assert not CARD_ID.search(answer), call["url"]
        if "/play" in call["url"] and answer.startswith("{"):
            body = json.loads(answer)
            state = body.get("state") or {}
            assert "hand" not in (state.get("round") or {}), call["url"]
            assert body.get("hands") is None or state.get("over"), call["url"]


def test_two_people_and_two_bots_play_a_whole_game_to_the_end_screen_while_a_spectator_sees_no_hand(browser: Any, server: str) -> None:
    event, game = new_table(server, 4, [{"seat": 2, "level": 3}, {"seat": 3, "level": 4}])
    spectator_context, spectator, watched = open_page(browser, f"{server}/play/{event}/{game}")
    assert_accessible(spectator, "the table waiting, to a spectator")
    ann_context, ann, _ = sit(browser, server, event, game, "Ann")
    assert_accessible(ann, "seated, waiting for the others")
    bo_context, bo, _ = sit(browser, server, event, game, "Bo", viewport=PHONE)
    people = [ann, bo]
    shot = False
    try:
        for _ in range(TURNS):
            if ann.locator("#end").is_visible() and bo.locator("#end").is_visible():
                break
            moved = False
            for page in people:
                if my_turn(page):
                    if not shot and page is ann:
                        assert_accessible(ann, "a seat to move")
                        screenshot(ann, "table-desktop")
                        shot = True
                    play_turn(page)
                    moved = True
            if not moved:
                people[0].wait_for_timeout(50)
        else:
            pytest.fail("the game did not end")
        spectator.wait_for_selector("#end:visible")
        for page in (ann, bo, spectator):
            assert "8" in page.locator("#scores thead").inner_text()
            assert page.locator("#end-text").inner_text()
        assert ann.locator("#rematch").is_visible()
        log = requests.get(server + ann.locator("#log-link").get_attribute("href"), timeout=30).json()["log"]  # the deal checked from it
        assert log["server_seed"] == requests.get(f"{server}/events/{event}/games/{game}/play", timeout=30).json()["server_seed"]
        assert_accessible(ann, "the end screen")
        screenshot(ann, "table-end")
        assert_accessible(bo, "the end screen on a phone")
        spectator_sees_no_hand(spectator, watched)
        assert not ann.errors and not bo.errors and not spectator.errors, (ann.errors, bo.errors, spectator.errors)
        assert not same_origin(watched, server)
        # the replay shows every hand once the game is over
        ann.click("#replay-open")
        ann.wait_for_selector("#replay:visible")
        ann.click("#replay-next")
        ann.wait_for_selector("#replay-where:has-text('1 of')")
        assert ann.locator("#replay-hands li").count() == 4
        assert_accessible(ann, "the replay")
        # the rematch: both accept, the next table starts with its seats rotated
        ann.click("#rematch")
        ann.wait_for_url(re.compile(rf"/play/{event}/{game}-2$"))
        bo.wait_for_selector("#rematch:visible")
        bo.click("#rematch")
        bo.wait_for_url(re.compile(rf"/play/{event}/{game}-2$"))
        ann.wait_for_selector("#play:visible")
        table = requests.get(f"{server}/events/{event}/games/{game}-2/play", timeout=30).json()
        assert table["status"] == "playing"
        assert [s["name"] for s in table["seats"] if s["kind"] == "person"] == ["Ann", "Bo"]
    finally:
        for context in (ann_context, bo_context, spectator_context):
            context.close()


def test_a_reload_a_reopened_tab_and_a_network_cut_mid_turn_lose_nothing(browser: Any, server: str) -> None:
    event, game, context, page = at_turn(browser, server, "Cy")
    try:
        page.click("#draw")
        page.wait_for_selector("#discard:enabled")
        hand = page.locator("#hand button").all_text_contents()
        page.reload()  # mid-turn: the same seat, the same hand, still to discard
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#discard:enabled")
        assert page.locator("#hand button").all_text_contents() == hand
        reopened = context.new_page()  # a closed tab reopened: the seat is kept on the device
        page.close()
        reopened.goto(f"{server}/play/{event}/{game}")
        reopened.wait_for_selector("#discard:enabled")
        page = reopened
        token = seat_token(page, event, game)
        before = requests.get(f"{server}/events/{event}/games/{game}/play", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()["state"]["seq"]
        context.set_offline(True)
        page.click("#discard")
        page.locator("#hand button").first.click()
        page.wait_for_selector("#offline:visible")
        assert page.locator("#notice").inner_text().startswith("Offline: Cy discarded")  # the move waiting, named
        assert requests.get(f"{server}/events/{event}/games/{game}/play", timeout=30).json()["state"]["seq"] == before  # nothing reached the service
        context.set_offline(False)
        page.wait_for_selector("#offline", state="hidden")
        log = f"{server}/events/{event}/games/{game}/play/log"
        until(page, lambda: len(requests.get(log, timeout=30).json()["moves"]) > before, "the discard sent")
        moves = requests.get(log, timeout=30).json()["moves"]
        mine = [m for m in moves[before:] if m["seat"] == 0]
        assert mine[0]["kind"] == "discard" and mine[0]["seq"] == before + 1  # sent once, when the network came back
        assert len([m for m in mine if m["kind"] == "discard"]) == 1
        assert_accessible(page, "after the network came back")
    finally:
        context.close()


def test_a_move_sent_offline_after_the_game_moved_on_is_refused_with_the_reason(browser: Any, server: str) -> None:
    event, game, context, page = at_turn(browser, server, "Di")
    try:
        token = seat_token(page, event, game)
        context.set_offline(True)
        page.click("#draw")  # kept on the device until the network returns
        page.wait_for_selector("#offline:visible")
        seq = requests.get(f"{server}/events/{event}/games/{game}/play", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()["state"]["seq"]
        taken = requests.post(
            f"{server}/events/{event}/games/{game}/play/moves",
            json={"seq": seq, "move_id": "other-device", "move": {"kind": "take"}},
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
        )  # the same seat moved from another device meanwhile
        assert taken.status_code == 200, taken.text
        context.set_offline(False)
        page.wait_for_selector("#problem:not(:empty)")
        assert "moved on" in page.locator("#problem").inner_text()
        log = requests.get(f"{server}/events/{event}/games/{game}/play/log", timeout=30).json()["moves"]
        assert [m["kind"] for m in log if m["seat"] == 0][-1] == "take"  # the draw was never played
    finally:
        context.close()


def test_the_phone_layout_has_no_sideways_scroll_and_44_pixel_targets(browser: Any, server: str) -> None:
    _, _, context, page = at_turn(browser, server, "Eve", viewport=PHONE, level=2)
    try:
        page.click("#draw")
        page.wait_for_selector("#discard:enabled")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        small = [
            box
            for box in (b.bounding_box() for b in page.locator("#play button:visible, #play input:visible, header select").all())
            if box and (box["width"] < 44 or box["height"] < 44)
        ]
        assert not small, small
        assert_accessible(page, "a turn on a phone")
        screenshot(page, "table-phone")
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["pl", "is"])
def test_the_table_speaks_the_page_language_with_its_plural_forms(browser: Any, server: str, locale: str) -> None:
    event, game = new_table(server, 3, [{"seat": 2, "level": 2}])
    context, page, _ = open_page(browser, f"{server}/play/{event}/{game}?locale={locale}")
    try:
        text = page.locator("main").inner_text()
        assert "table." not in text and "play." not in text  # no key shown raw
        category = Locale.parse(locale).plural_form(2)  # two seats are open: Polish "few", Icelandic "other"
        assert page.locator("#turn-line").inner_text() == PAGE_PLURALS[locale]["table.waiting"][category].replace("{n}", "2")
        assert_accessible(page, f"the table waiting, in {locale}")
    finally:
        context.close()


def test_a_revoked_seat_link_says_so_and_an_aborted_table_shows_its_result(browser: Any, server: str) -> None:
    made = requests.post(f"{server}/tables", json={"seats": 2, "bots": [{"seat": 1, "level": 1}], "ruleset": "standard", "lang": "en-US", "public": True}, timeout=30)
    event, game, director = made.json()["event"], made.json()["game"], made.json()["director_token"]["token"]
    context, page, _ = sit(browser, server, event, game, "Fay")
    try:
        kept = json.loads(page.evaluate("localStorage.getItem('wordsvc.play.seats')"))[f"{event}/{game}"]
        revoked = requests.delete(f"{server}/events/{event}/tokens/{kept['token_id']}", headers={"Authorization": f"Bearer {director}"}, timeout=30)
        assert revoked.status_code in (200, 204), revoked.text
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_selector("#problem:not(:empty)")
        assert "no longer works" in page.locator("#problem").inner_text()
        assert page.locator("#play").is_hidden() and page.locator("#join").is_hidden()
        assert page.evaluate("localStorage.getItem('wordsvc.play.seats')") == "{}"  # forgotten: the page watches now
        aborted = requests.post(f"{server}/events/{event}/games/{game}/play/abort", headers={"Authorization": f"Bearer {director}"}, timeout=30)
        assert aborted.status_code == 200, aborted.text
        page.wait_for_selector("#end:visible")
        assert page.locator("#end-heading").inner_text() == "Game aborted"
        assert page.locator("#rematch").is_hidden()
        assert_accessible(page, "an aborted table")
    finally:
        context.close()


def test_a_word_typed_from_the_hand_is_formed_with_its_verdict_and_taken_back(browser: Any, server: str) -> None:
    _, _, context, page = at_turn(browser, server, "Gus")
    try:
        faces = page.locator("#hand button .face").all_text_contents()
        typed = "".join(f"({face.lower()})" if len(face) > 1 else face.lower() for face in faces[:2])
        page.fill("#type-word", typed)
        page.press("#type-word", "Enter")
        until(page, lambda: page.locator("#kept li").count() == 1, "the word kept")
        assert page.locator("#kept li .word").inner_text().replace("(", "").replace(")", "") == "".join(faces[:2])
        until(page, lambda: page.locator("#kept li .verdict").inner_text() != "", "the word's verdict")
        assert page.locator("#hand button").count() == len(faces) - 2
        page.fill("#type-word", "zzzzzzzz")
        page.press("#type-word", "Enter")
        assert "cannot spell" in page.locator("#problem").inner_text()
        page.locator("#kept li button").click()
        assert page.locator("#kept li").count() == 0 and page.locator("#hand button").count() == len(faces)
    finally:
        context.close()


def test_a_tournament_seat_link_opens_the_players_own_seat_with_the_events_cards(browser: Any, server: str) -> None:
    """A seated table hosted by its director (docs/play.md, "Seated tables"): a player's seat link is the table page with
    the token in its fragment; the page keeps it, takes it out of the address, and plays that seat of the private event."""
    admin = requests.post(f"{server}/events", json={"name": "Cup", "ruleset": "standard", "lang": "en-US", "private": True}, timeout=30)
    assert admin.status_code == 201, admin.text
    event, director = admin.json()["id"], admin.json()["director_token"]["token"]
    auth = {"Authorization": f"Bearer {director}"}
    assert requests.put(f"{server}/events/{event}/games/t1", json={"players": ["Hal", "Ivy"]}, headers=auth, timeout=30).status_code == 201
    hosted = requests.post(f"{server}/events/{event}/games/t1/play/host", json={}, headers=auth, timeout=30)
    assert hosted.status_code == 201, hosted.text
    ivy = next(seat for seat in hosted.json()["seats"] if seat["name"] == "Ivy")
    context, page, _ = open_page(browser, f"{server}/play/{event}/t1#token={ivy['token']}")
    try:
        assert "token" not in page.url
        until(page, lambda: page.locator("#play").is_visible(), "Ivy's hand")
        assert "Ivy (you)" in page.locator("#seats li.me").inner_text()
        assert page.locator("#hand button .value").first.inner_text().isdigit()  # the event's card values, read with the seat's token
        assert page.locator("#device").is_hidden()  # nobody played the seat before
        assert_accessible(page, "a tournament seat")
    finally:
        context.close()


def test_a_challenge_ruleset_opens_the_rounds_words_to_challenge_after_its_last_turn(browser: Any, server: str) -> None:
    event, game = new_table(server, 2, [{"seat": 1, "level": 4}], ruleset="challenge")
    context, page, _ = sit(browser, server, event, game, "Jo")
    try:
        for _ in range(TURNS):  # Jo only draws and discards: the expert goes out, and after Jo's last turn the window opens
            if page.locator("#challenge-panel").is_visible():
                break
            if my_turn(page):
                play_turn(page)
            else:
                page.wait_for_timeout(50)
        else:
            pytest.fail("no challenge window")
        assert "Challenge" in page.locator("#turn-line").inner_text()
        assert_accessible(page, "a challenge window")
        page.locator("#challengeable button").first.click()
        until(page, lambda: page.locator("#challengeable button").first.inner_text() == "Challenged" or page.locator("#challenge-panel").is_hidden(), "the challenge")
        if page.locator("#challenge-panel").is_visible():
            page.click("#pass")
        until(page, lambda: page.locator("#round-result").is_visible(), "the round scored")
        rounds = requests.get(f"{server}/events/{event}/games/{game}/play", timeout=30).json()["state"]["rounds"]
        assert rounds[0]["challenges"] and rounds[0]["challenges"][0][0] == 0  # Jo's challenge, stored with the round
    finally:
        context.close()


def test_a_seat_link_opened_on_a_second_device_asks_which_keeps_the_seat_and_the_other_stops(browser: Any, server: str) -> None:
    event, game = new_table(server, 2, [{"seat": 1, "level": 1}])
    first_context, first, _ = sit(browser, server, event, game, "Kim")
    token = seat_token(first, event, game)
    until(first, lambda: first.locator("#play").is_visible(), "Kim's hand")
    second_context, second, _ = open_page(browser, f"{server}/play/{event}/{game}#token={token}")  # the same seat's link, on another device
    try:
        second.wait_for_selector("#device:visible")
        assert_accessible(second, "the question of which device keeps the seat")
        second.click("#device-here")
        until(second, lambda: second.locator("#device").is_hidden() and second.locator("#play").is_visible(), "the seat taken here")
        assert seat_token(second, event, game) != token
        again = requests.post(f"{server}/events/{event}/games/{game}/play/seats/0/token", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert again.status_code == 401  # the token both held no longer works
        other = requests.post(f"{server}/events/{event}/games/{game}/play/seats/1/token", headers={"Authorization": f"Bearer {seat_token(second, event, game)}"}, timeout=30)
        assert other.status_code == 403 and other.json()["code"] == "not_a_seat"  # a seat replaces its own token only
        first.reload()
        first.wait_for_selector("#problem:not(:empty)")
        assert "no longer works" in first.locator("#problem").inner_text() and first.locator("#play").is_hidden()
    finally:
        first_context.close()
        second_context.close()

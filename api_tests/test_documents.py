"""Printed documents over HTTP, on SQLite and PostgreSQL: a scripted tournament's PDFs read back with Poppler (docs/documents.md).

8 players, 2 sessions of 2 tables, every round of the standard rules submitted
through the API. Each document is fetched as a PDF and checked with what is
written here: its status and type, its page count (pdfinfo), and its text
(pdftotext) against the names, hand sizes, totals and table ids the JSON
answers give. Page 1 of each is rendered (pdftoppm) into the run's picture folder
(api_tests/browser.py :func:`screenshot_folder`: docs/screenshots/ under
``make screenshots``, for the README; a temporary folder otherwise).
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
import subprocess
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, NoReturn

import pytest

from .browser import screenshot_folder
from .conftest import LedgerServer
from .plays import random_players
from .test_events import Api

_ids = itertools.count()
KINDS = ("seating", "scorecards", "standings", "crosstable", "results", "audit")
#: The standard rules' hand sizes, round by round (rulesets/standard.yaml), written here rather than read from the service.
HANDS = [3, 4, 5, 6, 7, 8, 9, 10]


@pytest.fixture(scope="module")
def api(ledger_server: LedgerServer) -> Api:
    return Api(ledger_server)


@pytest.fixture
def poppler(unavailable_tool: Callable[[str, str], NoReturn]) -> None:
    """Poppler's tools: skipped without them, failed under CI."""
    for tool in ("pdftotext", "pdfinfo", "pdftoppm"):
        if shutil.which(tool) is None:
            unavailable_tool("Poppler", f"{tool} is not installed")


def pdf_text(pdf: bytes, tmp_path: Path, name: str) -> str:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True, timeout=60).stdout


def pdf_pages(pdf: bytes, tmp_path: Path, name: str) -> int:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(pdf)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True, timeout=60).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def tournament(api: Api, ledger_server: LedgerServer) -> dict[str, Any]:
    """The scripted event: 8 players, sessions 1 and 2 of two tables of four, every round stored, then the event closed.

    ``early``: the standings and results PDFs once session 1 is played and session 2 seated, not played; ``open``: those
    once session 2 is played too, the event still open; both provisional (docs/documents.md, "Final or after session k").
    """
    rng = random.Random(41)
    standard = api("GET", "/rulesets/standard", expect=200).json()
    deck = [card["face"] for card in standard["deck"]["cards"] for _ in range(card["count"])]
    event = f"paper{next(_ids)}-{ledger_server.backend}"
    created = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Paper cup", "format": "total"}).json()
    token = created["director_token"]["token"]
    for i in range(1, 9):
        api("PUT", f"/events/{event}/players/p{i}", token, expect=201, json={"name": f"Player {i}", "checked_in": True})
    sessions = []
    printed: dict[str, dict[str, bytes]] = {}
    for number in (1, 2):
        session = api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "random", "size": {"target": 4}, "number": number}).json()
        if number == 2:
            printed["early"] = {kind: fetch(api, event, kind) for kind in ("standings", "results")}
        for table in session["tables"]:
            names = [seat["name"] for seat in table["seats"]]
            for round_number in range(1, 9):
                api("PUT", f"/events/{event}/games/{table['game']}/rounds/{round_number}", token, expect=201, json={"players": random_players(rng, deck, round_number, names)})
        sessions.append(session)
    printed["open"] = {kind: fetch(api, event, kind) for kind in ("standings", "results")}
    api("POST", f"/events/{event}/close", token, expect=200)
    return {"event": event, "token": token, "sessions": sessions, "standings": api("GET", f"/events/{event}/standings", expect=200).json(), "printed": printed}


def fetch(api: Api, event: str, kind: str, token: str | None = None, query: str = "") -> bytes:
    response = api("GET", f"/events/{event}/documents/{kind}{query}", token, expect=200)
    assert response.headers["Content-Type"] == "application/pdf"
    assert response.headers["Content-Disposition"] == f'inline; filename="{event}-{kind}.pdf"'
    assert response.content.startswith(b"%PDF-")
    return response.content


def test_the_seating_names_every_player_in_seat_order_with_the_dealer(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    first = tournament["sessions"][0]
    pdf = fetch(api, tournament["event"], "seating", query="?session=1")
    assert pdf_pages(pdf, tmp_path, "seating") == 2  # the wall sheet, then both slips on one page
    text = pdf_text(pdf, tmp_path, "seating")
    assert "Seating · Session 1" in text
    for table in first["tables"]:
        names = [seat["name"] for seat in sorted(table["seats"], key=lambda seat: seat["seat"])]
        positions = [text.index(name) for name in names]  # the wall sheet comes first: seat order there
        assert positions == sorted(positions)
        assert f"Table {table['game']}" in text
        assert re.search(rf"{table['game']}\s+1\s+{names[0]}\s+deals first", text)  # seats from 1, as on every screen
    latest = pdf_text(fetch(api, tournament["event"], "seating"), tmp_path, "latest")
    assert "Seating · Session 2" in latest


def test_a_scorecard_per_table_with_its_players_hand_sizes_and_table_id(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    second = tournament["sessions"][1]
    pdf = fetch(api, tournament["event"], "scorecards")
    assert pdf_pages(pdf, tmp_path, "scorecards") == len(second["tables"]) == 2
    text = pdf_text(pdf, tmp_path, "scorecards")
    pages = text.split("\f")
    for page, table in zip(pages, second["tables"], strict=False):
        assert f"Table {table['game']}" in page and "Session 2" in page
        for seat in table["seats"]:
            assert f"{seat['seat'] + 1} · {seat['name']}" in page
        rows = [tuple(map(int, m)) for m in re.findall(r"^\s*(\d+)\s+(\d+)\s*$", page, re.M)]
        assert rows == list(enumerate(HANDS, start=1))
        for heading in ("Words", "Unused", "cards", "Bonuses", "Total", "Game", "total"):  # a narrow box's heading takes two lines
            assert page.count(heading) >= 1, heading
    assert "token" not in text.lower()


def test_the_standings_crosstable_and_results_hold_the_names_and_totals(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    overall = tournament["standings"]["overall"]["lines"]
    text = pdf_text(fetch(api, tournament["event"], "standings"), tmp_path, "standings")
    for line in overall:
        assert re.search(rf"^\s*{line['rank']}\s+{line['name']}\s+{line['games']}\s+{line['total']}\b", text, re.M), line
    for line in tournament["standings"]["standings"]:
        assert re.search(rf"{line['player']}\s+{line['table']}\s+8\s+{line['total']}\b", text), line
    crosstable = pdf_text(fetch(api, tournament["event"], "crosstable"), tmp_path, "crosstable")
    assert "Crosstable" in crosstable and all(f"Player {i}" in crosstable for i in range(1, 9))
    assert all(table["game"] in crosstable for session in tournament["sessions"] for table in session["tables"])
    results = pdf_text(fetch(api, tournament["event"], "results"), tmp_path, "results")
    assert "Final results" in results
    winner = overall[0]
    assert re.search(rf"^\s*1\s+{winner['name']}\s+{winner['total']}\b", results, re.M)
    for session in tournament["sessions"]:
        table = next(t for t in session["tables"] if winner["player"] in [seat["player"] for seat in t["seats"]])
        assert re.search(rf"^\s*(1\s+{winner['name']}\s+{winner['total']}\s+\S+\s+)?{table['game']}\s+\d+\s+Player", results, re.M)  # a row a game


def test_mid_event_documents_say_after_session_k_and_only_a_closed_event_s_say_final(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    early = {kind: pdf_text(pdf, tmp_path, f"early-{kind}") for kind, pdf in tournament["printed"]["early"].items()}
    assert "Standings after session 1 (provisional)" in early["standings"] and "Results after session 1 (provisional)" in early["results"]
    assert "Final" not in early["standings"] + early["results"]
    assert "Session 1: standings by table" in early["standings"] and "Session 2" not in early["standings"]  # session 2, seated and unplayed, is not on it
    assert not any(table["game"] in early["standings"] + early["results"] for table in tournament["sessions"][1]["tables"])
    still_open = {kind: pdf_text(pdf, tmp_path, f"open-{kind}") for kind, pdf in tournament["printed"]["open"].items()}
    assert "Results after session 2 (provisional)" in still_open["results"] and "Final results" not in still_open["results"]
    assert "Standings after session 2 (provisional)" in still_open["standings"]
    closed = {kind: pdf_text(fetch(api, tournament["event"], kind), tmp_path, f"closed-{kind}") for kind in ("standings", "results")}
    assert "Final standings" in closed["standings"] and "Final results" in closed["results"]
    assert "provisional" not in closed["standings"] + closed["results"]
    assert "Session 1: standings by table" in closed["standings"] and "Session 2: standings by table" in closed["standings"]


def test_table_points_are_printed_to_two_decimals_as_every_screen_shows_them(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    text = pdf_text(fetch(api, tournament["event"], "standings"), tmp_path, "points")
    lines = tournament["standings"]["overall"]["lines"]
    assert tournament["standings"]["overall"]["format"]["decimals"] == 2
    shown = 0
    for line in lines:
        row = next(row for row in text.splitlines() if re.search(rf"^\s*{line['rank']}\s+{line['name']}\s", row))
        expected = Decimal(repr(line["table_points"])).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)  # half away from zero, from the JSON's digits
        cells = row.split()
        assert str(expected).rstrip("0").rstrip(".") in cells, (row, line["table_points"])
        shown += line["table_points"] != round(line["table_points"], 1)
    assert shown  # some table points need the second decimal (a 1/3 or a 2/3, never 0.3 or 0.7)


def test_the_audit_summary_is_the_director_s_and_holds_no_secret(api: Api, tournament: dict[str, Any], poppler: None, tmp_path: Path) -> None:
    event = tournament["event"]
    api("GET", f"/events/{event}/documents/audit", expect=401)
    text = pdf_text(fetch(api, event, "audit", tournament["token"]), tmp_path, "audit")
    for kind in ("Event created", "Player registered", "Session seated", "Table seated", "Round stored"):
        assert kind in text
    assert tournament["token"] not in text and "wsv_" not in text


def test_a_private_event_s_documents_need_a_token(api: Api, ledger_server: LedgerServer) -> None:
    event = f"private-paper{next(_ids)}-{ledger_server.backend}"
    token = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Closed doors", "private": True}).json()["director_token"]["token"]
    api("PUT", f"/events/{event}/games/t1", token, expect=201, json={"players": ["Ann", "Bob"]})
    for kind in ("scorecards", "standings", "results"):
        api("GET", f"/events/{event}/documents/{kind}", expect=401)
        fetch(api, event, kind, token)


def test_unknown_kinds_sessions_and_events_are_refused(api: Api, tournament: dict[str, Any]) -> None:
    event = tournament["event"]
    api("GET", f"/events/{event}/documents/menu", expect=404)
    assert api("GET", f"/events/{event}/documents/seating?session=99").status_code in (404, 422)
    assert api("GET", f"/events/{event}/documents/scorecards?session=99").status_code in (404, 422)
    api("GET", f"/events/{event}/documents/seating?session=zero", expect=422)
    api("GET", "/events/no-such-event/documents/standings", expect=404)


def test_an_icelandic_event_prints_icelandic_headings(api: Api, ledger_server: LedgerServer, poppler: None, tmp_path: Path) -> None:
    event = f"islenska-paper{next(_ids)}-{ledger_server.backend}"
    token = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Þorramót", "ruleset": "islenska"}).json()["director_token"]["token"]
    api("PUT", f"/events/{event}/games/t1", token, expect=201, json={"players": ["Þórdís", "Guðrún", "Ævar"]})
    text = pdf_text(fetch(api, event, "scorecards"), tmp_path, "islenska")
    assert "Stigablað" in text and "Umferð" in text and "Ónotuð" in text and "Borð t1" in text
    assert "Þórdís" in text and "Ævar" in text
    assert "Staðan" in pdf_text(fetch(api, event, "standings"), tmp_path, "staðan")


def test_page_one_of_each_document_as_a_png_for_the_readme(
    api: Api, tournament: dict[str, Any], ledger_server: LedgerServer, poppler: None, tmp_path: Path
) -> None:
    if ledger_server.backend != "sqlite":
        pytest.skip("the pictures are the same on both back ends: made once")
    folder = screenshot_folder()
    for kind in KINDS:
        pdf = fetch(api, tournament["event"], kind, tournament["token"])
        path = tmp_path / f"{kind}.pdf"
        path.write_bytes(pdf)
        name = {"scorecards": "scorecard"}.get(kind, kind)
        subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(path), str(folder / f"doc-{name}")], check=True, timeout=60)
        assert (folder / f"doc-{name}.png").stat().st_size > 5_000


#: Players of the language twins: names that are no word of either language (and are taken out before words are compared).
TWIN_NAMES = ["Þórdís Ösp", "Guðrún Ýr", "Ævar Þór", "Hlín Eir", "Bjarki Már", "Sóley Rún", "Kári Snær", "Dögg Ýr"]


def play_twin(api: Api, ledger_server: LedgerServer, ruleset: str, rng: random.Random) -> dict[str, Any]:
    """A small tournament through the API with entries of most kinds (tokens, players, a schedule, swaps and redraws, rounds, a
    correction, a ruling, the ratings decision, the close); the event id, its director token, and what it shows as given."""
    rules = api("GET", f"/rulesets/{ruleset}", expect=200).json()
    deck = [card["face"] for card in rules["deck"]["cards"] for _ in range(card["count"])]
    event = f"twin{next(_ids)}-{ruleset}-{ledger_server.backend}"
    created = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Vormót 7", "ruleset": ruleset, "format": "average"}).json()
    token = created["director_token"]["token"]
    viewer = api("POST", f"/events/{event}/tokens", token, expect=201, json={"role": "viewer"}).json()
    api("DELETE", f"/events/{event}/tokens/{viewer['id']}", token, expect=200)
    for i, name in enumerate(TWIN_NAMES, start=1):
        extra = {"club": "Klúbbur", "rating_id": "r-1"} if i == 1 else {}
        api("PUT", f"/events/{event}/players/p{i}", token, expect=201, json={"name": name, "checked_in": i < 8, **extra})
    api("POST", f"/events/{event}/players/p8/check-in", token, expect=200)
    api("POST", f"/events/{event}/schedule", token, expect=201, json={"sessions": 2, "size": {"target": 4}})
    shown = {event, viewer["id"], "Vormót 7", "Klúbbur", "r-1", ruleset, *TWIN_NAMES, *(f"p{i}" for i in range(1, 9))}
    for number, method in ((1, "schedule"), (2, "random")):
        api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": method, "number": number})
        if number == 1:
            api("POST", f"/events/{event}/sessions/1/swap", token, expect=200, json={"players": ["p1", "p2"]})
        else:
            api("POST", f"/events/{event}/sessions/2/redraw", token, expect=200)
        session = api("GET", f"/events/{event}/sessions/{number}", expect=200).json()
        for table in session["tables"]:
            shown.add(table["game"])
            names = [seat["name"] for seat in table["seats"]]
            for round_number in range(1, len(rules["rounds"]) + 1):
                players = random_players(rng, deck, round_number, names)
                shown |= {"".join(word).upper() for player in players for word in player["words"]}
                api("PUT", f"/events/{event}/games/{table['game']}/rounds/{round_number}", token, expect=201, json={"players": players})
    fixed = random_players(rng, deck, 1, names)
    shown |= {"".join(word).upper() for player in fixed for word in player["words"]}
    api("PUT", f"/events/{event}/games/{table['game']}/rounds/1", token, expect=200, headers={"If-Match": "*"}, json={"players": fixed, "correction": {"reason": "R-17"}})
    referee = api("POST", f"/events/{event}/tokens", token, expect=201, json={"role": "referee", "table": table["game"]}).json()
    api("POST", f"/events/{event}/judge", referee["token"], expect=200, json={"table": table["game"], "round": 2, "words": ["ab", "cd"]})
    api("POST", f"/events/{event}/rated", token, expect=200, json={"rated": False, "reason": "R-17"})
    api("POST", f"/events/{event}/close", token, expect=200)
    audit = api("GET", f"/events/{event}/audit", token, expect=200).json()["entries"]
    lexicon = api("GET", f"/events/{event}", token, expect=200).json()["lexicon"]
    shown |= {lexicon["id"], str(lexicon["version"])}
    shown |= {"R-17", "AB", "CD"} | {entry["actor"]["token"] for entry in audit} | {str(entry["payload"].get("id")) for entry in audit}
    return {"event": event, "token": token, "shown": sorted(shown, key=len, reverse=True)}


def document_words(api: Api, twin: dict[str, Any], tmp_path: Path) -> dict[str, set[str]]:
    """Each document's words as Poppler reads them, names, identifiers and paths taken out, case-folded; numbers are not words."""
    out = {}
    for kind in KINDS:
        text = pdf_text(fetch(api, twin["event"], kind, twin["token"]), tmp_path, kind)
        for shown in twin["shown"]:
            text = re.sub(rf"(?<!\w){re.escape(shown)}(?!\w)", " ", text, flags=re.IGNORECASE)
        text = re.sub(r"/\S+", " ", text)  # a path of the API (/events/{e}/audit) is an identifier
        out[kind] = {word.casefold() for word in re.findall(r"[^\W\d_]{2,}", text)}  # a letter alone (W, L, T; player's) tells no language
    return out


def test_an_icelandic_event_s_documents_hold_no_english_word(api: Api, ledger_server: LedgerServer, poppler: None, tmp_path: Path) -> None:
    rng = random.Random(49)
    english = document_words(api, play_twin(api, ledger_server, "standard", rng), tmp_path)
    icelandic = document_words(api, play_twin(api, ledger_server, "islenska", rng), tmp_path)
    known = set().union(*english.values())
    strays = {kind: sorted(words & known - {"utc"}) for kind, words in icelandic.items()}  # UTC: the time zone, in every language
    assert strays == {kind: [] for kind in KINDS}, strays
    assert {"umferð", "borð", "keppandi"} <= icelandic["audit"] | icelandic["scorecards"]


def test_the_crosstable_of_a_large_field_is_a_pdf(api: Api, ledger_server: LedgerServer, poppler: None, tmp_path: Path) -> None:
    """The probe's field: from 60 players the crosstable PDF was a 500 (a column per opponent narrower than its padding)."""
    rng = random.Random(60)
    standard = api("GET", "/rulesets/standard", expect=200).json()
    deck = [card["face"] for card in standard["deck"]["cards"] for _ in range(card["count"])]
    event = f"field{next(_ids)}-{ledger_server.backend}"
    token = api("POST", "/events", ledger_server.admin_token, expect=201, json={"id": event, "name": "Open"}).json()["director_token"]["token"]
    for i in range(1, 61):
        api("PUT", f"/events/{event}/players/p{i:02}", token, expect=201, json={"name": f"Player {i:02}", "checked_in": True})
    session = api("POST", f"/events/{event}/sessions", token, expect=201, json={"method": "random", "size": {"target": 4}, "number": 1}).json()
    for table in session["tables"]:
        names = [seat["name"] for seat in table["seats"]]
        for round_number in range(1, 9):
            api("PUT", f"/events/{event}/games/{table['game']}/rounds/{round_number}", token, expect=201, json={"players": random_players(rng, deck, round_number, names)})
    pdf = fetch(api, event, "crosstable")
    text = pdf_text(pdf, tmp_path, "field")
    assert all(f"Player {i:02}" in text for i in range(1, 61))
    assert len(re.findall(r"\b(win|loss|tie)\b", text)) == 60 * 3  # a line for each game and opponent

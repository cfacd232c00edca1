"""Every printed document drawn at the largest field the API accepts (docs/documents.md, "Any size"): no layout failure, nothing lost.

The API's limits are read from its schemas: players an event registers
(``MAX_EVENT_PLAYERS``), sessions (``MAX_SESSIONS``), tables a session seats
(``MAX_TABLES``), players at a table (``MAX_PLAYERS``), rounds (``MAX_ROUNDS``),
the lengths of a name, an event's name and an id. The views are built with
the same core functions the ledger answers with (the crosstable, the
standings), from games of random scores, so each document is drawn from data
shaped as the API gives it, at sizes no club reaches; each dimension at its
largest in turn (all of them at once is a field of 2,000 players in 64
sessions, whose documents are thousands of pages; they are drawn a page at a
time, in time proportional to their rows, so its cost is these tests' times
scaled up). Those take about a minute together (the largest PDFs are hundreds
of pages) and are marked ``slow``. Below them, the renderer is given grids no
document builds (a row taller than two pages, columns narrower than their
padding used to be): it draws them whole, so no layout failure can come of a
document's data.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from collections.abc import Callable
from typing import Any, NoReturn

import pytest

from wordsvc.core import documents as docs
from wordsvc.core.documents.crosstable import MATRIX_PLAYERS
from wordsvc.core.seating.sessions import MAX_EVENT_PLAYERS
from wordsvc.core.standings import Entrant, Game, crosstable, standings
from wordsvc.data.formats import format_document, known_formats
from wordsvc.schemas.common import MAX_NAME, MAX_PLAYERS
from wordsvc.schemas.events import MAX_NAME as MAX_EVENT_NAME
from wordsvc.schemas.events import MAX_REASON
from wordsvc.schemas.rounds import MAX_ROUNDS
from wordsvc.schemas.tournaments import MAX_SESSIONS, MAX_TABLES
from wordsvc.service.pdf import render_pdf

MAX_ID = 64
PRINTED = "2026-12-06 10:00"


def pages_of(pdf: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b(?!s)", pdf))


def name(i: int) -> str:
    """A name as long as the API takes, words and one long run without a space (a renderer must break it)."""
    return (f"{i:05} Þórdís Guðrún Ævarsdóttir " + "Lichtenstein" * 6)[:MAX_NAME]


def player_id(i: int) -> str:
    return f"p{i:05}-" + "x" * (MAX_ID - 7)


def event(rounds: int = 8) -> dict[str, Any]:
    return {
        "id": "e" * MAX_ID,
        "name": ("Þorramót á Akureyri " * 20)[:MAX_EVENT_NAME],
        "lexicon": {"id": "is"},
        "ruleset": {"id": "islenska", "rounds": [3 + i % 8 for i in range(rounds)]},
        "games": [],
    }


def field(players: int, sessions: int, size: int, seed: int = 7) -> dict[str, Any]:
    """A tournament of ``players`` over ``sessions``, tables of ``size``, every game played: its views as the API answers them."""
    rng = random.Random(seed)
    entrants = [Entrant(player_id(i), name(i)) for i in range(players)]
    ids = [entrant.id for entrant in entrants]
    games, tables = [], []
    for session in range(1, sessions + 1):
        order = ids[:]
        rng.shuffle(order)
        tables = [order[first : first + size] for first in range(0, len(order), size)]
        for number, seated in enumerate(tables, start=1):
            games.append(Game(session, f"s{session}-t{number}", tuple((player, rng.randint(0, 400)) for player in seated)))
    names = {entrant.id: entrant.name for entrant in entrants}
    fmt = known_formats()["total"]
    lines = [
        {"rank": 1, "player": names[player], "table": game.table, "rounds": 8, "total": score}
        for game in games for player, score in game.scores
    ]
    return {
        "event": event(),
        "session": {"number": sessions, "tables": [
            {"game": f"s{sessions}-t{number}", "seats": [{"seat": seat, "player": player, "name": names[player]} for seat, player in enumerate(seated)]}
            for number, seated in enumerate(tables, start=1)
        ]},
        "crosstable": crosstable(entrants, games),
        "players": {"players": [{"id": entrant.id, "name": entrant.name} for entrant in entrants]},
        "standings": {"standings": lines, "overall": {"format": format_document(fmt), "through": sessions, "lines": standings(fmt, entrants, games)}},
    }


@pytest.fixture(scope="module")
def widest() -> dict[str, Any]:
    """Every player the API registers, two sessions at tables of four (the crosstable of the issue was a 500 from 60 players)."""
    return field(MAX_EVENT_PLAYERS, 2, 4)


@pytest.fixture(scope="module")
def longest() -> dict[str, Any]:
    """The largest table the API seats, in every session the API holds: each pair meets 64 times."""
    return field(MAX_PLAYERS, MAX_SESSIONS, MAX_PLAYERS)


@pytest.mark.slow
def test_the_crosstable_of_the_largest_field_draws_every_game(widest: dict[str, Any]) -> None:
    document = docs.crosstable_document(widest["event"], widest["crosstable"], widest["players"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    games = sum(len(met) for row in widest["crosstable"]["meetings"].values() for met in row.values())
    assert len(grid.header) == 5 and len(grid.rows) == games == MAX_EVENT_PLAYERS * 2 * 3  # a row per game and opponent: the list
    assert pages_of(render_pdf(document)) > games // 60


@pytest.mark.parametrize("players", [40, 60, 120])
def test_the_crosstable_the_probe_drew_is_a_pdf_at_every_size(players: int) -> None:
    views = field(players, 2, 4)
    pdf = render_pdf(docs.crosstable_document(views["event"], views["crosstable"], views["players"], PRINTED))
    assert pdf.startswith(b"%PDF-") and pages_of(pdf) >= 1


def test_a_field_that_fits_a_page_keeps_the_grid_of_who_met_whom() -> None:
    views = field(MATRIX_PLAYERS, 3, 4)
    document = docs.crosstable_document(views["event"], views["crosstable"], views["players"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    assert len(grid.header) == 2 + MATRIX_PLAYERS
    assert pages_of(render_pdf(document)) >= 1


@pytest.mark.slow
def test_the_crosstable_of_the_largest_table_in_every_session_draws(longest: dict[str, Any]) -> None:
    document = docs.crosstable_document(longest["event"], longest["crosstable"], longest["players"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    assert len(grid.rows) == MAX_PLAYERS * (MAX_PLAYERS - 1) * MAX_SESSIONS
    assert pages_of(render_pdf(document)) > 1


@pytest.mark.slow
@pytest.mark.parametrize("views", ["widest", "longest"])
def test_standings_and_results_of_the_largest_fields_draw(views: str, request: pytest.FixtureRequest) -> None:
    data = request.getfixturevalue(views)
    for document in (docs.standings_document(data["event"], data["standings"], PRINTED), docs.results_document(data["event"], data["standings"], data["crosstable"], PRINTED)):
        assert pages_of(render_pdf(document)) > 1


@pytest.mark.slow
def test_the_seating_of_the_most_tables_and_of_the_largest_table_draws(widest: dict[str, Any], longest: dict[str, Any]) -> None:
    most = {"number": 1, "tables": [dict(table, game=f"s{MAX_SESSIONS}-t{number}") for number, table in enumerate(widest["session"]["tables"][:MAX_TABLES], start=1)]}
    assert len(most["tables"]) == MAX_TABLES
    assert pages_of(render_pdf(docs.seating_document(widest["event"], most, PRINTED))) > MAX_TABLES // 3
    assert pages_of(render_pdf(docs.seating_document(longest["event"], longest["session"], PRINTED))) >= 2


@pytest.mark.slow
def test_scorecards_of_the_largest_table_and_the_most_rounds_draw(longest: dict[str, Any]) -> None:
    table = {"id": "t" * MAX_ID, "players": [name(i) for i in range(MAX_PLAYERS)]}
    document = docs.scorecards_document(event(rounds=MAX_ROUNDS), [table, longest["session"]["tables"][0]], lambda t: f"https://venue.example/console#table={t}", PRINTED, MAX_SESSIONS)
    grids = [block for block in document.blocks if isinstance(block, docs.Grid)]
    assert [len(grid.groups) - 1 for grid in grids] == [8, 8, 8, 8]  # sixteen players: two grids of eight a table, boxes wide enough to write in
    assert pages_of(render_pdf(document)) >= 4


@pytest.mark.slow
def test_the_audit_summary_of_the_longest_entries_draws() -> None:
    body = {"players": [{"name": name(i), "words": [list("orð" * 3)] * 4, "unused": [], "went_out": False} for i in range(MAX_PLAYERS)]}
    kinds = [
        ("round.corrected", {"game": "g" * MAX_ID, "round": MAX_ROUNDS, "revision": 2, "body": body, "reason": "á" * MAX_REASON}),
        ("session.created", {"session": MAX_SESSIONS, "request": {"method": "random", "size": {"target": 4}}, "draws": 1, "unfinished": True,
                             "tables": [{"game": f"s64-t{t}", "players": [player_id(i) for i in range(4)]} for t in range(MAX_TABLES)]}),
        ("player.registered", {"player": player_id(1), "name": name(1), "club": "k" * MAX_EVENT_NAME, "rating_id": "r" * MAX_ID, "checked_in": False, "joined": MAX_SESSIONS}),
        ("ratings.changed", {"rated": False, "reason": "þ " * (MAX_REASON // 2)}),
    ]
    entries = [{"seq": seq, "at": "2026-12-06T10:00:00.000000Z", "actor": {"role": "director", "token": "f" * 8}, "action": kinds[seq % len(kinds)][0], "payload": kinds[seq % len(kinds)][1]}
               for seq in range(1, 2001)]
    document = docs.audit_document(event(), entries, PRINTED)
    assert all(len(row[4]) <= 160 for block in document.blocks if isinstance(block, docs.Grid) for row in block.rows)
    assert pages_of(render_pdf(document)) > 20


# --- the renderer, given grids no document builds ---------------------------------------------------------


@pytest.fixture
def pdftotext(unavailable_tool: Callable[[str, str], NoReturn]) -> Callable[[bytes], str]:
    """Poppler's text extraction: skipped without it, failed under CI (``make setup`` installs poppler-utils)."""
    if shutil.which("pdftotext") is None:
        unavailable_tool("Poppler", "pdftotext is not installed")
    return lambda pdf: subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True, timeout=120).stdout.decode()


def test_a_row_taller_than_a_page_is_cut_across_pages_and_no_row_is_lost(pdftotext: Callable[[bytes], str]) -> None:
    rows = [(f"R{i:04}", "word " * (i % 7 * 30), str(i)) for i in range(500)]  # rows of one to five lines
    rows.insert(250, ("TALL", "\n".join(f"line{j}" for j in range(150)), ""))  # two pages and more of one cell
    grid = docs.Grid(("id", "text", "n"), tuple(rows), widths=(1, 6, 1), font_size=8)
    pdf = render_pdf(docs.Document("audit", "t", "en", "x " * 400, (docs.Heading("Rows"), grid)))
    text = pdftotext(pdf)
    assert re.findall(r"R(\d{4})", text) == [f"{i:04}" for i in range(500)]  # every row once, in order, across every page
    assert re.findall(r"line(\d+)", text) == [str(j) for j in range(150)]


def test_columns_narrower_than_their_padding_used_to_be_still_draw(pdftotext: Callable[[bytes], str]) -> None:
    grid = docs.Grid(("who", *(str(i) for i in range(200))), tuple((f"row{r}", *("8" for _ in range(200))) for r in range(40)), widths=(40.0, *(1.0 for _ in range(200))), font_size=5)
    text = pdftotext(render_pdf(docs.Document("crosstable", "t", "en", "f", (grid,), landscape=True)))
    assert re.findall(r"row(\d+)", text) == [str(r) for r in range(40)]

"""Printed documents built in-process: their words and numbers from the ledger's views, in the event's language, and their PDFs (docs/documents.md).

A small tournament (8 players, two sessions of two tables, a ruleset of two
rounds of 3 and 4 cards) is played through the ledger once for the module;
the builders are pure, so each test reads the layout's blocks, and a few
render the PDF to check it is one with the pages asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wordsvc.core import documents as docs
from wordsvc.core.documents.audit_lines import LINE_LENGTH, audit_line
from wordsvc.core.documents.words import Words
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.data.rulesets import load_rulesets, ruleset_document, ruleset_from_document
from wordsvc.i18n import DOCUMENT_CATALOG, document_text
from wordsvc.ledger import LOCAL, Ledger
from wordsvc.service.pdf import render_pdf

WORDS = ("cat", "dog", "tea", "eat", "ate", "rat", "art", "tar")
#: What each seat lays in every round, the rest of its hand unused: different scores, so every table has an order.
LAYS = [["cat"], ["rat"], ["tea"], []]
PRINTED = "2026-12-05 08:00"


def lexicon(lang: str) -> MemoryLexicon:
    return MemoryLexicon({w: [()] for w in WORDS}, LexiconInfo(id=lang, lang=lang, version="1", sha256="1" * 64, fold_diacritics=True))


def pages_of(pdf: bytes) -> int:
    """Page objects in a PDF ReportLab wrote (uncompressed object headers)."""
    return len(re.findall(rb"/Type /Page\b(?!s)", pdf))


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    ledger = Ledger.open(f"sqlite:///{tmp_path_factory.mktemp('docs') / 'ledger.sqlite3'}", lexicon)
    document = ruleset_document(load_rulesets().get("standard"))
    document["rounds"] = [3, 4]
    ruleset = ruleset_from_document("standard", document)
    view = ledger.events.create_event(LOCAL, ruleset, lexicon("en-US"), "Club night", "club-night")
    director = ledger.tokens.authenticate(view["director_token"]["token"])
    for i in range(1, 9):
        ledger.players.register(director, "club-night", f"p{i}", f"Player {i}", checked_in=True)
    for _ in (1, 2):
        _, session = ledger.sessions.create(director, "club-night", {"method": "random", "size": {"target": 4}})
        for table in session["tables"]:
            names = [seat["name"] for seat in table["seats"]]
            for number, hand in ((1, 3), (2, 4)):
                play = RoundPlay(tuple(PlayerPlay(name, tuple(tuple(w) for w in LAYS[i]), ("e",) * (hand - 3 * len(LAYS[i]))) for i, name in enumerate(names)))
                ledger.rounds.submit_round(director, "club-night", table["game"], number, play)
    yield {
        "event": ledger.events.event(director, "club-night"),
        "session": session,
        "standings": ledger.standings.standings(director, "club-night"),
        "crosstable": ledger.tournament_standings.crosstable(director, "club-night"),
        "players": ledger.players.players(director, "club-night"),
        "audit": ledger.trail.audit_entries(director, "club-night")["entries"],
    }
    ledger.close()


def texts(document: docs.Document) -> list[str]:
    out: list[str] = []
    for block in document.blocks:
        if isinstance(block, docs.Grid):
            out += [label for label, _ in block.groups] + list(block.header) + [cell for row in block.rows for cell in row]
        elif isinstance(block, docs.Qr):
            out += [block.url, *block.lines]
        elif isinstance(block, (docs.Heading, docs.Text, docs.Cut)):
            out.append(getattr(block, "text", getattr(block, "label", "")))
    return out


def test_every_locale_has_every_document_key_and_the_same_fields() -> None:
    english = DOCUMENT_CATALOG["en"]
    for locale, catalog in DOCUMENT_CATALOG.items():
        assert set(catalog) == set(english), locale
        for key, text in catalog.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", english[key])), (locale, key)


def test_the_document_language_is_the_event_lexicon_s() -> None:
    assert docs.document_locale({"lexicon": {"id": "en-US"}}) == "en"
    assert docs.document_locale({"lexicon": {"id": "is"}}) == "is"
    assert docs.document_locale({"lexicon": {"id": "et"}}) == "et"
    assert docs.document_locale({"lexicon": {"id": "fr"}}) == "fr"
    assert docs.document_locale({"lexicon": {"id": "sv"}}) == "en"  # no Swedish words yet: English


def test_the_seating_lists_every_table_in_seat_order_numbered_from_1_the_first_dealing_first(played: dict[str, Any]) -> None:
    document = docs.seating_document(played["event"], played["session"], PRINTED)
    wall = next(block for block in document.blocks if isinstance(block, docs.Grid))
    expected = [(seat["seat"] + 1, seat["name"]) for table in played["session"]["tables"] for seat in table["seats"]]  # the API's seat 0 is seat 1 on paper
    assert [(int(row[1]), row[2]) for row in wall.rows] == expected
    assert all((row[3] == "deals first") == (row[1] == "1") for row in wall.rows)
    slips = [block for block in document.blocks if isinstance(block, docs.Heading) and block.level == 2]
    assert [slip.text for slip in slips] == ["Seating slip · Table s2-t1", "Seating slip · Table s2-t2"]
    assert document.pages() == 2  # the wall sheet, then both slips on one page


def test_a_scorecard_has_a_row_per_round_with_its_hand_size_and_a_qr_link_without_a_token(played: dict[str, Any]) -> None:
    tables = played["session"]["tables"]
    document = docs.scorecards_document(played["event"], tables, lambda table: f"https://venue.example/console#event=club-night&table={table}", PRINTED, 2)
    grids = [block for block in document.blocks if isinstance(block, docs.Grid)]
    assert len(grids) == len(tables) == document.pages()
    first = grids[0]
    assert [row[:2] for row in first.rows] == [("1", "3"), ("2", "4"), ("Game total", "")]
    assert [label for label, _ in first.groups[1:]] == [f"{seat['seat'] + 1} · {seat['name']}" for seat in tables[0]["seats"]]  # seats from 1
    assert first.header[2:6] == ("Words", "Unused cards", "Bonuses", "Total")
    codes = [block for block in document.blocks if isinstance(block, docs.Qr)]
    assert codes[0].url == "https://venue.example/console#event=club-night&table=s2-t1"
    assert codes[0].lines[0] == "Table s2-t1" and "token" not in codes[0].url


def test_the_standings_hold_the_overall_ranking_and_every_table_line(played: dict[str, Any]) -> None:
    document = docs.standings_document(played["event"], played["standings"], PRINTED)
    words = texts(document)
    for line in played["standings"]["overall"]["lines"]:
        assert line["name"] in words and str(line["total"]) in words
    assert {line["table"] for line in played["standings"]["standings"]} <= set(words)
    assert "Standings after session 2 (provisional)" in words  # the event is open: never "final"
    assert "Final standings" not in words
    assert [text for text in words if text.endswith("standings by table")] == ["Session 1: standings by table", "Session 2: standings by table"]


def test_standings_and_results_are_final_only_once_the_last_session_is_complete(played: dict[str, Any]) -> None:
    overall = played["standings"]["overall"]
    assert (overall["provisional"], overall["completed"], overall["through"]) == (True, 2, 2)
    t = Words("en")
    assert docs.standing_heading(t, overall, "results") == "Results after session 2 (provisional)"
    assert docs.standing_heading(t, {**overall, "completed": 0}, "standings") == "Standings during session 2 (provisional)"
    assert docs.standing_heading(t, {**overall, "provisional": False}, "results") == "Final results"
    results = docs.results_document(played["event"], played["standings"], played["crosstable"], PRINTED)
    assert results.title.startswith("Results after session 2 (provisional)") and "Final results" not in texts(results)


def test_the_crosstable_shows_each_meeting_with_its_scores(played: dict[str, Any]) -> None:
    document = docs.crosstable_document(played["event"], played["crosstable"], played["players"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    ids = played["crosstable"]["players"]
    first, second = ids[0], next(iter(played["crosstable"]["meetings"][ids[0]]))
    meeting = played["crosstable"]["meetings"][first][second][0]
    cell = grid.rows[0][2 + ids.index(second)]
    assert f"{meeting['table']} {meeting['score']}:{meeting['opponent_score']}" in cell
    assert grid.rows[0][2] == "—"  # a player never meets themselves


def test_the_results_list_each_player_s_games_a_row_each_with_their_opponents(played: dict[str, Any]) -> None:
    document = docs.results_document(played["event"], played["standings"], played["crosstable"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    winner = played["standings"]["overall"]["lines"][0]
    assert grid.rows[0][:3] == ("1", winner["name"], str(winner["total"]))
    assert grid.rows[1][:4] == ("", "", "", "")  # the winner's second game, on a row of its own
    assert [grid.rows[0][4][:4], grid.rows[1][4][:4]] == ["s1-t", "s2-t"]
    opponents = grid.rows[0][6].split(", ")
    assert len(opponents) == 3 and all(re.fullmatch(r"Player \d \d+", opponent) for opponent in opponents)


def test_the_audit_summary_has_a_line_per_entry_and_no_secret(played: dict[str, Any]) -> None:
    document = docs.audit_document(played["event"], played["audit"], PRINTED)
    grid = next(block for block in document.blocks if isinstance(block, docs.Grid))
    assert len(grid.rows) == len(played["audit"])
    assert grid.rows[0][3] == "Event created" and grid.rows[0][2] == "administrator (command line)"
    joined = "\n".join(cell for row in grid.rows for cell in row)
    assert "wsv_" not in joined and "sha256" not in joined and "commitment" not in joined
    assert not re.search(r"\b[0-9a-f]{64}\b", joined)  # no hash, seed or commitment, by name or by value
    stored = next(row for row in grid.rows if row[3] == "Round stored")
    assert stored[4].startswith("table s1-t1, round 1: ") and "CAT" in stored[4]


def test_an_audit_line_leaves_out_secrets_and_snapshots_and_stays_short() -> None:
    line = audit_line("token.issued", {"id": "ab12", "role": "referee", "table": "t1", "secret": "wsv_x", "token_hash": "00"})
    assert line == "referee of table t1, id ab12"
    created = {"name": "N", "ruleset_id": "standard", "ruleset": {"deck": {}}, "lexicon": {"id": "en-US", "version": "3", "sha256": "ff" * 32},
               "private": False, "deals": "none", "duplicate": False, "deal_commitment": "ee" * 32}
    assert audit_line("event.created", created) == "N; ruleset standard, lexicon en-US 3; private: no; deals dealt by the service: no; duplicate: no"
    names = [f"Player {i:02} {'x' * 50}" for i in range(16)]
    long = {"game": "t1", "round": 1, "revision": 1, "body": {"players": [{"name": name, "words": [["c", "a", "t"]]} for name in names]}}
    assert len(audit_line("round.submitted", long)) == LINE_LENGTH


def test_an_action_the_service_does_not_know_points_to_the_full_entry() -> None:
    assert audit_line("log.signed", {"key": "k1"}, "is") == "nánar í færslunni sjálfri"


def test_an_icelandic_event_prints_icelandic_headings(played: dict[str, Any]) -> None:
    event = {**played["event"], "lexicon": {"id": "is"}, "name": "Þorramót"}
    document = docs.scorecards_document(event, played["session"]["tables"], lambda table: "https://x/console", PRINTED, 2)
    assert document_text("is", "scorecard.title") in texts(document) and "Umferð" in texts(document)
    assert document.page_label == "Síða {page}"


def test_the_pdfs_render_with_the_pages_asked(played: dict[str, Any]) -> None:
    scorecards = docs.scorecards_document(played["event"], played["session"]["tables"], lambda table: "https://x/console", PRINTED, 2)
    pdf = render_pdf(scorecards)
    assert pdf.startswith(b"%PDF-") and pages_of(pdf) == 2
    seating = render_pdf(docs.seating_document(played["event"], played["session"], PRINTED))
    assert pages_of(seating) == 2
    audit = render_pdf(docs.audit_document(played["event"], played["audit"], PRINTED))
    assert pages_of(audit) >= 1


def test_the_renderer_is_the_only_module_that_imports_the_pdf_library() -> None:
    package = Path(docs.__file__).resolve().parents[2]
    users = sorted(str(path.relative_to(package)) for path in package.rglob("*.py") if re.search(r"^\s*(from|import) reportlab", path.read_text(encoding="utf-8"), re.M))
    assert users == ["service/pdf.py"]


def test_an_event_of_tables_prints_provisional_results_until_it_is_closed() -> None:
    lines = {"standings": [{"rank": 1, "player": "Ann", "table": "t1", "session": None, "rounds": 8, "total": 120}]}
    event = {"id": "club", "name": "Club", "lexicon": {"id": "en-US"}, "status": "open"}
    assert docs.results_document(event, lines, None, PRINTED).blocks[0].text == "Provisional results"
    closed = docs.results_document({**event, "status": "closed"}, lines, None, PRINTED)
    assert closed.blocks[0].text == "Final results" and closed.title.startswith("Final results")

"""Tournament formats: the shipped YAML files, their documents, and every problem named by field."""

from __future__ import annotations

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.standings import DECIMALS, Format, FormatError, format_from_document, rounded
from wordsvc.data.formats import DEFAULT_FORMAT, format_document, format_from_snapshot, load_formats


@pytest.fixture(scope="module")
def formats():
    return load_formats()


def test_the_shipped_formats_load(formats):
    assert sorted(formats) == ["average", "table-points", "total", "wins"]
    assert {fid: fmt.ranking for fid, fmt in formats.items()} == {"average": "average", "table-points": "table_points", "total": "total", "wins": "wins"}


def test_the_default_is_total_with_head_to_head_best_game_spread(formats):
    fmt = formats[DEFAULT_FORMAT]
    assert (fmt.id, fmt.ranking, fmt.tie_breaks, fmt.missed, fmt.min_games) == ("total", "total", ("head_to_head", "best_game", "spread"), "zero", 0)


def test_the_average_format_needs_three_games_and_ignores_missed_ones(formats):
    assert (formats["average"].missed, formats["average"].min_games) == ("nothing", 3)


@pytest.mark.parametrize("fid", ["average", "table-points", "total", "wins"])
def test_a_document_round_trips(formats, fid):
    fmt = formats[fid]
    assert format_from_snapshot(format_document(fmt)) == fmt
    assert format_from_document(fmt.document()).document() == fmt.document()
    assert list(fmt.document()) == ["id", "name", "description", "ranking", "tie_breaks", "missed", "min_games", "decimals"]


def test_a_document_may_leave_out_description_min_games_and_decimals():
    fmt = format_from_document({"id": "x", "name": "X", "ranking": "wins", "tie_breaks": [], "missed": "zero"})
    assert (fmt.description, fmt.min_games, fmt.decimals) == ("", 0, DECIMALS) == ("", 0, 2)  # a snapshot from before decimals shows two


def test_decimals_are_a_whole_number_from_0_to_6(tmp_path):
    assert format_from_document({"id": "x", "name": "X", "ranking": "wins", "tie_breaks": [], "missed": "zero", "decimals": 1}).decimals == 1
    for bad in (7, -1, 1.5, True, "2"):
        with pytest.raises(FormatError) as caught:
            format_from_document({"id": "x", "name": "X", "ranking": "wins", "tie_breaks": [], "missed": "zero", "decimals": bad})
        assert caught.value.problems == {"decimals": ["must be a whole number from 0 to 6"]}
    (tmp_path / "fine.yaml").write_text("name: Fine\nranking: table_points\ntie_breaks: []\nmissed: zero\ndecimals: 3\n")
    assert load_formats(tmp_path)["fine"].decimals == 3
    (tmp_path / "many.yaml").write_text("name: Many\nranking: table_points\ntie_breaks: []\nmissed: zero\ndecimals: 9\n")
    with pytest.raises(FormatError) as caught:
        load_formats(tmp_path)
    assert caught.value.problems == {"formats": [f"{tmp_path.name}/many.yaml: decimals: must be from 0 to 6"]}


#: Numbers and how every page and document shows them at two decimals (and one at none): the same table is checked
#: against the pages' formatNumber in Chromium (api_tests/test_console_standings_browser.py, ROUNDINGS).
ROUNDINGS = [(2 / 3, 2, "0.67"), (1 / 3, 2, "0.33"), (0.125, 2, "0.13"), (1.005, 2, "1.01"), (1 / 7, 2, "0.14"), (12.5, 0, "13"), (3.0, 2, "3"), (-0.001, 2, "0"), (1234.5, 2, "1234.5")]


@pytest.mark.parametrize(("value", "decimals", "shown"), ROUNDINGS)
def test_a_number_is_rounded_half_away_from_zero_from_its_shortest_decimal_form(value, decimals, shown):
    assert rounded(value, decimals) == shown


def test_a_bad_document_names_every_field_at_fault():
    with pytest.raises(FormatError) as caught:
        format_from_document({"id": "X!", "name": "", "ranking": "points", "tie_breaks": ["spread", "spread", "luck"], "missed": "never", "colour": "red"})
    err = caught.value
    assert isinstance(err, InvalidRequest)
    assert err.problems == {
        "colour": ["unknown field"],
        "id": ["must be a format id (lowercase letters, digits, hyphens)"],
        "name": ["must be a non-empty string"],
        "ranking": ["must be one of: total, table_points, wins, average"],
        "missed": ["must be one of: nothing, zero, average"],
        "tie_breaks.1": ["spread is listed twice"],
        "tie_breaks.2": ["must be one of: head_to_head, best_game, spread, table_points, total, wins, average"],
    }
    assert (err.field, err.message) == ("colour", "unknown field")


def test_a_missing_field_is_named():
    with pytest.raises(FormatError) as caught:
        format_from_document({"id": "x", "name": "X", "tie_breaks": []})
    assert caught.value.problems == {"ranking": ["missing data for required field"], "missed": ["missing data for required field"]}


def test_the_ranking_cannot_be_its_own_tie_break():
    with pytest.raises(FormatError) as caught:
        Format(id="x", name="X", ranking="total", tie_breaks=("total",), missed="zero")
    assert caught.value.problems == {"tie_breaks.0": ["total is the ranking itself"]}


def test_load_formats_reports_every_problem_of_every_file(tmp_path):
    (tmp_path / "good.yaml").write_text("name: Good\nranking: total\ntie_breaks: []\nmissed: zero\n")
    (tmp_path / "typo.yaml").write_text("name: Typo\nrankin: total\ntie_breaks: []\nmissed: zero\n")
    (tmp_path / "twice.yaml").write_text("name: Twice\nranking: wins\ntie_breaks: [wins]\nmissed: average\nmin_games: -1\n")
    (tmp_path / "Bad Name.yaml").write_text("name: X\n")
    with pytest.raises(FormatError) as caught:
        load_formats(tmp_path)
    folder = tmp_path.name
    assert caught.value.problems == {
        "formats": [
            f"{folder}/Bad Name.yaml: file name must be a format id (lowercase letters, digits, hyphens)",
            f"{folder}/twice.yaml: min_games: must be at least 0",
            f"{folder}/typo.yaml: ranking: missing data for required field",
            f"{folder}/typo.yaml: rankin: unknown field",
        ]
    }


def test_load_formats_refuses_a_tie_break_that_is_the_ranking(tmp_path):
    (tmp_path / "twice.yaml").write_text("name: Twice\nranking: wins\ntie_breaks: [wins]\nmissed: average\n")
    with pytest.raises(FormatError) as caught:
        load_formats(tmp_path)
    assert caught.value.problems == {"formats": [f"{tmp_path.name}/twice.yaml: tie_breaks.0: wins is the ranking itself"]}

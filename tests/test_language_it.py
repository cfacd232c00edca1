"""The Italian lexicon (it, Debian's witalian with the house filter) and its filter, under the italiano ruleset.

The builder's filter rules on their own, and the built lexicon's classes and
folding under the language's ruleset. The words the lexicon is held to, the
solver's best play and a deal are tested for every language in
``tests/test_held_words.py``. Without the built lexicon the tests that need it
skip, and under CI (``CI`` set) they fail.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
from pathlib import Path

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
LANG, RULESET = "it", "italiano"
SOURCE = Path("/usr/share/dict/italian")  # Debian package witalian
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG


def load_builder():  # type: ignore[no-untyped-def]
    return importlib.import_module("wordlists.it.build_witalian")


BUILDER = load_builder()


# ---------------------------------------------------------------- the filter's rules


@pytest.mark.parametrize(
    ("entry", "dropped", "classes"),
    [
        ("casa", "", ""),
        ("città", "", ""),
        ("Roma", "", "proper_noun"),
        ("emTeX", "letter_not_on_deck", ""),
        ("IVA", "", "abbreviation"),
        ("pc", "", "abbreviation"),
        ("l'esercizio", "apostrophe", ""),
        ("dell'acqua", "apostrophe", ""),
        ("a priori", "multi_word", ""),
        ("ex-sindaco", "hyphen", ""),
        ("3d", "digit", ""),
        ("ecc.", "period", ""),
        ("taxi", "letter_not_on_deck", ""),
        ("hacker", "letter_not_on_deck", ""),
        ("jeans", "letter_not_on_deck", ""),
    ],
)
def test_each_filter_rule_drops_or_classes_as_its_reason_says(entry, dropped, classes):
    assert BUILDER.judge(entry) == (dropped, classes)


def test_the_word_after_an_elided_article_or_preposition_is_recovered_and_after_a_bound_elision_not():
    """dell'adolescenza gives adolescenza (witalian holds it only elided); d'altronde gives nothing (no altronde alone)."""
    entries = ["dell'adolescenza", "un'antenna", "d'altronde", "c'è", "casa"]
    assert list(BUILDER.with_elided_words(entries)) == [
        ("dell'adolescenza", False),
        ("adolescenza", True),
        ("un'antenna", False),
        ("antenna", True),
        ("d'altronde", False),
        ("c'è", False),
        ("casa", False),
    ]


@pytest.mark.skipif(not SOURCE.is_file(), reason="Debian's witalian is not installed")
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path):
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert BUILDER.main(["--out", str(out), "--package-version", "1.10"]) == 0
    assert first.read_bytes() == second.read_bytes()
    lines = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")
    assert lines[0] == "# wordsvc word list v1" and lines[2] == "# version: witalian-1.10-house2"
    assert lines[3].endswith(f"sha256 {hashlib.sha256(SOURCE.read_bytes()).hexdigest()}")
    rows = lines[6:-1]
    assert rows == sorted(rows) and all(row == row.lower() for row in rows)
    assert "città\t\t" in rows and "roma\tproper_noun\t" in rows and "adolescenza\t\t" in rows


# ---------------------------------------------------------------- the built lexicon, held to real words


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = (LANG,)


def test_names_and_abbreviations_are_refused_by_their_class(service):
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    assert [(r.code, r.params.get("class")) for r in judge("Roma", ruleset, lexicon).reasons] == [("banned_class", "proper_noun")]
    assert [(r.code, r.params.get("class")) for r in judge("IVA", ruleset, lexicon).reasons] == [("banned_class", "abbreviation")]


def test_accents_fold_so_an_accented_word_is_laid_with_plain_cards(service):
    """Italian Scrabble has no accented tiles: città is C-I-T-T-A, and CITTA is the same word."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    assert lexicon.info.fold_diacritics
    verdict = judge("città", ruleset, lexicon)
    assert verdict.valid and verdict.spellings[0].to_dict()["cards"] == ["C", "I", "T", "T", "A"]
    assert judge("CITTA", ruleset, lexicon).valid and judge("perche", ruleset, lexicon).valid

"""The Polish lexicon (pl, sjp.pl's list through Debian's wpolish, with the house filter) and its filter, under the polski ruleset.

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
LANG, RULESET = "pl", "polski"
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG


def load_builder():  # type: ignore[no-untyped-def]
    return importlib.import_module("wordlists.pl.build_sjp")


BUILDER = load_builder()


# ---------------------------------------------------------------- the filter's rules


@pytest.mark.parametrize(
    ("entry", "dropped", "classes"),
    [
        ("kot", "", ""),
        ("żółw", "", ""),
        ("Warszawa", "", "proper_noun"),
        ("mBank", "", "proper_noun"),
        ("PKP", "", "abbreviation"),
        ("mgr", "", "abbreviation"),
        ("płk", "", "abbreviation"),
        ("itd", "", "abbreviation"),
        ("hm", "", ""),
        ("psst", "", ""),
        ("w", "", ""),
        ("e-mail", "hyphen", ""),
        ("rock'n'roll", "apostrophe", ""),
        ("a priori", "multi_word", ""),
        ("4x4", "digit", ""),
        ("jw.", "period", ""),
        ("video", "letter_not_on_deck", ""),
        ("abbé", "letter_not_on_deck", ""),
        ("Atatürk", "letter_not_on_deck", ""),
    ],
)
def test_each_filter_rule_drops_or_classes_as_its_reason_says(entry, dropped, classes):
    assert BUILDER.judge(entry) == (dropped, classes)


def test_the_builder_writes_sorted_lowercase_lines_and_the_same_bytes_twice(tmp_path):
    """A small input stands in for the 4.3 million lines (the real run takes some 15 s: wordlists/pl/README.md)."""
    source = tmp_path / "polish"
    source.write_text("żaba\nWarszawa\nkot\nwarszawa\nPKP\ne-mail\nvideo\nkot\n", encoding="utf-8")
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert BUILDER.main(["--out", str(out), "--input", str(source), "--package-version", "20220301-1"]) == 0
    assert first.read_bytes() == second.read_bytes()
    lines = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")
    assert lines[0] == "# wordsvc word list v1" and lines[2] == "# version: wpolish-20220301-1-house1"
    assert lines[3].endswith(f"{source} sha256 {hashlib.sha256(source.read_bytes()).hexdigest()}")
    assert lines[6:] == ["kot\t\t", "pkp\tabbreviation\t", "warszawa\t\t", "warszawa\tproper_noun\t", "żaba\t\t", ""]


# ---------------------------------------------------------------- the built lexicon, held to real words


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = (LANG,)


def test_names_and_abbreviations_are_refused_by_their_class(service):
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    assert [(r.code, r.params.get("class")) for r in judge("Gdynia", ruleset, lexicon).reasons] == [("banned_class", "proper_noun")]
    assert ("banned_class", "abbreviation") in [(r.code, r.params.get("class")) for r in judge("mgr", ruleset, lexicon).reasons]


def test_letters_with_diacritics_are_cards_of_their_own_and_do_not_fold(service):
    """Polish Scrabble has tiles for ą ć ę ł ń ó ś ź ż: żaba is laid with Ż, and zaba is no word."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    assert not lexicon.info.fold_diacritics
    verdict = judge("żaba", ruleset, lexicon)
    assert verdict.valid and verdict.spellings[0].to_dict()["cards"][0] == "Ż"
    assert not judge("zaba", ruleset, lexicon).valid

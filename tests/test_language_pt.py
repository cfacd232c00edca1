"""The Portuguese lexicon (pt, Debian's wportuguese with the house filter) and its filter, under the portugues ruleset.

The builder's filter rules on their own, and the built lexicon's classes and
folding under the language's ruleset. The words the lexicon is held to, the
solver's best play and a deal are tested for every language in
``tests/test_held_words.py``. Without the built lexicon the tests that need it
skip, and under CI (``CI`` set) they fail.
"""

from __future__ import annotations

import gzip
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
LANG, RULESET = "pt", "portugues"
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG
SOURCE = Path("/usr/share/dict/portuguese")  # Debian package wportuguese


def builder() -> ModuleType:
    return importlib.import_module("wordlists.pt.build_wportuguese")


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = (LANG,)


# ---------------------------------------------------------------- the filter, on the builder alone


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("casa", ""), ("ação", ""), ("vi", ""), ("xi", ""), ("mil", ""),
        ("Lisboa", "proper_noun"), ("OpenOffice", "proper_noun"),
        ("ONU", "abbreviation"), ("GHz", "abbreviation"), ("km", "abbreviation"), ("sr", "abbreviation"), ("pág", "abbreviation"),
        ("xiv", "roman_numeral"), ("ii", "roman_numeral"), ("xx", "roman_numeral"),
    ],
)  # fmt: skip
def test_each_filter_rule_gives_its_class(entry, expected):
    assert builder().word_class(entry) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [("anti-herói", "hyphen"), ("d'água", "apostrophe"), ("kiwi", "letter"), ("show", "letter"), ("a4", "digit"), ("ação", None), ("coração", None)],
)
def test_entries_no_card_lays_are_dropped_with_their_reason(entry, expected):
    assert builder().drop_reason(entry) == expected


def test_every_class_the_filter_gives_is_known_and_banned_by_the_ruleset(rulesets):
    from wordsvc.core.lexicon import KNOWN_CLASSES

    classes = set(builder().CLASS_ORDER)
    assert classes <= KNOWN_CLASSES
    assert classes <= set(rulesets.get(RULESET).banned_classes)


# ---------------------------------------------------------------- the built lexicon


def test_names_abbreviations_and_numerals_are_refused_by_their_class(service):
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    for word, cls in (("Lisboa", "proper_noun"), ("sra", "abbreviation"), ("ONU", "abbreviation"), ("xiv", "roman_numeral")):
        assert [(r.code, r.params.get("class")) for r in judge(word, ruleset, lexicon).reasons] == [("banned_class", cls)], word


def test_accents_and_the_cedilla_are_laid_with_plain_cards(service):
    """Portuguese Scrabble drops every accent; the service's folding also lays ç as C (README.md, "Folding and the deck")."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    verdict = judge("ação", ruleset, lexicon)
    assert verdict.valid and next(s.cards for s in verdict.spellings) == ("a", "c", "a", "o")
    assert judge("ACAO", ruleset, lexicon).valid and judge("coração", ruleset, lexicon).valid


@pytest.mark.skipif(not SOURCE.is_file(), reason="Debian's wportuguese is not installed")
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path):
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert builder().main(["--out", str(out), "--version", "20220621-1"]) == 0
    assert first.read_bytes() == second.read_bytes()
    head = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")[:6]
    assert head[0] == "# wordsvc word list v1" and head[2] == "# version: wportuguese-20220621-1-house1"
    assert head[3].startswith("# source: wportuguese 20220621-1 (Debian), /usr/share/dict/portuguese sha256 ")

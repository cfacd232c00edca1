"""The Danish lexicon (da, Debian's wdanish with the house filter) and its filter, under the dansk ruleset.

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
LANG, RULESET = "da", "dansk"
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG
SOURCE = Path("/usr/share/dict/danish")  # Debian package wdanish


def builder() -> ModuleType:
    return importlib.import_module("wordlists.da.build_wdanish")


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = (LANG,)


# ---------------------------------------------------------------- the filter, on the builder alone


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("hus", ""), ("på", ""), ("hm", ""), ("pst", ""), ("vi", ""),
        ("Aalborg", "proper_noun"), ("FreeBSD", "proper_noun"),
        ("DSB", "abbreviation"), ("kWh", "abbreviation"), ("ApS", "abbreviation"), ("km", "abbreviation"), ("tv", "abbreviation"), ("årh", "abbreviation"),
    ],
)  # fmt: skip
def test_each_filter_rule_gives_its_class(entry, expected):
    assert builder().word_class(entry) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [("tv-avis", "hyphen"), ("hus'", "apostrophe"), ("weekend", "letter"), ("squash", "letter"), ("idé", None), ("blåbær", None)],
)
def test_entries_no_card_lays_are_dropped_with_their_reason(entry, expected):
    assert builder().drop_reason(entry) == expected


def test_the_list_spells_a_word_with_the_decks_letters_keeping_ae_oe_aa():
    spell = builder().deck_spelling
    assert (spell("idé"), spell("entrecôte"), spell("blåbærgrød")) == ("ide", "entrecote", "blåbærgrød")


def test_every_class_the_filter_gives_is_known_and_banned_by_the_ruleset(rulesets):
    from wordsvc.core.lexicon import KNOWN_CLASSES

    classes = set(builder().CLASS_ORDER)
    assert classes <= KNOWN_CLASSES
    assert classes <= set(rulesets.get(RULESET).banned_classes)


# ---------------------------------------------------------------- the built lexicon


def test_names_and_abbreviations_are_refused_by_their_class(service):
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    for word, cls in (("Aalborg", "proper_noun"), ("DSB", "abbreviation"), ("km", "abbreviation"), ("tv", "abbreviation")):
        assert [(r.code, r.params.get("class")) for r in judge(word, ruleset, lexicon).reasons] == [("banned_class", cls)], word


def test_ae_oe_aa_are_cards_of_their_own_and_not_plain_letters(service):
    """Danish Scrabble has Æ, Ø and Å tiles: the lexicon folds every other mark and keeps å (README.md, "Folding and the deck")."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    verdict = judge("blåbær", ruleset, lexicon)
    assert verdict.valid and next(s.cards for s in verdict.spellings) == ("b", "l", "å", "b", "æ", "r")
    assert not judge("blabaer", ruleset, lexicon).valid
    assert judge("ide", ruleset, lexicon).valid and judge("idé", ruleset, lexicon).valid  # the accent is optional, and laid plain


@pytest.mark.skipif(not SOURCE.is_file(), reason="Debian's wdanish is not installed")
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path):
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert builder().main(["--out", str(out), "--version", "1.6.36-14"]) == 0
    assert first.read_bytes() == second.read_bytes()
    head = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")[:6]
    assert head[0] == "# wordsvc word list v1" and head[2] == "# version: wdanish-1.6.36-14-house1"
    assert head[3].startswith("# source: wdanish 1.6.36-14 (Debian), /usr/share/dict/danish sha256 ")

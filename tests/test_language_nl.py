"""The Dutch lexicon (nl, OpenTaal through Debian's wdutch, with the house filter) and its filter, under the nederlands ruleset.

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

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
LANG, RULESET = "nl", "nederlands"
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG
SOURCE = Path("/usr/share/dict/dutch")  # Debian package wdutch


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = (LANG,)


def test_names_and_abbreviations_are_refused_by_their_class_and_accents_are_laid_with_plain_cards(service):
    """Amsterdam and btw are entries of OpenTaal; the filter's classes make the verdict say why each is refused."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    for word, cls in (("Amsterdam", "proper_noun"), ("btw", "abbreviation"), ("ANWB", "abbreviation")):
        assert [(r.code, r.params.get("class")) for r in judge(word, ruleset, lexicon).reasons] == [("banned_class", cls)], word
    assert judge("IDEEEN", ruleset, lexicon).valid and judge("ideeën", ruleset, lexicon).valid


@pytest.mark.skipif(not SOURCE.is_file(), reason="Debian's wdutch is not installed")
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path):
    builder = importlib.import_module("wordlists.nl.build_wdutch")
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert builder.main(["--out", str(out), "--package-version", "1:2.20.19-2"]) == 0
    assert first.read_bytes() == second.read_bytes()
    head = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")[:6]
    assert head[0] == "# wordsvc word list v1" and head[2] == "# version: wdutch-1:2.20.19-2-house2"

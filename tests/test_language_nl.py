"""The Dutch lexicon (nl, OpenTaal through Debian's wdutch, with the house filter) held to real words under the nederlands ruleset.

``wordlists/nl/held.tsv`` lists words chosen by hand, not from the list:
common words and inflected forms the lexicon must accept, and names,
abbreviations and non-words it must refuse (wordlists/nl/README.md). Each is
judged through the lexicon ``wordsvc build`` compiled into ``build/`` and the
language's ruleset; the solver's best play of a hand and a deal (/deal) are
checked under the same ruleset. Without the built lexicon the tests are
skipped, and under CI (``CI`` set) they fail: CI must not pass by skipping.
"""

from __future__ import annotations

import gzip
import importlib.util
import os
from pathlib import Path
from typing import NoReturn

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
LANG, RULESET = "nl", "nederlands"
FOLDER = ROOT / "wordlists" / LANG
BUILT = ROOT / "build" / "lexicons" / LANG
SOURCE = Path("/usr/share/dict/dutch")  # Debian package wdutch


def unavailable(reason: str) -> NoReturn:
    """Skip for want of the built lexicon; fail under CI, which must never pass by skipping."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so this fails rather than skips)", pytrace=False)
    pytest.skip(reason)


def held_words() -> list[tuple[str, str, str]]:
    """``(word, expected, note)`` rows of held.tsv; ``expected`` is ``accept`` or ``refuse``."""
    rows = []
    for line in (FOLDER / "held.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, expected, note = line.split("\t")
            rows.append((word, expected, note))
    return rows


HELD = held_words()


@pytest.fixture(scope="module")
def service():  # type: ignore[no-untyped-def]
    from wordsvc.data.languages import Languages
    from wordsvc.data.rulesets import load_rulesets
    from wordsvc.service import Service

    if not (BUILT / "meta.json").is_file():
        unavailable(f"the {LANG} lexicon is not built; run `wordsvc build --only {LANG}`")
    return Service(load_rulesets(), Languages.load(ROOT / "build", (LANG,)))


def test_the_held_list_has_100_words_to_accept_and_50_to_refuse_each_once():
    expected = [row[1] for row in HELD]
    assert set(expected) == {"accept", "refuse"}
    assert expected.count("accept") >= 100 and expected.count("refuse") >= 50
    words = [row[0] for row in HELD]
    assert len(words) == len(set(words))
    assert all(note.strip() for _, _, note in HELD)


@pytest.mark.parametrize(("word", "expected", "note"), HELD, ids=[row[0] for row in HELD])
def test_each_held_word_is_accepted_or_refused_as_held(service, word, expected, note):
    verdict = judge(word, service.ruleset(RULESET), service.languages.get(LANG))
    assert verdict.valid == (expected == "accept"), (word, note, verdict.to_dict())


def test_names_and_abbreviations_are_refused_by_their_class_and_accents_are_laid_with_plain_cards(service):
    """Amsterdam and btw are entries of OpenTaal; the filter's classes make the verdict say why each is refused."""
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    for word, cls in (("Amsterdam", "proper_noun"), ("btw", "abbreviation"), ("ANWB", "abbreviation")):
        assert [(r.code, r.params.get("class")) for r in judge(word, ruleset, lexicon).reasons] == [("banned_class", cls)], word
    assert judge("IDEEEN", ruleset, lexicon).valid and judge("ideeën", ruleset, lexicon).valid


def test_the_solvers_best_play_of_a_hand_is_made_of_accepted_words(service):
    from wordsvc.service.solvers import Solvers

    if not (BUILT / "anagrams.json").is_file():
        unavailable(f"the {LANG} anagram index is not built; run `wordsvc build --only {LANG}`")
    ruleset, lexicon = service.ruleset(RULESET), service.languages.get(LANG)
    best = Solvers.from_data_dir(service, ROOT / "build").solve(["H", "U", "I", "S", "E", "N", "R", "T"], RULESET).best
    assert best.score > 0 and best.words
    assert all(judge(word.word, ruleset, lexicon).valid for word in best.words)


def test_a_deal_under_the_ruleset_comes_from_the_dutch_deck(service):
    from wordsvc.web.app import create_app

    response = create_app(service=service).test_client().get("/deal", query_string={"ruleset": RULESET, "players": 4, "round": 1, "seed": "0" * 64})
    assert response.status_code == 200, response.get_json()
    dealt = response.get_json()
    faces = {face.upper() for face in service.ruleset(RULESET).deck.cards}
    assert dealt["ruleset"] == RULESET and len(dealt["hands"]) == 4
    assert all(len(hand) == 3 for hand in dealt["hands"])  # round 1 deals 3 cards
    assert {card for hand in dealt["hands"] for card in hand} <= faces


@pytest.mark.skipif(not SOURCE.is_file(), reason="Debian's wdutch is not installed")
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path):
    spec = importlib.util.spec_from_file_location("build_wdutch", FOLDER / "build_wdutch.py")
    assert spec and spec.loader
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert builder.main(["--out", str(out), "--package-version", "1:2.20.19-2"]) == 0
    assert first.read_bytes() == second.read_bytes()
    head = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")[:6]
    assert head[0] == "# wordsvc word list v1" and head[2] == "# version: wdutch-1:2.20.19-2-house2"

"""Every lexicon with a ``held.tsv`` held to it, under the ruleset its manifest names (docs/languages.md, step 7).

``wordlists/<folder>/held.tsv`` lists words chosen by hand, not from the
lexicon's source: common words and inflected forms it must accept, names,
abbreviations and non-words it must refuse, and ``gap`` rows, refusals the
filter is known to miss (held as accepted, so a better filter shows). Each is
judged as a player types it (accents and all) through the lexicon ``wordsvc
build`` compiled into ``build/``. The solver's best play of a seeded hand and
a deal (/deal) are checked under the same ruleset. Without a built lexicon
these skip; under CI they fail. What a language's filter does on its builder
alone is tested in ``tests/test_language_<id>.py``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from wordsvc.core.verdict import judge
from wordsvc.data.languages import LANGUAGES, Language

ROOT = Path(__file__).resolve().parents[1]
BUILT = ROOT / "build" / "lexicons"


def held_path(lang: Language) -> Path:
    return ROOT / "wordlists" / (lang.builder or lang.wordlist or "").split("/")[0] / "held.tsv"


HELD_LANGUAGES = [lang for lang in LANGUAGES if lang.builder and held_path(lang).is_file()]


def held_words(lang: Language) -> list[tuple[str, str, str]]:
    """``(word, expected, note)`` rows; ``expected`` is ``accept``, ``refuse`` or ``gap``."""
    rows = []
    for line in held_path(lang).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            word, expected, note = line.split("\t")
            rows.append((word, expected, note))
    return rows


HELD = [(lang, *row) for lang in HELD_LANGUAGES for row in held_words(lang)]
EXAMPLED = [lang for lang in LANGUAGES if lang.double_examples]
#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = tuple(dict.fromkeys(lang.id for lang in HELD_LANGUAGES + EXAMPLED))


def test_every_lexicon_built_from_a_debian_list_is_held_to_words() -> None:
    assert {lang.id for lang in HELD_LANGUAGES} == {lang.id for lang in LANGUAGES if lang.package and lang.builder}


@pytest.mark.parametrize("lang", HELD_LANGUAGES, ids=lambda lang: lang.id)
def test_the_held_list_has_100_words_to_accept_and_50_to_refuse_each_once_with_a_note(lang: Language) -> None:
    rows = held_words(lang)
    expected = [row[1] for row in rows]
    assert set(expected) <= {"accept", "refuse", "gap"}
    assert expected.count("accept") >= 100 and expected.count("refuse") >= 50
    words = [row[0] for row in rows]
    assert len(words) == len(set(words)) and all(note.strip() for _, _, note in rows)


@pytest.mark.parametrize(("lang", "word", "expected", "note"), HELD, ids=[f"{row[0].id}-{row[1]}" for row in HELD])
def test_each_held_word_is_accepted_or_refused_as_held(service: Any, lang: Language, word: str, expected: str, note: str) -> None:
    verdict = judge(word, service.ruleset(lang.ruleset), service.languages.get(lang.id))
    assert verdict.valid == (expected in ("accept", "gap")), (word, note, verdict.to_dict())


@pytest.mark.parametrize("lang", HELD_LANGUAGES, ids=lambda lang: lang.id)
def test_the_solvers_best_play_of_a_seeded_hand_is_made_of_accepted_words(service: Any, lang: Language, unavailable_tool: Any) -> None:
    from wordsvc.service.solvers import Solvers

    if not (BUILT / lang.id / "anagrams.json").is_file():
        unavailable_tool("Lexicon", f"the {lang.id} anagram index is not built")
    ruleset, lexicon = service.ruleset(lang.ruleset), service.languages.get(lang.id)
    cards = [face.upper() for face, card in ruleset.deck.cards.items() for _ in range(card.count)]
    hand = random.Random(5).sample(cards, 10)
    best = Solvers.from_data_dir(service, ROOT / "build").solve(hand, lang.ruleset, lang.id, discard=True).best
    assert best.score > 0 and best.words, hand
    assert all(judge(word.word, ruleset, lexicon).valid for word in best.words)


@pytest.mark.parametrize("lang", HELD_LANGUAGES, ids=lambda lang: lang.id)
def test_a_deal_under_the_ruleset_comes_from_the_languages_deck(service: Any, lang: Language) -> None:
    from wordsvc.web.app import create_app

    response = create_app(service=service).test_client().get("/deal", query_string={"ruleset": lang.ruleset, "players": 4, "round": 1, "seed": "0" * 64})
    assert response.status_code == 200, response.get_json()
    dealt = response.get_json()
    faces = {face.upper() for face in service.ruleset(lang.ruleset).deck.cards}
    assert dealt["ruleset"] == lang.ruleset and len(dealt["hands"]) == 4
    assert all(len(hand) == 3 for hand in dealt["hands"])  # round 1 deals 3 cards
    assert {card for hand in dealt["hands"] for card in hand} <= faces


def test_every_language_with_a_deck_of_its_own_names_examples_of_its_double_cards() -> None:
    assert {lang.id for lang in LANGUAGES if lang.deck} <= {lang.id for lang in EXAMPLED}


@pytest.mark.parametrize("lang", EXAMPLED, ids=lambda lang: lang.id)
def test_the_kiosks_examples_of_double_cards_are_words_laid_with_a_card_of_the_languages_deck(service: Any, lang: Language) -> None:
    """The kiosk's hint shows the first example whose card the table's deck has (judge.js): each must be a word the
    table accepts, laid as written, and the language's own deck must have every example's double card."""
    ruleset, lexicon = service.ruleset(lang.ruleset), service.languages.get(lang.id)
    doubles = {face.lower() for face in ruleset.deck.cards if len(face) > 1}
    for example in lang.double_examples:
        assert example[example.index("(") + 1 : example.index(")")] in doubles, (example, sorted(doubles))
        verdict = judge(example, ruleset, lexicon)
        assert verdict.valid, (example, verdict.to_dict())

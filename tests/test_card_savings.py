"""Counting multi-letter card savings in bulk gives, word for word, what counting each word gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.data.card_savings import card_savings, card_savings_of
from wordsvc.data.rulesets import load_rulesets

#: The multi-letter faces of every shipped deck, at the most copies any holds (as the anagram index is built).
SHIPPED = {face: card.count for ruleset in load_rulesets() for face, card in ruleset.deck.cards.items() if len(face) > 1}


def test_a_word_saves_a_card_per_counted_place_of_a_two_letter_face():
    assert card_savings_of("inquiring", {"in": 2, "qu": 2}) == 3
    assert card_savings_of("inquiring", {"in": 1, "qu": 2}) == 2  # as many INs as the deck holds
    assert card_savings_of("nnn", {"nn": 2}) == 1  # str.count: places of one face never overlap
    assert card_savings_of("sch", {"sch": 1}) == 2  # a three-letter face saves two cards


def test_bulk_counts_match_word_by_word_on_the_shipped_faces():
    rng = random.Random(7)
    letters = [*sorted({ch for face in SHIPPED for ch in face}), "é", "ð", "š"]
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 24))) for _ in range(20_000)]
    assert card_savings(words, SHIPPED) == [card_savings_of(word, SHIPPED) for word in words]


@pytest.mark.parametrize(
    "faces",
    [
        {"nn": 1, "nnn": 2},  # a face holding another's first two letters: counted word by word
        {"ab": 1, "bab": 3},
        {"sch": 2, "ch": 1},
        {"aa": 5},
        {"a\n": 1},
    ],
)
def test_faces_the_bulk_count_cannot_take_are_counted_word_by_word(faces):
    rng = random.Random(11)
    words = ["".join(rng.choice("abnsch") for _ in range(rng.randint(0, 12))) for _ in range(5_000)]
    assert card_savings(words, faces) == [card_savings_of(word, faces) for word in words]


def test_words_holding_a_newline_or_a_mark_are_counted_word_by_word():
    words = ["in\nqu", "in\x01qu", "inquiring", ""]
    assert card_savings(words, {"in": 2, "qu": 2}) == [2, 2, 3, 0]


def test_no_words_and_no_faces():
    assert card_savings([], {"qu": 1}) == []
    assert card_savings(["quiz"], {}) == [0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="qunierstha\u00e9", max_size=20), max_size=50))
def test_bulk_counts_match_word_by_word_on_any_words(words):
    faces = {"qu": 2, "in": 1, "er": 2, "th": 1, "st": 2, "se": 2, "nn": 2}
    assert card_savings(words, faces) == [card_savings_of(word, faces) for word in words]

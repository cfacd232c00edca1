from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.core.text import fold_diacritics, has_invalid_characters, normalize


def test_normalize_makes_composed_and_decomposed_forms_the_same_key():
    composed = unicodedata.normalize("NFC", "café")
    decomposed = unicodedata.normalize("NFD", "café")
    assert composed != decomposed
    assert normalize(composed) == normalize(decomposed) == "café"
    assert unicodedata.is_normalized("NFC", normalize(decomposed))


@pytest.mark.parametrize("text", ["QUIZ", "Quiz", "qUiZ", "quiz"])
def test_normalize_folds_case(text):
    assert normalize(text) == "quiz"


def test_normalize_folds_case_of_accented_capitals():
    assert normalize("CAFÉ") == normalize("Cafe\u0301") == "café"


def test_normalize_turns_the_typographic_apostrophe_into_the_ascii_one():
    assert normalize("Don\u2019t") == "don't"
    assert normalize("don't") == "don't"


def test_normalize_is_idempotent():
    for text in ["Café", "ÉTUDE", "Don\u2019t", "Straße", "ǰ", "ＱＵＩＺ", "oﬃce", "⒜", "İ"]:
        once = normalize(text)
        assert normalize(once) == once


@pytest.mark.parametrize(
    ("text", "letters"),
    [("ﬁsh", "fish"), ("oﬃce", "office"), ("ｑｕｉｚ", "quiz"), ("ＱＵＩＺ", "quiz"), ("baß", "bass"), ("BAẞ", "bass"),
     ("ªt", "at"), ("ⓐt", "at"), ("ⅰt", "it"), ("Ⅻ", "xii"), ("ſee", "see"), ("Ǆ", "dž"), ("ĳs", "ijs"), ("don＇t", "don't"), ("co－op", "co-op")],
)  # fmt: skip
def test_normalize_folds_compatibility_characters_that_stand_for_letters(text, letters):
    assert normalize(text) == letters


@pytest.mark.parametrize("text", ["⒜", "⑴", "½", "？", "（", "０", "\u00a0", "\u3000"])
def test_normalize_keeps_compatibility_characters_that_do_not_stand_for_letters_and_they_are_invalid(text):
    # ⒜ is "(a)" and ？ is "?" under NFKC: folded, they would be card notation or a wildcard.
    assert normalize(text) == text
    assert has_invalid_characters(normalize(f"a{text}b"))


def test_a_letter_whose_compatibility_form_is_not_letters_is_invalid():
    assert normalize("\u0140") == "l\u00b7"  # ŀ: l and a middle dot
    assert has_invalid_characters(normalize("co\u0140a"))


def test_fold_diacritics_drops_combining_marks():
    assert fold_diacritics("café") == "cafe"
    assert fold_diacritics("précis") == "precis"
    assert fold_diacritics("naïve") == "naive"


def test_fold_diacritics_keeps_letters_that_are_not_a_base_letter_plus_marks():
    assert fold_diacritics("ðþæ") == "ðþæ"


def test_fold_diacritics_leaves_plain_letters_alone():
    assert fold_diacritics("quiz") == "quiz"


@pytest.mark.parametrize("word", ["quiz", "café", "don't", "co-op", "þú", "e\u0301"])
def test_letters_apostrophes_and_hyphens_are_valid_characters(word):
    assert not has_invalid_characters(normalize(word))


@pytest.mark.parametrize("word", ["qu1z", "two words", "a\x00b", "quiz!", "a.b", "a_b", ""])
def test_digits_spaces_punctuation_and_empty_are_invalid_characters(word):
    assert has_invalid_characters(normalize(word))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAeEßẞǰJĲĳ\u0301\u0308\u030c\u0345ΣσςΐﬁﬃÅÅKK\u2019'ÞþÐðÖöõÕšŠｑＱªⓐⒶⅰⅫǅǄſİ\u1d57"), max_size=8))
def test_normalize_is_nfkc_of_the_case_folded_nfkc_text_for_letters(text):
    # NFKC_Casefold (UAX #44) without its removal of ignorables: exact when every
    # compatibility character stands for letters, as in this alphabet.
    expected = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold()).replace("\u2019", "'")
    assert normalize(text) == expected


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aßﬁｑ⒜½？（０\u00a0ŀ\u0301"), max_size=6))
def test_normalize_is_idempotent_whatever_the_characters(text):
    once = normalize(text)
    assert normalize(once) == once

from __future__ import annotations

import dataclasses

import pytest

from wordsvc.core.verdict import REASON_CODES, judge, judge_cards


def codes(verdict):
    return [reason.code for reason in verdict.reasons]


@pytest.fixture(scope="module")
def letters_minimum(rulesets):
    return rulesets.get("letters-minimum")


def test_a_word_in_the_lexicon_is_valid_with_its_spellings_best_first(standard, lexicon):
    verdict = judge("Quiz", standard, lexicon)
    assert verdict.valid
    assert verdict.normalized == "quiz"
    assert [(s.cards, s.points) for s in verdict.spellings] == [(("q", "u", "i", "z"), 35), (("qu", "i", "z"), 25)]


def test_unknown_word_is_not_in_lexicon(standard, lexicon):
    verdict = judge("zorp", standard, lexicon)
    assert codes(verdict) == ["not_in_lexicon"]
    assert not verdict.valid


def test_proper_noun_is_a_banned_class_naming_the_class(standard, lexicon):
    verdict = judge("Steve", standard, lexicon)
    assert codes(verdict) == ["banned_class"]
    assert verdict.reasons[0].to_dict()["class"] == "proper_noun"
    assert verdict.classes == ["proper_noun"]


def test_abbreviation_is_a_banned_class(standard, lexicon):
    verdict = judge("USA", standard, lexicon)
    assert [r.to_dict()["class"] for r in verdict.reasons] == ["abbreviation"]


def test_a_form_of_two_banned_classes_names_both(standard, lexicon):
    verdict = judge("John's", standard, lexicon)
    assert {r.to_dict()["class"] for r in verdict.reasons if r.code == "banned_class"} == {"possessive", "proper_noun"}


def test_contraction_with_a_typographic_apostrophe_is_found_and_banned(standard, lexicon):
    verdict = judge("don\u2019t", standard, lexicon)
    assert verdict.normalized == "don't"
    assert "banned_class" in codes(verdict)
    assert [r.to_dict()["class"] for r in verdict.reasons if r.code == "banned_class"] == ["contraction"]


def test_a_form_with_an_ordinary_and_a_proper_noun_reading_is_valid(standard, lexicon):
    verdict = judge("Derby", standard, lexicon)
    assert verdict.valid
    assert verdict.classes == ["proper_noun"]


def test_house_refused_word(standard, lexicon):
    ruleset = dataclasses.replace(standard, house_refuse=frozenset({"quiz"}))
    verdict = judge("quiz", ruleset, lexicon)
    assert codes(verdict) == ["house_refused"]


def test_house_allowed_word_is_valid_though_not_in_the_lexicon(standard, lexicon):
    ruleset = dataclasses.replace(standard, house_allow=frozenset({"zorp"}))
    assert judge("zorp", ruleset, lexicon).valid
    assert codes(judge("zorp", standard, lexicon)) == ["not_in_lexicon"]


def test_house_allowed_word_is_valid_though_of_a_banned_class(standard, lexicon):
    ruleset = dataclasses.replace(standard, house_allow=frozenset({"steve"}))
    assert judge("Steve", ruleset, lexicon).valid


def test_a_single_card_word_is_too_short_under_the_standard_two_card_minimum(standard, lexicon):
    assert codes(judge("a", standard, lexicon)) == ["too_short"]


def test_pizzazz_is_not_spellable_with_two_z_cards(standard, lexicon):
    verdict = judge("pizzazz", standard, lexicon)
    assert codes(verdict) == ["not_spellable"]
    assert verdict.spellings == ()


def test_a_letter_no_card_has_is_not_spellable(standard, plain_lexicon):
    verdict = judge("café", standard, plain_lexicon)
    assert codes(verdict) == ["not_spellable"]
    assert "É" in verdict.reasons[0].to_dict()["message"]


def test_a_compact_word_with_an_unknown_card_is_not_spellable(standard, lexicon):
    verdict = judge("(to)p", standard, lexicon)
    assert codes(verdict) == ["not_spellable"]
    assert "TO" in verdict.reasons[0].to_dict()["message"]


@pytest.mark.parametrize("word", ["qu1z", "two words", "quiz!", "", "(qu"])
def test_invalid_characters(standard, lexicon, word):
    assert codes(judge(word, standard, lexicon)) == ["invalid_characters"]


def test_a_word_needing_more_cards_than_the_largest_hand_is_too_long(standard, lexicon):
    verdict = judge("incomprehensible", standard, lexicon)
    assert codes(verdict) == ["too_long"]
    # Of its two layings (16 single cards, or the IN card and 14) it shows the one with the fewest cards.
    assert [(s.cards, s.points) for s in verdict.spellings] == [(("in", *"comprehensible"), 67)]


def test_absurdly_long_input_is_too_long_before_any_lookup(standard, lexicon):
    verdict = judge("a" * 1000, standard, lexicon)
    assert codes(verdict) == ["too_long"]
    assert len(verdict.normalized) == 1000


def test_every_reason_code_is_known():
    assert set(REASON_CODES) == {
        "not_in_lexicon", "banned_class", "house_refused", "too_short", "not_spellable", "invalid_characters", "too_long",
    }  # fmt: skip


# ---- diacritics and the deck


def test_cafe_is_laid_c_a_f_e_under_a_folding_lexicon(standard, lexicon):
    verdict = judge("café", standard, lexicon)
    assert verdict.valid
    assert verdict.normalized == "café"
    assert [(s.cards, s.points) for s in verdict.spellings] == [(("c", "a", "f", "e"), 18)]


def test_cafe_is_not_laid_under_a_lexicon_that_does_not_fold(standard, plain_lexicon):
    verdict = judge("café", standard, plain_lexicon)
    assert not verdict.valid
    assert codes(verdict) == ["not_spellable"]


def test_cafe_cards_c_a_f_e_count_as_cafe_under_a_folding_lexicon(standard, lexicon):
    # RULES.md / issue 2: words with diacritics in the English source (café) are laid with the
    # plain letters of the deck, so the laying C-A-F-E is the word café.
    verdict = judge_cards(["c", "a", "f", "e"], standard, lexicon)
    assert verdict.valid, [r.to_dict() for r in verdict.reasons]


def test_cafe_cards_c_a_f_e_are_not_cafe_under_a_lexicon_that_does_not_fold(standard, plain_lexicon):
    assert not judge_cards(["c", "a", "f", "e"], standard, plain_lexicon).valid


# ---- minimum size: cards or letters


def test_a_lone_in_card_is_too_short_under_standard(standard, lexicon):
    assert codes(judge("(in)", standard, lexicon)) == ["too_short"]


def test_a_lone_in_card_is_a_word_under_letters_minimum(letters_minimum, lexicon):
    verdict = judge("(in)", letters_minimum, lexicon)
    assert verdict.valid
    assert [(s.cards, s.points) for s in verdict.spellings] == [(("in",), 7)]


def test_plain_in_is_laid_only_as_two_cards_under_standard(standard, lexicon):
    verdict = judge("in", standard, lexicon)
    assert verdict.valid
    assert [s.cards for s in verdict.spellings] == [("i", "n")]


def test_plain_in_may_be_laid_as_the_in_card_under_letters_minimum(letters_minimum, lexicon):
    verdict = judge("in", letters_minimum, lexicon)
    assert {s.cards for s in verdict.spellings} == {("i", "n"), ("in",)}


def test_a_single_letter_is_too_short_under_letters_minimum(letters_minimum, lexicon):
    assert codes(judge("a", letters_minimum, lexicon)) == ["too_short"]


def test_judge_cards_judges_one_laying(standard, lexicon):
    verdict = judge_cards(["QU", "I", "Z"], standard, lexicon)
    assert verdict.valid
    assert [(s.cards, s.points) for s in verdict.spellings] == [(("qu", "i", "z"), 25)]


def test_judge_cards_with_more_copies_than_the_deck_holds_is_not_spellable(standard, lexicon):
    assert codes(judge_cards(list("pizzazz"), standard, lexicon)) == ["not_spellable"]


def test_judge_cards_with_more_cards_than_the_largest_hand_is_too_long(standard, lexicon):
    assert codes(judge_cards(["in", *"comprehensible"], standard, lexicon)) == ["too_long"]


# ---- JSON shape (issue 2)


def test_verdict_json_has_exactly_the_fields_of_issue_2(standard, lexicon):
    data = judge("Steve", standard, lexicon).to_dict()
    assert set(data) == {"word", "normalized", "lang", "ruleset", "valid", "reasons", "classes", "spellings", "lexicon"}
    assert data["word"] == "Steve"
    assert data["normalized"] == "steve"
    assert data["lang"] == "en-US"
    assert data["ruleset"] == "standard"
    assert data["valid"] is False
    assert data["lexicon"] == {"id": "test-en", "version": "1", "sha256": "0" * 64}
    assert set(data["reasons"][0]) == {"code", "message", "class"}
    assert data["reasons"][0]["code"] == "banned_class"
    assert data["reasons"][0]["class"] == "proper_noun"
    assert isinstance(data["reasons"][0]["message"], str) and data["reasons"][0]["message"]
    assert data["classes"] == ["proper_noun"]
    assert data["spellings"][0] == {"cards": ["S", "T", "E", "V", "E"], "points": 21}


def test_a_reason_without_a_class_has_no_class_field(standard, lexicon):
    reason = judge("zorp", standard, lexicon).to_dict()["reasons"][0]
    assert set(reason) == {"code", "message"}
    assert reason["message"] == "'zorp' is not in the test-en lexicon."


def test_verdict_json_lists_spellings_best_first_with_upper_case_cards(standard, lexicon):
    data = judge("inquiring", standard, lexicon).to_dict()
    assert data["valid"] is True and data["reasons"] == []
    points = [s["points"] for s in data["spellings"]]
    assert points == sorted(points, reverse=True)
    assert points[0] == 46 and points[-1] == 36
    assert ["IN", "QU", "I", "R", "IN", "G"] in [s["cards"] for s in data["spellings"]]

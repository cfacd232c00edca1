"""GET /validate (one word) and POST /validate (many words, and the referee's judge mode)."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
import requests

from .contract import assert_problem, media_type

VERDICT_KEYS = {"word", "normalized", "lang", "ruleset", "valid", "reasons", "classes", "spellings", "lexicon"}
JUDGE_KEYS = {"acceptable", "count", "ruleset", "lexicon"}


def get_verdict(base_url: str, word: str, **params: str) -> dict[str, Any]:
    response = requests.get(f"{base_url}/validate", params={"word": word, **params}, timeout=30)
    assert response.status_code == 200, response.text
    assert media_type(response) == "application/json"
    body = response.json()
    # GET adds suggestions to a refused word's verdict, unless suggest=false
    expected = VERDICT_KEYS | ({"suggestions"} if not body["valid"] and params.get("suggest") != "false" else set())
    assert set(body) == expected
    return body


def post_validate(base_url: str, body: Any) -> requests.Response:
    return requests.post(f"{base_url}/validate", json=body, timeout=30)


def codes(verdict: dict[str, Any]) -> list[str]:
    return [reason["code"] for reason in verdict["reasons"]]


# ---- GET /validate


def test_a_dictionary_word_is_valid_with_every_way_to_lay_it(base_url: str) -> None:
    verdict = get_verdict(base_url, "quiz")
    assert verdict["valid"] is True and verdict["reasons"] == []
    assert verdict["ruleset"] == "standard" and verdict["lang"] == "en-US"
    spellings = {tuple(s["cards"]): s["points"] for s in verdict["spellings"]}
    assert spellings == {("QU", "I", "Z"): 25, ("Q", "U", "I", "Z"): 35}  # RULES.md: QUIZ 25 with the QU card, 35 without
    assert [s["points"] for s in verdict["spellings"]] == sorted(spellings.values(), reverse=True)
    assert set(verdict["lexicon"]) == {"id", "version", "sha256"}


def test_inquiring_can_be_laid_eight_ways_for_36_or_46_points(base_url: str) -> None:
    verdict = get_verdict(base_url, "inquiring")
    assert verdict["valid"]
    assert len(verdict["spellings"]) == 8
    assert {s["points"] for s in verdict["spellings"]} == {36, 46}


def test_compact_notation_judges_one_laying(base_url: str) -> None:
    verdict = get_verdict(base_url, "(qu)iz")
    assert verdict["valid"]
    assert verdict["normalized"] == "quiz"
    assert verdict["spellings"] == [{"cards": ["QU", "I", "Z"], "points": 25}]


def test_clown_with_the_cl_card_is_27_points(base_url: str) -> None:
    verdict = get_verdict(base_url, "(cl)own")
    assert verdict["valid"] and verdict["spellings"] == [{"cards": ["CL", "O", "W", "N"], "points": 27}]


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("xqzt", "not_in_lexicon"),
        ("steve", "banned_class"),  # a proper noun (RULES.md: STEVE, challenged)
        ("a", "too_short"),  # one card; standard needs 2
        ("(in)", "too_short"),  # a lone IN card is 2 letters but 1 card
        ("pizzazz", "not_spellable"),  # four Zs; the deck has two
        ("qu1z", "invalid_characters"),
        ("two words", "invalid_characters"),
    ],
)
def test_a_word_that_cannot_be_played_says_why_with_a_stable_code(base_url: str, word: str, code: str) -> None:
    verdict = get_verdict(base_url, word)
    assert verdict["valid"] is False
    assert code in codes(verdict)
    assert all(reason["message"] for reason in verdict["reasons"])


def test_banned_class_reason_names_the_class(base_url: str) -> None:
    verdict = get_verdict(base_url, "steve")
    reason = next(r for r in verdict["reasons"] if r["code"] == "banned_class")
    assert reason["class"] == "proper_noun"


def test_a_lone_in_card_is_a_word_under_the_letters_minimum_ruleset(base_url: str) -> None:
    verdict = get_verdict(base_url, "(in)", ruleset="letters-minimum")
    assert verdict["valid"] is True and verdict["ruleset"] == "letters-minimum"


def test_lang_selects_the_lexicon(base_url: str) -> None:
    assert get_verdict(base_url, "colour", lang="en-GB")["valid"] is True
    american = get_verdict(base_url, "colour", lang="en-US")
    assert american["valid"] is False and codes(american) == ["not_in_lexicon"]
    assert get_verdict(base_url, "colour", lang="en-GB")["lexicon"]["id"] == "en-GB"


def test_default_lexicon_is_the_rulesets_language(base_url: str) -> None:
    assert get_verdict(base_url, "color")["lang"] == "en-US"


@pytest.mark.parametrize("word", ["café", "CAFÉ", "Café"])
def test_nfc_and_nfd_spellings_get_the_same_verdict(base_url: str, word: str) -> None:
    nfc, nfd = unicodedata.normalize("NFC", word), unicodedata.normalize("NFD", word)
    assert nfc != nfd
    composed, decomposed = get_verdict(base_url, nfc), get_verdict(base_url, nfd)
    assert composed["word"] == nfc and decomposed["word"] == nfd  # echoed as sent
    assert composed["normalized"] == decomposed["normalized"] == "café"  # judged as NFC, case-folded
    for key in ("valid", "reasons", "classes", "spellings"):
        assert composed[key] == decomposed[key], key
    assert composed["valid"] is True
    assert composed["spellings"] == [{"cards": ["C", "A", "F", "E"], "points": 18}]


def test_unknown_language_is_404_listing_the_supported_ones(base_url: str) -> None:
    body = assert_problem(requests.get(f"{base_url}/validate", params={"word": "cat", "lang": "tlh"}, timeout=30), 404)
    assert "en-US" in body["detail"] and "en-GB" in body["detail"]
    assert "lang" in body["errors"]


def test_unknown_ruleset_is_404_not_a_silent_fallback(base_url: str) -> None:
    body = assert_problem(requests.get(f"{base_url}/validate", params={"word": "cat", "ruleset": "house"}, timeout=30), 404)
    assert "standard" in body["detail"] and "challenge" in body["detail"]
    assert "ruleset" in body["errors"]


def test_missing_word_is_422_naming_the_field(base_url: str) -> None:
    body = assert_problem(requests.get(f"{base_url}/validate", timeout=30), 422)
    assert set(body["errors"]) == {"word"}


# ---- POST /validate


def test_many_words_get_verdicts_in_request_order(base_url: str) -> None:
    words = ["top", "xqzt", "café", ["QU", "I", "Z"], "(cl)own"]
    response = post_validate(base_url, {"words": words})
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"valid", "verdicts"}
    assert body["valid"] is False  # xqzt
    verdicts = body["verdicts"]
    assert [v["normalized"] for v in verdicts] == ["top", "xqzt", "café", "quiz", "clown"]
    assert [v["valid"] for v in verdicts] == [True, False, True, True, True]
    assert verdicts[0]["word"] == "top" and verdicts[2]["word"] == "café"
    assert verdicts[3]["spellings"] == [{"cards": ["QU", "I", "Z"], "points": 25}]  # a card list is judged as that laying
    assert all(set(v) == VERDICT_KEYS for v in verdicts)


def test_all_valid_words_make_the_whole_answer_valid(base_url: str) -> None:
    body = post_validate(base_url, {"words": ["cloth", "mung", "piny"]}).json()
    assert body["valid"] is True


def test_post_validate_honours_ruleset_and_lang(base_url: str) -> None:
    body = post_validate(base_url, {"words": ["colour", "(in)"], "ruleset": "letters-minimum", "lang": "en-GB"}).json()
    assert body["valid"] is True
    assert {v["ruleset"] for v in body["verdicts"]} == {"letters-minimum"}
    assert {v["lang"] for v in body["verdicts"]} == {"en-GB"}


def test_nfc_and_nfd_in_one_request_get_the_same_verdict(base_url: str) -> None:
    nfc, nfd = "café", unicodedata.normalize("NFD", "café")
    first, second = post_validate(base_url, {"words": [nfc, nfd]}).json()["verdicts"]
    assert (first["word"], second["word"]) == (nfc, nfd)
    assert first["normalized"] == second["normalized"] == nfc
    assert first["valid"] == second["valid"] is True


def test_judge_mode_answers_only_whether_the_play_is_acceptable(base_url: str) -> None:
    response = post_validate(base_url, {"words": ["cloth", "mung", "piny"], "judge": True})
    assert response.status_code == 200
    body = response.json()
    assert set(body) == JUDGE_KEYS
    assert body["acceptable"] is True and body["count"] == 3 and body["ruleset"] == "standard"
    assert body["lexicon"]["id"] == "en-US"


def test_judge_mode_never_reveals_which_word_failed(base_url: str) -> None:
    plays = [["xqzt", "cloth", "mung"], ["cloth", "xqzt", "mung"], ["cloth", "mung", "steve"]]
    answers = [post_validate(base_url, {"words": words, "judge": True}) for words in plays]
    for response in answers:
        assert response.status_code == 200
        body = response.json()
        assert set(body) == JUDGE_KEYS
        assert body["acceptable"] is False and body["count"] == 3
        for secret in ("xqzt", "steve", "verdicts", "reasons", "index"):
            assert secret not in response.text
    assert answers[0].content == answers[1].content == answers[2].content  # byte for byte: nothing depends on the position


def test_judge_mode_accepts_100_words_and_refuses_101(base_url: str) -> None:
    hundred = post_validate(base_url, {"words": ["top"] * 100, "judge": True})
    assert hundred.status_code == 200 and hundred.json()["count"] == 100
    body = assert_problem(post_validate(base_url, {"words": ["top"] * 101, "judge": True}), 422)
    assert set(body["errors"]) == {"words"}


def test_plain_mode_is_also_limited_to_100_words(base_url: str) -> None:
    assert post_validate(base_url, {"words": ["top"] * 100}).status_code == 200
    assert_problem(post_validate(base_url, {"words": ["top"] * 101}), 422)


def test_an_empty_word_list_is_422(base_url: str) -> None:
    body = assert_problem(post_validate(base_url, {"words": []}), 422)
    assert set(body["errors"]) == {"words"}


def test_post_validate_unknown_language_is_404(base_url: str) -> None:
    body = assert_problem(post_validate(base_url, {"words": ["cat"], "lang": "xx-YY"}), 404)
    assert "en-US" in body["detail"]


def test_post_validate_unknown_ruleset_is_404(base_url: str) -> None:
    body = assert_problem(post_validate(base_url, {"words": ["cat"], "ruleset": "nope", "judge": True}), 404)
    assert "standard" in body["detail"]


@pytest.mark.parametrize(("how", "locale"), [("query", "et"), ("query", "is"), ("header", "et"), ("header", "is")])
def test_messages_follow_the_locale_but_reason_codes_never_change(base_url: str, how: str, locale: str) -> None:
    english = get_verdict(base_url, "xqzt")
    if how == "query":
        response = requests.get(f"{base_url}/validate", params={"word": "xqzt", "locale": locale}, timeout=30)
    else:
        response = requests.get(f"{base_url}/validate", params={"word": "xqzt"}, headers={"Accept-Language": f"de;q=0.9, {locale};q=0.8, en;q=0.1"}, timeout=30)
    translated = response.json()
    assert codes(translated) == codes(english) == ["not_in_lexicon"]
    assert translated["reasons"][0]["message"] != english["reasons"][0]["message"]


def test_problem_titles_follow_the_locale(base_url: str) -> None:
    english = assert_problem(requests.get(f"{base_url}/rulesets/nope", timeout=30), 404)
    icelandic = assert_problem(requests.get(f"{base_url}/rulesets/nope", headers={"Accept-Language": "is"}, timeout=30), 404)
    assert icelandic["title"] != english["title"]
    assert icelandic["type"] == english["type"]


def test_an_unknown_locale_falls_back_to_english_messages(base_url: str) -> None:
    english = get_verdict(base_url, "xqzt")
    other = get_verdict(base_url, "xqzt", locale="tlh")
    assert other["reasons"] == english["reasons"]


def test_a_refused_word_gets_playable_suggestions_unless_asked_not_to(base_url: str) -> None:
    body = get_verdict(base_url, "recieve")
    words = [s["word"] for s in body["suggestions"]]
    assert "receive" in words
    for word in words:
        assert get_verdict(base_url, word)["valid"]
    assert "suggestions" not in get_verdict(base_url, "recieve", suggest="false")
    assert "suggestions" not in get_verdict(base_url, "receive")


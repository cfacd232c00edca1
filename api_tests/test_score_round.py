"""POST /score-round against the worked examples and knobs of RULES.md.

Card values (RULES.md): A2 B8 C8 D5 E2 F6 G6 H7 I2 J13 K8 L3 M5 N5 O2 P6 Q15
R5 S3 T3 U4 V11 W10 X12 Y4 Z14, QU9 IN7 ER7 CL10 TH9.
"""

from __future__ import annotations

from typing import Any

import pytest
import requests

from .contract import assert_problem


def score(base_url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = requests.post(f"{base_url}/score-round", json=body, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def player(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in result["players"] if p["name"] == name)


def bonus(result: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(b for b in result["bonuses"] if b["kind"] == kind)


def totals(result: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["total"] for p in result["players"]}


def test_top_is_11_and_quiz_with_the_qu_card_is_25(base_url: str) -> None:
    result = score(base_url, {"round": 1, "players": [{"name": "ann", "words": [["T", "O", "P"]]}, {"name": "bob", "words": [["QU", "I", "Z"]]}]})
    assert result["ruleset"] == "standard" and result["round"] == 1
    ann, bob = player(result, "ann"), player(result, "bob")
    assert ann["words"][0]["points"] == 11 and ann["word_points"] == 11
    assert bob["words"][0] == {
        "word": "quiz",
        "cards": ["QU", "I", "Z"],
        "letters": 4,
        "points": 25,
        "length_bonus": 0,  # no length bonus in the standard rules
        "valid": True,
        "counted": True,
        "reason": None,
        "challenged_by": None,
    }
    # QUIZ is 4 letters (QU counts 2), TOP 3: bob has the longest word; one word each ties for most words
    assert bonus(result, "longest_word")["winner"] == "bob"
    assert bonus(result, "most_words")["winners"] == [] and sorted(bonus(result, "most_words")["tied"]) == ["ann", "bob"]
    assert totals(result) == {"ann": 11, "bob": 35}


def test_quiz_with_single_letter_cards_is_35(base_url: str) -> None:
    result = score(
        base_url, {"round": 2, "players": [{"name": "ann", "words": [["Q", "U", "I", "Z"]]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A"]}]}
    )
    assert player(result, "ann")["word_points"] == 35


def test_quiz_plus_an_unused_m_is_20(base_url: str) -> None:
    # round 2 deals 4 cards: QU I Z laid, M left over (rules-et.txt)
    result = score(
        base_url,
        {"round": 2, "players": [{"name": "ann", "words": ["(qu)iz"], "unused": ["M"]}, {"name": "bob", "words": [["Q", "U", "I", "Z"]]}]},
    )
    ann = player(result, "ann")
    assert (ann["word_points"], ann["unused_points"]) == (25, 5)
    assert ann["total"] == 20  # QUIZ ties on length (4 letters) and word count: no bonus for anyone
    assert totals(result) == {"ann": 20, "bob": 35}


def test_quiddler_with_qu_and_er_is_31_and_with_single_letters_41(base_url: str) -> None:
    doubles = score(
        base_url,
        {"round": 4, "players": [{"name": "ann", "words": ["(qu)iddl(er)"]}, {"name": "bob", "words": [["T", "O", "P"], ["A", "T"]], "unused": ["E"]}]},
    )
    assert player(doubles, "ann")["words"][0]["points"] == 31
    assert player(doubles, "ann")["words"][0]["letters"] == 8
    singles = score(
        base_url,
        {"round": 6, "players": [{"name": "ann", "words": ["quiddler"]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A", "E", "I", "O", "U"]}]},
    )
    assert player(singles, "ann")["words"][0]["points"] == 41


def test_clown_is_27_points_and_5_letters_on_4_cards(base_url: str) -> None:
    result = score(base_url, {"round": 2, "players": [{"name": "ann", "words": [["CL", "O", "W", "N"]]}, {"name": "bob", "words": [["T", "O", "P", "S"]]}]})
    word = player(result, "ann")["words"][0]
    assert (word["points"], word["letters"], len(word["cards"])) == (27, 5, 4)
    assert bonus(result, "longest_word")["winner"] == "ann"  # 5 letters beats TOPS's 4: longest is counted in letters


def test_get_with_qu_left_over_scores_2(base_url: str) -> None:
    # hand T G E QU Z, only GET a word: discard Z, QU unused: 11 - 9 = 2
    result = score(
        base_url,
        {"round": 2, "players": [{"name": "ann", "words": [["G", "E", "T"]], "unused": ["QU"]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A"]}]},
    )
    ann = player(result, "ann")
    assert (ann["word_points"], ann["unused_points"], ann["bonuses"], ann["total"]) == (11, 9, [], 2)
    assert player(result, "bob")["total"] == 9


@pytest.mark.parametrize(
    "words",
    [
        [["CL", "O", "TH"], ["M", "U", "N", "G"], ["P", "IN", "Y"]],
        [["CL", "IN", "G"], ["TH", "U", "M", "P"], ["Y", "O", "N"]],
    ],
)
def test_a_full_go_out_of_ten_cards_is_58(base_url: str, words: list[list[str]]) -> None:
    result = score(
        base_url,
        {"round": 8, "players": [{"name": "ann", "words": words, "went_out": True}, {"name": "bob", "words": [["T", "O", "P"]], "unused": list("AEIOUDS")}]},
    )
    ann = player(result, "ann")
    assert ann["word_points"] == 58 and ann["unused_points"] == 0
    assert ann["went_out_valid"] is True
    assert sorted(b["kind"] for b in ann["bonuses"]) == ["longest_word", "most_words"]
    assert ann["total"] == 78
    assert player(result, "bob")["went_out_valid"] is None
    assert player(result, "bob")["total"] == 0  # 11 - 20 is negative: floored at 0


def test_an_invalid_word_counts_as_unused_cards(base_url: str) -> None:
    result = score(
        base_url, {"round": 2, "players": [{"name": "ann", "words": [["X", "Q", "Z", "T"]]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A"]}]}
    )
    ann = player(result, "ann")
    word = ann["words"][0]
    assert word["valid"] is False and word["counted"] is False and word["reason"]["code"] == "not_in_lexicon"
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (0, 44, 0)


def test_going_out_with_an_invalid_word_is_reported_not_penalised(base_url: str) -> None:
    result = score(
        base_url, {"round": 1, "players": [{"name": "ann", "words": [["X", "Q", "Z"]], "went_out": True}, {"name": "bob", "words": [["T", "O", "P"]]}]}
    )
    ann = player(result, "ann")
    assert ann["went_out_valid"] is False
    assert ann["total"] == 0 and ann["challenge_penalty"] == 0


def test_a_tie_for_longest_word_gives_no_bonus(base_url: str) -> None:
    result = score(base_url, {"round": 1, "players": [{"name": "ann", "words": [["C", "A", "T"]]}, {"name": "bob", "words": [["D", "O", "G"]]}]})
    longest = bonus(result, "longest_word")
    assert longest["winner"] is None and longest["winners"] == [] and sorted(longest["tied"]) == ["ann", "bob"]
    assert totals(result) == {"ann": 13, "bob": 13}


@pytest.mark.parametrize("order", [["ann", "bob", "cat"], ["cat", "ann", "bob"], ["ann", "cat", "bob"]])
def test_a_tie_between_two_players_does_not_block_a_third_who_beats_both(base_url: str, order: list[str]) -> None:
    plays = {"ann": [["C", "A", "T"]], "bob": [["D", "O", "G"]], "cat": [["QU", "I", "Z"]]}
    result = score(base_url, {"round": 1, "players": [{"name": name, "words": plays[name]} for name in order]})
    assert bonus(result, "longest_word")["winner"] == "cat"
    assert bonus(result, "longest_word")["winners"] == ["cat"]
    assert totals(result) == {"ann": 13, "bob": 13, "cat": 35}


def test_one_player_can_win_both_bonuses(base_url: str) -> None:
    result = score(
        base_url,
        {
            "round": 5,
            "players": [{"name": "ann", "words": [["J", "E", "W", "E", "L"], ["A", "S"]]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": list("AEIO")}],
        },
    )
    ann = player(result, "ann")
    assert sorted(b["kind"] for b in ann["bonuses"]) == ["longest_word", "most_words"]
    assert ann["total"] == 30 + 5 + 20


def test_round_total_is_floored_at_zero_in_standard(base_url: str) -> None:
    result = score(
        base_url, {"round": 2, "players": [{"name": "ann", "words": [["A", "T"]], "unused": ["Z", "Q"]}, {"name": "bob", "words": [["T", "O", "P", "S"]]}]}
    )
    ann = player(result, "ann")
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (5, 29, 0)


def test_no_floor_ruleset_lets_a_round_total_go_negative(base_url: str) -> None:
    body = {
        "ruleset": "no-floor",
        "round": 2,
        "players": [{"name": "ann", "words": [["A", "T"]], "unused": ["Z", "Q"]}, {"name": "bob", "words": [["T", "O", "P", "S"]]}],
    }
    result = score(base_url, body)
    assert result["ruleset"] == "no-floor"
    assert player(result, "ann")["total"] == 5 - 29


def test_challenged_proper_noun_costs_its_player_21(base_url: str) -> None:
    # rules-et.txt: STEVE challenged, a proper noun: the player loses 21
    body = {
        "ruleset": "no-floor",
        "round": 3,
        "players": [{"name": "ann", "words": [["S", "T", "E", "V", "E"]]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A", "N"]}],
    }
    # no-floor judges every word automatically: STEVE is simply unused cards
    assert player(score(base_url, body), "ann")["total"] == -21
    challenged = score(
        base_url,
        {**body, "ruleset": "challenge", "challenges": [{"by": "bob", "player": "ann", "word": 0}]},
    )
    ann = player(challenged, "ann")
    assert ann["words"][0]["challenged_by"] == "bob" and ann["words"][0]["counted"] is False
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (0, 21, 0)  # -21, floored at 0 by the challenge ruleset
    assert player(challenged, "bob")["challenge_penalty"] == 0


def test_an_unchallenged_word_stands_in_challenge_mode(base_url: str) -> None:
    result = score(
        base_url,
        {"ruleset": "challenge", "round": 3, "players": [{"name": "ann", "words": ["steve"]}, {"name": "bob", "words": ["top"], "unused": ["A", "N"]}]},
    )
    ann = player(result, "ann")
    assert ann["words"][0]["counted"] is True and ann["word_points"] == 21


def test_challenging_a_valid_word_costs_the_challenger_its_value(base_url: str) -> None:
    result = score(
        base_url,
        {
            "ruleset": "challenge",
            "round": 3,
            "players": [{"name": "ann", "words": [["Q", "U", "I", "Z"]], "unused": ["E"]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["A", "N"]}],
            "challenges": [{"by": "bob", "player": "ann", "word": 0}],
        },
    )
    assert player(result, "bob")["challenge_penalty"] == 35
    assert player(result, "ann")["word_points"] == 35 and player(result, "ann")["words"][0]["counted"] is True


def test_challenges_are_refused_when_every_word_is_checked_automatically(base_url: str) -> None:
    body = {
        "round": 1,
        "players": [{"name": "ann", "words": ["top"]}, {"name": "bob", "words": ["cat"]}],
        "challenges": [{"by": "bob", "player": "ann", "word": 0}],
    }
    problem = assert_problem(requests.post(f"{base_url}/score-round", json=body, timeout=30), 422)
    assert "challenges" in problem["errors"]


def test_two_player_one_bonus_ruleset_awards_only_the_chosen_bonus(base_url: str) -> None:
    play = {
        "ruleset": "two-player-one-bonus",
        "round": 2,
        "players": [{"name": "ann", "words": [["CL", "O", "W", "N"]]}, {"name": "bob", "words": [["A", "T"], ["O", "X"]]}],
    }
    longest = score(base_url, {**play, "bonus_choice": "longest_word"})
    assert [b["kind"] for b in longest["bonuses"]] == ["longest_word"]
    assert totals(longest) == {"ann": 37, "bob": 19}
    most = score(base_url, {**play, "bonus_choice": "most_words"})
    assert [b["kind"] for b in most["bonuses"]] == ["most_words"]
    assert totals(most) == {"ann": 27, "bob": 29}
    missing = assert_problem(requests.post(f"{base_url}/score-round", json=play, timeout=30), 422)
    assert "bonus_choice" in missing["errors"]


def test_standard_ruleset_gives_both_bonuses_to_two_players(base_url: str) -> None:
    result = score(base_url, {"round": 2, "players": [{"name": "ann", "words": [["CL", "O", "W", "N"]]}, {"name": "bob", "words": [["A", "T"], ["O", "X"]]}]})
    assert totals(result) == {"ann": 37, "bob": 29}


def test_a_lone_in_card_scores_only_under_the_letters_minimum_ruleset(base_url: str) -> None:
    play = {"round": 1, "players": [{"name": "ann", "words": [["IN"], ["A", "T"]]}, {"name": "bob", "words": [["T", "O", "P"]]}]}
    standard = player(score(base_url, play), "ann")
    assert standard["words"][0]["valid"] is False and standard["words"][0]["reason"]["code"] == "too_short"
    letters = player(score(base_url, {**play, "ruleset": "letters-minimum"}), "ann")
    assert letters["words"][0]["valid"] is True and letters["word_points"] == 7 + 5


def test_lang_selects_the_lexicon_for_scoring(base_url: str) -> None:
    play = {"round": 4, "players": [{"name": "ann", "words": ["colour"]}, {"name": "bob", "words": ["planet"]}]}
    assert player(score(base_url, play), "ann")["words"][0]["valid"] is False
    british = score(base_url, {**play, "lang": "en-GB"})
    assert player(british, "ann")["words"][0]["valid"] is True
    assert british["lexicon"]["id"] == "en-GB"


def test_a_round_that_does_not_add_up_is_422_with_every_problem(base_url: str) -> None:
    body = {
        "round": 3,
        "players": [
            {"name": "ann", "words": [["Z", "A", "P"]]},  # 3 cards, round 3 deals 5
            {"name": "bob", "words": [["Z", "O", "O"]], "unused": ["Z", "E"]},  # a third and fourth Z; the deck has 2
            {"name": "ann", "words": [["ZZ", "A"]], "unused": ["E", "E", "E"]},  # duplicate name, and no ZZ card
        ],
    }
    problem = assert_problem(requests.post(f"{base_url}/score-round", json=body, timeout=30), 422)
    assert {"players.0", "players.2.name", "players.2.words.0", "players"} <= set(problem["errors"])

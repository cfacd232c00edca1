from __future__ import annotations

import dataclasses

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.ruleset import BonusTie, Floor, LongestMeasure, TwoPlayers


def by_name(result):
    return {p.name: p for p in result.players}


def award(result, kind):
    return next(b for b in result.bonuses if b.kind == kind)


def problems_of(call):
    with pytest.raises(InvalidRequest) as info:
        call()
    return info.value.problems


# ---- the worked examples of RULES.md


def test_top_is_11(score, player):
    ann = by_name(score(player("Ann", "top"), player("Bob", "tip")))["Ann"]
    assert ann.words[0].points == 11
    assert ann.total == 11


def test_qu_i_z_is_25_and_q_u_i_z_is_35(score, player):
    assert score(player("Ann", "(qu)iz"), player("Bob", "(qu)it")).totals()["Ann"] == 25
    assert score(player("Ann", "quiz"), player("Bob", "(qu)it")).totals()["Ann"] == 35


def test_qu_i_z_with_an_unused_m_is_20(score, player):
    ann = by_name(score(player("Ann", "(qu)iz", unused="m"), player("Bob", "(qu)it")))["Ann"]
    assert (ann.word_points, ann.unused_points, ann.total) == (25, 5, 20)


def test_steve_challenged_as_a_proper_noun_costs_its_player_21(score, player, rulesets):
    no_floor = dataclasses.replace(rulesets.get("challenge"), floor=Floor.NONE)
    result = score(player("Ann", "steve"), player("Bob", "top"), ruleset=no_floor, challenges=[("Bob", "Ann", 0)])
    ann, bob = by_name(result)["Ann"], by_name(result)["Bob"]
    assert ann.words[0].counted is False
    assert (ann.word_points, ann.unused_points, ann.total) == (0, 21, -21)
    assert bob.challenge_penalty == 0


def test_steve_challenged_counts_as_unused_beside_the_players_other_words(score, player):
    result = score(player("Ann", "steve", "(qu)iz"), player("Bob", "(qu)it"), ruleset="challenge", challenges=[("Bob", "Ann", 0)])
    ann = by_name(result)["Ann"]
    assert (ann.word_points, ann.unused_points, ann.total) == (25, 21, 4)
    assert ann.words[0].challenged_by == "Bob"


def test_quiddler_with_qu_and_er_cards_is_31_and_41_in_single_letters(score, player):
    result = by_name(score(player("Ann", "(qu)iddl(er)"), player("Bob", "quiddler")))
    assert (result["Ann"].word_points, result["Bob"].word_points) == (31, 41)


def test_clown_with_the_cl_card_is_27_points_5_letters_4_cards(score, player):
    word = by_name(score(player("Ann", "(cl)own"), player("Bob", "top")))["Ann"].words[0]
    data = word.to_dict()
    assert (data["points"], data["letters"], data["cards"]) == (27, 5, ["CL", "O", "W", "N"])


def test_hand_t_g_e_qu_z_with_only_get_scores_2(score, player):
    # Dealt 4 (round 2), drew to T G E QU Z, discarded Z: GET laid, QU left over.
    result = score(player("Ann", "get", unused="(qu)"), player("Bob", "tops"), round=2)
    ann = by_name(result)["Ann"]
    assert (ann.word_points, ann.unused_points, ann.total) == (11, 9, 2)


@pytest.mark.parametrize("words", [("(cl)o(th)", "mung", "p(in)y"), ("(cl)(in)g", "(th)ump", "yon")])
def test_full_go_out_from_a_cl_g_in_th_m_p_o_u_y_plus_n_scores_58(score, player, words):
    # Bob takes the longest word and ties on the number of words, so Ann gets no bonus.
    result = score(player("Ann", *words, went_out=True), player("Bob", "at", "at", "seated"), round=8)
    ann = by_name(result)["Ann"]
    assert all(w.verdict.valid for w in ann.words)
    assert (ann.word_points, ann.unused_points, ann.total) == (58, 0, 58)
    assert ann.went_out_valid is True
    assert award(result, "longest_word").winners == ("Bob",)


# ---- words that do not count (automatic mode)


def test_invalid_words_count_as_unused_cards_in_automatic_mode(score, player):
    result = score(player("Ann", "top", "zorb"), player("Bob", "tip"), ruleset="no-floor")
    ann = by_name(result)["Ann"]
    assert [(w.verdict.valid, w.counted) for w in ann.words] == [(True, True), (False, False)]
    assert (ann.word_points, ann.unused_points, ann.total) == (11, 29, -18)


def test_invalid_words_carry_their_reason(score, player):
    data = by_name(score(player("Ann", "zorp"), player("Bob", "tip")))["Ann"].to_dict()
    assert data["words"][0]["reason"]["code"] == "not_in_lexicon"


def test_a_single_card_word_does_not_count_under_standard(score, player):
    ann = by_name(score(player("Ann", "(in)", "top"), player("Bob", "tip")))["Ann"]
    assert ann.words[0].counted is False
    assert ann.words[0].verdict.reasons[0].code == "too_short"
    assert (ann.word_points, ann.unused_points) == (11, 7)


def test_a_single_in_card_counts_under_letters_minimum(score, player):
    ann = by_name(score(player("Ann", "(in)", "top"), player("Bob", "tip"), ruleset="letters-minimum"))["Ann"]
    assert ann.words[0].counted is True
    assert (ann.word_points, ann.unused_points) == (18, 0)


def test_cafe_laid_c_a_f_e_scores_in_a_round_under_a_folding_lexicon(score, player):
    ann = by_name(score(player("Ann", "cafe"), player("Bob", "tip")))["Ann"]
    assert ann.words[0].verdict.valid, ann.words[0].to_dict()["reason"]
    assert ann.word_points == 18


# ---- bonuses


def test_sole_winner_takes_each_bonus_and_one_player_can_win_both(score, player):
    result = score(player("Ann", "top", "at"), player("Bob", "it"))
    ann = by_name(result)["Ann"]
    assert sorted(ann.bonuses) == [("longest_word", 10), ("most_words", 10)]
    assert ann.total == 11 + 5 + 20
    assert by_name(result)["Bob"].bonuses == []
    assert award(result, "longest_word").to_dict()["winner"] == "Ann"


def test_tie_for_longest_word_gives_no_bonus(score, player):
    result = score(player("Ann", "top"), player("Bob", "tip"))
    longest = award(result, "longest_word")
    assert longest.winners == ()
    assert set(longest.tied) == {"Ann", "Bob"}
    assert longest.to_dict()["winner"] is None
    assert all(p.bonuses == [] for p in result.players)


def test_tie_for_most_words_gives_no_bonus(score, player):
    result = score(player("Ann", "top", "at"), player("Bob", "tip", "it"))
    assert award(result, "most_words").winners == ()
    assert set(award(result, "most_words").tied) == {"Ann", "Bob"}


def test_a_tie_between_two_never_blocks_a_third_who_beats_both(score, player):
    result = score(player("Ann", "one", "do"), player("Bob", "den", "no"), player("Cat", "dear", "an", "go"))
    for kind in ("longest_word", "most_words"):
        assert award(result, kind).winners == ("Cat",)
        assert award(result, kind).tied == ()
        assert award(result, kind).to_dict()["winner"] == "Cat"
    assert by_name(result)["Cat"].total == 14 + 7 + 8 + 20
    assert result.totals()["Ann"] == 9 + 7


def test_a_tie_at_the_top_gives_nobody_the_bonus_not_even_a_lower_third(score, player):
    result = score(player("Ann", "tops"), player("Bob", "(qu)it"), player("Cat", "at"))
    assert award(result, "longest_word").winners == ()
    assert set(award(result, "longest_word").tied) == {"Ann", "Bob"}


def test_longest_word_is_measured_in_letters_so_qu_counts_two(score, player):
    result = score(player("Ann", "(qu)it"), player("Bob", "top"))
    assert award(result, "longest_word").winners == ("Ann",)


def test_longest_word_in_cards_ties_qu_i_t_with_t_o_p(score, player, standard):
    by_cards = dataclasses.replace(standard, longest_measure=LongestMeasure.CARDS)
    result = score(player("Ann", "(qu)it"), player("Bob", "top"), ruleset=by_cards)
    assert award(result, "longest_word").winners == ()


def test_letters_and_cards_measures_pick_different_longest_words(score, player, standard):
    ann, bob = player("Ann", "(th)(er)e"), player("Bob", "tops")  # 5 letters in 3 cards; 4 letters in 4 cards
    assert award(score(ann, bob), "longest_word").winners == ("Ann",)
    by_cards = dataclasses.replace(standard, longest_measure=LongestMeasure.CARDS)
    assert award(score(ann, bob, ruleset=by_cards), "longest_word").winners == ("Bob",)


def test_only_counted_words_compete_for_bonuses(score, player):
    result = score(player("Ann", "zorbed", "zorb"), player("Bob", "top"))
    assert award(result, "longest_word").winners == ("Bob",)
    assert award(result, "most_words").winners == ("Bob",)


def test_nobody_gets_a_bonus_when_nobody_laid_a_word(score, player):
    result = score(player("Ann", unused="top"), player("Bob", unused="tip"))
    assert all(b.winners == () and b.tied == () for b in result.bonuses)


def test_shared_tie_policy_gives_each_tied_player_the_bonus(score, player, standard):
    shared = dataclasses.replace(standard, bonus_tie=BonusTie.SHARED)
    result = score(player("Ann", "top"), player("Bob", "tip"), ruleset=shared)
    assert set(award(result, "longest_word").winners) == {"Ann", "Bob"}
    assert result.totals() == {"Ann": 31, "Bob": 31}


def test_bonus_points_come_from_the_ruleset(score, player, standard):
    bigger = dataclasses.replace(standard, bonus_points={"longest_word": 7, "most_words": 0})
    result = score(player("Ann", "top", "at"), player("Bob", "it"), ruleset=bigger)
    assert [b.kind for b in result.bonuses] == ["longest_word"]
    assert result.totals()["Ann"] == 11 + 5 + 7


# ---- two players


def test_two_player_one_bonus_uses_only_the_chosen_bonus(score, player):
    ann, bob = player("Ann", "top", "at"), player("Bob", "tops")
    most = score(ann, bob, ruleset="two-player-one-bonus", bonus_choice="most_words")
    assert [b.kind for b in most.bonuses] == ["most_words"]
    assert most.totals() == {"Ann": 26, "Bob": 14}
    longest = score(ann, bob, ruleset="two-player-one-bonus", bonus_choice="longest_word")
    assert [b.kind for b in longest.bonuses] == ["longest_word"]
    assert longest.totals() == {"Ann": 16, "Bob": 24}


def test_two_player_one_bonus_requires_bonus_choice_with_two_players(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tops"), ruleset="two-player-one-bonus"))
    assert list(problems) == ["bonus_choice"]


def test_two_player_one_bonus_with_three_players_rejects_bonus_choice(score, player):
    players = (player("Ann", "top"), player("Bob", "tops"), player("Cat", "at"))
    problems = problems_of(lambda: score(*players, ruleset="two-player-one-bonus", bonus_choice="most_words"))
    assert list(problems) == ["bonus_choice"]


def test_an_unknown_bonus_choice_is_an_error(score, player):
    # The JSON schema refuses it, but the core must not silently drop both bonuses for a caller that skips the schema.
    problems = problems_of(lambda: score(player("Ann", "top", "at"), player("Bob", "tops"), ruleset="two-player-one-bonus", bonus_choice="longest"))
    assert list(problems) == ["bonus_choice"]


def test_two_player_one_bonus_with_three_players_uses_both_bonuses(score, player):
    result = score(player("Ann", "top"), player("Bob", "tops"), player("Cat", "at"), ruleset="two-player-one-bonus")
    assert [b.kind for b in result.bonuses] == ["longest_word", "most_words"]


def test_standard_uses_both_bonuses_with_two_players(score, player):
    result = score(player("Ann", "top", "at"), player("Bob", "it"))
    assert [b.kind for b in result.bonuses] == ["longest_word", "most_words"]


@pytest.mark.parametrize(("rule", "kinds"), [(TwoPlayers.LONGEST_WORD, ["longest_word"]), (TwoPlayers.MOST_WORDS, ["most_words"]), (TwoPlayers.NONE, [])])
def test_fixed_two_player_bonus_rules(score, player, standard, rule, kinds):
    ruleset = dataclasses.replace(standard, two_players=rule)
    assert [b.kind for b in score(player("Ann", "top", "at"), player("Bob", "it"), ruleset=ruleset).bonuses] == kinds
    three = score(player("Ann", "top"), player("Bob", "it"), player("Cat", "at"), ruleset=ruleset)
    assert [b.kind for b in three.bonuses] == ["longest_word", "most_words"]


# ---- challenges


def test_challenging_a_valid_word_costs_the_challenger_its_value(score, player):
    result = score(player("Ann", "(qu)iz"), player("Bob", "(qu)iddl(er)"), ruleset="challenge", challenges=[("Bob", "Ann", 0)])
    ann, bob = by_name(result)["Ann"], by_name(result)["Bob"]
    assert ann.words[0].counted is True
    assert ann.total == 25
    assert bob.challenge_penalty == 25
    assert bob.total == 31 - 25 + 10  # Bob still has the longest word
    assert bob.to_dict()["challenge_penalty"] == 25


def test_challenging_an_invalid_word_makes_its_cards_unused(score, player):
    result = score(player("Ann", "top", "zorb"), player("Bob", "tip"), ruleset="challenge", challenges=[("Bob", "Ann", 1)])
    ann = by_name(result)["Ann"]
    assert ann.words[1].counted is False
    assert (ann.word_points, ann.unused_points) == (11, 29)
    assert by_name(result)["Bob"].challenge_penalty == 0


def test_an_unchallenged_invalid_word_stands_in_challenge_mode(score, player):
    ann = by_name(score(player("Ann", "zorp"), player("Bob", "tip"), ruleset="challenge"))["Ann"]
    assert ann.words[0].verdict.valid is False
    assert ann.words[0].counted is True
    assert ann.word_points == 27


def test_a_challenge_in_automatic_mode_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), challenges=[("Bob", "Ann", 0)]))
    assert list(problems) == ["challenges"]


def test_a_challenge_by_a_missing_player_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), ruleset="challenge", challenges=[("Zed", "Ann", 0)]))
    assert list(problems) == ["challenges.0.by"]


def test_a_challenge_of_a_missing_player_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), ruleset="challenge", challenges=[("Bob", "Zed", 0)]))
    assert list(problems) == ["challenges.0.player"]


def test_a_challenge_of_a_missing_word_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), ruleset="challenge", challenges=[("Bob", "Ann", 1)]))
    assert list(problems) == ["challenges.0.word"]


def test_a_player_cannot_challenge_their_own_word(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), ruleset="challenge", challenges=[("Ann", "Ann", 0)]))
    assert list(problems) == ["challenges.0.by"]


def test_a_word_cannot_be_challenged_twice(score, player):
    players = (player("Ann", "top"), player("Bob", "tip"), player("Cat", "at"))
    problems = problems_of(lambda: score(*players, ruleset="challenge", challenges=[("Bob", "Ann", 0), ("Cat", "Ann", 0)]))
    assert list(problems) == ["challenges.1.word"]


# ---- floor


@pytest.fixture
def sinking(player):
    """Ann: 10 in words, 29 unused, wins most words (+10). Bob: 5."""
    return player("Ann", "at", "at", unused="zq"), player("Bob", "at")


def test_standard_floors_the_whole_round_total_at_zero(score, sinking):
    result = score(*sinking)
    assert by_name(result)["Ann"].bonuses == [("most_words", 10)]
    assert result.totals() == {"Ann": 0, "Bob": 5}


def test_floor_before_bonuses_adds_bonuses_to_the_floored_total(score, sinking, standard):
    before = dataclasses.replace(standard, floor=Floor.BEFORE_BONUSES)
    assert score(*sinking, ruleset=before).totals() == {"Ann": 10, "Bob": 5}


def test_no_floor_allows_negative_round_totals(score, sinking):
    assert score(*sinking, ruleset="no-floor").totals() == {"Ann": -9, "Bob": 5}


def test_the_floor_also_covers_a_challenge_penalty(score, player):
    result = score(player("Ann", "(qu)iddl(er)"), player("Bob", "at"), ruleset="challenge", challenges=[("Bob", "Ann", 0)])
    assert by_name(result)["Bob"].challenge_penalty == 31
    assert result.totals()["Bob"] == 0


# ---- going out


def test_going_out_with_every_card_in_valid_words_is_valid(score, player):
    result = score(player("Ann", "top", went_out=True), player("Bob", "at", unused="z"), round=1)
    assert by_name(result)["Ann"].went_out_valid is True
    assert by_name(result)["Bob"].went_out_valid is None


def test_going_out_with_unused_cards_is_reported_invalid(score, player):
    result = score(player("Ann", "at", unused="z", went_out=True), player("Bob", "top"), round=1)
    ann = by_name(result)["Ann"]
    assert ann.went_out_valid is False
    assert ann.total == 0  # no invented penalty: 5 - 14, floored


def test_going_out_with_an_invalid_word_is_reported_invalid(score, player):
    result = score(player("Ann", "zorp", went_out=True), player("Bob", "tops"), round=2)
    assert by_name(result)["Ann"].went_out_valid is False


def test_going_out_with_a_challenged_invalid_word_is_reported_invalid(score, player):
    result = score(player("Ann", "zorp", went_out=True), player("Bob", "tops"), round=2, ruleset="challenge", challenges=[("Bob", "Ann", 0)])
    assert by_name(result)["Ann"].went_out_valid is False


# ---- integrity errors


def test_a_card_face_not_in_the_deck_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top", "(xy)z"), player("Bob", "tip", unused="(ab)")))
    assert set(problems) == {"players.0.words.1", "players.1.unused.0"}
    assert "XY" in problems["players.0.words.1"][0]


def test_more_copies_of_a_card_across_players_than_the_deck_holds_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "zo"), player("Bob", "at", unused="z"), player("Cat", unused="z")))
    assert problems == {"players": ["3 Z cards in play; the deck holds 2"]}


def test_a_hand_that_is_not_the_rounds_hand_size_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tops"), round=1))
    assert list(problems) == ["players.1"]
    assert "round 1 deals 3" in problems["players.1"][0]


def test_a_round_number_outside_the_ruleset_is_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Bob", "tip"), round=9))
    assert list(problems) == ["round"]


def test_duplicate_player_names_are_an_error(score, player):
    problems = problems_of(lambda: score(player("Ann", "top"), player("Ann", "tip")))
    assert list(problems) == ["players.1.name"]


def test_only_one_player_may_go_out(score, player):
    problems = problems_of(lambda: score(player("Ann", "top", went_out=True), player("Bob", "tip", went_out=True)))
    assert problems == {"players": ["only one player can go out"]}


@pytest.mark.parametrize("count", [1, 9])
def test_a_player_count_outside_the_ruleset_is_an_error(score, player, count):
    players = [player(f"P{i}", "at") for i in range(count)]
    problems = problems_of(lambda: score(*players))
    assert list(problems) == ["players"]
    assert "2 to 8" in problems["players"][0]


def test_every_integrity_problem_is_reported_at_once(score, player):
    problems = problems_of(
        lambda: score(
            player("Ann", "(xy)z", went_out=True), player("Ann", "top", went_out=True), player("Bob", "tops"), round=1, challenges=[("Bob", "Ann", 0)]
        )
    )
    assert {"players.0.words.0", "players.1.name", "players.2", "players", "challenges"} <= set(problems)


# ---- JSON shape (issue 2)


def test_round_result_json_has_the_fields_of_issue_2(score, player):
    data = score(player("Ann", "(qu)iz", "at", unused="m"), player("Bob", "tip", unused="eat"), round=4).to_dict()
    assert {"players", "bonuses", "ruleset", "lexicon"} <= set(data)
    assert data["ruleset"] == "standard"
    assert data["lexicon"] == {"id": "test-en", "version": "1", "sha256": "0" * 64}
    ann = data["players"][0]
    assert {"name", "words", "word_points", "unused_points", "challenge_penalty", "bonuses", "total", "went_out_valid"} <= set(ann)
    assert {"word", "cards", "letters", "points", "valid", "counted", "reason"} <= set(ann["words"][0])
    assert ann["words"][0] == ann["words"][0] | {
        "word": "quiz",
        "cards": ["QU", "I", "Z"],
        "letters": 4,
        "points": 25,
        "valid": True,
        "counted": True,
        "reason": None,
    }
    assert ann["bonuses"] == [{"kind": "longest_word", "points": 10}, {"kind": "most_words", "points": 10}]
    assert (ann["word_points"], ann["unused_points"], ann["total"]) == (30, 5, 45)
    for bonus in data["bonuses"]:
        assert {"kind", "winner", "tied"} <= set(bonus)
    assert [(b["kind"], b["winner"], b["tied"]) for b in data["bonuses"]] == [("longest_word", "Ann", []), ("most_words", "Ann", [])]

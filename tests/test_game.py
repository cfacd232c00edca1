from __future__ import annotations

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.game import score_game
from wordsvc.core.scoring import RoundPlay


@pytest.fixture
def rnd(player):
    """``rnd(ann_words, bob_words, number=None)``: a two-player round of Ann and Bob."""

    def make(ann, bob, number=None, ann_unused="", bob_unused=""):
        return RoundPlay((player("Ann", *ann, unused=ann_unused), player("Bob", *bob, unused=bob_unused)), number)

    return make


def problems_of(call):
    with pytest.raises(InvalidRequest) as info:
        call()
    return info.value.problems


def test_running_totals_add_each_round(standard, lexicon, rnd):
    rounds = [
        rnd(["top"], ["it"], bob_unused="z"),  # Ann 11 + 10 (longest) = 21; Bob 5 - 14 -> 0
        rnd(["tops"], ["tea"], bob_unused="n"),  # Ann 14 + 10 (longest) = 24; Bob 7 - 5 = 2
    ]
    game = score_game(["Ann", "Bob"], rounds, standard, lexicon)
    assert [r.totals() for r in game.rounds] == [{"Ann": 21, "Bob": 0}, {"Ann": 24, "Bob": 2}]
    assert game.running("Ann") == [21, 45]
    assert game.running("Bob") == [0, 2]
    assert game.totals == {"Ann": 45, "Bob": 2}
    assert game.winners == ["Ann"]
    assert game.complete is False


def test_game_json_has_round_and_running_totals_and_the_winner(standard, lexicon, rnd):
    rounds = [rnd(["top"], ["it"], bob_unused="z"), rnd(["tops"], ["tea"], bob_unused="n")]
    data = score_game(["Ann", "Bob"], rounds, standard, lexicon).to_dict()
    ann = data["players"][0]
    assert ann == {"name": "Ann", "round_totals": [21, 24], "running_totals": [21, 45], "total": 45}
    assert data["winners"] == ["Ann"]
    assert data["tie"] is False
    assert [r["round"] for r in data["rounds"]] == [1, 2]
    assert data["lexicon"] == {"id": "test-en", "version": "1", "sha256": "0" * 64}


def test_a_tie_for_the_highest_total_is_reported_as_a_tie(standard, lexicon, rnd):
    rounds = [rnd(["top"], ["tip"]), rnd(["at", "at"], ["at", "it"], 2)]
    data = score_game(["Ann", "Bob"], rounds, standard, lexicon).to_dict()
    assert data["winners"] == ["Ann", "Bob"]
    assert data["tie"] is True
    assert [p["total"] for p in data["players"]] == [21, 21]


def test_rounds_are_numbered_in_order_and_sized_by_their_number(standard, lexicon, rnd):
    # Round 2 deals 4 cards: a 3-card hand in the second round is an error.
    problems = problems_of(lambda: score_game(["Ann", "Bob"], [rnd(["top"], ["tip"]), rnd(["top"], ["tip"])], standard, lexicon))
    assert set(problems) == {"rounds.1.players.0", "rounds.1.players.1"}


def test_a_round_number_out_of_order_is_an_error(standard, lexicon, rnd):
    problems = problems_of(lambda: score_game(["Ann", "Bob"], [rnd(["top"], ["tip"], 1), rnd(["tops"], ["tip"], 3)], standard, lexicon))
    assert "rounds.1.round" in problems


def test_round_players_must_be_the_games_players(standard, lexicon, rnd):
    problems = problems_of(lambda: score_game(["Ann", "Cat"], [rnd(["top"], ["tip"])], standard, lexicon))
    assert list(problems) == ["rounds.0.players"]


def test_players_may_sit_in_another_order_in_a_round(standard, lexicon, rnd):
    game = score_game(["Bob", "Ann"], [rnd(["top"], ["tip"])], standard, lexicon)
    assert game.totals == {"Bob": 11, "Ann": 11}


def test_more_rounds_than_the_ruleset_has_is_an_error(standard, lexicon, player):
    hands = [3, 4, 5, 6, 7, 8, 9, 10, 10]
    rounds = [RoundPlay((player("Ann", unused="e" * n), player("Bob", unused="a" * n))) for n in hands]
    problems = problems_of(lambda: score_game(["Ann", "Bob"], rounds, standard, lexicon))
    assert "rounds" in problems
    assert "8 rounds" in problems["rounds"][0]


def test_a_full_game_of_eight_rounds_is_complete(standard, lexicon, player):
    rounds = [RoundPlay((player("Ann", "at", unused="a" * (n - 2)), player("Bob", unused="e" * n))) for n in standard.rounds]
    game = score_game(["Ann", "Bob"], rounds, standard, lexicon)
    assert game.complete is True
    assert len(game.rounds) == 8


def test_a_game_needs_a_round(standard, lexicon):
    assert "rounds" in problems_of(lambda: score_game(["Ann", "Bob"], [], standard, lexicon))


def test_game_player_names_must_be_distinct(standard, lexicon, rnd):
    assert "players" in problems_of(lambda: score_game(["Ann", "Ann"], [rnd(["top"], ["tip"])], standard, lexicon))


def test_every_problem_of_every_round_is_reported_with_its_round(standard, lexicon, player, rnd):
    bad = RoundPlay((player("Ann", "(xy)z", "t"), player("Bob", "tip")))
    problems = problems_of(lambda: score_game(["Ann", "Bob"], [bad, rnd(["top"], ["tip"])], standard, lexicon))
    assert {"rounds.0.players.0.words.0", "rounds.1.players.0", "rounds.1.players.1"} <= set(problems)

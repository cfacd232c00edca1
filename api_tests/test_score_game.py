"""POST /score-game: a full game of 8 rounds (hand sizes 3..10), running totals and the winner.

Every expected figure below is worked out by hand from the card values of
RULES.md; the comments give the arithmetic.
"""

from __future__ import annotations

from typing import Any

import requests

from .contract import assert_problem

PLAYERS = ["ann", "bob", "cat"]

# (ann, bob, cat): each player's (words, unused) in one round.
GAME: list[dict[str, tuple[list[list[str]], list[str]]]] = [
    # round 1, 3 cards: CAT 13, DOG 13, QUIZ (QU I Z) 25; cat longest (4 letters); most words tied
    {"ann": ([["C", "A", "T"]], []), "bob": ([["D", "O", "G"]], []), "cat": ([["QU", "I", "Z"]], [])},
    # round 2, 4 cards: JAM 20 - E 2 = 18; OX 14 + IT 5 = 19, most words; THEME (TH E M E) 18, longest
    {"ann": ([["J", "A", "M"]], ["E"]), "bob": ([["O", "X"], ["I", "T"]], []), "cat": ([["TH", "E", "M", "E"]], [])},
    # round 3, 5 cards: CLOWN 27 - S 3 = 24; BEARD 22; HI 9 + FOE 10 = 19, most words; CLOWN and BEARD tie on 5 letters
    {"ann": ([["CL", "O", "W", "N"]], ["S"]), "bob": ([["B", "E", "A", "R", "D"]], []), "cat": ([["H", "I"], ["F", "O", "E"]], [])},
    # round 4, 6 cards: QUIDDLER (QU ... ER) 31, longest; PLANET 21; GO 8 + TO 5 + BE 10 = 23, most words
    {"ann": ([["QU", "I", "D", "D", "L", "ER"]], []), "bob": ([["P", "L", "A", "N", "E", "T"]], []), "cat": ([["G", "O"], ["T", "O"], ["B", "E"]], [])},
    # round 5, 7 cards: FROZEN 34 - K 8 = 26; WINTER 27 + SO 5 - A 2 = 30; MOUTH 20 + AX 14 - E 2 = 32; both bonuses tied
    {
        "ann": ([["F", "R", "O", "Z", "E", "N"]], ["K"]),
        "bob": ([["W", "IN", "T", "ER"], ["S", "O"]], ["A"]),
        "cat": ([["M", "O", "U", "TH"], ["A", "X"]], ["E"]),
    },
    # round 6, 8 cards: QUIDDLER in single letters 41, longest; JEWEL 30 + AS 5 - V 11 = 24; ZEBRA 31 + OX 14 - T 3 = 42
    {
        "ann": ([["Q", "U", "I", "D", "D", "L", "E", "R"]], []),
        "bob": ([["J", "E", "W", "E", "L"], ["A", "S"]], ["V"]),
        "cat": ([["Z", "E", "B", "R", "A"], ["O", "X"]], ["T"]),
    },
    # round 7, 9 cards: STRENGTH 33 + AT 5 = 38, longest; KNOWING 38 + OF 8 - Y 4 = 42; VEX 25 + HOP 15 + AID 9 = 49, most words
    {
        "ann": ([["S", "T", "R", "E", "N", "G", "TH"], ["A", "T"]], []),
        "bob": ([["K", "N", "O", "W", "IN", "G"], ["O", "F"]], ["Y"]),
        "cat": ([["V", "E", "X"], ["H", "O", "P"], ["A", "I", "D"]], []),
    },
    # round 8, 10 cards: ann goes out with CL-O-TH + M-U-N-G + P-IN-Y = 58 (RULES.md), most words;
    # JUMPER 35 + OX 14 - D 5 - E 2 = 42; SQUARE 31 + VIEW 25 = 56; JUMPER and SQUARE tie on 6 letters
    {
        "ann": ([["CL", "O", "TH"], ["M", "U", "N", "G"], ["P", "IN", "Y"]], []),
        "bob": ([["J", "U", "M", "P", "E", "R"], ["O", "X"]], ["D", "E"]),
        "cat": ([["S", "Q", "U", "A", "R", "E"], ["V", "I", "E", "W"]], []),
    },
]

ROUND_TOTALS = {
    "ann": [13, 18, 24, 41, 26, 51, 48, 68],
    "bob": [13, 29, 22, 21, 30, 24, 42, 42],
    "cat": [35, 28, 29, 33, 32, 42, 59, 56],
}
RUNNING_TOTALS = {
    "ann": [13, 31, 55, 96, 122, 173, 221, 289],
    "bob": [13, 42, 64, 85, 115, 139, 181, 223],
    "cat": [35, 63, 92, 125, 157, 199, 258, 314],
}


def game_body(rounds: list[dict[str, tuple[list[list[str]], list[str]]]]) -> dict[str, Any]:
    return {
        "ruleset": "standard",
        "players": PLAYERS,
        "rounds": [
            {
                "round": number,
                "players": [
                    {"name": name, "words": words, "unused": unused, "went_out": number == 8 and name == "ann"} for name, (words, unused) in plays.items()
                ],
            }
            for number, plays in enumerate(rounds, start=1)
        ],
    }


def post_game(base_url: str, body: dict[str, Any]) -> requests.Response:
    return requests.post(f"{base_url}/score-game", json=body, timeout=20)


def test_the_game_deals_3_to_10_cards_over_8_rounds() -> None:
    for number, plays in enumerate(GAME, start=1):
        for name, (words, unused) in plays.items():
            assert sum(map(len, words)) + len(unused) == number + 2, (number, name)


def test_a_full_game_of_8_rounds_gives_running_totals_and_the_winner(base_url: str) -> None:
    response = post_game(base_url, game_body(GAME))
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["ruleset"] == "standard"
    assert result["complete"] is True
    assert len(result["rounds"]) == 8
    assert [r["round"] for r in result["rounds"]] == list(range(1, 9))
    for r in result["rounds"]:
        assert all(word["valid"] for p in r["players"] for word in p["words"]), r
    players = {p["name"]: p for p in result["players"]}
    assert list(players) == PLAYERS
    for name in PLAYERS:
        assert players[name]["round_totals"] == ROUND_TOTALS[name], name
        assert players[name]["running_totals"] == RUNNING_TOTALS[name], name
        assert players[name]["total"] == RUNNING_TOTALS[name][-1]
    assert result["winners"] == ["cat"] and result["tie"] is False
    assert result["lexicon"]["id"] == "en-US"


def test_each_round_of_a_game_is_scored_like_score_round(base_url: str) -> None:
    game = post_game(base_url, game_body(GAME)).json()
    body = game_body(GAME)
    for number in (1, 5, 8):
        alone = requests.post(f"{base_url}/score-round", json=body["rounds"][number - 1], timeout=30).json()
        assert alone == game["rounds"][number - 1], number
    last = game["rounds"][7]
    ann = next(p for p in last["players"] if p["name"] == "ann")
    assert ann["went_out_valid"] is True and ann["word_points"] == 58


def test_a_tie_for_the_highest_total_is_reported_as_a_tie(base_url: str) -> None:
    same = {"ann": ([["C", "A", "T"]], []), "bob": ([["D", "O", "G"]], []), "cat": ([["T", "O", "P"]], [])}
    result = post_game(base_url, game_body([same])).json()
    assert result["winners"] == ["ann", "bob"] and result["tie"] is True
    assert result["complete"] is False  # one round of eight


def test_a_game_in_progress_is_scored_with_complete_false(base_url: str) -> None:
    result = post_game(base_url, game_body(GAME[:3])).json()
    assert result["complete"] is False
    assert {p["name"]: p["running_totals"] for p in result["players"]} == {name: totals[:3] for name, totals in RUNNING_TOTALS.items()}
    assert result["winners"] == ["cat"]


def test_a_game_of_nine_rounds_is_422(base_url: str) -> None:
    body = game_body(GAME)
    body["rounds"].append(body["rounds"][0])
    problem = assert_problem(post_game(base_url, body), 422)
    assert "rounds" in problem["errors"]


def test_a_round_with_other_players_than_the_game_is_422_at_its_path(base_url: str) -> None:
    body = game_body(GAME[:2])
    body["rounds"][1]["players"][2]["name"] = "dan"
    problem = assert_problem(post_game(base_url, body), 422)
    assert "rounds.1.players" in problem["errors"]


def test_a_round_out_of_order_is_422(base_url: str) -> None:
    body = game_body(GAME[:2])
    body["rounds"][1]["round"] = 5
    problem = assert_problem(post_game(base_url, body), 422)
    assert "rounds.1.round" in problem["errors"]


def test_a_game_with_an_unknown_ruleset_is_404(base_url: str) -> None:
    body = game_body(GAME[:1])
    body["ruleset"] = "house-rules"
    problem = assert_problem(post_game(base_url, body), 404)
    assert "standard" in problem["detail"]


def test_a_game_with_an_unknown_language_is_404(base_url: str) -> None:
    body = {**game_body(GAME[:1]), "lang": "zz"}
    problem = assert_problem(post_game(base_url, body), 404)
    assert "en-US" in problem["detail"]

"""The standings' rules where a player has no game (docs/standings.md, "Rankings and tie-breaks"), in the pure core."""

from __future__ import annotations

from wordsvc.core.standings import Entrant, Format, Game, standings

WINS_THEN_BEST = Format(id="wins", name="Wins", ranking="wins", tie_breaks=("best_game", "spread"), missed="nothing")


def test_a_player_with_no_game_comes_after_a_negative_best_game_on_the_best_game_tie_break():
    """Under a ruleset without a floor a game's score can be negative: a game played, however badly, is still a best game."""
    entrants = [Entrant("ann", "Ann"), Entrant("bob", "Bob"), Entrant("zed", "Zed", joined=2)]
    games = [Game(1, "s1-t1", (("ann", 40), ("bob", -15)))]
    lines = standings(WINS_THEN_BEST, entrants, games)
    assert [(line["player"], line["rank"], line["best_game"]) for line in lines] == [("ann", 1, 40), ("bob", 2, -15), ("zed", 3, None)]
    assert lines[2]["tie_break"] == [None, 0]  # no best game to show; spread 0 over no game


def test_two_players_with_no_game_stay_tied_on_best_game():
    entrants = [Entrant("ann", "Ann"), Entrant("yan", "Yan", joined=2), Entrant("zed", "Zed", joined=2)]
    games = [Game(1, "s1-t1", (("ann", 40), ("bob", 10)))]
    lines = standings(WINS_THEN_BEST, entrants, games)
    assert [(line["player"], line["rank"]) for line in lines] == [("ann", 1), ("yan", 2), ("zed", 2)]

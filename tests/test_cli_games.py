"""``wordsvc verify-game`` (wordsvc/cli/games.py), run as a subprocess on the log of a game played with the built en-US lexicon.

The game is Junior's six rounds between three ``RandomPlayer`` seats, its words
judged by the same lexicon the command loads from the service's settings, so
the stamps agree and every move is replayed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_cli import wordsvc

from wordsvc.core.play import apply, commitment, game_log, game_seed, new_game
from wordsvc.core.play.random_player import RandomPlayer

LEXICONS = ("en-US",)
SERVER_SEED = "5e" * 32


@pytest.fixture(scope="module")
def log(built_lexicons: Any) -> dict[str, Any]:
    if isinstance(built_lexicons, list):
        pytest.skip(f"the en-US lexicon is not built ({', '.join(built_lexicons)}): run `wordsvc build --only en-US`")
    ruleset, lexicon = built_lexicons.rulesets.get("junior-rules"), built_lexicons.languages.get("en-US")
    nonces = ["ann-1", "", "Cy_x"]
    state = new_game(ruleset, game_seed(SERVER_SEED, nonces), ["Ann", "Bob", "Cy"], lexicon)
    player = RandomPlayer(ruleset, lexicon, random.Random(6), tries=8)
    moves = []
    while not state.over:
        move = player.move(state)
        state = apply(state, move, ruleset, lexicon)
        moves.append(move)
    return game_log(state, moves, ruleset, commitment=commitment(SERVER_SEED), server_seed=SERVER_SEED, nonces=nonces)


def test_verify_game_prints_ok_and_exits_0_for_a_true_log(log, tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    proc = wordsvc("verify-game", str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == f"game log {path}: ok: commitment, seed, 6 round deal(s), {len(log['moves'])} move(s), totals and final digest verified"


def test_verify_game_names_the_first_mismatch_and_exits_1(log):
    tampered = {**log, "nonces": ["ann-2", *log["nonces"][1:]]}
    proc = wordsvc("verify-game", "-", stdin=json.dumps(tampered))
    assert proc.returncode == 1
    assert proc.stdout.startswith("game log -: FAILED: seed: the server seed and nonces give ")


def test_verify_game_refuses_a_file_that_is_not_json(tmp_path: Path):
    path = tmp_path / "game.json"
    path.write_text("{", encoding="utf-8")
    proc = wordsvc("verify-game", str(path))
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr

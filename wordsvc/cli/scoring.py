"""``wordsvc score FILE``: a round or a whole game from a JSON file (the bodies of /score-round and /score-game)."""

from __future__ import annotations

import argparse
from typing import Any

from ..schemas.rounds import GameRequest, load_round_request
from ..service import Service
from .common import CliError, print_json, read_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    score = sub.add_parser("score", help="score a round (or a game) from a JSON file, - for stdin")
    score.add_argument("file")
    score.add_argument("--locale", default="en")
    score.set_defaults(run=_score)


def _score(args: argparse.Namespace) -> int:
    data = read_json(args.file)
    if not isinstance(data, dict):
        raise CliError(f"{args.file}: expected a JSON object (a round or a game)")
    service = Service.from_settings()
    if "rounds" in data:
        game = GameRequest().load(data)
        result: Any = service.score_game(game["players"], game["rounds"], game["ruleset"], game["lang"])
    else:
        body = load_round_request(data)
        result = service.score_round(body["play"], body["ruleset"], body["lang"])
    print_json(result.to_dict(args.locale))
    return 0

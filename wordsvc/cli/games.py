"""``wordsvc verify-game``: a hosted game's revealed log checked offline (docs/play.md, "The game log").

The log is replayed with the service's rulesets and lexicons
(:func:`wordsvc.core.play.verify.verify_log`): the commitment, the seed's
derivation from the server seed and the seats' nonces, every round's deal,
every move, the totals and the final digest. It prints one line and exits 1
naming the first mismatch (or what this machine lacks to replay the moves:
a log is verified only when it is replayed).
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.play.verify import verify_log
from .common import lexicon_of, load_service, read_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    verify = sub.add_parser(
        "verify-game",
        help="check a hosted game's revealed log: commitment, seed, every deal and move replayed, totals, final digest; exit 1 naming the first mismatch",
    )
    verify.add_argument("log", metavar="LOG.json", help="the game log (- for stdin)")
    verify.set_defaults(run=_verify_game)


def _verify_game(args: argparse.Namespace) -> int:
    log = read_json(args.log)
    service = load_service("the moves cannot be replayed")

    def ruleset_of(ruleset_id: str) -> Any:
        return service.rulesets.rulesets.get(ruleset_id) if service is not None else None

    report = verify_log(log, ruleset_of, lexicon_of(service))
    print(f"game log {args.log}: {report.line()}")
    return 0 if report.ok else 1

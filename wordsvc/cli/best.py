"""``wordsvc best``: the best play of a hand from a shell, as JSON (the body ``POST /best-meld`` answers).

::

    wordsvc best "a (cl) g (in) (th) m p o u y n" --discard --top 3 --face-up e

Hooked into :mod:`wordsvc.cli` by :func:`add_parsers`; :func:`best` runs it
alone (``best(["a(cl)g", "--top", "2"])``) with the same exit codes: 0, or
2 and one line on stderr for bad input.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from ..config import Settings
from ..schemas.best_meld import BestMeldRequest
from ..service import Service
from ..service.solvers import Solvers
from .common import one_line, print_json

__all__ = ["add_parsers", "best", "run"]


def add_parsers(sub: Any) -> argparse.ArgumentParser:
    """Add the ``best`` subcommand to ``wordsvc``'s subparsers; it runs :func:`run`."""
    parser: argparse.ArgumentParser = sub.add_parser("best", help="print the best play of a hand as JSON")
    _arguments(parser)
    parser.set_defaults(run=run)
    return parser


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("hand", help='the cards, compact ("a(cl)g(in)", spaces allowed) or comma-separated ("A,CL,G,IN")')
    parser.add_argument(
        "--discard",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the hand has drawn: discard exactly one card (default: only for a hand larger than any deal)",
    )
    parser.add_argument("--ruleset", default=None, help="ruleset id (default: the ruleset of --lang, else standard)")
    parser.add_argument("--lang", help="language tag of the lexicon (default: the ruleset's)")
    parser.add_argument("--top", type=int, default=0, help="also the next-best plays, the longest-word and most-words plays")
    parser.add_argument("--face-up", dest="face_up", help="the card on the discard pile: is it worth taking?")


def run(args: argparse.Namespace) -> int:
    """Solve and print; errors propagate to the caller (``wordsvc.cli.main`` turns them into one line)."""
    hand: Any = args.hand.split(",") if "," in args.hand else args.hand
    body = BestMeldRequest().load(
        {"hand": hand, "ruleset": args.ruleset, "lang": args.lang, "discard": args.discard, "top": args.top, "face_up": args.face_up}
    )
    settings = Settings.from_env()
    solvers = Solvers.from_data_dir(Service.from_settings(settings), settings.data_dir)
    solution = solvers.solve(body["hand"], body["ruleset"], body["lang"], body["discard"], body["top"], body["face_up"])
    print_json(solution.to_dict())
    return 0


def best(argv: Sequence[str] | None = None) -> int:
    """``wordsvc best`` on its own: parse ``argv``, solve, print; 2 and one stderr line on bad input."""
    parser = argparse.ArgumentParser(prog="wordsvc best", description="The best play of a hand, as JSON.")
    _arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except Exception as err:  # the CLI promises one line, never a traceback
        print(f"wordsvc: {one_line(err)}", file=sys.stderr)
        return 2

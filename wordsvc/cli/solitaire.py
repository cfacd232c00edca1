"""``wordsvc solitaire deal|solve``: a solitaire layout from a seed, and the solver on it (wordsvc/core/solitaire.py)."""

from __future__ import annotations

import argparse
from typing import Any

from ..config import Settings
from ..core.deal import new_seed
from ..core.solitaire import deal_layout, solve
from ..core.work import Work
from ..data.anagram_index import AnagramIndexes
from ..data.wordsearch import WordSearch
from ..service import Service
from .common import print_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    group = sub.add_parser("solitaire", help="solitaire: deal a layout from a seed, solve it").add_subparsers(dest="solitaire_command", required=True)
    for name, run, text in (("deal", _deal, "print the layout a seed deals"), ("solve", _solve, "deal a layout and solve it within a budget")):
        cmd = group.add_parser(name, help=text)
        cmd.add_argument("--seed", default=None, help="64 hex digits (default: random)")
        cmd.add_argument("--ruleset", default="standard")
        cmd.add_argument("--piles", type=int, default=None, help="piles (default: the ruleset's)")
        cmd.add_argument("--depth", type=int, default=None, help="cards a pile (default: the ruleset's)")
        cmd.add_argument("--budget", type=int, default=5_000_000, help="work units, about a microsecond each (default 5,000,000)")
        cmd.set_defaults(run=run)


def _layout(args: argparse.Namespace, service: Service) -> tuple[str, Any]:
    seed = args.seed or new_seed()
    return seed, deal_layout(service.ruleset(args.ruleset), seed, args.piles, args.depth)


def _view(layout: Any) -> list[dict[str, Any]]:
    return [{"cards": [f.upper() for f in p.cards], "face_down": p.down} for p in layout.piles]


def _deal(args: argparse.Namespace) -> int:
    service = Service.from_settings()
    seed, layout = _layout(args, service)
    print_json({"seed": seed, "layout": {"piles": _view(layout)}})
    return 0


def _solve(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    service = Service.from_settings(settings)
    seed, layout = _layout(args, service)
    ruleset, lexicon = service.resolve(args.ruleset, None)
    search = WordSearch(AnagramIndexes(settings.data_dir))
    work = Work(args.budget, operation="solitaire_solve")
    found = solve(layout, search.solitaire_words(ruleset, lexicon, work), ruleset.solitaire, work)
    moves = [{"word": [f.upper() for f in m.cards], "piles": list(m.piles)} if m.rebuild is None else {"rebuild": list(m.rebuild)} for m in found.moves]
    print_json({"seed": seed, "won": found.won, "cards_laid": found.cards_laid, "truncated": found.truncated, "moves": moves})
    return 0

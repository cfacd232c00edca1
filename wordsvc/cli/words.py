"""``wordsvc check WORD``: the verdict on a word, as JSON (exit 1 when it is not valid, so scripts can test it)."""

from __future__ import annotations

import argparse
from typing import Any

from ..service import Service
from .common import print_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    check = sub.add_parser("check", help="print the verdict on a word as JSON")
    check.add_argument("word")
    check.add_argument("--ruleset", default=None, help="ruleset id (default: the ruleset of --lang, else standard)")
    check.add_argument("--lang")
    check.add_argument("--locale", default="en")
    check.set_defaults(run=_check)


def _check(args: argparse.Namespace) -> int:
    verdict = Service.from_settings().verdict(args.word, args.ruleset, args.lang)
    print_json(verdict.to_dict(args.locale))
    return 0 if verdict.valid else 1

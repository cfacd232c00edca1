"""Data commands: ``wordsvc build`` (compile the lexicons), ``check-rulesets``, ``derive-deck``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..config import Settings
from ..core.errors import RulesetError
from ..data.build import build_all
from ..data.decks import ALPHABETS, DECK_NAMES, derive_deck, read_forms
from ..data.rulesets import load_rulesets
from ..service import Service
from .common import CliError

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    rulesets = sub.add_parser("check-rulesets", help="load every ruleset of a folder and list every problem")
    rulesets.add_argument("folder", nargs="?")
    rulesets.set_defaults(run=_check_rulesets)

    build = sub.add_parser("build", help="compile the lexicons into the data folder")
    build.add_argument("--only", help="comma-separated lexicon ids")
    build.add_argument("--force", action="store_true", help="rebuild even when up to date")
    build.set_defaults(run=_build)

    derive = sub.add_parser("derive-deck", help="derive a language's 118-card deck from its lexicon's letter frequencies")
    derive.add_argument("--lang", required=True, help="lexicon id or tag of a language whose manifest has a deck_plan (docs/languages.md)")
    derive.add_argument("--forms", help="word list to count instead of the lexicon's own forms (needed for analyser lexicons)")
    derive.add_argument("--write", action="store_true", help="write rulesets/decks/<name>.yaml instead of printing")
    derive.set_defaults(run=_derive_deck)


def _check_rulesets(args: argparse.Namespace) -> int:
    folder = Path(args.folder) if args.folder else Settings.from_env().rulesets_dir
    if not folder.is_dir():
        raise CliError(f"{folder}: not a folder")
    try:
        book = load_rulesets(folder)
    except RulesetError as err:
        for line in err.problems.get("rulesets", [err.detail]):
            print(line)
        return 1
    for ruleset in book:
        print(f"{ruleset.id}: ok ({ruleset.name}; {ruleset.deck.size} cards)")
    return 0


def _build(args: argparse.Namespace) -> int:
    only = tuple(s.strip() for s in args.only.split(",")) if args.only else None
    settings = Settings.from_env()
    build_all(settings.data_dir, only=only, force=args.force, rulesets_dir=settings.rulesets_dir)
    return 0


def _derive_deck(args: argparse.Namespace) -> int:
    service = Service.from_settings()
    lang = service.languages.resolve(args.lang)
    if lang not in ALPHABETS:
        raise CliError(f"no deck_plan with an alphabet in the manifest of {lang}; known: {', '.join(ALPHABETS)}")
    lexicon = service.languages.get(lang)
    if args.forms is None and not lexicon.info.enumerable:
        raise CliError(f"{lang} is an analyser that cannot list its words; give --forms FILE")
    forms = list(read_forms(args.forms)) if args.forms else None
    note = f"the words of {Path(args.forms).name} that {lang} reads as ordinary, written wholly in the deck's letters" if args.forms else ""
    text = derive_deck(lang, lexicon, service.languages.get("en-US"), forms, note)
    if args.write:
        path = Settings.from_env().rulesets_dir / "decks" / f"{DECK_NAMES[lang]}.yaml"
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    else:
        sys.stdout.write(text)
    return 0

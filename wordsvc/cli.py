"""``wordsvc``: the service's operations from a shell.

Bad input exits with status 2 and a one-line reason on stderr, never a
traceback; a word that is not valid is an answer (exit 0; ``check`` exits 1
so scripts can test it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from marshmallow import ValidationError

from .config import Settings

__all__ = ["main"]


class CliError(Exception):
    """A problem to report in one line."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except CliError as err:
        print(f"wordsvc: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as err:
        from .core.errors import WordsvcError
        from .web.problems import flatten_errors

        if isinstance(err, WordsvcError):
            detail = "; ".join(f"{k}: {', '.join(v)}" for k, v in err.problems.items()) or err.detail
            print(f"wordsvc: {err.detail} {detail}".strip(), file=sys.stderr)
        elif isinstance(err, ValidationError):
            flat = flatten_errors(err.messages)
            print("wordsvc: invalid input: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in flat.items()), file=sys.stderr)
        else:
            print(f"wordsvc: {type(err).__name__}: {err}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="wordsvc", description="Quiddler dictionary and rules-variant service.")
    sub = parser.add_subparsers(dest="command", required=True)

    check = sub.add_parser("check", help="print the verdict on a word as JSON")
    check.add_argument("word")
    check.add_argument("--ruleset", default="standard")
    check.add_argument("--lang")
    check.add_argument("--locale", default="en")
    check.set_defaults(run=_check)

    score = sub.add_parser("score", help="score a round (or a game) from a JSON file, - for stdin")
    score.add_argument("file")
    score.add_argument("--locale", default="en")
    score.set_defaults(run=_score)

    rulesets = sub.add_parser("check-rulesets", help="load every ruleset of a folder and list every problem")
    rulesets.add_argument("folder", nargs="?")
    rulesets.set_defaults(run=_check_rulesets)

    build = sub.add_parser("build", help="compile the lexicons into the data folder")
    build.add_argument("--only", help="comma-separated lexicon ids")
    build.add_argument("--force", action="store_true", help="rebuild even when up to date")
    build.set_defaults(run=_build)

    derive = sub.add_parser("derive-deck", help="derive a language's 118-card deck from its lexicon's letter frequencies")
    derive.add_argument("--lang", required=True, help="lexicon id or tag: is, et, en-US")
    derive.add_argument("--forms", help="word list to count instead of the lexicon's own forms (needed for analyser lexicons)")
    derive.add_argument("--write", action="store_true", help="write rulesets/decks/<name>.yaml instead of printing")
    derive.set_defaults(run=_derive_deck)

    from .solver_cli import add_parser as add_best

    add_best(sub)

    serve = sub.add_parser("serve", help="serve the HTTP API with gunicorn")
    settings = Settings.from_env()
    serve.add_argument("--host", default=settings.host)
    serve.add_argument("--port", type=int, default=settings.port)
    serve.add_argument("--workers", type=int, default=settings.workers)
    serve.set_defaults(run=_serve)
    return parser


def _service():  # type: ignore[no-untyped-def]
    from .service import Service

    return Service.from_settings()


def _check(args: argparse.Namespace) -> int:
    verdict = _service().verdict(args.word, args.ruleset, args.lang)
    _print(verdict.to_dict(args.locale))
    return 0 if verdict.valid else 1


def _score(args: argparse.Namespace) -> int:
    from .schemas import GameRequest, load_round_request

    text = sys.stdin.read() if args.file == "-" else _read(args.file)
    try:
        data = json.loads(text)
    except ValueError as err:
        raise CliError(f"{args.file}: not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise CliError(f"{args.file}: expected a JSON object (a round or a game)")
    service = _service()
    if "rounds" in data:
        game = GameRequest().load(data)
        result: Any = service.score_game(game["players"], game["rounds"], game["ruleset"], game["lang"])
    else:
        body = load_round_request(data)
        result = service.score_round(body["play"], body["ruleset"], body["lang"])
    _print(result.to_dict(args.locale))
    return 0


def _check_rulesets(args: argparse.Namespace) -> int:
    from .core.errors import RulesetError
    from .data.rulesets import load_rulesets

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
    from .data.build import build_all

    only = tuple(s.strip() for s in args.only.split(",")) if args.only else None
    settings = Settings.from_env()
    build_all(settings.data_dir, only=only, force=args.force, rulesets_dir=settings.rulesets_dir)
    return 0


def _derive_deck(args: argparse.Namespace) -> int:
    from .data.decks import ALPHABETS, DECK_NAMES, derive_deck, read_forms

    service = _service()
    lang = service.languages.resolve(args.lang)
    if lang not in ALPHABETS:
        raise CliError(f"no alphabet known for {lang}; known: {', '.join(ALPHABETS)}")
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


def _serve(args: argparse.Namespace) -> int:
    from .web.server import serve

    serve(args.host, args.port, args.workers)
    return 0


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"{path}: {err}") from None


def _print(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


if __name__ == "__main__":
    sys.exit(main())

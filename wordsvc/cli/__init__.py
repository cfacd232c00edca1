"""``wordsvc``: the service's operations from a shell, one module per command group.

Bad input exits with status 2 and a one-line reason on stderr, never a
traceback; a word that is not valid is an answer (exit 0; ``check`` exits 1
so scripts can test it).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import audit, best, data, games, ledger, lexicons, scoring, serve, solitaire, words
from .common import one_line

__all__ = ["main"]

#: Command groups, in the order ``wordsvc --help`` lists them.
COMMANDS = (words, scoring, data, lexicons, best, solitaire, ledger, audit, games, serve)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parser().parse_args(argv)
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # the CLI promises one line, never a traceback
        print(f"wordsvc: {one_line(err)}", file=sys.stderr)
        return 2


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="wordsvc", description="Quiddler dictionary and rules-variant service.")
    sub = top.add_subparsers(dest="command", required=True)
    for group in COMMANDS:
        group.add_parsers(sub)
    return top


if __name__ == "__main__":
    sys.exit(main())

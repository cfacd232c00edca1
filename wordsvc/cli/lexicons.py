"""Lexicon commands: ``wordsvc lexicon diff FROM TO``, what changed between two lexicons.

The arguments are read with the same schema as ``GET /lexicons/diff``
(:data:`~wordsvc.schemas.lexicons.DIFF_QUERY`), so both refuse the same
input with the same field names; the JSON printed is the API's answer.
``--all`` prints every form instead, one a line: ``+form`` added, ``-form``
removed, after a ``#`` line with the counts (what a director publishes).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..data.lexicon_diff import diff_lexicons, resolve_sides
from ..schemas.lexicons import DIFF_QUERY
from ..service import Service
from .common import print_json

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    lexicon = sub.add_parser("lexicon", help="compare lexicons")
    commands = lexicon.add_subparsers(dest="lexicon_command", required=True)
    diff = commands.add_parser("diff", help="forms added and removed from one lexicon to another, sorted")
    diff.add_argument("source", metavar="FROM", help="lexicon before: id or tag (en-US, en-US-large, ...)")
    diff.add_argument("target", metavar="TO", help="lexicon after")
    diff.add_argument("--ruleset", help="compare only the forms this ruleset accepts as words")
    diff.add_argument("--limit", default="100", help="forms listed of each side, 0-1000 (default 100)")
    diff.add_argument("--offset", default="0", help="forms of each side to skip")
    diff.add_argument("--all", action="store_true", help="print every form, +added and -removed, one a line")
    diff.set_defaults(run=_diff)


def _diff(args: argparse.Namespace) -> int:
    query = {"from": args.source, "to": args.target, "limit": args.limit, "offset": args.offset}
    if args.ruleset is not None:
        query["ruleset"] = args.ruleset
    q = DIFF_QUERY.load(query)
    service = Service.from_settings()
    ruleset = service.ruleset(q["ruleset"]) if q["ruleset"] is not None else None
    source, target = resolve_sides(service.languages, q["from_"], q["to"])
    found = diff_lexicons(source, target, ruleset)
    if not args.all:
        print_json(found.to_dict(q["offset"], q["limit"]))
        return 0
    out = sys.stdout
    try:
        out.write(
            f"# {found.source.id} -> {found.target.id}{f' ({found.ruleset})' if found.ruleset else ''}: {len(found.added)} added, {len(found.removed)} removed\n"
        )
        out.writelines(f"+{form}\n" for form in found.added)
        out.writelines(f"-{form}\n" for form in found.removed)
        out.flush()
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        sys.stderr.close()
    return 0

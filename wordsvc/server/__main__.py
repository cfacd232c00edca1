"""``python -m wordsvc.server --app module:factory [--port N] [...]``: the server from a shell, for trials.

Every field of :class:`ServerOptions` is a flag (``--header-timeout 2``,
``--inline-path /health`` repeated); unset flags keep the shipped defaults.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from .master import run
from .options import LOG_FORMATS, ServerOptions


def parse(argv: list[str] | None = None) -> tuple[str, ServerOptions]:
    defaults = ServerOptions()
    parser = argparse.ArgumentParser(prog="python -m wordsvc.server", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--app", required=True, help="the WSGI app factory, as module:factory")
    for f in dataclasses.fields(ServerOptions):
        flag = "--" + f.name.replace("_", "-")
        default = getattr(defaults, f.name)
        if f.name == "inline_paths":
            parser.add_argument(
                "--inline-path", dest="inline_paths", action="append", help=f"a path answered on the event loop (repeat; default {sorted(default)})"
            )
        elif f.name == "log_format":
            parser.add_argument(flag, choices=LOG_FORMATS, default=default)
        else:
            parser.add_argument(flag, type=type(default), default=default, help=f"default {default}")
    args = vars(parser.parse_args(argv))
    app = args.pop("app")
    if args["inline_paths"] is None:
        args["inline_paths"] = defaults.inline_paths
    return app, ServerOptions(**args)


def main(argv: list[str] | None = None) -> int:
    app, options = parse(argv)
    return run(app, options)


if __name__ == "__main__":
    sys.exit(main())

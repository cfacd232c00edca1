"""``wordsvc serve``: the HTTP API, served by gunicorn in this process tree.

The app is named by its import path, so the CLI never imports the web layer.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..config import Settings
from ..web.server import serve

__all__ = ["add_parsers"]


def add_parsers(sub: Any) -> None:
    settings = Settings.from_env()
    serve_cmd = sub.add_parser("serve", help="serve the HTTP API")
    serve_cmd.add_argument("--host", default=settings.host)
    serve_cmd.add_argument("--port", type=int, default=settings.port)
    serve_cmd.add_argument("--workers", type=int, default=settings.workers)
    serve_cmd.set_defaults(run=_serve)


def _serve(args: argparse.Namespace) -> int:
    serve(args.host, args.port, args.workers)
    return 0

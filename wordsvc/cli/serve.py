"""``wordsvc serve``: the HTTP API, served by :mod:`wordsvc.server` with the settings of :mod:`wordsvc.config`.

The app is named by its import path, so the CLI never imports the web
layer. ``--build`` first starts ``wordsvc build`` in the background (its own
process group, stopped with the server): the languages already built answer
at once, the others come online as their builds finish. The ledger's
database is migrated before the workers start.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..config import Settings
from ..data.languages import BUILDING_FILE
from ..ledger import connect, upgrade
from ..ledger.integrity.checkpoints import Signer
from ..server import ServerOptions, run

__all__ = ["APP", "add_parsers", "server_options"]

#: The WSGI app factory the server loads.
APP = "wordsvc.web.app:create_app"
#: The one path whose body may be larger than WORDSVC_MAX_BODY (WORDSVC_MAX_IMPORT_BODY): an exported event.
IMPORT_PATH = "/events/import"


def add_parsers(sub: Any) -> None:
    settings = Settings.from_env()
    serve_cmd = sub.add_parser("serve", help="serve the HTTP API")
    serve_cmd.add_argument("--host", default=settings.host)
    serve_cmd.add_argument("--port", type=int, default=settings.port)
    serve_cmd.add_argument("--workers", type=int, default=settings.workers)
    serve_cmd.add_argument("--build", action="store_true", help="build the languages not built yet in the background while serving")
    serve_cmd.set_defaults(run=_serve)


def server_options(settings: Settings, host: str, port: int, workers: int) -> ServerOptions:
    """The server's options from the service's settings; recycling after N requests gets up to 10 % jitter."""
    return ServerOptions(
        host=host,
        port=port,
        workers=workers,
        threads=settings.threads,
        header_timeout=settings.header_timeout,
        body_timeout=settings.body_timeout,
        keepalive_timeout=settings.keepalive_timeout,
        max_body=settings.max_body,
        body_limits={IMPORT_PATH: max(settings.max_import_body, settings.max_body)},
        drain_seconds=settings.drain_seconds,
        max_streams=settings.max_streams,
        max_client_streams=max(1, settings.max_streams // 2),
        stream_heartbeat=settings.stream_heartbeat,
        max_worker_rss_mb=settings.max_worker_rss_mb,
        max_requests=settings.max_requests,
        max_requests_jitter=settings.max_requests // 10,
        log_format=settings.log_format,
        cors_origins=settings.cors_origins,
        log_level=settings.log_level,
    )


def _serve(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    options = server_options(settings, args.host, args.port, args.workers)
    engine = connect(settings.database_url)
    upgrade(engine)  # the ledger's migrations, once, before any worker opens it
    engine.dispose()
    Signer.from_file(settings.ledger_key_file, settings.ledger_public_keys)  # a key file that cannot be read stops the service here, not in a worker's first write
    builder = _start_build(settings.data_dir) if args.build else None
    try:
        return run(APP, options)
    finally:
        if builder is not None and builder.poll() is None:
            os.killpg(builder.pid, signal.SIGTERM)
            builder.wait(timeout=30)


def _start_build(data_dir: Path, wait: float = 30.0) -> subprocess.Popen[bytes]:
    """``wordsvc build`` for every language, its output on our stderr, once it has written ``building.json``.

    Waiting for the file (a second or so: the builder's imports) means the
    service loads knowing what is still building, so those languages answer
    503 "building" from the first request on, not 404.
    """
    builder = subprocess.Popen([sys.executable, "-m", "wordsvc.cli", "build"], stdin=subprocess.DEVNULL, stdout=sys.stderr, start_new_session=True)
    marker, deadline = data_dir / BUILDING_FILE, time.monotonic() + wait
    while builder.poll() is None and time.monotonic() < deadline and f'"pid": {builder.pid},' not in _read(marker):
        time.sleep(0.05)
    return builder


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""

"""Running the app under gunicorn, in-process: ``wordsvc serve``.

The app is created once in the master (``preload_app``) and forked into the
workers, so rulesets are parsed once and the memory-mapped lexicons are one
copy in the page cache for all of them.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from gunicorn import util
from gunicorn.app.base import BaseApplication
from gunicorn.workers.sync import SyncWorker

from ..config import Settings
from .app import create_app

__all__ = ["serve"]


def _problem_error(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own rejections (a request line too long, bytes that are not HTTP) in our one error shape."""
    request_id = uuid.uuid4().hex
    body = json.dumps(
        {
            "type": "/docs#problem-bad-request" if status_int < 500 else "/docs#problem-internal-error",
            "title": reason,
            "status": status_int,
            "detail": mesg or reason,
            "errors": {"request": [mesg or reason]},
            "request_id": request_id,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"X-Request-ID: {request_id}\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode("latin-1")
    util.write_nonblock(sock, head + body)


class ProblemWorker(SyncWorker):  # type: ignore[misc]
    """A sync worker whose protocol-level errors are problem+json, like every other error."""

    def init_process(self) -> None:
        util.write_error = _problem_error  # gunicorn's workers call util.write_error for what they reject
        super().init_process()


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    def __init__(self, options: dict[str, Any]):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Any:
        return create_app()


def serve(host: str, port: int, workers: int) -> None:
    settings = Settings.from_env()
    _Gunicorn(
        {
            "bind": f"{host}:{port}",
            "workers": workers,
            "worker_class": "wordsvc.web.server.ProblemWorker",
            "preload_app": True,
            "accesslog": None,
            "errorlog": "-",
            "loglevel": settings.log_level,
            "timeout": 30,
            "graceful_timeout": 10,
            "limit_request_line": 8190,
            "proc_name": "wordsvc",
        }
    ).run()

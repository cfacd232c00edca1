"""Running the app under gunicorn, in-process: ``wordsvc serve``.

The app is created once in the master (``preload_app``) and forked into the
workers, so rulesets are parsed once and the memory-mapped lexicons are one
copy in the page cache for all of them.
"""

from __future__ import annotations

from typing import Any

from gunicorn.app.base import BaseApplication

from ..config import Settings
from .app import create_app

__all__ = ["serve"]


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

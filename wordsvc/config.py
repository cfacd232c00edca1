"""Settings, read from ``WORDSVC_*`` environment variables (datasette's habit: each one documented).

Every setting is listed in :data:`SETTINGS` with its default and meaning; the
README's configuration table is this list.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .data.languages import default_data_dir
from .data.rulesets import default_rulesets_dir

__all__ = ["SETTINGS", "Settings"]

SETTINGS: dict[str, tuple[str, str]] = {
    "WORDSVC_RULESETS_DIR": ("rulesets/ of the source tree", "Folder of ruleset YAML files (and decks/)."),
    "WORDSVC_DATA_DIR": ("build/ of the source tree", "Folder holding compiled lexicons (lexicons/<id>/), written by `wordsvc build`."),
    "WORDSVC_LANGUAGES": ("all that are built", "Comma-separated lexicon ids to load, e.g. `en-US,is`."),
    "WORDSVC_CORS_ORIGINS": ("`*`", "Comma-separated origins allowed by CORS, `*` for any, empty for none."),
    "WORDSVC_MAX_BODY": ("65536", "Largest request body in bytes; larger gets 413."),
    "WORDSVC_HOST": ("127.0.0.1", "Address `wordsvc serve` binds."),
    "WORDSVC_PORT": ("8000", "Port `wordsvc serve` binds."),
    "WORDSVC_WORKERS": ("2", "gunicorn worker processes for `wordsvc serve`."),
    "WORDSVC_LOG_LEVEL": ("info", "Log level of the service."),
}


@dataclass(frozen=True)
class Settings:
    rulesets_dir: Path
    data_dir: Path
    languages: tuple[str, ...] | None
    cors_origins: tuple[str, ...]
    max_body: int
    host: str
    port: int
    workers: int
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env

        def get(name: str, default: str) -> str:
            return env.get(name, default).strip()

        langs = get("WORDSVC_LANGUAGES", "")
        return cls(
            rulesets_dir=Path(get("WORDSVC_RULESETS_DIR", "") or default_rulesets_dir()),
            data_dir=Path(get("WORDSVC_DATA_DIR", "") or default_data_dir()),
            languages=tuple(s.strip() for s in langs.split(",") if s.strip()) or None,
            cors_origins=tuple(s.strip() for s in get("WORDSVC_CORS_ORIGINS", "*").split(",") if s.strip()),
            max_body=int(get("WORDSVC_MAX_BODY", "65536")),
            host=get("WORDSVC_HOST", "127.0.0.1"),
            port=int(get("WORDSVC_PORT", "8000")),
            workers=int(get("WORDSVC_WORKERS", "2")),
            log_level=get("WORDSVC_LOG_LEVEL", "info"),
        )

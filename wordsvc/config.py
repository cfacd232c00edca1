"""Settings, read from ``WORDSVC_*`` environment variables (datasette's habit: each one documented).

Every setting is listed in :data:`SETTINGS` with its default and meaning; the
README's configuration table is this list.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .data.languages import default_data_dir
from .data.rulesets import default_rulesets_dir

__all__ = ["SETTINGS", "Settings", "SettingsError", "default_database_url"]

SETTINGS: dict[str, tuple[str, str]] = {
    "WORDSVC_RULESETS_DIR": ("rulesets/ of the source tree", "Folder of ruleset YAML files (and decks/)."),
    "WORDSVC_DATA_DIR": ("build/ of the source tree", "Folder holding compiled lexicons (lexicons/<id>/), written by `wordsvc build`."),
    "WORDSVC_LANGUAGES": ("all that are built", "Comma-separated lexicon ids to load, e.g. `en-US,is`."),
    "WORDSVC_CORS_ORIGINS": ("`*`", "Comma-separated origins allowed by CORS, `*` for any, empty for none."),
    "WORDSVC_MAX_BODY": ("65536", "Largest request body in bytes; larger gets 413."),
    "WORDSVC_MAX_IMPORT_BODY": ("16777216", "Largest body of POST /events/import (an exported event) in bytes; larger gets 413."),
    "WORDSVC_HOST": ("127.0.0.1", "Address `wordsvc serve` binds."),
    "WORDSVC_PORT": ("8000", "Port `wordsvc serve` binds."),
    "WORDSVC_WORKERS": ("2", "Worker processes of `wordsvc serve` (one event loop and one thread pool each)."),
    "WORDSVC_THREADS": ("8", "Threads per worker that run requests."),
    "WORDSVC_HEAVY_CONCURRENCY": (
        "2",
        "Expensive requests (best-meld, anagrams, words, suggest, score-game) a worker runs at once, and half as many (at least one) long ones "
        "(solitaire/solve, lexicons/diff, analysis) and as many documents (the PDFs), each in a lane of its own; a client holding one may not "
        "take the last; past it they answer 503 with Retry-After, and the clients turned away get the next slots in turn (docs/operations.md).",
    ),
    "WORDSVC_WORK_SAFETY_SECONDS": (
        "30",
        "Wall-clock last resort of an operation on a work budget (/words, /anagrams, /suggest, suggestions, solitaire/solve): past it the request is "
        "a 503, logged and counted in /metrics, never a shorter answer. Budgets count work, so answers never depend on time (docs/search.md#work-budgets).",
    ),
    "WORDSVC_MEMORY_BUDGET_MB": ("256", "Private memory one worker may use; every cache (solvers, laying plans, analyser, prefixes) shares what the loaded service and a 64 MiB reserve leave of it (wordsvc/service/memory.py)."),
    "WORDSVC_MAX_WORKER_RSS_MB": ("384", "A worker whose private memory (not counting the lexicon pages workers share) passes this is replaced: a backstop; 0 turns it off."),
    "WORDSVC_MAX_REQUESTS": ("0", "Replace a worker after this many requests, plus up to 10 % jitter (0: never)."),
    "WORDSVC_DRAIN_SECONDS": ("20", "Grace period after SIGTERM: /ready turns 503 at once, accepted requests finish, then the process exits."),
    "WORDSVC_MAX_STREAMS": ("10000", "Event streams (Server-Sent Events) one worker holds open, each on its event loop, never a thread; one more gets 503 (docs/streams.md)."),
    "WORDSVC_STREAM_HEARTBEAT_SECONDS": ("15", "Seconds between the keep-alive comments of an idle event stream."),
    "WORDSVC_HEADER_TIMEOUT": ("10", "Seconds a client has to send a request's headers; then 408 and close."),
    "WORDSVC_BODY_TIMEOUT": ("10", "Seconds a client has to send a request's body; then 408 and close."),
    "WORDSVC_KEEPALIVE_TIMEOUT": ("5", "Seconds an idle keep-alive connection stays open."),
    "WORDSVC_DATABASE_URL": (
        "`sqlite:///` + var/ledger.sqlite3 of the source tree",
        "The ledger's database: `sqlite:///PATH` (WAL, synchronous=FULL) or `postgresql+psycopg://USER:PASSWORD@HOST/DB` for several replicas (docs/ledger.md).",
    ),
    "WORDSVC_LEDGER_KEY_FILE": (
        "none: checkpoints unsigned",
        "Ed25519 private key (PEM, made by `wordsvc key create`) that signs every audit entry as it is written and each event's checkpoints; kept "
        "outside the database, mode 0600 (docs/ledger.md).",
    ),
    "WORDSVC_LEDGER_PUBLIC_KEYS": (
        "none",
        "Comma-separated files of public keys (PEM) whose entry signatures the service takes as its own besides its key's: the keys of "
        "before a rotation, or the next key while a rotation reaches every replica (docs/ledger.md, \"Entry signatures\").",
    ),
    "WORDSVC_JUDGE_RESULT_SECONDS": ("10", "The judge kiosk (/judge): seconds a ruling stays on the screen."),
    "WORDSVC_JUDGE_KEY_DELAY": ("0.5", "The judge kiosk: seconds after a ruling before a key clears it (a key held from typing does not)."),
    "WORDSVC_JUDGE_IDLE_SECONDS": ("15", "The judge kiosk: seconds without a key before unfinished input is cleared."),
    "WORDSVC_STANDINGS_POLL_SECONDS": ("5", "The pages (/console, /judge, the display): how often they read again while the event stream cannot connect (docs/streams.md)."),
    "WORDSVC_BOT_DELAY_MS": ("700", "Hosted games (docs/play.md): milliseconds the server's bots wait before each move, so people can follow them (0: at once)."),
    "WORDSVC_EVENT_CREATION": (
        "open",
        "Who may create an event with POST /events (and the console's New event form): `open`, anyone who reaches the service, up to "
        "WORDSVC_OPEN_EVENTS events created without a token; `admin`, only an admin token. An admin token creates events in both (docs/operations.md).",
    ),
    "WORDSVC_OPEN_EVENTS": (
        "200",
        "With WORDSVC_EVENT_CREATION=open: the most events created without a token, counted in the ledger; past it POST /events without an "
        "admin token answers 403 open_events_exhausted (docs/operations.md).",
    ),
    "WORDSVC_PUBLIC_URL": (
        "none: the address the browser used",
        "The address players' devices reach the service at, e.g. `http://192.168.1.20:8000` or `https://quiddler.example.org`: an http(s) "
        "URL of the service's root (no path, query or fragment). Every sign-in link, QR code and printed document uses it (docs/venue.md).",
    ),
    "WORDSVC_LOG_FORMAT": ("json", "`json`: one JSON object per line (each request with its id); `plain`: readable lines."),
    "WORDSVC_LOG_LEVEL": ("info", "Log level of the service."),
}


@dataclass(frozen=True)
class Settings:
    rulesets_dir: Path
    data_dir: Path
    languages: tuple[str, ...] | None
    cors_origins: tuple[str, ...]
    max_body: int
    max_import_body: int
    host: str
    port: int
    workers: int
    threads: int
    heavy_concurrency: int
    work_safety_seconds: float
    memory_budget_mb: int
    max_worker_rss_mb: int
    max_requests: int
    drain_seconds: float
    max_streams: int
    stream_heartbeat: float
    header_timeout: float
    body_timeout: float
    keepalive_timeout: float
    database_url: str
    ledger_key_file: Path | None
    ledger_public_keys: tuple[Path, ...]
    judge_result_seconds: float
    judge_key_delay: float
    judge_idle_seconds: float
    standings_poll_seconds: float
    event_creation: str
    bot_delay_ms: int
    open_events: int
    public_url: str | None
    log_format: str
    log_level: str

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings ``env`` (default: the process environment) gives; :class:`SettingsError` lists every bad one at once."""
        read = _Reader(os.environ if env is None else env)
        langs = read.text("WORDSVC_LANGUAGES", "")
        settings = cls(
            rulesets_dir=Path(read.text("WORDSVC_RULESETS_DIR", "") or default_rulesets_dir()),
            data_dir=Path(read.text("WORDSVC_DATA_DIR", "") or default_data_dir()),
            languages=tuple(s.strip() for s in langs.split(",") if s.strip()) or None,
            cors_origins=tuple(s.strip() for s in read.text("WORDSVC_CORS_ORIGINS", "*").split(",") if s.strip()),
            max_body=read.number("WORDSVC_MAX_BODY", 65536, 1, 64 << 20),
            max_import_body=read.number("WORDSVC_MAX_IMPORT_BODY", 16 << 20, 1, 1 << 30),
            host=read.text("WORDSVC_HOST", "127.0.0.1"),
            port=read.number("WORDSVC_PORT", 8000, 0, 65535),
            workers=read.number("WORDSVC_WORKERS", 2, 1, 64),
            threads=read.number("WORDSVC_THREADS", 8, 1, 256),
            heavy_concurrency=read.number("WORDSVC_HEAVY_CONCURRENCY", 2, 1, 256),
            work_safety_seconds=read.seconds("WORDSVC_WORK_SAFETY_SECONDS", 30.0),
            memory_budget_mb=read.number("WORDSVC_MEMORY_BUDGET_MB", 256, 64, 1 << 20),
            max_worker_rss_mb=read.number("WORDSVC_MAX_WORKER_RSS_MB", 384, 0, 1 << 20),
            max_requests=read.number("WORDSVC_MAX_REQUESTS", 0, 0, 1 << 40),
            drain_seconds=read.seconds("WORDSVC_DRAIN_SECONDS", 20.0),
            max_streams=read.number("WORDSVC_MAX_STREAMS", 10000, 1, 1 << 20),
            stream_heartbeat=read.seconds("WORDSVC_STREAM_HEARTBEAT_SECONDS", 15.0),
            header_timeout=read.seconds("WORDSVC_HEADER_TIMEOUT", 10.0),
            body_timeout=read.seconds("WORDSVC_BODY_TIMEOUT", 10.0),
            keepalive_timeout=read.seconds("WORDSVC_KEEPALIVE_TIMEOUT", 5.0),
            database_url=read.text("WORDSVC_DATABASE_URL", "") or default_database_url(),
            ledger_key_file=Path(read.text("WORDSVC_LEDGER_KEY_FILE", "")) if read.text("WORDSVC_LEDGER_KEY_FILE", "") else None,
            ledger_public_keys=tuple(Path(p.strip()) for p in read.text("WORDSVC_LEDGER_PUBLIC_KEYS", "").split(",") if p.strip()),
            judge_result_seconds=read.seconds("WORDSVC_JUDGE_RESULT_SECONDS", 10.0),
            judge_key_delay=read.seconds("WORDSVC_JUDGE_KEY_DELAY", 0.5),
            judge_idle_seconds=read.seconds("WORDSVC_JUDGE_IDLE_SECONDS", 15.0),
            standings_poll_seconds=read.seconds("WORDSVC_STANDINGS_POLL_SECONDS", 5.0),
            event_creation=read.choice("WORDSVC_EVENT_CREATION", "open", ("open", "admin")),
            bot_delay_ms=read.number("WORDSVC_BOT_DELAY_MS", 700, 0, 60_000),
            open_events=read.number("WORDSVC_OPEN_EVENTS", 200, 0, 1 << 20),
            public_url=read.public_url("WORDSVC_PUBLIC_URL"),
            log_format=read.choice("WORDSVC_LOG_FORMAT", "json", ("json", "plain")),
            log_level=read.choice("WORDSVC_LOG_LEVEL", "info", ("debug", "info", "warning", "error", "critical")),
        )
        if read.problems:
            raise SettingsError("; ".join(read.problems))
        return settings


def default_database_url() -> str:
    """``var/ledger.sqlite3`` of the source tree: beside ``build/``, not in it, so ``make clean`` keeps the ledger."""
    return f"sqlite:///{Path(__file__).resolve().parents[1] / 'var' / 'ledger.sqlite3'}"


class SettingsError(ValueError):
    """One or more ``WORDSVC_*`` variables hold a value the service cannot use; the message names each."""


def _url_problem(raw: str) -> str | None:
    """What keeps ``raw`` from being the service's public address, or ``None``."""
    try:
        url = urlsplit(raw)
        url.port  # noqa: B018 (raises ValueError for a port that is not a number from 0 to 65535)
    except ValueError:
        return "must be a URL"
    if url.scheme not in ("http", "https") or not url.hostname:
        return "must be an absolute http:// or https:// URL with a host"
    if url.path not in ("", "/"):
        return "must be the service's root, with no path: the pages call /events, /qr, ... from the root"
    if url.query or url.fragment or "?" in raw or "#" in raw:
        return "must have no query (?) or fragment (#)"
    if url.username is not None or url.password is not None:
        return "must hold no user name or password"
    if any(ch.isspace() for ch in raw):
        return "must hold no spaces"
    return None


class _Reader:
    """Reads settings from an environment, collecting every problem instead of stopping at the first."""

    def __init__(self, env: Mapping[str, str]):
        self.env = env
        self.problems: list[str] = []

    def text(self, name: str, default: str) -> str:
        return self.env.get(name, default).strip()

    def number(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.text(name, str(default))
        if raw.isdigit() and low <= int(raw) <= high:
            return int(raw)
        self.problems.append(f"{name}: must be a whole number from {low} to {high}, not {raw!r}")
        return default

    def seconds(self, name: str, default: float) -> float:
        raw = self.text(name, str(default))
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if 0 < value <= 3600:
            return value
        self.problems.append(f"{name}: must be a number of seconds above 0 and at most 3600, not {raw!r}")
        return default

    def public_url(self, name: str) -> str | None:
        """An absolute http(s) URL of the service's root (no path, query, fragment or credentials), without a trailing slash; ``None`` when unset.

        Links are made by appending ``/console#...`` to it, so anything after
        the host would end up inside every link; and a path is refused because
        the pages call the API from the root (``/events``, ``/qr``), so a
        service under ``/wordsvc`` of a proxy would serve links that work and
        pages that do not (docs/venue.md).
        """
        raw = self.text(name, "")
        if not raw:
            return None
        problem = _url_problem(raw)
        if problem:
            self.problems.append(f"{name}: {problem}, not {raw!r} (e.g. http://192.168.1.20:8000 or https://quiddler.example.org)")
            return None
        return raw.rstrip("/")

    def choice(self, name: str, default: str, options: tuple[str, ...]) -> str:
        raw = self.text(name, default).lower()
        if raw in options:
            return raw
        self.problems.append(f"{name}: must be one of {', '.join(options)}, not {raw!r}")
        return default

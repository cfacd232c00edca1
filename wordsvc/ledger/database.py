"""Opening the ledger's database: the engine for a URL, its pragmas, and its migrations.

SQLite (the default) runs in WAL mode with ``synchronous=FULL``: a commit is
on disk before the answer leaves. Write transactions begin with ``BEGIN
IMMEDIATE``, so writers from several worker processes wait (``busy_timeout``)
for the one write lock instead of failing when a read turns into a write.
PostgreSQL serializes the writes of one event with an advisory lock
(:func:`lock_chain`); writes to different events run side by side.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["BUSY_TIMEOUT_S", "connect", "current_revision", "describe", "head_revision", "lock_chain", "upgrade", "writing"]

#: Seconds a SQLite writer waits for another process's write lock before giving up.
BUSY_TIMEOUT_S = 30.0
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_WRITE = "wordsvc_write"


def connect(url: str) -> Engine:
    """An engine for ``url`` (``sqlite:///PATH`` or ``postgresql+psycopg://...``); a SQLite file's folder is created."""
    try:
        parsed = make_url(url)
    except ArgumentError as err:
        raise ValueError(f"not a database URL: {url!r} ({err})") from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:":
            raise ValueError("a SQLite ledger needs a file: sqlite:///PATH")
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_S, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_connected)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if backend == "postgresql":
        if parsed.get_driver_name() != "psycopg":
            raise ValueError("PostgreSQL is reached through psycopg 3: postgresql+psycopg://USER@HOST/DB")
        return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)
    raise ValueError(f"the ledger runs on SQLite or PostgreSQL, not {backend}")


def _sqlite_connected(dbapi: sqlite3.Connection, _record: object) -> None:
    dbapi.isolation_level = None  # SQLAlchemy's begin event below issues BEGIN itself
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", f"busy_timeout={int(BUSY_TIMEOUT_S * 1000)}"):
        dbapi.execute(f"PRAGMA {pragma}")


def _sqlite_begin(conn: Connection) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """A write transaction: committed when the block ends, rolled back if it raises."""
    with engine.connect() as conn:
        conn.execution_options(**{_WRITE: True})
        with conn.begin():
            yield conn


def lock_chain(conn: Connection, chain: str) -> None:
    """Serialize writes to one audit chain across processes (PostgreSQL; SQLite's BEGIN IMMEDIATE already does)."""
    if conn.dialect.name == "postgresql":
        key = int.from_bytes(hashlib.sha256(chain.encode("utf-8")).digest()[:8], "big", signed=True)
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})


def _alembic(conn: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = conn
    return config


def upgrade(engine: Engine) -> str:
    """Bring the schema to the newest migration (safe to run from several processes at once); the revision."""
    with writing(engine) as conn:
        lock_chain(conn, "wordsvc migrations")  # one migrator at a time
        command.upgrade(_alembic(conn), "head")
        return current_revision(conn) or ""


def current_revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str:
    return ScriptDirectory(str(MIGRATIONS)).get_current_head() or ""


def describe(url: str) -> str:
    """``url`` without its password, for logs and ``/ready``."""
    return make_url(url).render_as_string(hide_password=True)

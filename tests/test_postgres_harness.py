"""The database fixtures themselves (conftest.py, api_tests/postgres.py): the ledger's tests trust them.

Each test talks to a real server or a real SQLite file: a fixture that handed out a
shared database, a server without fsync, or a server left running would make the
ledger's own tests pass for the wrong reasons.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from api_tests.postgres import PostgresUnavailable, create_database, drop_database, temporary_postgres


def _scalar(url: str, query: str) -> object:
    engine = sa.create_engine(url, poolclass=NullPool)  # no pooled connection outlives the test, or DROP DATABASE would wait
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(query)).scalar_one()
    finally:
        engine.dispose()


# First of the database_url tests, so it sees the database before anything else in the module has touched it.
def test_database_url_is_fresh_and_keeps_what_is_committed(database_url: str) -> None:
    sqlite_file = Path(make_url(database_url).database or "") if database_url.startswith("sqlite") else None
    if sqlite_file is not None:
        assert sqlite_file.name == "ledger.sqlite3" and not sqlite_file.exists()
    engine = sa.create_engine(database_url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE TABLE marker (word TEXT NOT NULL)"))
            conn.execute(sa.text("INSERT INTO marker VALUES ('quiddler')"))
    finally:
        engine.dispose()
    assert _scalar(database_url, "SELECT word FROM marker") == "quiddler"  # a new engine, new connections
    if sqlite_file is not None:
        assert sqlite_file.is_file()  # made by SQLAlchemy's first connection, not by the fixture


def test_server_answers(postgres_server_url: str) -> None:
    assert str(_scalar(postgres_server_url, "SELECT version()")).startswith("PostgreSQL ")


def test_server_runs_with_fsync_on(postgres_server_url: str) -> None:
    assert _scalar(postgres_server_url, "SHOW fsync") == "on"
    assert _scalar(postgres_server_url, "SHOW synchronous_commit") == "on"


def test_created_databases_are_separate(postgres_server_url: str) -> None:
    names = ["harness_a", "harness_b"]
    first, second = (create_database(postgres_server_url, name) for name in names)
    try:
        assert (_scalar(first, "SELECT current_database()"), _scalar(second, "SELECT current_database()")) == tuple(names)
        engine = sa.create_engine(first, poolclass=NullPool)
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE TABLE only_in_a (id INTEGER)"))
        engine.dispose()
        assert _scalar(first, "SELECT to_regclass('only_in_a') IS NOT NULL") is True
        assert _scalar(second, "SELECT to_regclass('only_in_a') IS NOT NULL") is False
    finally:
        for name in names:
            drop_database(postgres_server_url, name)


def test_temporary_postgres_stops_and_cleans_up_when_the_block_raises(postgres_server_url: str) -> None:
    # postgres_server_url: skipped, or failed under CI, exactly when the other PostgreSQL tests are
    try:
        with pytest.raises(RuntimeError, match="the block failed"), temporary_postgres() as url:
            folder = Path(str(_scalar(url, "SHOW data_directory"))).parent
            raise RuntimeError("the block failed")
    except PostgresUnavailable as err:  # WORDSVC_TEST_POSTGRES_URL given, no server binaries here
        pytest.skip(f"no PostgreSQL binaries to start a second server: {err.reason}")
    assert not folder.exists()
    with pytest.raises(sa.exc.OperationalError):
        _scalar(url, "SELECT 1")


def test_unavailable_postgres_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PG_BIN", "/nonexistent")
    with pytest.raises(PostgresUnavailable, match="PG_BIN=/nonexistent has no executable initdb"), temporary_postgres():
        pass

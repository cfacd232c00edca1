"""Fixtures for the SQL ledger's tests, in tests/ and api_tests/ alike: real databases, never mocks.

``postgres_server_url`` (session): the admin SQLAlchemy URL of a real PostgreSQL server:
``WORDSVC_TEST_POSTGRES_URL`` when set, else a throwaway server that
``api_tests/postgres.py`` starts for the session — only once a test asks for it.

``database_url`` (module, ids ``sqlite`` and ``postgresql``): the URL of a fresh, empty
database of each kind, so a module's tests run against both.

Without PostgreSQL its tests are skipped, and the run's last lines say so and how many;
under CI (``CI`` set) they fail instead: CI must never pass by skipping them.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from typing import NoReturn

import pytest
from sqlalchemy.engine import make_url

from api_tests.postgres import PostgresUnavailable, create_database, drop_database, server_version, temporary_postgres

UNAVAILABLE = "PostgreSQL not available:"  # how the skip (or failure) begins, so that the summary can count them
_reason = pytest.StashKey[str]()
_server = pytest.StashKey[str]()


def _unavailable(config: pytest.Config, reason: str) -> NoReturn:
    config.stash[_reason] = reason
    if os.environ.get("CI"):
        pytest.fail(f"{UNAVAILABLE} {reason} (CI is set, so this fails rather than skips)", pytrace=False)
    pytest.skip(f"{UNAVAILABLE} {reason}")


@pytest.fixture(scope="session")
def postgres_server_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The admin URL of a PostgreSQL server, e.g. ``postgresql+psycopg://postgres@127.0.0.1:PORT/wordsvc``."""
    with ExitStack() as stack:
        url = os.environ.get("WORDSVC_TEST_POSTGRES_URL", "").strip()
        reason = ""
        if not url:
            try:
                url = stack.enter_context(temporary_postgres())
            except PostgresUnavailable as err:
                reason = err.reason
        if reason:
            _unavailable(request.config, reason)  # outside the except: the reason alone, not a chained traceback
        parsed = make_url(url)
        request.config.stash[_server] = f"{server_version(url)} at {parsed.host}:{parsed.port}"
        yield url


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh database's URL for this module: a file SQLite has yet to create, or a new PostgreSQL database, dropped afterwards."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('sqlite') / 'ledger.sqlite3'}"
        return
    admin = request.getfixturevalue("postgres_server_url")  # here, not as a parameter: the sqlite runs need no server
    name = f"{re.sub(r'[^a-z0-9]+', '_', request.module.__name__.lower())[:50]}_{uuid.uuid4().hex[:8]}"
    yield create_database(admin, name)
    drop_database(admin, name)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line at the very end on whether the PostgreSQL tests ran, so a skip is not missed among the others."""
    if _reason in config.stash:
        reports = [*terminalreporter.stats.get("skipped", []), *terminalreporter.stats.get("error", [])]
        count = sum(UNAVAILABLE in str(getattr(report, "longrepr", "")) for report in reports)
        outcome = "failed (CI is set)" if os.environ.get("CI") else "skipped"
        terminalreporter.write_line(
            f"PostgreSQL: not available ({config.stash[_reason]}); {count} PostgreSQL test(s) {outcome}"
            " — install the Debian postgresql package (make setup does, as root)",
            yellow=True,
            bold=True,
        )
    elif _server in config.stash:
        terminalreporter.write_line(f"PostgreSQL: {config.stash[_server]}")

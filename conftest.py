"""Fixtures for the SQL ledger's tests, in tests/ and api_tests/ alike: real databases, never mocks.

``postgres_server_url`` (session): the admin SQLAlchemy URL of a real PostgreSQL server:
``WORDSVC_TEST_POSTGRES_URL`` when set, else a throwaway server that
``api_tests/postgres.py`` starts for the session — only once a test asks for it.

``database_url`` (module, ids ``sqlite`` and ``postgresql``): the URL of a fresh, empty
database of each kind, so a module's tests run against both.

Every test is marked by what it needs (:func:`pytest_collection_modifyitems`), from the fixtures
it uses and where it lives, so a new test lands in the right set without anyone listing it:
``browser`` (Chromium), ``postgres`` (a PostgreSQL server), ``server`` (a live ``wordsvc serve``:
all of api_tests/, and the tests of tests/ that start the HTTP server through tests/test_server.py or
tests/framing_harness.py), ``processes`` (its module runs child processes: the CLI, a builder),
``lexicons`` (a built lexicon other than English) and ``screenshots`` (it takes the pictures the
docs show). ``make check`` runs what needs none of them; ``make screenshots``
what takes the pictures.

Without PostgreSQL its tests are skipped, and the run's last lines say so and how many;
under CI (``CI`` set) they fail instead: CI must never pass by skipping them. The browser
tests (api_tests/browser.py) report a missing Chromium the same way, through :func:`unavailable`,
and so does the generated TypeScript client's test (api_tests/test_clients.py) a missing Node.js,
through the fixture ``unavailable_tool``.
"""

from __future__ import annotations

import os
import re
import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import NoReturn

import pytest
from hypothesis import settings
from sqlalchemy.engine import make_url

from api_tests.postgres import PostgresUnavailable, create_database, drop_database, server_version, temporary_postgres

#: Property tests draw the same examples on every run (``derandomize``), so the suite passes or fails by the code
#: alone, never by the luck of a draw; HYPOTHESIS_PROFILE=explore draws new ones, for a search rather than a check.
settings.register_profile("suite", derandomize=True)
settings.register_profile("explore", derandomize=False)
#: ``make check``: the same fixed draws, a fifth as many (Hypothesis draws 100 by default), for a quick inner loop.
settings.register_profile("check", derandomize=True, max_examples=20)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))

pytest_plugins = ["api_tests.browser"]  # the browser tests' fixtures: browser, pages_server, steady_server

#: What a run can lack, and how to get it: each skip (or failure) begins "<what> not available:", so that the summary can count them.
NEEDS = {
    "PostgreSQL": "install the Debian postgresql package (make setup does, as root)",
    "Browser": "install Debian's chromium, Playwright and axe-core (make setup does, as root)",
    "Node.js": "install Node.js 18 or newer with npm (make setup then runs npm ci)",
    "Poppler": "install Debian's poppler-utils, for pdftotext and pdftoppm (make setup does, as root)",
    "Lexicon": "run `make setup`: as root it installs each language's Debian package, then `wordsvc build` builds them",
}
_missing = pytest.StashKey[dict[str, str]]()
_server = pytest.StashKey[str]()


#: The black-box tests: every one talks HTTP to a ``wordsvc serve`` it starts (api_tests/conftest.py).
API_TESTS = Path(__file__).resolve().parent / "api_tests"
#: Fixtures that start a live server or hold one: a test using any of them is marked ``server`` wherever it lives.
SERVER_FIXTURES = {"base_url", "served", "admin_token", "ledger_server", "pages_server", "steady_server"}
#: The modules of tests/ that start wordsvc's HTTP server in-tree: a test module holding anything of theirs is marked ``server``.
SERVER_HARNESS = {"test_server", "framing_harness"}
#: Names in a test's code that take the docs' pictures (api_tests/browser.py): such a test is marked ``screenshots``.
SCREENSHOT_NAMES = {"screenshot", "screenshot_folder"}


def _holds(module: object, sources: set[str]) -> bool:
    """Whether ``module`` is one of ``sources`` or holds (imported) a class or function defined in one of them."""
    if module is None:
        return False
    return module.__name__.rsplit(".", 1)[-1] in sources or any(getattr(value, "__module__", None) in sources for value in vars(module).values())


def needs(item: pytest.Item) -> set[str]:
    """The markers of what ``item`` needs beyond Python and the English lexicons, read from its fixtures, parameters, module and code."""
    fixtures = set(getattr(item, "fixturenames", ()))
    params = getattr(getattr(item, "callspec", None), "params", {})
    module = getattr(item, "module", None)
    found = set()
    if "browser" in fixtures:
        found.add("browser")
    if "postgres_server_url" in fixtures or "postgresql" in params.values():  # database_url, ledger_server, pages_server: ids sqlite, postgresql
        found.add("postgres")
    if fixtures & SERVER_FIXTURES or API_TESTS in Path(str(item.path)).parents or _holds(module, SERVER_HARNESS):
        found.add("server")
    if module is not None and getattr(module, "subprocess", None) is subprocess:  # it runs the CLI, a builder or a server as a child
        found.add("processes")
    lexicons = getattr(module, "LEXICONS", ())  # the ids of the built lexicons tests/conftest.py's ``service`` loads
    if isinstance(lexicons, tuple | list) and any(not str(lexicon).startswith("en") for lexicon in lexicons):
        found.add("lexicons")
    function = getattr(item, "function", None)
    if function is not None and SCREENSHOT_NAMES & set(function.__code__.co_names):
        found.add("screenshots")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test by what it needs (:func:`needs`), so that ``-m`` selects by it (make check, make screenshots)."""
    for item in items:
        for name in sorted(needs(item)):
            item.add_marker(name)


def unavailable(config: pytest.Config, what: str, reason: str) -> NoReturn:
    """Skip the test for want of ``what`` (a key of :data:`NEEDS`); fail it under CI."""
    config.stash.setdefault(_missing, {})[what] = reason
    if os.environ.get("CI"):
        pytest.fail(f"{what} not available: {reason} (CI is set, so this fails rather than skips)", pytrace=False)
    pytest.skip(f"{what} not available: {reason}")


@pytest.fixture
def unavailable_tool(request: pytest.FixtureRequest) -> Callable[[str, str], NoReturn]:
    """:func:`unavailable` for a test module that cannot import this file by name (``conftest`` is tests/conftest.py by then)."""

    def skip(what: str, reason: str) -> NoReturn:
        unavailable(request.config, what, reason)

    return skip


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
            unavailable(request.config, "PostgreSQL", reason)  # outside the except: the reason alone, not a chained traceback
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
    """One line at the very end on whether the PostgreSQL (and browser) tests ran, so a skip is not missed among the others."""
    missing = config.stash.get(_missing, {})
    reports = [*terminalreporter.stats.get("skipped", []), *terminalreporter.stats.get("error", []), *terminalreporter.stats.get("failed", [])]
    outcome = "failed (CI is set)" if os.environ.get("CI") else "skipped"
    for what, reason in missing.items():
        count = sum(f"{what} not available:" in str(getattr(report, "longrepr", "")) for report in reports)
        terminalreporter.write_line(f"{what}: not available ({reason}); {count} {what.lower()} test(s) {outcome} — {NEEDS[what]}", yellow=True, bold=True)
    if "PostgreSQL" not in missing and _server in config.stash:
        terminalreporter.write_line(f"PostgreSQL: {config.stash[_server]}")

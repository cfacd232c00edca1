"""The markers the root conftest.py sets from what a test uses, which ``make check`` and ``make screenshots`` select by.

A test is marked by its fixtures, its parameters, its module and its code, never by a list of
names: these cases hold each rule, so that a test needing a browser, a database server or a
lexicon other than English cannot slip into the quick loop, and one needing none stays in it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from api_tests.browser import screenshot  # loaded already: the root conftest's plugin

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def needs(request: pytest.FixtureRequest) -> Any:
    """The root conftest's ``needs`` (``conftest`` names tests/conftest.py here, so it is found among the plugins)."""
    for plugin in request.config.pluginmanager.get_plugins():
        if getattr(plugin, "__file__", None) == str(ROOT / "conftest.py"):
            return plugin.needs
    raise AssertionError("the root conftest.py is not loaded")


def item(fixtures: tuple[str, ...] = (), params: dict[str, Any] | None = None, path: str = "tests/test_x.py", **module: Any) -> Any:
    """A stand-in for a collected test: what ``needs`` reads of one."""
    mod = ModuleType("test_x")
    vars(mod).update(module)

    def test_x() -> None:
        pass

    return SimpleNamespace(fixturenames=list(fixtures), callspec=SimpleNamespace(params=params or {}), module=mod, path=ROOT / path, function=test_x)


def test_an_in_process_test_on_english_needs_nothing(needs: Any, request: pytest.FixtureRequest) -> None:
    assert needs(item(("lexicon", "rulesets"), LEXICONS=("en-US", "en-US-large"))) == set()
    assert needs(request.node) == set()  # this very test: it is in make check's set


def test_the_browser_fixture_marks_browser(needs: Any) -> None:
    assert needs(item(("browser", "steady_server"), path="api_tests/test_x.py")) == {"browser", "server"}


def test_a_postgresql_run_of_a_parametrized_database_marks_postgres_and_its_sqlite_run_does_not(needs: Any) -> None:
    assert "postgres" in needs(item(("database_url",), {"database_url": "postgresql"}))
    assert "postgres" not in needs(item(("database_url",), {"database_url": "sqlite"}))
    assert "postgres" in needs(item(("postgres_server_url",)))


def test_every_test_in_api_tests_talks_to_a_live_server(needs: Any) -> None:
    assert needs(item(path="api_tests/test_x.py")) == {"server"}
    assert needs(item(("base_url",))) == {"server"}


def test_a_module_holding_the_in_tree_http_servers_harness_marks_server(needs: Any) -> None:
    harness = type("Server", (), {"__module__": "test_server"})
    assert needs(item(Server=harness)) == {"server"}


def test_a_module_that_runs_child_processes_marks_processes(needs: Any) -> None:
    import subprocess

    assert needs(item(subprocess=subprocess)) == {"processes"}


def test_a_lexicon_other_than_english_marks_lexicons(needs: Any) -> None:
    assert needs(item(LEXICONS=("en-US", "is"))) == {"lexicons"}
    assert needs(item(LEXICONS=ROOT / "build" / "lexicons")) == set()  # a folder, not a list of ids


def _photographed(page: Any) -> None:
    """A test's body that takes a picture, as a test module's function calls it (a global name)."""
    screenshot(page, "x")


def test_a_test_that_takes_a_picture_marks_screenshots(needs: Any) -> None:
    photographed = item(path="api_tests/test_x.py")
    photographed.function = _photographed
    assert needs(photographed) == {"server", "screenshots"}

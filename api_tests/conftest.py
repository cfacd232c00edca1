"""The session fixture ``base_url``: a real wordsvc server, reached over HTTP.

With ``WORDSVC_URL`` set, the tests talk to that server. Otherwise the server
is started as a subprocess with the command ``make serve`` runs
(``wordsvc serve --host 127.0.0.1 --port <free port> --workers 2``) on a
ledger of its own, the fixture waits for ``GET /ready`` and stops the server
when the session ends; ``admin_token`` is an admin token of that ledger.
``ledger_server`` runs the ledger's tests on a server with SQLite and on one
with PostgreSQL.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parent.parent
READY_TIMEOUT = 60.0  # seconds, a safety net: the lexicons are memory-mapped, start-up takes a few seconds at most
STOP_TIMEOUT = 30.0  # the server drains for WORDSVC_DRAIN_SECONDS (20 s) at most


def _wordsvc_command() -> str:
    candidates = [REPO / ".venv" / "bin" / "wordsvc", Path(sys.executable).parent / "wordsvc"]
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    found = shutil.which("wordsvc")
    if found:
        return found
    pytest.fail(f"no wordsvc executable: looked at {', '.join(map(str, candidates))} and PATH; run `make setup`")


def node_or_skip(what: str) -> str:
    """Node.js 18 or newer (built-in fetch) from PATH; the test is skipped, naming ``what`` was not run, without it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip(f"node is not on PATH: {what} was not run")
    version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < 18:
        pytest.skip(f"node {version} is older than 18 (no built-in fetch): {what} was not run")
    return node


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    last = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"wordsvc serve exited with status {process.returncode} before it was ready; its stderr:\n{log.read_text(errors='replace')}")
        try:
            response = requests.get(f"{url}/ready", timeout=2)
            if response.status_code == 200:
                return
            last = f"GET /ready answered {response.status_code}: {response.text[:500]}"
        except requests.RequestException as err:
            last = f"GET /ready failed: {err}"
        time.sleep(0.2)
    _stop(process)
    pytest.fail(f"wordsvc serve was not ready after {READY_TIMEOUT:.0f} s ({last}); its stderr:\n{log.read_text(errors='replace')}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)  # the server's master drains its workers
    try:
        process.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the server's own process group, started by us
        process.wait(timeout=5)


@contextmanager
def running_server(prefix: str, env: dict[str, str] | None = None) -> Iterator[tuple[str, Path]]:
    """``wordsvc serve`` on a free port, as ``make serve`` starts it: its URL and its log, until the block ends.

    The ledger is a fresh SQLite file in the server's temporary folder unless
    ``env`` names another ``WORDSVC_DATABASE_URL``; ``env`` adds to the environment.
    """
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [_wordsvc_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        log = Path(tmp) / "stderr.log"
        environ = {**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp}/ledger.sqlite3", "WORDSVC_BOT_DELAY_MS": "0", **(env or {})}
        with log.open("wb") as stderr:
            process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=stderr, stderr=stderr, start_new_session=True, env=environ)
            try:
                _wait_ready(url, process, log)
                yield url, log
            finally:
                _stop(process)


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str | None]]:
    """The session's server: its URL (no trailing slash) and its ledger's database URL (``None`` for a server given by ``WORDSVC_URL``)."""
    given = os.environ.get("WORDSVC_URL", "").strip()
    if given:
        yield given.rstrip("/"), None
        return
    database_url = f"sqlite:///{tmp_path_factory.mktemp('ledger')}/ledger.sqlite3"
    with running_server("wordsvc-api-tests-", env={"WORDSVC_DATABASE_URL": database_url}) as (url, _log):
        yield url, database_url


@pytest.fixture(scope="session")
def base_url(served: tuple[str, str | None]) -> str:
    """Base URL of a running wordsvc, without a trailing slash."""
    return served[0]


@pytest.fixture(scope="session")
def admin_token(served: tuple[str, str | None]) -> str | None:
    """An admin token of the session's server: made with the CLI, or ``WORDSVC_ADMIN_TOKEN`` for a server given by ``WORDSVC_URL``."""
    database_url = served[1]
    return admin_token_for(database_url) if database_url else os.environ.get("WORDSVC_ADMIN_TOKEN") or None


@dataclass(frozen=True)
class LedgerServer:
    """A running wordsvc with its own ledger database, and an admin token for it."""

    url: str
    database_url: str
    admin_token: str
    backend: str

    def headers(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.admin_token}"}


def wordsvc_cli(database_url: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``wordsvc ARGS`` on the ledger at ``database_url`` (the CLI acts as the machine's administrator), with ``env`` added (a key file)."""
    env = {**os.environ, "WORDSVC_DATABASE_URL": database_url, **(env or {})}
    return subprocess.run([_wordsvc_command(), *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120, check=False)


def admin_token_for(database_url: str, env: dict[str, str] | None = None) -> str:
    """A new admin token, made by the command line (with the server's key file in ``env`` when it has one: it seals the token)."""
    done = wordsvc_cli(database_url, "token", "create", "--admin", "--label", "api tests", env=env)
    assert done.returncode == 0, done.stderr
    return str(json.loads(done.stdout)["token"])


@pytest.fixture(scope="session", params=["sqlite", "postgresql"])
def ledger_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LedgerServer]:
    """wordsvc on a fresh SQLite ledger, then on a fresh PostgreSQL database: every ledger API test runs on both."""
    if request.param == "sqlite":
        database_url = f"sqlite:///{tmp_path_factory.mktemp('ledger-api')}/ledger.sqlite3"
    else:
        from .postgres import create_database

        database_url = create_database(request.getfixturevalue("postgres_server_url"), "wordsvc_api_tests")
    with running_server(f"wordsvc-ledger-{request.param}-", env={"WORDSVC_DATABASE_URL": database_url}) as (url, _log):
        yield LedgerServer(url, database_url, admin_token_for(database_url), request.param)

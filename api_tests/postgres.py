"""A real, throwaway PostgreSQL server for the tests and the benchmarks.

The ledger is tested against PostgreSQL itself, never a mock: :func:`temporary_postgres`
runs Debian's ``initdb`` in a fresh folder, starts ``postgres`` on a free port of
127.0.0.1 (its unix socket in that folder too, so it never meets a system cluster)
and removes it all when the block ends. ``fsync`` stays on, as in production, because
the ledger's durability is part of what is tested.

PostgreSQL will not run as root, so under root (CI, the containers) the server and its
tools run as Debian's ``postgres`` system user; otherwise as the current user.
Nothing here imports pytest: ``bench/ledger.py`` uses it from a script.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy.engine import URL, make_url

DEBIAN_ROOT = Path("/usr/lib/postgresql")
TOOLS = ("initdb", "pg_ctl", "postgres")
READY_TIMEOUT = 60.0  # seconds; a fresh cluster accepts connections in well under one
STOP_TIMEOUT = 30.0  # `pg_ctl stop -m fast` rolls back open transactions and checkpoints: a second or two
DATABASE = "wordsvc"
# Given on the command line, so they win over the cluster's postgresql.conf. fsync and
# synchronous_commit are spelled out: the tests rely on a commit being on disk when it returns.
SETTINGS = {
    "listen_addresses": "127.0.0.1",
    "max_connections": "100",
    "fsync": "on",
    "synchronous_commit": "on",
    "timezone": "UTC",
}


class PostgresUnavailable(Exception):
    """No PostgreSQL to run here (no binaries, or no user to run them as): the reason says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PostgresFailed(RuntimeError):
    """PostgreSQL is installed but initdb or the server failed: a real error, never a reason to skip."""


def find_bin() -> Path:
    """The folder with initdb, pg_ctl and postgres: ``$PG_BIN``, else Debian's highest version."""
    given = os.environ.get("PG_BIN", "").strip()
    if given:
        folder = Path(given)
        missing = [tool for tool in TOOLS if not os.access(folder / tool, os.X_OK)]
        if missing:
            raise PostgresUnavailable(f"PG_BIN={given} has no executable {', '.join(missing)}")
        return folder
    found = [path.parent for path in DEBIAN_ROOT.glob("*/bin/initdb") if all(os.access(path.parent / tool, os.X_OK) for tool in TOOLS)]
    if not found:
        raise PostgresUnavailable(f"no {'/'.join(TOOLS)} under {DEBIAN_ROOT}/*/bin and PG_BIN is not set")
    # "9.6" < "10" < "15": compare the version's numbers, not its text
    return max(found, key=lambda folder: [int(part) for part in re.findall(r"\d+", folder.parent.name)])


def _server_user() -> tuple[str, list[str]]:
    """The OS user the cluster belongs to (so its superuser's name) and the ``setpriv`` options that become that user.

    ``setpriv`` rather than ``runuser``: it execs the command itself, without a PAM session or
    a parent process of its own, so the process we start is the postmaster and signals reach it.
    """
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid()).pw_name, []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root, which PostgreSQL refuses, and there is no postgres user to run it as") from None
    if shutil.which("setpriv") is None:
        raise PostgresUnavailable("running as root, which PostgreSQL refuses, and there is no setpriv to run it as the postgres user")
    return "postgres", ["--reuid=postgres", "--regid=postgres", "--init-groups"]


def _setpriv(options: list[str], *command: str) -> list[str]:
    return ["setpriv", *options, "--", *command] if options else list(command)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(command: list[str], cwd: Path, what: str) -> None:
    result = subprocess.run(command, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise PostgresFailed(f"{what} failed with status {result.returncode}: {' '.join(command)}\n{result.stdout}{result.stderr}")


def _conninfo(url: str) -> str:
    """A libpq URI for psycopg from a SQLAlchemy URL (``postgresql+psycopg://`` loses its driver)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _wait_ready(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    last = "no answer yet"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise PostgresFailed(f"postgres exited with status {process.returncode} before accepting connections; its log:\n{log.read_text(errors='replace')}")
        try:
            with psycopg.connect(_conninfo(url), connect_timeout=2):
                return
        except psycopg.OperationalError as err:  # refused until the postmaster listens, "starting up" until recovery is done
            last = str(err).strip()
        time.sleep(0.05)
    raise PostgresFailed(f"postgres did not accept connections within {READY_TIMEOUT:.0f} s ({last}); its log:\n{log.read_text(errors='replace')}")


def _stop(process: subprocess.Popen[bytes], pg_ctl: list[str], cwd: Path) -> None:
    """``pg_ctl stop -m fast`` (clients cut off, a clean checkpoint); SIGKILL to the server's process group if that fails."""
    if process.poll() is None:
        subprocess.run([*pg_ctl, "stop", "-m", "fast", "-w", "-t", str(int(STOP_TIMEOUT))], cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, check=False)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session, started by us: the postmaster and its backends
            process.wait(timeout=30)


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """A fresh PostgreSQL cluster with an empty database ``wordsvc``: its SQLAlchemy URL until the block ends.

    The URL is ``postgresql+psycopg://USER@127.0.0.1:PORT/wordsvc`` with no password
    (``--auth=trust``). Raises :class:`PostgresUnavailable` when there is no PostgreSQL to
    run and :class:`PostgresFailed` when it will not start. The server and its folder are
    gone when the block ends, however it ends, and a killed test run leaves no server
    behind: the server is told to stop when the thread that started it dies
    (``--pdeathsig``), so enter the block in a thread that outlives it (the main thread).
    """
    bin_dir = find_bin()
    user, as_user = _server_user()
    tmp = Path(tempfile.mkdtemp(prefix="wordsvc-pg-"))
    try:
        if as_user:
            os.chown(tmp, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
        data = tmp / "data"
        # -U: the superuser is named after the OS user, as initdb would, but never left to guess.
        # C.UTF-8: byte-order collation, as predictable as C, and Unicode upper()/lower() for the word lists' letters.
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]
        _run(_setpriv(as_user, *initdb), tmp, "initdb")
        port = _free_port()
        settings = [arg for name, value in SETTINGS.items() for arg in ("-c", f"{name}={value}")]
        # SIGINT (a fast shutdown) to the server if its parent dies: a killed test run leaves no server behind
        on_orphan = ["--pdeathsig=INT"] if shutil.which("setpriv") else []
        server = _setpriv([*as_user, *on_orphan], str(bin_dir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(tmp), *settings)
        log = tmp / "server.log"
        with log.open("wb") as out:
            process = subprocess.Popen(server, cwd=tmp, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
        try:
            admin = URL.create("postgresql+psycopg", username=user, host="127.0.0.1", port=port, database="postgres").render_as_string()
            _wait_ready(admin, process, log)
            yield create_database(admin, DATABASE)
        finally:
            _stop(process, _setpriv(as_user, str(bin_dir / "pg_ctl"), "-D", str(data)), tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def create_database(admin_url: str, name: str) -> str:
    """Create the database ``name`` on the server of ``admin_url`` and return its URL (same user, host and port).

    CREATE DATABASE cannot run inside a transaction, hence autocommit.
    """
    with psycopg.connect(_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return make_url(admin_url).set(database=name).render_as_string(hide_password=False)


def drop_database(admin_url: str, name: str) -> None:
    """Drop ``name`` from the server of ``admin_url``, cutting off any connection still open to it (PostgreSQL 13+)."""
    with psycopg.connect(_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def server_version(url: str) -> str:
    """The server's version as it reports it, e.g. ``15.18 (Debian 15.18-0+deb12u1)``."""
    with psycopg.connect(_conninfo(url)) as conn:
        row = conn.execute("SHOW server_version").fetchone()
    return str(row[0]) if row else "unknown"

"""Opening the ledger's database: the engine for a URL, its pragmas, its migrations, how writes run, and a SQLite ledger's backup.

SQLite (the default) runs in WAL mode with ``synchronous=FULL``: a commit is
on disk before the answer leaves. Write transactions begin with ``BEGIN
IMMEDIATE``, so a read never turns into a write that fails half-way.
PostgreSQL serializes the writes of one event with an advisory lock
(:func:`lock_chain`), across processes and machines.

Every write goes through the process's :class:`Writer`: the thread whose
turn it is takes every write waiting, runs each in a savepoint of one
transaction and commits them together, so a batch costs one commit and one
fsync (group commit). On SQLite the processes of a server take turns with
an ``flock`` on a file beside the database, which wakes the next one the
moment it is released (SQLite's own busy handler sleeps and polls).
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

__all__ = ["BUSY_TIMEOUT_S", "Backup", "Writer", "backup", "connect", "current_revision", "describe", "head_revision", "lock_chain", "upgrade", "writing"]

#: Seconds a SQLite writer waits for another process's write lock before giving up.
BUSY_TIMEOUT_S = 30.0
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_WRITE = "wordsvc_write"
#: Writes one SQLite transaction takes at most.
BATCH = 64
T = TypeVar("T")


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
    if conn.connection.dbapi_connection.in_transaction:  # type: ignore[union-attr]
        return  # the Writer began it on the driver: SQLAlchemy's statements join it
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


class Writer:
    """Runs the ledger's write transactions: ``run(chain, work)`` calls ``work(conn)`` in a transaction holding ``chain``'s lock.

    ``work`` is all there or not at all: it raises to undo its own writes
    (its savepoint is rolled back, the others in the batch are kept), and its
    result is returned only once the commit that holds it is on disk.

    There is no writer thread: a write joins the process's pending list, and
    whichever request thread holds the process's write lock next commits
    everything pending in one transaction (group commit, one fsync). A thread
    whose write another thread committed finds it done when it gets the lock,
    and returns at once. On SQLite the transaction runs on one connection
    kept for writing, under a file lock the processes take turns with; on
    PostgreSQL it takes the advisory lock of every chain in the batch, in
    sorted order.
    """

    def __init__(self, engine: Engine, observe: Callable[[int, float], None] | None = None):
        self.engine = engine
        self.observe = observe  # told (writes, seconds) of every transaction: how many writes it held, how long it held the lock until its commit
        database = engine.url.database if engine.dialect.name == "sqlite" else None
        self.lock_path = Path(f"{database}.lock") if database else None
        self._pid = 0  # the process the state below belongs to: a forked child makes its own
        self._starting = threading.Lock()
        self._lock = threading.Lock()  # held by the thread committing
        self._joining = threading.Lock()  # guards _pending
        self._pending: list[_Job] = []
        self._conn: Connection | None = None

    def run(self, chain: str, work: Callable[[Connection], T]) -> T:
        if self._pid != os.getpid():
            with self._starting:
                if self._pid != os.getpid():
                    self._forked()
        job = _Job(chain, work)
        with self._joining:
            self._pending.append(job)
        with self._lock:
            while not job.finished:  # the jobs ahead of it first, BATCH at a time
                with self._joining:
                    batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
                self._commit(batch)
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[no-any-return]

    def close(self) -> None:
        """Close the connection kept for writing (the next write opens another)."""
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def _forked(self) -> None:
        """Start afresh in a new process: what the parent opened stays the parent's."""
        self._lock, self._joining, self._pending, self._conn = threading.Lock(), threading.Lock(), [], None
        self._pid = os.getpid()

    def _commit(self, batch: list[_Job]) -> None:
        """``batch`` in one transaction holding its chains' locks; every job finished, the transaction observed."""
        try:
            held = self._sqlite(batch) if self.lock_path is not None else self._postgresql(batch)
        finally:
            for job in batch:
                job.finished = True
        if self.observe is not None and held is not None:
            self.observe(len(batch), held)

    def _sqlite(self, batch: list[_Job]) -> float:
        """Under the file lock the server's processes take turns with (SQLite has one writer at a time): seconds it was held."""
        assert self.lock_path is not None
        with open(self.lock_path, "a+b") as lock:  # opened for each commit: a few microseconds, and nothing left open when the ledger is dropped
            fcntl.flock(lock, fcntl.LOCK_EX)
            started = time.perf_counter()
            try:
                self._sqlite_transaction(batch)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
            return time.perf_counter() - started

    def _sqlite_transaction(self, batch: list[_Job]) -> None:
        if self._conn is None:
            self._conn = self.engine.connect()
        conn = self._conn
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute("BEGIN IMMEDIATE")  # on the driver: SQLAlchemy's own transactions and savepoints cost more than the writes they guard
            _end(conn, cursor, commit=_run_jobs(conn, cursor, batch))
        except Exception as err:  # the commit failed: nothing of the batch is stored, and no one is told otherwise
            _failed(batch, err)
            self._conn = None
            conn.invalidate()  # a connection in an unknown state is not used again

    def _postgresql(self, batch: list[_Job]) -> float | None:
        """Holding the advisory lock of every chain in the batch, taken in one order by every process (no deadlock): seconds after
        the locks were taken to the commit; ``None`` if the transaction failed."""
        try:
            with self.engine.connect() as conn:
                transaction = conn.begin()
                for chain in sorted({job.chain for job in batch}):
                    lock_chain(conn, chain)
                started = time.perf_counter()
                commit = _run_jobs(conn, conn.connection.dbapi_connection.cursor(), batch)  # type: ignore[union-attr]
                transaction.commit() if commit else transaction.rollback()
                return time.perf_counter() - started
        except Exception as err:  # as on SQLite: nothing of the batch is stored
            _failed(batch, err)
            return None


def _run_jobs(conn: Connection, cursor: Any, batch: list[_Job]) -> bool:
    """Each job of ``batch`` in the transaction of ``conn``, in a savepoint of its own unless it is alone; whether to commit."""
    alone = len(batch) == 1  # no savepoint needed: the transaction is the job's own
    for job in batch:
        if not alone:
            cursor.execute("SAVEPOINT job")
        try:
            job.result = job.work(conn)
        except Exception as err:  # this write is undone; the batch goes on
            job.error = err
            if not alone:
                cursor.execute("ROLLBACK TO SAVEPOINT job")
        if not alone:
            cursor.execute("RELEASE SAVEPOINT job")
    return not (alone and batch[0].error is not None)


def _failed(batch: list[_Job], err: Exception) -> None:
    for job in batch:
        if job.error is None:
            job.error = err


def _end(conn: Connection, cursor: Any, commit: bool) -> None:
    """Commit (or roll back) the driver's transaction, through SQLAlchemy if a job's statements made it SQLAlchemy's too."""
    if conn.in_transaction():
        conn.commit() if commit else conn.rollback()
    else:
        cursor.execute("COMMIT" if commit else "ROLLBACK")


class _Job:
    __slots__ = ("chain", "error", "finished", "result", "work")

    def __init__(self, chain: str, work: Callable[[Connection], Any]):
        self.chain, self.work, self.finished = chain, work, False
        self.result: Any = None
        self.error: BaseException | None = None


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


@dataclass(frozen=True)
class Backup:
    """What :func:`backup` copied."""

    path: Path
    bytes: int
    events: int
    entries: int
    revision: str


def backup(url: str, target: Path) -> Backup:
    """A copy of the SQLite ledger at ``url`` in ``target``, a file that must not exist yet; safe while the service writes.

    SQLite's online backup API copies the whole database in one step, under
    one read snapshot: the copy holds every transaction committed before it
    began and nothing of one after (a WAL reader does not stop the writers).
    The copy is one self-contained file (no ``-wal`` beside it), written
    beside ``target``, checked (``PRAGMA integrity_check``), flushed, and
    only then linked to ``target``, so a failed backup leaves no file that
    looks like one. A PostgreSQL ledger is backed up with ``pg_dump``
    (ValueError here).
    """
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "postgresql":
        raise ValueError(f"{describe(url)} is a PostgreSQL ledger: back it up with pg_dump (this copies SQLite ledgers)")
    if backend != "sqlite":
        raise ValueError(f"the ledger runs on SQLite or PostgreSQL, not {backend}")
    source = Path(parsed.database or "")
    if not source.is_file():
        raise FileNotFoundError(f"no ledger at {source}")
    if target.exists():
        raise FileExistsError(f"{target} exists: a backup is written to a new file")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"no folder {target.parent} for the backup")
    partial = target.with_name(f".{target.name}.partial")
    try:
        revision, events, entries = _copy(source, partial)
        with open(partial, "rb") as written:
            os.fsync(written.fileno())
        os.link(partial, target)  # never over a file that appeared meanwhile
        directory = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(target, target.stat().st_size, events, entries, revision)


def _copy(source: Path, copy_path: Path) -> tuple[str, int, int]:
    """``source`` copied to ``copy_path`` in one step and checked; its schema revision, events and audit entries."""
    copy_path.unlink(missing_ok=True)
    reader = sqlite3.connect(source, timeout=BUSY_TIMEOUT_S)
    copy = sqlite3.connect(copy_path)
    try:
        reader.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file (the service turns WAL on again when it opens it)
        problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise ValueError(f"the copy of {source} fails SQLite's integrity check: {problems[0]}")
        (revision,) = copy.execute("SELECT version_num FROM alembic_version").fetchone() or ("",)
        (events,) = copy.execute("SELECT count(*) FROM events").fetchone()
        (entries,) = copy.execute("SELECT count(*) FROM audit").fetchone()
        return revision, events, entries
    except sqlite3.DatabaseError as err:
        raise ValueError(f"{source} is not a wordsvc ledger ({err})") from None
    finally:
        copy.close()
        reader.close()


def describe(url: str) -> str:
    """``url`` without its password, for logs and ``/ready``."""
    return make_url(url).render_as_string(hide_password=True)

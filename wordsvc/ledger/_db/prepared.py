"""Core statements run straight on the driver's cursor: the ledger's busy path without SQLAlchemy's per-call work.

A statement is written once with SQLAlchemy Core, so the SQL still comes
from one schema for both back ends; :class:`Prepared` compiles it once per
dialect (``?`` placeholders for SQLite, ``%(name)s`` for psycopg) and then
executes the string on the DBAPI cursor of the connection it is given, in
that connection's transaction. Executing a compiled statement through
SQLAlchemy costs some 30-50 µs of Python a call; this costs a few. Rows come
back as named tuples. :class:`Readers` keeps a connection per thread for the
busiest reads (a token, the table a round is for), saving the pool's
check-out and reset on every request.
"""

from __future__ import annotations

import threading
from collections import namedtuple
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.sql import ClauseElement

__all__ = ["Prepared", "Readers"]


class Reader:
    """A driver connection in autocommit mode, kept by one thread for its reads (each read sees what is committed)."""

    def __init__(self, engine: Engine):
        self.dialect = engine.dialect
        self.pooled = engine.raw_connection()
        self.dbapi = self.pooled.dbapi_connection
        if self.dialect.name == "postgresql":
            self.pooled.driver_connection.autocommit = True  # type: ignore[union-attr]

    def close(self) -> None:
        self.pooled.invalidate()


class Readers:
    """One :class:`Reader` per thread, opened on its first read and opened again if the server dropped it."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self._local = threading.local()
        self._open: list[Reader] = []  # every thread's, so that close() reaches them all
        self._lock = threading.Lock()

    def close(self) -> None:
        """Close every thread's reader (the next read opens a new one)."""
        with self._lock:
            readers, self._open = self._open, []
        for reader in readers:
            reader.pooled.close()
        self._local = threading.local()

    def read(self, query: Callable[[Any], Any]) -> Any:
        """``query(reader)``; once more on a fresh connection if the kept one has gone (a restarted database)."""
        errors = self.engine.dialect.dbapi.OperationalError  # type: ignore[union-attr]
        for attempt in (1, 2):
            reader = getattr(self._local, "reader", None)
            if reader is None:
                reader = self._local.reader = Reader(self.engine)
                with self._lock:
                    self._open.append(reader)
            try:
                return query(reader)
            except errors:
                self._local.reader = None
                with self._lock:
                    if reader in self._open:
                        self._open.remove(reader)
                reader.close()
                if attempt == 2:
                    raise
        return None  # not reached


class Prepared:
    def __init__(self, statement: ClauseElement):
        self.statement = statement
        keys = list(getattr(statement, "selected_columns", {}).keys()) if hasattr(statement, "selected_columns") else []
        self.row = namedtuple("Row", keys) if keys else None  # type: ignore[misc]
        self._compiled: dict[str, tuple[str, tuple[str, ...] | None, dict[str, Any]]] = {}

    def _for(self, conn: Connection | Reader) -> tuple[str, tuple[str, ...] | None, dict[str, Any]]:
        name = conn.dialect.name
        found = self._compiled.get(name)
        if found is None:
            compiled = self.statement.compile(dialect=conn.dialect)
            order = tuple(compiled.positiontup) if compiled.positional and compiled.positiontup is not None else None
            found = self._compiled[name] = (compiled.string, order, dict(compiled.params))
        return found

    def execute(self, conn: Connection | Reader, params: dict[str, Any]) -> Any:
        """Run with ``params`` (the bind names of the statement) in ``conn``'s transaction, or on a thread's reader; the cursor."""
        sql, order, defaults = self._for(conn)
        values = {**defaults, **params} if defaults else params
        cursor = conn.dbapi.cursor() if isinstance(conn, Reader) else conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        cursor.execute(sql, [values[key] for key in order] if order is not None else values)
        return cursor

    def first(self, conn: Connection | Reader, params: dict[str, Any]) -> Any:
        row = self.execute(conn, params).fetchone()
        return None if row is None else self.row._make(row)  # type: ignore[union-attr]

    def all(self, conn: Connection | Reader, params: dict[str, Any]) -> list[Any]:
        make = self.row._make  # type: ignore[union-attr]
        return [make(row) for row in self.execute(conn, params).fetchall()]

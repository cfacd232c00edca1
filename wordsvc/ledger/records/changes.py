"""Hearing of every audit append, whichever process or replica made it: ``changed(chain)`` for each (docs/streams.md).

- **PostgreSQL**: every append notifies :data:`~.store.CHANGES_CHANNEL` in its
  own transaction, and PostgreSQL delivers the notification at commit to
  every session listening on it. :class:`Watch` holds one listening
  connection (psycopg, autocommit) in a thread of its own; a connection that
  breaks is opened again. Each time it starts listening, ``changed(None)``
  says "anything may have changed": what was notified before is lost.
- **SQLite**: the processes of one host share the file, and a commit wakes
  nobody. The thread reads the audit rows past the last rowid it saw every
  :data:`POLL_SECONDS` (an index walk on the rowid: nothing when nothing
  changed), and says ``changed(None)`` after its first read.

A watch starts on demand (:meth:`Watch.start`, from the first stream a
worker holds) and stops with the process: its thread is a daemon.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

from sqlalchemy import Engine, bindparam, func, literal_column, select

from .._db.prepared import Prepared
from .._db.schema import audit
from .store import CHANGES_CHANNEL

__all__ = ["POLL_SECONDS", "Watch"]

#: How often a SQLite watch reads the audit's new rows: a change made by another worker reaches streams within it.
POLL_SECONDS = 0.25
#: After a broken listening connection (the database restarting), wait this long before opening another.
_RECONNECT_SECONDS = 1.0
#: A listening connection wakes this often with nothing heard, to notice a stop.
_LISTEN_WAKE_SECONDS = 5.0

log = logging.getLogger("wordsvc.ledger")


class Watch:
    """Calls ``changed(chain)`` for each audit append anywhere (``changed(None)``: any chain may have changed)."""

    def __init__(self, engine: Engine, changed: Callable[[str | None], None]):
        self.engine, self.changed = engine, changed
        self._started_in = 0  # the process that started the thread: a fork has none
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def start(self) -> None:
        """Start watching (once per process; a forked worker starts its own)."""
        with self._lock:
            if self._started_in == os.getpid():
                return
            self._started_in = os.getpid()
            self._stop = threading.Event()
            target = self._listen if self.engine.dialect.name == "postgresql" else self._poll
            threading.Thread(target=target, name="ledger-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            self._started_in = 0

    # -- SQLite ---------------------------------------------------------------------------------------

    def _poll(self) -> None:
        stop = self._stop
        last = None
        while not stop.is_set():
            try:
                with self.engine.connect() as conn:
                    if last is None:
                        last = int(_LAST_ROWID.first(conn, {}).last or 0)
                        self.changed(None)  # what was appended before this first read and after a stream's own read is not lost
                    for row in _NEW_ROWS.all(conn, {"after": last}):
                        last = max(last, int(row.last))
                        self.changed(row.chain)
            except Exception as err:  # the file is busy or being restored: try again next time
                log.warning("the ledger's change watch could not read the audit: %r", err)
            stop.wait(POLL_SECONDS)

    # -- PostgreSQL -----------------------------------------------------------------------------------

    def _listen(self) -> None:
        import psycopg  # the PostgreSQL driver: only a PostgreSQL ledger has it loaded

        url = self.engine.url.set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        stop = self._stop
        while not stop.is_set():
            try:
                with psycopg.connect(conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self.changed(None)  # what was notified before this listened (first, or while it was away) is lost
                    while not stop.is_set():
                        for note in conn.notifies(timeout=_LISTEN_WAKE_SECONDS):
                            self.changed(note.payload)
            except Exception as err:  # the server restarted or the connection broke: listen again
                log.warning("the ledger's change watch lost its PostgreSQL connection: %r", err)
                stop.wait(_RECONNECT_SECONDS)


_ROWID = literal_column("rowid")  # SQLite's own row number: rising with every append, and the table's b-tree key
_LAST_ROWID = Prepared(select(func.max(_ROWID).label("last")).select_from(audit))
_NEW_ROWS = Prepared(select(audit.c.chain, func.max(_ROWID).label("last")).where(_ROWID > bindparam("after")).group_by(audit.c.chain))

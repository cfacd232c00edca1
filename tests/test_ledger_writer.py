"""The SQLite writer's group commit: writes waiting together share a transaction, and each is still all there or not at all."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from sqlalchemy import Connection, text

from wordsvc.ledger.database import BATCH, Writer, connect


class Refused(Exception):
    pass


def test_writes_waiting_together_are_committed_together_and_a_failing_one_is_undone_alone(tmp_path) -> None:
    path = tmp_path / "ledger.sqlite3"
    engine = connect(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
    writer = Writer(engine)
    count = BATCH + 36  # more than one batch waits behind the first write
    started = threading.Event()
    outcomes: dict[int, object] = {}
    seen_at_return: dict[int, bool] = {}

    def work(k: int):  # type: ignore[no-untyped-def]
        def write(conn: Connection) -> int:
            if k == 0:
                started.set()
                time.sleep(0.3)  # every other write queues up meanwhile
            conn.connection.dbapi_connection.cursor().execute("INSERT INTO t VALUES (?)", (k,))  # type: ignore[union-attr]
            if k % 7 == 3:
                raise Refused(k)  # after writing: the write must be undone
            return k * 10

        return write

    def client(k: int) -> None:
        if k:
            started.wait()
        try:
            outcomes[k] = writer.run("chain", work(k))
        except Refused as err:
            outcomes[k] = err
        other = sqlite3.connect(path)  # what another process sees the moment the answer leaves
        seen_at_return[k] = other.execute("SELECT count(*) FROM t WHERE k = ?", (k,)).fetchone()[0] == 1
        other.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    refused = {k for k in range(count) if k % 7 == 3}
    assert {k for k, v in outcomes.items() if isinstance(v, Refused)} == refused
    assert {k: v for k, v in outcomes.items() if k not in refused} == {k: k * 10 for k in range(count) if k not in refused}
    assert seen_at_return == {k: k not in refused for k in range(count)}
    with engine.connect() as conn:
        assert {row[0] for row in conn.execute(text("SELECT k FROM t"))} == set(range(count)) - refused
    writer.close()
    engine.dispose()


def test_a_write_that_fails_alone_leaves_the_writer_usable(tmp_path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
    writer = Writer(engine)

    def insert(k: int, fail: bool = False):  # type: ignore[no-untyped-def]
        def write(conn: Connection) -> int:
            conn.execute(text("INSERT INTO t VALUES (:k)"), {"k": k})  # through SQLAlchemy: its transaction joins the writer's
            if fail:
                raise Refused(k)
            return k

        return write

    assert writer.run("chain", insert(1)) == 1
    with pytest.raises(Refused):
        writer.run("chain", insert(2, fail=True))
    with pytest.raises(Exception, match="UNIQUE"):
        writer.run("chain", insert(1))
    assert writer.run("chain", insert(3)) == 3
    with engine.connect() as conn:
        assert [row[0] for row in conn.execute(text("SELECT k FROM t ORDER BY k"))] == [1, 3]
    writer.close()
    engine.dispose()

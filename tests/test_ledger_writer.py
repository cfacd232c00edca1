"""The ledger's writer on both back ends: writes waiting together share a transaction, and each is still all there or not at all."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Connection, Engine, text

from wordsvc.ledger._db.database import BATCH, Writer, connect

_tables = itertools.count()


class Refused(Exception):
    pass


@pytest.fixture
def table(database_url: str) -> Iterator[tuple[Engine, str]]:
    """An engine on the module's database and a new table ``(k INTEGER PRIMARY KEY)`` in it."""
    engine = connect(database_url)
    name = f"writer_{next(_tables)}"
    with engine.begin() as conn:
        conn.execute(text(f"CREATE TABLE {name} (k INTEGER PRIMARY KEY)"))
    yield engine, name
    engine.dispose()


def _insert(name: str, k: int, fail: bool = False, before: Callable[[], None] = lambda: None) -> Callable[[Connection], int]:
    def write(conn: Connection) -> int:
        before()
        conn.execute(text(f"INSERT INTO {name} VALUES (:k)"), {"k": k})
        if fail:
            raise Refused(k)  # after writing: the write must be undone
        return k * 10

    return write


def _keys(engine: Engine, name: str) -> set[int]:
    with engine.connect() as conn:
        return {row[0] for row in conn.execute(text(f"SELECT k FROM {name}"))}


def test_writes_waiting_together_are_committed_together_and_a_failing_one_is_undone_alone(table: tuple[Engine, str]) -> None:
    engine, name = table
    batches: list[int] = []
    writer = Writer(engine, lambda writes, _seconds: batches.append(writes))
    count = BATCH + 36  # more than one batch waits behind the first write
    started = threading.Event()
    outcomes: dict[int, object] = {}
    seen_at_return: dict[int, bool] = {}
    refused = {k for k in range(count) if k % 7 == 3}

    def first() -> None:  # holds the writer until every other write has joined its pending list
        started.set()
        give_up = time.monotonic() + 60  # a safety net: they join in milliseconds
        while len(writer._pending) < count - 1:
            assert time.monotonic() < give_up, f"{len(writer._pending)} of {count - 1} writes queued"
            time.sleep(0.001)

    def client(k: int) -> None:
        if k:
            started.wait()
        try:
            outcomes[k] = writer.run("chain", _insert(name, k, k in refused, first if k == 0 else lambda: None))
        except Refused as err:
            outcomes[k] = err
        seen_at_return[k] = k in _keys(engine, name)  # what another connection sees the moment the answer leaves

    threads = [threading.Thread(target=client, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert {k for k, v in outcomes.items() if isinstance(v, Refused)} == refused
    assert {k: v for k, v in outcomes.items() if k not in refused} == {k: k * 10 for k in range(count) if k not in refused}
    assert seen_at_return == {k: k not in refused for k in range(count)}
    assert _keys(engine, name) == set(range(count)) - refused
    assert batches == [1, BATCH, count - 1 - BATCH]  # the first alone, then the queue a batch at a time
    writer.close()


def test_a_write_that_fails_alone_leaves_the_writer_usable(table: tuple[Engine, str]) -> None:
    engine, name = table
    writer = Writer(engine)
    assert writer.run("chain", _insert(name, 1)) == 1 * 10
    with pytest.raises(Refused):
        writer.run("chain", _insert(name, 2, fail=True))
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
        writer.run("chain", _insert(name, 1))
    assert writer.run("chain", _insert(name, 3)) == 3 * 10
    assert _keys(engine, name) == {1, 3}
    writer.close()


def test_every_transaction_is_observed_with_its_writes(table: tuple[Engine, str]) -> None:
    engine, name = table
    seen: list[tuple[int, float]] = []
    writer = Writer(engine, lambda writes, seconds: seen.append((writes, seconds)))
    for k in range(3):
        writer.run("chain", _insert(name, k))
    assert [writes for writes, _ in seen] == [1, 1, 1] and all(seconds > 0 for _, seconds in seen)
    writer.close()

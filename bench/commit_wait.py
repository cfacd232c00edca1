"""What a SQLite commit costs the thread that makes it, alone and beside another thread running Python.

The ledger commits each batch of rounds in a request thread of a worker
process (``wordsvc/ledger/_db/database.py``), while the worker's other threads
parse and score other requests. ``COMMIT`` lets go of the interpreter lock
for its write and fsync, and has to get it back before the thread can go on
and let the next writer in; the lock is handed back only when the thread
holding it blocks or when the switch interval (``sys.setswitchinterval``,
5 ms by default) runs out. This bench times that: a ``COMMIT`` of one small
row (WAL, ``synchronous=FULL``, as the ledger's), from the call to its
return, in a process with nothing else running (the baseline), then beside
one thread that runs Python without pause, and beside one that runs Python
for 0.3 ms and waits 0.1 ms by turns (a request thread scoring rounds), each
at the default switch interval and at 0.5 ms. ``fdatasync`` of a 24 KB write
alone gives the disk's share.

Run: ``.venv/bin/python bench/commit_wait.py [--commits 2000]``
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from common import machine_line, summary

SWITCH_DEFAULT = sys.getswitchinterval()


def spin(stop: threading.Event) -> None:
    """Python without pause, as a thread scoring one request after another with no wait between them."""
    n = 0
    while not stop.is_set():
        for _ in range(1000):
            n += 1


def request_like(stop: threading.Event) -> None:
    """0.3 ms of Python, then 0.1 ms of waiting (a socket, a lock), by turns."""
    while not stop.is_set():
        until = time.perf_counter() + 0.0003
        while time.perf_counter() < until:
            pass
        time.sleep(0.0001)


def commits(db: sqlite3.Connection, count: int) -> list[float]:
    """Seconds each ``COMMIT`` of one 800-byte row took, from the call to its return."""
    took = []
    for _ in range(count):
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t (body) VALUES (?)", ("x" * 800,))
        started = time.perf_counter()
        db.execute("COMMIT")
        took.append(time.perf_counter() - started)
    return took


def beside(other: Callable[[threading.Event], None] | None, switch: float, db: sqlite3.Connection, count: int) -> list[float]:
    stop = threading.Event()
    thread = threading.Thread(target=other, args=(stop,), daemon=True) if other else None
    sys.setswitchinterval(switch)
    try:
        if thread:
            thread.start()
            time.sleep(0.05)
        return commits(db, count)
    finally:
        stop.set()
        if thread:
            thread.join()
        sys.setswitchinterval(SWITCH_DEFAULT)


def fdatasyncs(folder: Path, count: int) -> list[float]:
    fd = os.open(folder / "plain", os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"\0" * 24576 * 100)
        os.fsync(fd)
        took = []
        for i in range(count):
            os.pwrite(fd, os.urandom(24576), (i % 100) * 24576)
            started = time.perf_counter()
            os.fdatasync(fd)
            took.append(time.perf_counter() - started)
        return took
    finally:
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commits", type=int, default=2000, help="commits timed in each row")
    args = parser.parse_args()
    print(machine_line())
    with tempfile.TemporaryDirectory(prefix="wordsvc-bench-commit-") as tmp:
        db = sqlite3.connect(Path(tmp) / "c.sqlite3", isolation_level=None)
        for pragma in ("journal_mode=WAL", "synchronous=FULL"):
            db.execute(f"PRAGMA {pragma}")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)")
        commits(db, 200)  # the WAL file grown, the pages cached
        rows = [
            ("COMMIT alone (baseline)", None, SWITCH_DEFAULT),
            ("beside Python without pause, switch 5 ms", spin, SWITCH_DEFAULT),
            ("beside Python without pause, switch 0.5 ms", spin, 0.0005),
            ("beside a request-like thread, switch 5 ms", request_like, SWITCH_DEFAULT),
            ("beside a request-like thread, switch 0.5 ms", request_like, 0.0005),
        ]
        results = [(label, summary(beside(other, switch, db, args.commits))) for label, other, switch in rows]
        disk = summary(fdatasyncs(Path(tmp), args.commits))
        db.close()
    base = results[0][1]
    print(f"\n{args.commits} commits a row; ms from the call to its return\n")
    print(f"{'row':46} {'p50':>7} {'p99':>7} {'mean':>7} {'mean vs alone':>14}")
    for label, s in [*results, ("fdatasync of 24 KB alone (the disk)", disk)]:
        print(f"{label:46} {s['p50']:7.3f} {s['p99']:7.3f} {s['mean']:7.3f} {s['mean'] / base['mean']:13.1f}x")
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Connections spread over the workers: a listening socket per worker slot on the one port (SO_REUSEPORT).

With one socket shared, the worker that woke first took a whole burst of
connections: a load generator's 16 keep-alive connections all went to one
worker while the other idled. The kernel now picks a slot's socket by a hash
of each connection's addresses and ports. The throughput this buys is a
figure of bench/http_load.py (its per-worker counts), not of a test.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import PATIENCE, Server, connect, get, read_response, wait_for

pytestmark = pytest.mark.skipif(not hasattr(socket, "SO_REUSEPORT") or not Path("/proc/net/tcp").exists(), reason="Linux balances SO_REUSEPORT")


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    started: list[Server] = []

    def make(**options: Any) -> Server:
        srv = Server(tmp_path / f"server{len(started)}.log", **options)
        started.append(srv)
        return srv

    yield make
    for srv in started:
        srv.stop()


def listening_sockets(port: int) -> set[str]:
    """The inodes of the sockets listening on ``port`` (``/proc/net/tcp``, state 0A)."""
    rows = (line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:])
    return {row[9] for row in rows if int(row[1].split(":")[1], 16) == port and row[3] == "0A"}


def held_sockets(pid: int, inodes: set[str]) -> set[str]:
    """Which of ``inodes`` process ``pid`` holds a descriptor of."""
    held = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:[") and target[8:-1] in inodes:
            held.add(target[8:-1])
    return held


def worker_of_each(port: int, n: int) -> collections.Counter[int]:
    """``n`` connections opened at once, each asking which worker holds it: how many each worker got."""
    socks = connect(port, n)
    try:
        for s in socks:
            s.sendall(b"GET /pid HTTP/1.1\r\nHost: t\r\n\r\n")
        return collections.Counter(json.loads(read_response(s)[2])["pid"] for s in socks)
    finally:
        for s in socks:
            s.close()


def test_each_worker_accepts_from_a_listening_socket_of_its_own_on_the_one_port(start: Callable[..., Server]) -> None:
    srv = start(workers=3)
    sockets = listening_sockets(srv.port)
    assert len(sockets) == 3
    held = [held_sockets(pid, sockets) for pid in srv.worker_pids()]
    assert sorted(len(h) for h in held) == [1, 1, 1] and set().union(*held) == sockets  # one each, none shared


def test_the_keepalive_connections_of_a_load_generator_are_spread_over_the_workers(start: Callable[..., Server]) -> None:
    """Eight bursts of 16 connections, as a load generator opens them: the smaller share of each burst adds up to half of
    128 by the kernel's hash, 51 on average; below 32 about once in two million runs. A shared socket gave the first
    worker to wake nearly every connection of a burst (the smaller share 0 in most bursts, 2 to 8 in all)."""
    srv = start(workers=2)
    smaller = []
    for _ in range(8):
        counts = worker_of_each(srv.port, 16)
        smaller.append(min(counts.get(pid, 0) for pid in srv.worker_pids()))
    assert sum(smaller) >= 32, smaller


def test_a_reload_hands_each_slots_socket_to_the_fresh_worker_and_the_port_stays_open(start: Callable[..., Server]) -> None:
    srv = start(workers=2, drain_seconds=30)
    sockets, old = listening_sockets(srv.port), srv.worker_pids()
    os.kill(srv.proc.pid, signal.SIGHUP)
    wait_for(lambda: len(srv.worker_pids() - old) == 2 and not (srv.worker_pids() & old), "two fresh workers, the old ones gone")
    assert listening_sockets(srv.port) == sockets  # the same sockets: nothing queued on them was lost
    assert sorted(len(held_sockets(pid, sockets)) for pid in srv.worker_pids()) == [1, 1]
    assert get(srv.port, "/health", timeout=PATIENCE)[0] == 200


def test_a_second_server_on_a_port_in_use_is_refused_not_joined(start: Callable[..., Server], tmp_path: Path) -> None:
    """SO_REUSEPORT alone would let a second server on the port (an old one still running) take half its connections."""
    srv = start(workers=2)
    done = subprocess.run(
        [sys.executable, "-m", "wordsvc.server", "--app", "server_app:create_app", "--port", str(srv.port), "--workers", "2"],
        cwd=Path(__file__).parent,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), str(Path(__file__).parents[1])])},
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )
    assert done.returncode != 0 and "Address already in use" in done.stderr
    assert len(listening_sockets(srv.port)) == 2

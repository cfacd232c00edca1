"""Connections spread over the workers: the master accepts them and hands them to the workers in turn.

Workers accepting from one shared socket took connections as they woke, and
the first to wake took a whole burst: a load generator's 16 keep-alive
connections all went to one worker while the other idled. Handed in turn,
each worker gets its share of any number of connections. The throughput this
buys is a figure of bench/http_load.py (its per-worker counts), not of a test.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_server import Server, connect, get, held, read_response, wait_for


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


def workers_of(port: int, n: int) -> collections.Counter[int]:
    """``n`` connections opened one after another, all held open, each asking which worker holds it: how many each got."""
    socks = connect(port, n)
    try:
        for s in socks:
            s.sendall(b"GET /pid HTTP/1.1\r\nHost: t\r\n\r\n")
        return collections.Counter(json.loads(read_response(s)[2])["pid"] for s in socks)
    finally:
        for s in socks:
            s.close()


@pytest.mark.parametrize(("workers", "connections"), [(2, 16), (2, 4), (2, 2), (3, 9)])
def test_connections_opened_together_are_shared_out_evenly_between_the_workers(start: Callable[..., Server], workers: int, connections: int) -> None:
    """Eight bursts, each shared out exactly (a shared socket gave one worker 13 to 16 of 16 in most bursts)."""
    srv = start(workers=workers)
    for _ in range(8):
        counts = workers_of(srv.port, connections)
        assert set(counts) == srv.worker_pids() and set(counts.values()) == {connections // workers}, counts


def test_a_draining_worker_is_handed_nothing_and_its_replacements_share_the_connections(start: Callable[..., Server], tmp_path: Path) -> None:
    """A reload: once the old workers drain (one of them held open by a request in its app), every new connection goes to
    the fresh workers, shared out between them."""
    srv = start(workers=2, drain_seconds=60)
    old = srv.worker_pids()
    mark, release = tmp_path / "in", tmp_path / "go"
    answer: list[tuple[int, dict[str, str], bytes]] = []
    request = threading.Thread(target=lambda: answer.append(get(srv.port, held("/sleep", mark=mark, until=release))))
    request.start()
    wait_for(mark.exists, "the request to be in an old worker's app")
    os.kill(srv.proc.pid, signal.SIGHUP)
    wait_for(lambda: {e["worker"] for e in srv.events("drain_begun") if "worker" in e} == old, "both old workers to drain")
    fresh = srv.worker_pids() - old
    assert len(fresh) == 2 and old & srv.worker_pids()  # one old worker is still there, draining
    counts = workers_of(srv.port, 8)
    assert set(counts) == fresh and set(counts.values()) == {4}, counts
    release.touch()
    request.join(60)
    assert answer and answer[0][0] == 200


def test_a_worker_signalled_by_someone_else_refuses_what_the_master_hands_it_next(start: Callable[..., Server]) -> None:
    """SIGTERM sent to a worker directly (not by the master, which would first stop handing it connections): it closes its
    channel to more, so what the master hands it next goes to the other worker, none lost."""
    srv = start(workers=2, drain_seconds=60)
    victim = min(srv.worker_pids())
    os.kill(victim, signal.SIGTERM)
    wait_for(lambda: [e for e in srv.events("drain_begun") if e.get("worker") == victim], "the worker to drain")
    counts = workers_of(srv.port, 6)  # the first hand to the drained worker fails; the master hands it on
    assert victim not in counts and sum(counts.values()) == 6

"""Resilience figures: what slow, silent and greedy clients cost the others, how fast refusals are, how fast a drain is.

The tests hold these behaviours by counts and events, never by time
(tests/test_server.py, tests/test_limits.py, tests/test_admission.py,
api_tests/test_admission.py: docs/performance.md, "How the suite avoids
timing"). The times are here, each beside a baseline taken in the same run,
against the bars the tests once asserted:

- ``/health`` beside attackers: a probe process sends ``GET /health`` on a new
  connection every 20 ms for ``--seconds`` with nothing else going on (the
  baseline), then while the server holds 50 slowloris heads, 300 idle
  keep-alive connections, 20 slow bodies, or while 16 greedy clients ask for
  the heavy endpoints (``/anagrams?all=true`` on 20 cards and ``/best-meld``);
  p50, p99 and worst per row. Target: p99 <= 250 ms in every row.
- Refusals under the greedy load: the 503s' median beside the 90th percentile
  of the requests served (a refusal does not queue behind the work it
  refuses). Target: the median refusal under the served p90.
- Refusals in the app alone (Flask's test client in this process): a body
  with a list past its limit (20,000 empty challenges, 30,000 words, 30,000
  cards: about 60 KB) beside a small valid body to the same endpoint; the
  lowest of 5 passes. Target: under 300 ms.
- The drain: ``SIGTERM`` with an idle keep-alive connection open; the time to
  that connection's close and to the master's exit. Targets: 1 s and
  ``WORDSVC_DRAIN_SECONDS`` (20 s).

The server is ``wordsvc serve --workers 2`` (:func:`common.start_server`) with
the header, body and keep-alive timeouts at 60 s, so every attacker stays
held while the probe runs. The first and last lines time the machine loop.

Run: ``.venv/bin/python bench/resilience.py [--seconds 5]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import random
import signal
import socket
import statistics
import sys
import threading
import time
import timeit
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from common import HOST, machine_line, start_server, summary

P99_TARGET_MS = 250.0
REFUSAL_TARGET_MS = 300.0
IDLE_CLOSE_TARGET_MS = 1000.0
DRAIN_SECONDS = 20.0  # WORDSVC_DRAIN_SECONDS's default
HELD = {"WORDSVC_HEADER_TIMEOUT": "60", "WORDSVC_BODY_TIMEOUT": "60", "WORDSVC_KEEPALIVE_TIMEOUT": "60"}
HEAVY = "/anagrams?cards=(qu)(th)(er)(in)(cl)aeiourstlnmdpgb&all=true"

#: (name, path, body past a list limit, a small valid body to the same path)
TOO_LONG = [
    ("20,000 empty challenges", "/score-round", {"players": [{"name": "a"}], "challenges": [{}] * 20_000}, {"players": [{"name": "a", "words": ["cat"]}, {"name": "b", "words": ["top"]}]}),
    ("30,000 words to validate", "/validate", {"words": [1] * 30_000}, {"words": ["quiz"]}),
    ("a hand of 30,000 cards", "/best-meld", {"hand": [1] * 30_000}, {"hand": "quiz"}),
]


# ---------------------------------------------------------------- the probe


def probe(port: int, seconds: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    """GET /health on a new connection every 20 ms for ``seconds``: the latencies, and how many were not a 200."""
    times, errors = [], 0
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request("GET", "/health")
            errors += conn.getresponse().status != 200
            conn.close()
        except OSError:
            errors += 1
        times.append(time.perf_counter() - started)
        time.sleep(0.02)
    out.put((times, errors))


def probed(port: int, seconds: float) -> tuple[list[float], int]:
    """Run :func:`probe` in a process of its own (the attackers' threads and their GIL do not slow it)."""
    queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    process = mp.Process(target=probe, args=(port, seconds, queue))
    process.start()
    result = queue.get()
    process.join()
    return result


# ---------------------------------------------------------------- the attackers


@contextmanager
def dribbling(port: int, n: int, first: bytes, more: Callable[[int], bytes] | None, answered: bool = False) -> Iterator[None]:
    """``n`` connections that sent ``first`` (a whole request if ``answered``: its answer is read, and the connection
    is left idle), then ``more(k)`` once a second until the block ends."""
    socks = [socket.create_connection((HOST, port), timeout=30) for _ in range(n)]
    stop = threading.Event()

    def go_on() -> None:
        k = 1
        while not stop.wait(1.0):
            for s in socks:
                s.sendall(more(k))  # type: ignore[misc]
            k += 1

    for s in socks:
        s.sendall(first)
    if answered:
        for s in socks:
            s.recv(65536)
    thread = threading.Thread(target=go_on) if more else None
    if thread:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        if thread:
            thread.join()
        for s in socks:
            s.close()


def greedy_clients(port: int, stop: threading.Event, answers: list[tuple[int, float]], seed: int) -> None:
    rng = random.Random(seed)
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    while not stop.is_set():
        started = time.perf_counter()
        if rng.random() < 0.5:
            body = json.dumps({"hand": "".join(rng.sample("aeiourstlnmdpgbcfhkwy", 10)) + "(qu)", "discard": True, "top": 3})
            conn.request("POST", "/best-meld", body=body, headers={"Content-Type": "application/json"})
        else:
            conn.request("GET", HEAVY)
        response = conn.getresponse()
        response.read()
        answers.append((response.status, time.perf_counter() - started))
        if response.will_close:
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=60)
    conn.close()


@contextmanager
def greedy(port: int, answers: list[tuple[int, float]]) -> Iterator[None]:
    stop = threading.Event()
    threads = [threading.Thread(target=greedy_clients, args=(port, stop, answers, seed)) for seed in range(16)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)  # the load is on before the probe starts
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join()


# ---------------------------------------------------------------- the parts


def health_rows(port: int, seconds: float) -> list[dict[str, Any]]:
    head = b"GET /health HTTP/1.1\r\nHost: bench\r\n"
    body_head = b"POST /validate HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
    answers: list[tuple[int, float]] = []
    attacks: list[tuple[str, Callable[[], AbstractContextManager[Any]]]] = [
        ("nothing else (baseline)", nullcontext),
        ("50 slowloris heads", lambda: dribbling(port, 50, head, lambda k: f"X-Slow-{k}: y\r\n".encode())),
        ("300 idle keep-alive connections", lambda: dribbling(port, 300, head + b"\r\n", None, answered=True)),
        ("20 slow bodies", lambda: dribbling(port, 20, body_head, lambda k: b" ")),
        ("16 greedy clients", lambda: greedy(port, answers)),
    ]
    rows = []
    for name, attack in attacks:
        with attack():
            times, errors = probed(port, seconds)
        rows.append({"name": name, **summary(times), "errors": errors})
    rows[-1]["answers"] = answers
    return rows


def app_refusals(passes: int = 5, calls: int = 20) -> list[tuple[str, float, float]]:
    """(case, ms for the body past a limit, ms for the small valid body): the app alone, the lowest of ``passes``."""
    from wordsvc.web.app import create_app

    client = create_app().test_client()
    out = []
    for name, path, too_long, small in TOO_LONG:
        timings = []
        for body, status in ((too_long, 422), (small, 200)):
            raw = json.dumps(body, separators=(",", ":"))
            answered = client.post(path, data=raw, content_type="application/json").status_code
            if answered != status:
                raise SystemExit(f"{path} answered {answered} to the {name!r} case's {'long' if status == 422 else 'small'} body, not {status}")
            best = min(timeit.timeit(lambda raw=raw, path=path: client.post(path, data=raw, content_type="application/json"), number=calls) for _ in range(passes))
            timings.append(best / calls * 1e3)
        out.append((f"{name} ({path})", timings[0], timings[1]))
    return out


def drain() -> tuple[float, float]:
    """Milliseconds from SIGTERM to the close of an idle keep-alive connection, and to the master's exit."""
    server = start_server(2)
    try:
        idle = socket.create_connection((HOST, server.port), timeout=60)
        idle.sendall(b"GET /health HTTP/1.1\r\nHost: bench\r\n\r\n")
        idle.recv(65536)
        signalled = time.perf_counter()
        os.kill(server.pid, signal.SIGTERM)
        closed = idle.recv(1)
        closed_ms = (time.perf_counter() - signalled) * 1e3
        assert closed == b"", closed
        server.proc.wait(60)
        return closed_ms, (time.perf_counter() - signalled) * 1e3
    finally:
        server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="each probe's run")
    args = parser.parse_args()
    print(machine_line())
    with start_server(2, HELD) as server:
        rows = health_rows(server.port, args.seconds)
    print(f"\nGET /health on a new connection every 20 ms for {args.seconds:g} s, from a process of its own, while the server holds:")
    print(f"{'':<34} {'probes':>6} {'p50 ms':>7} {'p99 ms':>7} {'worst ms':>8} {'errors':>6}")
    for row in rows:
        print(f"{row['name']:<34} {row['n']:>6} {row['p50']:>7.2f} {row['p99']:>7.2f} {row['worst']:>8.2f} {row['errors']:>6}")
    worst_p99 = max(row["p99"] for row in rows[1:])
    print(f"the highest p99 beside attackers: {worst_p99:.1f} ms (target <= {P99_TARGET_MS:.0f} ms: {'met' if worst_p99 <= P99_TARGET_MS else 'MISSED'})")

    answers = rows[-1]["answers"]
    refused = [t for status, t in answers if status == 503]
    served = [t for status, t in answers if status == 200]
    print(f"\nthe 16 greedy clients: {len(served)} served, {len(refused)} refused (503), {len(answers) - len(served) - len(refused)} other")
    if refused and len(served) >= 2:
        median, p90 = statistics.median(refused) * 1e3, statistics.quantiles(served, n=10)[8] * 1e3
        verdict = "met" if median < p90 else "MISSED"
        print(f"a refusal's median {median:.1f} ms, the served requests' p90 {p90:.1f} ms (target: the refusal under it: {verdict})")

    print("\nrefused in the app alone (Flask's test client, this process; the lowest of 5 passes of 20 calls):")
    refusals = app_refusals()
    for name, past, small in refusals:
        print(f"  {name:<45} past its limit {past:7.2f} ms   a small valid body {small:7.2f} ms")
    slowest = max(past for _, past, _ in refusals)
    print(f"the slowest refusal: {slowest:.1f} ms (target < {REFUSAL_TARGET_MS:.0f} ms: {'met' if slowest < REFUSAL_TARGET_MS else 'MISSED'})")

    closed_ms, exit_ms = drain()
    print(f"\nSIGTERM: the idle keep-alive connection closed after {closed_ms:.1f} ms (target < {IDLE_CLOSE_TARGET_MS:.0f} ms: "
          f"{'met' if closed_ms < IDLE_CLOSE_TARGET_MS else 'MISSED'}); the master exited after {exit_ms:.0f} ms "
          f"(target < {DRAIN_SECONDS * 1e3:.0f} ms: {'met' if exit_ms < DRAIN_SECONDS * 1e3 else 'MISSED'})")
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Attacks on the server: each attack an outside probe found against ``wordsvc serve``, run again against a real server.

Every scenario starts ``wordsvc serve --workers 2`` (:func:`common.start_server`,
the way ``make serve`` does), probes ``GET /health`` for ``--baseline``
seconds with nothing else going on (the baseline), then runs its attack while
the same probe runs again, from a process of its own (a new connection every
50 ms, as a load balancer's check; :class:`attack_kit.Probe`). For each attack
it prints what the attacker got and how the server ended it, ``/health``
p50/p99/max during the attack against the baseline, the server's own
counters over the attack (``wordsvc_server_rejected_total{reason}``,
``wordsvc_requests_shed_total``, ``wordsvc_out_of_descriptors_total`` from
``/metrics``), the CPU time the server's processes spent, and what its log
says (requests by status, any traceback). The attackers speak from
127.0.0.2 and up, the probe and the polite clients from 127.0.0.1 and
127.0.0.9: to the server they are different clients, as they would be.

The scenarios (issue 43), all by default, or those named:

- ``tiny-chunks``: two clients POST bodies of 65,536 one-byte chunks to
  ``/validate`` and ``/score-round`` for ``--seconds``; expected: 400 "too much
  framing" after about 4,100 chunks, for little CPU;
- ``pipeline``: 10,000 pipelined ``GET /health``, then 10,000 ``GET
  /validate?word=quiz``, in one write on one connection; all answered in order,
  the connection kept;
- ``silent-flood``: 2,200 connections that send nothing, from 5 addresses,
  each re-opened as soon as the server closes it, for ``--flood-seconds``;
  expected: no /health probe refused (a full worker closes its longest-silent
  connection for a new one);
- ``descriptors``: the server started with a descriptor soft limit of 1,024
  (hard: this machine's, then 1,024 too) while 2,000 connections (1,000 a
  worker) are held; ``/metrics``, ``/console`` and ``/words?pattern=qu*`` must
  answer 200;
- ``method-labels``: 2,000 requests with random 4 KB method names; /metrics
  must stay as large (made-up methods count as ``other``);
- ``greedy``: 4 clients looping ``POST /solitaire/solve`` while a polite one
  asks ``POST /best-meld`` (its 503 share); then 16 greedy clients mixing
  ``/anagrams?all=true`` of 20 cards and ``/best-meld``, ``--repeats`` times
  (goal: /health p99 at most 250 ms);
- ``sighup``: SIGHUP to the master while a slow solve (budget 3,000,000) is in
  flight, then to the whole process group; the solve gets its 200, nothing is
  reset, every worker is recycled;
- ``leniencies``: the small framing cases (a chunked body of exactly
  ``WORDSVC_MAX_BODY`` bytes, 100 KB of trailers, a chunk size with a trailing
  space, a NUL in a chunk extension, a CRLF before a request line, bytes
  starting with 0x80).

The first and the last line time a fixed Python loop (:func:`common.machine_line`):
how loaded the machine was. The last lines are one table of every attack, for
docs/performance.md.

Run: ``.venv/bin/python bench/attacks.py [SCENARIO ...] [--seconds 10] [--flood-seconds 30] [--repeats 3] [--baseline 5]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import random
import resource
import select
import selectors
import signal
import socket
import statistics
import string
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from attack_kit import (
    ATTACKER,
    Health,
    Probe,
    Responses,
    connect,
    counter_delta,
    counters,
    get,
    group,
    log_events,
    log_findings,
    probe_for,
    read_answer,
)
from common import HOST, Server, Timer, machine_line, start_server, summary

#: The polite client's address (the probe is 127.0.0.1, the attackers 127.0.0.2 and up).
POLITE = "127.0.0.9"
#: /health p99 the service promises under load (tests/test_server.py, api_tests/test_admission.py).
HEALTH_P99_GOAL_MS = 250.0
#: 20 cards of the English deck: /anagrams?all=true on them is one of the service's most expensive requests (api_tests/test_admission.py).
HEAVY_ANAGRAMS = "/anagrams?cards=(qu)(th)(er)(in)(cl)aeiourstlnmdpgb&all=true"
#: WORDSVC_MAX_BODY's default.
MAX_BODY = 65536


def attacker(i: int) -> str:
    """The ``i``-th attacker's address: 127.0.0.2, 127.0.0.3, ..."""
    return f"127.0.0.{2 + i}"


@dataclass
class Got:
    """What an attack got: one short line for the table, and the details printed under it."""

    summary: str
    details: list[str] = field(default_factory=list)


@dataclass
class Row:
    scenario: str
    phase: str
    got: Got
    baseline: Health
    health: Health
    counters: dict[str, float]
    cpu_s: float
    seconds: float


class Bench:
    """The server of the scenario running now, its baseline, and every attack's row."""

    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.rows: list[Row] = []
        self.server: Server | None = None
        self.baseline: Health | None = None

    def serve(self, nofile: tuple[int, int] | None = None) -> Server:
        """A fresh server for a scenario (the last one stopped), and its /health baseline."""
        self.stop()
        self.server = start_server(2, nofile=nofile)
        self.baseline = probe_for(self.server.port, self.args.baseline)
        print(f"  server on port {self.server.port}, ready in {self.server.ready_s:.1f} s; /health baseline: {self.baseline.line()}", flush=True)
        return self.server

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None

    def attack(self, scenario: str, phase: str, run: Callable[[], Got]) -> Row:
        """Run one attack against the current server with /health probed meanwhile; print and keep its row."""
        server, baseline = self.server, self.baseline
        assert server is not None and baseline is not None
        before, _, _ = counters(server.port)
        log_at = len(server.log(None))
        cpu, processes = sum(server.cpu_seconds()), group(server.pid)
        probe = Probe(server.port)
        with Timer() as timer:
            got = run()
        health = probe.stop()
        spent = sum(server.cpu_seconds()) - cpu if group(server.pid) == processes else math.nan  # a worker gone took its time with it
        after, _, _ = counters(server.port)
        found = log_findings(server.log(None)[log_at:])
        row = Row(scenario, phase, got, baseline, health, counter_delta(before, after), spent, timer.seconds)
        self.rows.append(row)
        print(f"  {phase} ({timer.seconds:.1f} s): {got.summary}")
        for line in got.details:
            print(f"    {line}")
        print(f"    /health during: {health.line()}")
        print(f"    /health baseline: {baseline.line()}")
        print(f"    counters: {row.counters or 'none moved'}")
        print(f"    server CPU: {'n/a (workers replaced)' if math.isnan(spent) else f'{spent:.2f} s'}; {found.line()}", flush=True)
        return row


# ---------------------------------------------------------------- tiny-chunks


#: One-byte chunks a body holds.
CHUNKS = 65536
ONE_BYTE_CHUNKS = b"1\r\na\r\n" * CHUNKS + b"0\r\n\r\n"
#: Chunks a write while finding after how many the server answers.
CHUNKS_A_STEP = 64


def chunked_head(path: str) -> bytes:
    return f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n".encode()


def one_byte_chunks(port: int, path: str, source: str) -> tuple[int | str, str, float]:
    """POST a body of :data:`CHUNKS` one-byte chunks in one write, as the probe did; (status, detail, seconds to the answer)."""
    started = time.perf_counter()
    sock = connect(port, source)
    try:
        sock.sendall(chunked_head(path) + ONE_BYTE_CHUNKS)
        status, detail, _ = read_answer(sock)
    except (BrokenPipeError, ConnectionResetError):
        status, detail = "reset", ""
    finally:
        sock.close()
    return status, detail, time.perf_counter() - started


def chunks_before_the_answer(port: int) -> tuple[int | str, int]:
    """One body sent :data:`CHUNKS_A_STEP` chunks at a time, each step waiting up to 20 ms for an answer: (status, chunks sent by then)."""
    sock = connect(port, attacker(0))
    sent = 0
    try:
        sock.sendall(chunked_head("/validate"))
        while sent < CHUNKS:
            sock.sendall(b"1\r\na\r\n" * CHUNKS_A_STEP)
            sent += CHUNKS_A_STEP
            if select.select([sock], [], [], 0.02)[0]:
                break
        status, _, _ = read_answer(sock)
    except (BrokenPipeError, ConnectionResetError):
        status = "reset"
    finally:
        sock.close()
    return status, sent


def tiny_chunks(bench: Bench) -> None:
    server = bench.serve()
    seconds = bench.args.seconds
    status, sent = chunks_before_the_answer(server.port)
    print(f"    a body sent {CHUNKS_A_STEP} chunks at a time: {status} once {sent - CHUNKS_A_STEP + 1:,} to {sent:,} chunks were sent")

    def run() -> Got:
        results: list[tuple[int | str, str, float]] = []
        stop = time.monotonic() + seconds

        def client(i: int) -> None:
            n = 0
            while time.monotonic() < stop:
                results.append(one_byte_chunks(server.port, ("/validate", "/score-round")[(i + n) % 2], attacker(i)))
                n += 1

        threads = [threading.Thread(target=client, args=(i,)) for i in range(2)]
        cpu = sum(server.cpu_seconds())
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        spent = sum(server.cpu_seconds()) - cpu
        statuses = Counter(r[0] for r in results)
        times = summary(r[2] for r in results)
        per_body = spent / max(1, len(results)) * 1e3
        details = [
            f"2 clients, {len(results)} bodies of {CHUNKS:,} one-byte chunks ({len(ONE_BYTE_CHUNKS):,} bytes, one write each) in {seconds:g} s: {dict(statuses)}",
            f"the answer: {results[0][1]!r}" if results else "no answer",
            f"answered in p50 {times['p50']:.1f} ms, max {times['worst']:.1f} ms",
            f"server CPU over the attack: {spent:.2f} s, {per_body:.1f} ms a body (reading and discarding what follows the refusal included)",
        ]
        return Got(f"{dict(statuses)} of {len(results)} bodies (refused once {sent:,} chunks were sent), {per_body:.1f} ms server CPU a body", details)

    bench.attack("tiny-chunks", "2 clients, 65,536 one-byte chunks a body", run)


# ---------------------------------------------------------------- pipeline


PIPELINED = 10_000


def pipelined(port: int, path: str, n: int) -> Got:
    """``n`` pipelined GETs of ``path`` in one write on one connection, read while being written; then one more request."""
    requests = b"".join(b"GET %s HTTP/1.1\r\nHost: bench\r\nX-Request-ID: p%d\r\n\r\n" % (path.encode(), i) for i in range(n))
    sock = connect(port, ATTACKER, timeout=60)
    errors: list[str] = []

    def write() -> None:
        try:
            sock.sendall(requests)
        except OSError as err:
            errors.append(f"write: {type(err).__name__}")

    parser = Responses()
    ended = "kept open"
    with Timer() as timer:
        writer = threading.Thread(target=write)
        writer.start()
        try:
            while len(parser.parsed) < n:
                data = sock.recv(1 << 20)
                if not data:
                    ended = "closed by the server"
                    break
                parser.feed(data)
        except OSError as err:
            ended = f"{type(err).__name__}"
        writer.join()
    in_order = 0
    for i, (_, headers, _) in enumerate(parser.parsed):
        if headers.get("x-request-id") != f"p{i}":
            break
        in_order += 1
    if ended == "kept open":
        try:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: bench\r\n\r\n")
            status, _, _ = read_answer(sock)
            ended = f"kept open (one more request: {status})"
        except OSError as err:
            ended = f"{type(err).__name__} on one more request"
    sock.close()
    statuses = Counter(status for status, _, _ in parser.parsed)
    line = (
        f"{in_order:,} of {n:,} answered in order in {timer.seconds:.2f} s ({len(parser.parsed) / timer.seconds:,.0f}/s), {dict(statuses)}; connection {ended}"
    )
    return Got(line, [f"written in one sendall of {len(requests):,} bytes", *errors])


def pipeline(bench: Bench) -> None:
    server = bench.serve()
    for path in ("/health", "/validate?word=quiz"):
        bench.attack("pipeline", f"{PIPELINED:,} x GET {path}", lambda path=path: pipelined(server.port, path, PIPELINED))  # type: ignore[misc]


# ---------------------------------------------------------------- silent-flood and descriptors


class Flood:
    """``count`` connections that send nothing, from ``sources`` in turn, each re-opened as soon as the server ends it."""

    def __init__(self, port: int, count: int, sources: list[str]):
        self.port, self.count, self.sources = port, count, sources
        self.selector = selectors.DefaultSelector()
        self.stats: Counter[str] = Counter()
        self.stop_at = 0.0
        self.open = 0

    def _open(self, i: int) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((self.sources[i % len(self.sources)], 0))
            sock.connect_ex((HOST, self.port))  # in progress; a failure shows as the socket turning readable
        except OSError as err:
            self.stats[f"could not open: {type(err).__name__}"] += 1
            sock.close()
            return
        self.selector.register(sock, selectors.EVENT_READ, i)
        self.stats["opened"] += 1
        self.open += 1

    def run(self, seconds: float) -> None:
        for i in range(self.count):
            self._open(i)
        self.stop_at = time.monotonic() + seconds
        while time.monotonic() < self.stop_at:
            for key, _ in self.selector.select(timeout=0.1):
                sock: socket.socket = key.fileobj  # type: ignore[assignment]
                try:
                    data = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError as err:
                    self.stats[f"ended by {type(err).__name__}"] += 1
                else:
                    self.stats["closed by the server" if not data else f"answered {data[9:12].decode(errors='replace')}"] += 1
                self.selector.unregister(sock)
                sock.close()
                self.open -= 1
                self._open(key.data)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()
        self.open = 0

    def line(self) -> str:
        opened = self.stats["opened"]
        rest = {k: v for k, v in sorted(self.stats.items()) if k != "opened"}
        return f"{self.count:,} silent connections from {len(self.sources)} addresses, {opened:,} opened in all (re-opened as ended): {rest}"


def silent_flood(bench: Bench) -> None:
    server = bench.serve()
    seconds = bench.args.flood_seconds

    def run() -> Got:
        flood = Flood(server.port, 2200, [attacker(i) for i in range(5)])
        flood.run(seconds)
        return Got(f"{flood.stats['opened']:,} connections opened, ended by the server: {flood.stats['closed by the server']:,}", [flood.line()])

    row = bench.attack("silent-flood", f"2,200 silent connections for {seconds:g} s", run)
    print(
        f"    share of /health probes answered 503: {row.health.share(503):.1%}; failed: {sum(v for k, v in row.health.statuses.items() if isinstance(k, str))}"
    )


def descriptors_event(server: Server) -> str:
    for event in log_events(server.log(None)):
        if event.get("event") == "descriptors":
            return ", ".join(f"{k} {event[k]}" for k in ("soft", "hard", "max_connections", "max_client_connections"))
    return "no descriptors event in the log"


def open_descriptors(server: Server) -> dict[int, int]:
    """Descriptors each of the server's workers holds now."""
    found = {}
    for pid in group(server.pid) - {server.pid}:
        try:
            found[pid] = len(os.listdir(f"/proc/{pid}/fd"))
        except OSError:
            continue
    return found


def hold_and_ask(server: Server, seconds: float, event: str) -> Got:
    """2,000 connections held (1,000 a worker) for ``seconds`` while /metrics, /console and /words are asked every half second."""
    flood = Flood(server.port, 2000, [attacker(i) for i in range(4)])
    holding = threading.Thread(target=flood.run, args=(seconds + 2,))
    holding.start()
    time.sleep(2)  # the connections are open
    answers: Counter[str] = Counter()
    held: list[int] = []
    fds: list[int] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        for path in ("/metrics", "/console", "/words?pattern=qu*"):
            status, body, _ = get(server.port, path)
            answers[f"{path} {status}"] += 1
            if path == "/metrics":
                held += [int(float(line.rsplit(" ", 1)[1])) for line in body.decode().splitlines() if line.startswith("wordsvc_server_connections")]
        fds.append(max(open_descriptors(server).values(), default=0))
        time.sleep(0.5)
    holding.join()
    details = [
        flood.line(),
        f"open connections (wordsvc_server_connections) while held: {min(held, default=0)} to {max(held, default=0)}",
        f"descriptors of the busiest worker: up to {max(fds, default=0)}",
        f"answers while held: {dict(answers)}",
    ]
    bad = {k: v for k, v in answers.items() if not k.endswith(" 200")}
    return Got(f"{event}; held {max(held, default=0)} connections; {sum(answers.values())} requests: {'all 200' if not bad else bad}", details)


def descriptors(bench: Bench) -> None:
    _, machine_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for hard in (machine_hard, 1024):
        server = bench.serve(nofile=(1024, hard))
        event = descriptors_event(server)
        print(f"    started with soft 1024, hard {hard}; the descriptors event: {event}")
        bench.attack(
            "descriptors", f"soft 1024, hard {hard}, 2,000 connections held", lambda server=server, event=event: hold_and_ask(server, bench.args.seconds, event)
        )


# ---------------------------------------------------------------- method-labels


def odd_methods(port: int, n: int, size: int, seed: int) -> tuple[Counter[int | str], float]:
    """``n`` requests with random ``size``-letter methods on keep-alive connections; their statuses and seconds."""
    rng = random.Random(seed)
    statuses: Counter[int | str] = Counter()
    conn: http.client.HTTPConnection | None = None
    started = time.perf_counter()
    for _ in range(n):
        method = "".join(rng.choices(string.ascii_uppercase, k=size))
        path = rng.choice(["/health", "/validate?word=quiz", "/best-meld", "/metrics"])
        try:
            if conn is None:
                conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(ATTACKER, 0))
            conn.request(method, path)
            response = conn.getresponse()
            response.read()
            statuses[response.status] += 1
            if response.will_close:
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException) as err:
            statuses[type(err).__name__] += 1
            if conn is not None:
                conn.close()
            conn = None
    if conn is not None:
        conn.close()
    return statuses, time.perf_counter() - started


def scrapes(port: int, n: int = 5) -> tuple[int, float]:
    """/metrics size in bytes and the median of ``n`` scrapes' times, in ms."""
    taken = [counters(port) for _ in range(n)]
    return taken[-1][1], statistics.median(t[2] for t in taken) * 1e3


def method_labels(bench: Bench) -> None:
    server = bench.serve()

    def run() -> Got:
        size_before, ms_before = scrapes(server.port)
        statuses, seconds = odd_methods(server.port, 2000, 4096, seed=43)
        size_after, ms_after = scrapes(server.port)
        again, _ = odd_methods(server.port, 2000, 4096, seed=44)
        size_again, ms_again = scrapes(server.port)
        text = get(server.port, "/metrics")[1].decode()
        other = sum(1 for line in text.splitlines() if 'method="other"' in line)
        line = f"/metrics {size_before:,} -> {size_after:,} bytes ({size_after - size_before:+,}), scrape {ms_before:.1f} -> {ms_after:.1f} ms"
        return Got(
            f"{dict(statuses)}; {line}; 2,000 more: {size_again - size_after:+,} bytes",
            [
                f"2,000 requests with random 4,096-letter methods in {seconds:.1f} s: {dict(statuses)}",
                line,
                f"2,000 more with other methods: {dict(again)}; /metrics {size_again:,} bytes ({size_again - size_after:+,}), scrape {ms_again:.1f} ms",
                f'lines with method="other" now: {other}',
            ],
        )

    bench.attack("method-labels", "2,000 random 4 KB methods", run)


# ---------------------------------------------------------------- greedy


class Looper(threading.Thread):
    """A client that repeats ``step(conn, rng)`` on one keep-alive connection from ``source`` until ``stop``."""

    def __init__(self, port: int, source: str, stop: float, step: Callable[[http.client.HTTPConnection, random.Random], int], seed: int):
        super().__init__(daemon=True)
        self.port, self.source, self.stop_at, self.step = port, source, stop, step
        self.rng = random.Random(seed)
        self.statuses: Counter[int | str] = Counter()
        self.times: list[float] = []

    def run(self) -> None:
        conn: http.client.HTTPConnection | None = None
        while time.monotonic() < self.stop_at:
            started = time.perf_counter()
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(HOST, self.port, timeout=120, source_address=(self.source, 0))
                self.statuses[self.step(conn, self.rng)] += 1
            except (OSError, http.client.HTTPException) as err:
                self.statuses[type(err).__name__] += 1
                if conn is not None:
                    conn.close()
                conn = None
            self.times.append(time.perf_counter() - started)
        if conn is not None:
            conn.close()


def call(conn: http.client.HTTPConnection, method: str, path: str, body: object = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
    response = conn.getresponse()
    raw = response.read()
    if response.will_close:
        conn.close()  # http.client opens it again on the next request
    return response.status, raw


def solve_a_deal(conn: http.client.HTTPConnection, rng: random.Random, budget: int | None = None, seed: str = "") -> int:
    status, raw = call(conn, "GET", "/solitaire/deal" + (f"?seed={seed}" if seed else ""))
    if status != 200:
        return status
    body: dict[str, object] = {"layout": json.loads(raw)["layout"]}
    if budget is not None:
        body["budget"] = budget
    return call(conn, "POST", "/solitaire/solve", body)[0]


def best_meld(conn: http.client.HTTPConnection, rng: random.Random) -> int:
    hand = "".join(rng.sample("aeiourstlnmdpgbcfhkwy", 10)) + "(qu)"
    return call(conn, "POST", "/best-meld", {"hand": hand, "discard": True, "top": 3})[0]


def anagrams_or_best_meld(conn: http.client.HTTPConnection, rng: random.Random) -> int:
    return call(conn, "GET", HEAVY_ANAGRAMS)[0] if rng.random() < 0.5 else best_meld(conn, rng)


def loopers_line(who: str, loopers: list[Looper]) -> tuple[Counter[int | str], str]:
    statuses: Counter[int | str] = Counter()
    for looper in loopers:
        statuses.update(looper.statuses)
    times = summary(t for looper in loopers for t in looper.times) if any(looper.times for looper in loopers) else None
    took = f"; each p50 {times['p50']:.0f} ms, p99 {times['p99']:.0f} ms" if times else ""
    return statuses, f"{who}: {dict(statuses)}{took}"


def greedy(bench: Bench) -> None:
    server = bench.serve()
    seconds = bench.args.seconds

    def solves() -> Got:
        stop = time.monotonic() + seconds
        greedy = [Looper(server.port, ATTACKER, stop, solve_a_deal, i) for i in range(4)]
        polite = Looper(server.port, POLITE, stop, best_meld, 99)
        for looper in [*greedy, polite]:
            looper.start()
        for looper in [*greedy, polite]:
            looper.join()
        polite_statuses, polite_line = loopers_line("the polite client's /best-meld", [polite])
        _, greedy_line = loopers_line("the 4 greedy clients' /solitaire/solve (and deals)", greedy)
        share = polite_statuses[503] / max(1, sum(polite_statuses.values()))
        return Got(f"polite /best-meld: {share:.1%} 503 of {sum(polite_statuses.values())}", [polite_line, greedy_line])

    bench.attack("greedy", "4 looping solves, 1 polite best play", solves)

    def sixteen() -> Got:
        stop = time.monotonic() + seconds
        loopers = [Looper(server.port, ATTACKER, stop, anagrams_or_best_meld, i) for i in range(16)]
        for looper in loopers:
            looper.start()
        for looper in loopers:
            looper.join()
        statuses, line = loopers_line("16 greedy clients", loopers)
        return Got(f"{dict(statuses)}", [line])

    for repeat in range(bench.args.repeats):
        row = bench.attack("greedy", f"16 greedy clients, run {repeat + 1}", sixteen)
        p99 = row.health.figures()["p99"]
        print(f"    /health p99 {p99:.1f} ms: goal <= {HEALTH_P99_GOAL_MS:g} ms {'met' if p99 <= HEALTH_P99_GOAL_MS else 'MISSED'}")


# ---------------------------------------------------------------- sighup


#: The solve a reload must not cut: the layout dealt from this seed spends the whole budget (about 4 s on the machine of docs/performance.md).
SLOW_BUDGET = 3_000_000
SLOW_SEED = f"{2:064x}"


def reload_under_a_slow_solve(server: Server, send: Callable[[], None]) -> Got:
    """A slow solve in flight and a keep-alive client answered in a loop while ``send`` hangs the server up; what each got."""
    result: dict[str, object] = {}

    def slow() -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=120, source_address=(POLITE, 0))
        started = time.perf_counter()
        try:
            result["status"] = solve_a_deal(conn, random.Random(), SLOW_BUDGET, SLOW_SEED)
        except (OSError, http.client.HTTPException) as err:
            result["status"] = type(err).__name__
        result["seconds"] = time.perf_counter() - started
        conn.close()

    log_at = len(server.log(None))
    stop = time.monotonic() + 3600.0
    steady = Looper(server.port, attacker(0), stop, lambda conn, rng: call(conn, "GET", "/validate?word=quiz")[0], 1)
    steady.start()
    solver = threading.Thread(target=slow)
    solver.start()
    time.sleep(0.5)  # the solve is in flight
    send()
    solver.join()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # both old workers gone
        events = log_events(server.log(None)[log_at:])
        if sum(1 for e in events if e.get("event") == "worker_exited") >= 2:
            break
        time.sleep(0.2)
    time.sleep(1.0)  # and the new ones answering a while
    steady.stop_at = 0.0
    steady.join()
    events = log_events(server.log(None)[log_at:])
    names = Counter(str(e.get("event")) for e in events if e.get("event") != "request")
    exits = [e.get("code") for e in events if e.get("event") == "worker_exited"]
    cut = [e for e in events if e.get("event") == "drain_finished" and e.get("cut")]
    details = [
        f"the solve in flight (budget {SLOW_BUDGET:,}): {result.get('status')} after {float(result.get('seconds', 0)):.1f} s",
        f"a keep-alive client looping GET /validate meanwhile: {dict(steady.statuses)}",
        f"log events: {dict(names)}; workers exited with {exits}; drains that cut connections: {len(cut)}",
    ]
    ok = result.get("status") == 200 and set(steady.statuses) == {200} and names["reload"] == 1 and names["worker_recycled"] == 2 and not cut
    return Got(f"solve {result.get('status')}, keep-alive client {dict(steady.statuses)}, reload 1, workers recycled {names['worker_recycled']}, exits {exits}: {'as expected' if ok else 'NOT as expected'}", details)  # fmt: skip


def sighup(bench: Bench) -> None:
    server = bench.serve()
    bench.attack("sighup", "SIGHUP to the master", lambda: reload_under_a_slow_solve(server, lambda: os.kill(server.pid, signal.SIGHUP)))
    bench.attack("sighup", "SIGHUP to the process group", lambda: reload_under_a_slow_solve(server, lambda: os.killpg(server.pid, signal.SIGHUP)))


# ---------------------------------------------------------------- leniencies


def chunked(body: bytes, size: int) -> bytes:
    return b"".join(b"%x\r\n%s\r\n" % (len(body[i : i + size]), body[i : i + size]) for i in range(0, len(body), size)) + b"0\r\n\r\n"


def exchange(port: int, raw: bytes) -> tuple[int | str, str, float]:
    """Send ``raw`` on a new connection and read the answer: (status, detail, seconds from the last byte sent)."""
    sock = connect(port, ATTACKER)
    try:
        sock.sendall(raw)
        return read_answer(sock)
    except (BrokenPipeError, ConnectionResetError):
        return "reset", "", 0.0
    finally:
        sock.close()


def leniency_cases() -> list[tuple[str, bytes, int]]:
    """(case, the bytes sent, the status expected)."""
    words = b'{"words": ["quiz"]}'
    full = words + b" " * (MAX_BODY - len(words))  # JSON allows the white space: a body of exactly the limit
    post = b"POST /validate HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
    te = post + b"Transfer-Encoding: chunked\r\n\r\n"
    trailers = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"a" * 990) for i in range(100))  # 100 fields, about 100 KB
    return [
        (f"chunked body of exactly {MAX_BODY:,} bytes", te + chunked(full, 4096), 200),
        (f"its Content-Length twin ({MAX_BODY:,} bytes)", post + b"Content-Length: %d\r\n\r\n" % len(full) + full, 200),
        ("100 KB of trailers", te + b"%x\r\n%s\r\n0\r\n" % (len(words), words) + trailers + b"\r\n", 400),
        ("chunk size '2 ' (a trailing space)", te + b"2 \r\n{}\r\n0\r\n\r\n", 400),
        ("a NUL in a chunk extension", te + b"2;ext=a\x00b\r\n{}\r\n0\r\n\r\n", 400),
        ("one CRLF before a request line", b"\r\nGET /health HTTP/1.1\r\nHost: bench\r\n\r\n", 200),
        ("bytes starting with 0x80", b"\x80\x81\x82\x83 binary, no line end", 400),
    ]


def leniencies(bench: Bench) -> None:
    server = bench.serve()

    def run() -> Got:
        details, wrong = [], []
        for case, raw, expected in leniency_cases():
            status, detail, seconds = exchange(server.port, raw)
            mark = "" if status == expected else f"  <-- expected {expected}"
            details.append(f"{case}: {status} in {seconds * 1e3:.1f} ms {detail[:110]!r}{mark}")
            if mark:
                wrong.append(case)
        return Got("every case as expected" if not wrong else f"NOT as expected: {wrong}", details)

    bench.attack("leniencies", "7 framing cases", run)


# ---------------------------------------------------------------- the run


SCENARIOS: dict[str, Callable[[Bench], None]] = {
    "tiny-chunks": tiny_chunks,
    "pipeline": pipeline,
    "silent-flood": silent_flood,
    "descriptors": descriptors,
    "method-labels": method_labels,
    "greedy": greedy,
    "sighup": sighup,
    "leniencies": leniencies,
}


def table(rows: list[Row]) -> None:
    """Every attack in one table, baseline beside it (markdown, for docs/performance.md)."""
    print(
        "\n| scenario | attack | what the attack got | /health p50 / p99 / max ms, baseline | during the attack | server counters over the attack | server CPU s |"
    )
    print("|---|---|---|---|---|---|---:|")
    for row in rows:
        b, h = row.baseline.figures(), row.health.figures()
        bad = {str(k): v for k, v in row.health.statuses.items() if k != 200}
        during = f"{h['p50']:.1f} / {h['p99']:.1f} / {h['worst']:.1f}" + (f" ({bad} of {h['n']:.0f})" if bad else "")
        moved = ", ".join(f"{k.replace('wordsvc_', '')} {v:,.0f}" for k, v in row.counters.items()) or "-"
        print(
            f"| {row.scenario} | {row.phase} | {row.got.summary} | {b['p50']:.1f} / {b['p99']:.1f} / {b['worst']:.1f} | {during} | {moved} | {'n/a' if math.isnan(row.cpu_s) else f'{row.cpu_s:.1f}'} |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("scenarios", nargs="*", metavar="SCENARIO", help=f"any of {', '.join(SCENARIOS)} (all by default)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of the timed attacks (tiny-chunks, descriptors, greedy)")
    parser.add_argument("--flood-seconds", type=float, default=30.0, help="length of the silent flood")
    parser.add_argument("--repeats", type=int, default=3, help="runs of the 16 greedy clients (the machine is shared: one figure is not enough)")
    parser.add_argument("--baseline", type=float, default=5.0, help="seconds of /health probes without attack, on each scenario's server")
    args = parser.parse_args()
    names = args.scenarios or list(SCENARIOS)
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        parser.error(f"no scenario {', '.join(unknown)}; the scenarios: {', '.join(SCENARIOS)}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the floods hold thousands of sockets
    print(machine_line())
    print(f"wordsvc attacks: {', '.join(names)}; 2 workers a server, {os.cpu_count()} CPUs, this process's descriptor limit {hard} (was {soft})", flush=True)
    bench = Bench(args)
    try:
        for name in names:
            print(f"\n{name}", flush=True)
            SCENARIOS[name](bench)
    finally:
        bench.stop()
    table(bench.rows)
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

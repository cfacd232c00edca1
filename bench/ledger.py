"""Ledger benchmark: rounds stored per second on SQLite and on PostgreSQL, against stateless scoring, in one run.

Starts ``wordsvc serve`` (:func:`common.start_server`, 2 workers unless
``--workers``) twice: on a temporary SQLite ledger and on a temporary
PostgreSQL database (:func:`api_tests.postgres.temporary_postgres`: a
throwaway cluster, fsync on). Each server gets one event under the
``standard`` ruleset with many three-player tables, seated before any
timing, and ``--referees`` referees (8), each a client process with a
keep-alive connection and an event-wide referee token. A referee works
through tables of its own, one at a time, rounds 1..8 of each (a table has
eight rounds only, hence the many tables): distinct valid plays, every
player's n + 2 cards drawn from the 118-card deck without replacement, some
laid as words, real or not.

Three rows, ``--seconds`` each, in ``--rounds`` slices taken in turn so that
a neighbour's load hits them alike:

- ``POST /score-round`` on the SQLite server: the same plays, with
  ``"ruleset": "standard"`` and the round, scored and not stored: the
  stateless baseline;
- ``PUT /events/{e}/games/{g}/rounds/{n}`` on SQLite: scored, stored with its
  audit entry and committed (``synchronous=FULL``) before the 201;
- the same on PostgreSQL (the writes of one event serialize on its advisory lock);
- the same on PostgreSQL with a key (``WORDSVC_LEDGER_KEY_FILE``, a second
  database of the same cluster): every audit entry signed as it is written,
  every receipt's checkpoint signed, the newest entry's signature verified
  when another worker wrote it, tokens' seals checked (docs/ledger.md, "Entry
  signatures"). The row without a key signs nothing, so the two PostgreSQL
  rows, taken in turn, give what signing costs a round; each row's slices
  give its noise (their lowest and highest rate).

It prints answers per second (rounds stored per second for the PUT rows), p50
and p99 latency, errors, and each row's throughput as a share of the
baseline's; then what each row cost the server: its processes' CPU time per
answer (user and system, from ``/proc``; not PostgreSQL's own processes) and
the ledger's write transactions from ``/metrics`` (how many, rounds per
commit, milliseconds each held the write lock); then checks that the ledgers
hold exactly the rounds answered 201. Target (the ledger's issue): storing costs no more than a third of the
stateless throughput on SQLite, i.e. SQLite ÷ stateless >= 0.67. The first
and last lines time a fixed Python loop (:func:`common.machine_loop_ms`): how
loaded the machine was.

Last, the same plays without HTTP or concurrency: the app in this process
(Flask's test client, one thread) on a SQLite ledger of its own, each play
scored by ``POST /score-round`` and stored by ``PUT``, taken in turn, and the
CPU time each costs (the lowest of ``--repeats`` passes). What the ledger's
own work costs a round, with nothing waiting on anything: with the HTTP
server's share and the clients' added to both, the best ratio this machine
could show.

The clients share the machine with the servers and PostgreSQL, so the
absolute figures are a floor.

Run: ``.venv/bin/python bench/ledger.py [--seconds 10] [--referees 8] [--rounds 3] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import math
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

from common import HOST, ROOT, Server, Timer, machine_line, start_server, summary

from api_tests.plays import PLAYERS, random_players
from api_tests.postgres import PostgresUnavailable, create_database, temporary_postgres

TARGET = 0.67  # SQLite stored ÷ stateless throughput: storing costs at most a third of it
ROUNDS = range(1, 9)  # the standard ruleset's rounds; round n deals n + 2 cards
EVENT = "bench"
WARMUP_SECONDS = 1.0
WARMUP_TABLES = 4  # per referee
#: Tables seated per referee: this many times what the warm-up says a referee gets through in --seconds.
HEADROOM = 3.0
SIGNED = "PostgreSQL, with a key"  # the row whose server signs (WORDSVC_LEDGER_KEY_FILE)
WIDTH = 46  # of the rows' labels
IN_PROCESS_TABLES = 50  # a pass of the in-process rows: 50 tables of 8 rounds

Work = list[tuple[str, bytes]]  # (path, body) in the order a referee sends them


# ---------------------------------------------------------------- HTTP


class Client:
    """One keep-alive connection to a server on 127.0.0.1, opened again after the server closes it."""

    def __init__(self, port: int, token: str | None = None):
        self.port = port
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            self.conn.request(method, path, body=body, headers=self.headers)
            response = self.conn.getresponse()
            data = response.read()
        except OSError:
            self.close()
            raise
        if response.will_close:
            self.close()
        return response.status, data

    def json(self, method: str, path: str, body: Any, expect: int) -> Any:
        status, data = self.call(method, path, None if body is None else json.dumps(body).encode())
        if status != expect:
            raise SystemExit(f"{method} {path}: {status}, expected {expect}: {data[:500]!r}")
        return json.loads(data)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def admin_token(database_url: str, key: dict[str, str] | None = None) -> str:
    """``wordsvc token create --admin`` on the ledger at ``database_url`` (sealed with the server's key file in ``key``): the token."""
    env = {**os.environ, "WORDSVC_DATABASE_URL": database_url, **(key or {})}
    command = [os.path.join(os.path.dirname(sys.executable), "wordsvc"), "token", "create", "--admin", "--label", "bench"]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"wordsvc token create --admin failed ({done.returncode}): {done.stderr}")
    return str(json.loads(done.stdout)["token"])


# ---------------------------------------------------------------- the ledgers and their plays


@dataclass
class Ledger:
    """A server's event: its director and referee tokens, and the tables seated so far."""

    name: str
    server: Server
    director: str
    referees: list[str]
    deck: list[str]
    tables: int = 0

    def seat(self, count: int) -> list[str]:
        """Seat ``count`` more tables (eight at a time): their ids."""
        ids = [f"t{n:05d}" for n in range(self.tables + 1, self.tables + count + 1)]
        self.tables += count

        def one(chunk: list[str]) -> None:
            client = Client(self.server.port, self.director)
            for table in chunk:
                client.json("PUT", f"/events/{EVENT}/games/{table}", {"players": PLAYERS}, 201)
            client.close()

        with ThreadPoolExecutor(8) as pool:
            list(pool.map(one, [ids[i::8] for i in range(8)]))
        return ids

    def work(self, tables: list[str], rng: random.Random) -> Work:
        """Rounds 1..8 of each table in turn, each a new deal."""
        return [
            (f"/events/{EVENT}/games/{table}/rounds/{number}", json.dumps({"players": random_players(rng, self.deck, number)}).encode())
            for table in tables
            for number in ROUNDS
        ]


def open_ledger(name: str, server: Server, database_url: str, referees: int, key: dict[str, str] | None = None) -> Ledger:
    admin = Client(server.port, admin_token(database_url, key))
    event = admin.json("POST", "/events", {"name": "ledger bench", "id": EVENT, "ruleset": "standard"}, 201)
    admin.close()
    director = event["director_token"]["token"]
    client = Client(server.port, director)
    tokens = [client.json("POST", f"/events/{EVENT}/tokens", {"role": "referee", "label": f"referee {i}"}, 201)["token"] for i in range(referees)]
    rules = client.json("GET", "/rulesets/standard", None, 200)
    client.close()
    deck = [card["face"].lower() for card in rules["deck"]["cards"] for _ in range(card["count"])]
    return Ledger(name, server, director, tokens, deck)


def stateless(work: Work) -> Work:
    """The same plays as ``POST /score-round`` bodies: the ruleset and the round added."""
    plays = []
    for path, body in work:
        document = json.loads(body)
        plays.append(("/score-round", json.dumps({"ruleset": "standard", "round": int(path.rsplit("/", 1)[1]), **document}).encode()))
    return plays


# ---------------------------------------------------------------- rows and their slices


@dataclass
class Row:
    """A row of the table: what each referee sends, in order (``cycle``: over and over), and what came back."""

    name: str
    port: int
    method: str
    expect: int
    tokens: list[str | None]
    work: list[Work]
    cycle: bool = False
    server: Server | None = None  # whose CPU time and ledger transactions the row counts
    done: list[int] = field(default_factory=list)  # per referee: requests sent so far
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0
    first_error: str = ""
    ran_out: bool = False
    cpu: list[float] = field(default_factory=lambda: [0.0, 0.0])  # the server's user and system CPU seconds over the row's slices
    rates: list[float] = field(default_factory=list)  # answers per second in each slice
    commits: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])  # transactions, seconds holding the write lock, writes

    def __post_init__(self) -> None:
        self.done = [0] * len(self.tokens)

    def answered(self) -> int:
        return len(self.latencies) - self.errors


def referee(index: int, port: int, token: str | None, method: str, expect: int, work: Work, start: int, cycle: bool, seconds: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    """Send ``work`` from ``start`` on, each request once the last is answered, for ``seconds``; report what happened."""
    client = Client(port, token)
    latencies: list[float] = []
    errors, first_error, sent = 0, "", 0
    began = time.perf_counter()
    end = began + seconds
    while (cycle or start + sent < len(work)) and (started := time.perf_counter()) < end:
        path, body = work[(start + sent) % len(work)]
        sent += 1
        try:
            status, data = client.call(method, path, body)
        except OSError as err:
            status, data = 0, repr(err).encode()
        latencies.append(time.perf_counter() - started)
        if status != expect:
            errors += 1
            first_error = first_error or f"{method} {path}: {status} {data[:300]!r}"
    client.close()
    out.put((index, latencies, errors, first_error, sent, time.perf_counter() - began))


def commit_metrics(port: int) -> list[float]:
    """``[transactions, seconds, writes]`` of the ledger's write transactions so far, from the server's ``/metrics``."""
    names = ("wordsvc_ledger_commit_seconds_count", "wordsvc_ledger_commit_seconds_sum", "wordsvc_ledger_commit_writes_sum")
    found = dict.fromkeys(names, 0.0)
    client = Client(port)
    status, data = client.call("GET", "/metrics")
    client.close()
    for line in data.decode().splitlines() if status == 200 else []:
        name, _, value = line.partition(" ")
        if name in found:
            found[name] = float(value)
    return [found[name] for name in names]


def run_slice(row: Row, seconds: float) -> float:
    """Every referee of ``row`` at once for ``seconds``, each going on from where it stopped: the longest a referee was busy."""
    cpu = row.server.cpu_seconds() if row.server else (0.0, 0.0)
    commits = commit_metrics(row.port)
    answered = row.answered()
    queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    procs = [
        mp.Process(target=referee, args=(i, row.port, token, row.method, row.expect, row.work[i], row.done[i], row.cycle, seconds, queue))
        for i, token in enumerate(row.tokens)
    ]
    for proc in procs:
        proc.start()
    busy = 0.0
    for _ in procs:
        index, latencies, errors, first_error, sent, elapsed = queue.get()
        row.latencies += latencies
        row.errors += errors
        row.first_error = row.first_error or first_error
        row.done[index] += sent
        row.ran_out = row.ran_out or (not row.cycle and row.done[index] >= len(row.work[index]))
        busy = max(busy, elapsed)
    for proc in procs:
        proc.join()
    if row.server:
        row.cpu = [total + after - before for total, after, before in zip(row.cpu, row.server.cpu_seconds(), cpu, strict=True)]
    row.commits = [total + after - before for total, after, before in zip(row.commits, commit_metrics(row.port), commits, strict=True)]
    row.rates.append((row.answered() - answered) / seconds)
    return busy


# ---------------------------------------------------------------- the run


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per row")
    parser.add_argument("--referees", type=int, default=8, help="concurrent referees (client processes), each at a table of its own")
    parser.add_argument("--rounds", type=int, default=3, help="turns each row takes (slices of seconds/rounds)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORDSVC_WORKERS", "2")))
    parser.add_argument("--seed", type=int, default=1, help="of the plays")
    parser.add_argument("--repeats", type=int, default=5, help="passes of the in-process rows (the lowest CPU time counts)")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="wordsvc-bench-ledger-"))
        try:
            postgres_url = stack.enter_context(temporary_postgres())
        except PostgresUnavailable as err:
            raise SystemExit(f"PostgreSQL not available: {err.reason} (install Debian's postgresql package)") from None
        urls = {"SQLite": f"sqlite:///{tmp}/ledger.sqlite3", "PostgreSQL": postgres_url, SIGNED: create_database(postgres_url, "wordsvc_signed")}
        made = subprocess.run([os.path.join(os.path.dirname(sys.executable), "wordsvc"), "key", "create", f"{tmp}/ledger.key"], capture_output=True, check=False)
        if made.returncode != 0:
            raise SystemExit(f"wordsvc key create failed: {made.stderr.decode()}")
        ledgers = {}
        for name, url in urls.items():
            key = {"WORDSVC_LEDGER_KEY_FILE": f"{tmp}/ledger.key"} if name == SIGNED else {}
            server = start_server(args.workers, env={"WORDSVC_DATABASE_URL": url, **key})
            stack.callback(server.stop)
            ledgers[name] = open_ledger(name, server, url, args.referees, key)

        # Warm-up: every path once hot, and how fast a referee stores rounds, to seat enough tables for the timed run.
        rows: dict[str, Row] = {}
        warmed: dict[str, int] = {}
        for name, ledger in ledgers.items():
            work = [ledger.work(ledger.seat(WARMUP_TABLES), rng) for _ in ledger.referees]
            warm = Row(name, ledger.server.port, "PUT", 201, list(ledger.referees), work)
            busy = run_slice(warm, WARMUP_SECONDS)
            if warm.errors:
                raise SystemExit(f"warm-up on {name}: {warm.errors} errors, the first: {warm.first_error}")
            warmed[name] = warm.answered()
            per_referee = warm.answered() / len(ledger.referees) / busy  # rounds per second
            tables = math.ceil(per_referee * args.seconds * HEADROOM / len(ROUNDS)) + 1
            with Timer() as seating:
                work = [ledger.work(ledger.seat(tables), rng) for _ in ledger.referees]
            print(f"{name}: warm-up {per_referee * len(ledger.referees):.0f} rounds/s; seated {tables * len(ledger.referees)} tables in {seating.seconds:.1f} s")
            rows[f"PUT .../rounds/{{n}} on {name}"] = Row(name, ledger.server.port, "PUT", 201, list(ledger.referees), work, server=ledger.server)
        sqlite_row = rows["PUT .../rounds/{n} on SQLite"]
        baseline = Row("stateless", sqlite_row.port, "POST", 200, [None] * args.referees, [stateless(w) for w in sqlite_row.work], cycle=True)
        run_slice(baseline, WARMUP_SECONDS)  # warm-up, then counting from zero
        baseline = Row("stateless", baseline.port, "POST", 200, baseline.tokens, baseline.work, cycle=True, server=ledgers["SQLite"].server)
        rows = {"POST /score-round (stateless)": baseline, **rows}

        print(machine_line())
        print(
            f"wordsvc ledger benchmark: {args.referees} referees (client processes, a table each at a time), {args.workers} workers per server, "
            f"{args.seconds:g} s per row in {args.rounds} slice(s), {os.cpu_count()} CPUs"
        )
        for _ in range(args.rounds):
            for row in rows.values():
                run_slice(row, args.seconds / args.rounds)
                row.seconds += args.seconds / args.rounds

        print(f"\n{'row':<{WIDTH}} {'answers':>8} {'per s':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'vs stateless':>12} {'slices per s':>16}")
        rates = {}
        for label, row in rows.items():
            s = summary(row.latencies)
            rates[label] = row.answered() / row.seconds
            share = rates[label] / rates["POST /score-round (stateless)"]
            spread = f"{min(row.rates):.0f}-{max(row.rates):.0f}"
            print(f"{label:<{WIDTH}} {row.answered():>8} {rates[label]:>7.0f} {s['p50']:>7.2f} {s['p99']:>7.2f} {row.errors:>6} {share:>12.2f} {spread:>16}")
        print(f"\n{'row':<{WIDTH}} {'server CPU ms/answer':>20} {'user':>6} {'system':>6} {'commits':>8} {'writes/commit':>13} {'lock held ms':>12}")
        for label, row in rows.items():
            answered = max(row.answered(), 1)
            transactions, held, writes = row.commits
            per_commit = f"{writes / transactions:>13.2f} {held / transactions * 1e3:>12.2f}" if transactions else f"{'-':>13} {'-':>12}"
            print(f"{label:<{WIDTH}} {sum(row.cpu) / answered * 1e3:>20.2f} {row.cpu[0] / answered * 1e3:>6.2f} {row.cpu[1] / answered * 1e3:>6.2f} {transactions:>8.0f} {per_commit}")
        print("(server CPU: the wordsvc processes only, not PostgreSQL's; lock held: from taking the write lock to the commit on disk)")
        for label, row in rows.items():
            if row.errors:
                print(f"  {label}: first error: {row.first_error}")
            if row.ran_out:
                print(f"  {label}: a referee ran out of tables before the time was up: its rate is a floor")

        for name, ledger in ledgers.items():  # the ledger holds exactly what was answered 201, warm-up included
            event = Client(ledger.server.port).json("GET", f"/events/{EVENT}", None, 200)
            stored = sum(game["rounds_played"] for game in event["games"])
            answered = warmed[name] + rows[f"PUT .../rounds/{{n}} on {name}"].answered()
            print(f"{name}: {stored} rounds in the ledger, {answered} answered 201 (warm-up included): {'the same' if stored == answered else 'MISMATCH'}")

        ratio = rates["PUT .../rounds/{n} on SQLite"] / rates["POST /score-round (stateless)"]
        pg_ratio = rates["PUT .../rounds/{n} on PostgreSQL"] / rates["POST /score-round (stateless)"]
        verdict = "met" if ratio >= TARGET else "MISSED"
        print(
            f"\nstored ÷ stateless throughput: SQLite {ratio:.2f}, PostgreSQL {pg_ratio:.2f} "
            f"(target: storing costs at most a third on SQLite, SQLite >= {TARGET:.2f}: {verdict})"
        )
        plain, signed = rows["PUT .../rounds/{n} on PostgreSQL"], rows[f"PUT .../rounds/{{n}} on {SIGNED}"]
        within = min(signed.rates) <= max(plain.rates) and min(plain.rates) <= max(signed.rates)
        print(
            f"signing on PostgreSQL: {rates[f'PUT .../rounds/{{n}} on {SIGNED}'] / rates['PUT .../rounds/{n} on PostgreSQL']:.2f} of the rate without a key, "
            f"{(sum(signed.cpu) / max(signed.answered(), 1) - sum(plain.cpu) / max(plain.answered(), 1)) * 1e3:+.2f} ms server CPU a round; "
            f"slices {min(signed.rates):.0f}-{max(signed.rates):.0f} against {min(plain.rates):.0f}-{max(plain.rates):.0f} rounds/s: "
            f"{'within the noise (the ranges overlap)' if within else 'OUTSIDE the noise (the ranges do not overlap)'}"
        )
        print_bound(*in_process_cpu(args.repeats, rng), rows["POST /score-round (stateless)"], args.repeats)
        print(machine_line())
    return 0


def in_process_cpu(repeats: int, rng: random.Random) -> tuple[float, float]:
    """CPU seconds a round costs in this process, one thread, no HTTP: scored by ``POST /score-round``, and stored by ``PUT``."""
    plays = IN_PROCESS_TABLES * len(ROUNDS)
    gc.collect()
    gc.freeze()  # the rows' latencies and plays out of the collector's way: it would walk them, not the app's objects
    with tempfile.TemporaryDirectory(prefix="wordsvc-bench-ledger-") as tmp:
        url = f"sqlite:///{tmp}/ledger.sqlite3"
        os.environ["WORDSVC_DATABASE_URL"] = url
        os.environ.setdefault("WORDSVC_LOG_LEVEL", "warning")
        from wordsvc.web.app import create_app

        client = create_app().test_client()

        def call(method: str, path: str, body: Any, expect: int, token: str | None = None) -> Any:
            response = client.open(path, method=method, json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
            if response.status_code != expect:
                raise SystemExit(f"in process: {method} {path}: {response.status_code}, expected {expect}: {response.data[:500]!r}")
            return response.json

        director = call("POST", "/events", {"name": "in process", "id": EVENT, "ruleset": "standard"}, 201, admin_token(url))["director_token"]["token"]
        referee = call("POST", f"/events/{EVENT}/tokens", {"role": "referee"}, 201, director)["token"]
        deck = [card["face"].lower() for card in call("GET", "/rulesets/standard", None, 200)["deck"]["cards"] for _ in range(card["count"])]
        score = store = math.inf
        for rep in range(repeats):
            tables = [f"p{rep}t{n:03d}" for n in range(IN_PROCESS_TABLES)]
            for table in tables:
                call("PUT", f"/events/{EVENT}/games/{table}", {"players": PLAYERS}, 201, director)
            work = [(table, n, random_players(rng, deck, n)) for table in tables for n in ROUNDS]
            started = time.process_time()
            for _, n, players in work:
                call("POST", "/score-round", {"ruleset": "standard", "round": n, "players": players}, 200)
            score = min(score, (time.process_time() - started) / plays)
            started = time.process_time()
            for table, n, players in work:
                call("PUT", f"/events/{EVENT}/games/{table}/rounds/{n}", {"players": players}, 201, referee)
            store = min(store, (time.process_time() - started) / plays)
    return score, store


def print_bound(score: float, store: float, baseline: Row, repeats: int) -> None:
    """The in-process figures, and the best stored ÷ stateless ratio they allow this machine."""
    rate = baseline.answered() / baseline.seconds
    served = sum(baseline.cpu) / max(baseline.answered(), 1)  # the stateless row's server CPU per answer: scoring and the HTTP server
    http = max(served - score, 0.0)
    # The CPU time the machine gave each stateless answer, if that row used it all; what the server did not use went to the clients.
    clients = max((os.cpu_count() or 1) / rate - served, 0.0)
    bound = (served + clients) / (store + http + clients)  # a stored round costing the server its in-process CPU and the same HTTP share
    print(f"\nin one process, one thread, no HTTP ({IN_PROCESS_TABLES * len(ROUNDS)} rounds a pass, the lowest of {repeats} passes):")
    print(f"  POST /score-round: {score * 1e3:.2f} ms CPU a round; PUT .../rounds/{{n}} on SQLite: {store * 1e3:.2f} ms; the ledger's own work: {(store - score) * 1e3:.2f} ms")
    print(f"  the HTTP server's share (the stateless row's server CPU per answer less the above): {http * 1e3:.2f} ms; the clients' (what it left them): {clients * 1e3:.2f} ms")
    print(f"  so with {os.cpu_count()} CPUs and concurrency costing nothing, stored ÷ stateless could reach at most {bound:.2f} (target {TARGET:.2f})")


if __name__ == "__main__":
    sys.exit(main())

"""Hosted play at scale: live 4-seat tables, half the seats the server's bots, people's moves arriving at a target rate.

One ``wordsvc serve`` of two workers on a fresh ledger (SQLite, or a
throwaway PostgreSQL with ``--backend postgresql``), its bots at once
(``WORDSVC_BOT_DELAY_MS=0``). The run, in order:

1. the baseline: ``GET /health`` probed every 5 ms from a process of its
   own for 3 s, nothing else running;
2. for each size of ``--sizes`` (10, 100 by default; the issue's run is
   ``--sizes 10,100,1000``): tables are added until that many are live
   (``POST /tables`` with bots at seats 1 and 3, two people seated at 0 and
   2), each with its stream open (a spectator's, one connection a table);
   then, for ``--seconds``, the people's moves arrive at ``--rate`` a
   second (Poisson arrivals, open loop: an arrival takes the next table
   whose person is to move; none ready is an arrival missed), while
   ``/health`` is probed again. A table whose game ends is replaced by a new
   one, so the live count holds.
3. per size: the moves' latency (the POST to its answer, 200s only), the
   stream delivery (a person's POST sent to its ``move`` message on the
   table's stream; the run waits until every answered move's message came)
   and how far that message trails the answer, ``/health`` in the same
   seconds, the server's CPU a move (every move stored, the bots' too, over
   the seconds), the workers' RSS and private memory before the size's
   tables were added and after its moves (the growth a table), the
   server's CPU in the 5 s before the moves (every table waiting for a
   person: what live tables cost with nothing played), and from
   ``GET /metrics`` the app's own time on a move (without the wait for a
   worker's thread) and a write's time holding the ledger's write lock.

The people are the weak player of ``api_tests/test_play.py`` (draw, discard a
random card, never go out); a driver follows each table from its stream and
from its moves' answers, reading a projection (``GET``) only when a round
ends or a move is refused. The client runs on the same CPUs as the server:
its CPU time is printed, and where it cannot reach the rate the run says so
and gives what it reached.

Run: ``.venv/bin/python bench/play.py [--sizes 10,100] [--rate 200] [--seconds 20] [--backend sqlite|postgresql]``;
docs/performance.md ("Hosted play") gives the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from common import Server, machine_line, start_server, summary
from play_client import HTTPError, Pool, TableStream, person_move
from stream import health_while, private_mib

from api_tests.postgres import PostgresUnavailable, temporary_postgres

PEOPLE, BOTS, SEATS = (0, 2), (1, 3), 4
TURN_ENDS = ("discard", "go_out", "lay_down")
READY = 60.0  # seconds a table's set-up may take: a safety net, never a measurement
HEALTH_BASELINE_S = 3.0
#: Seconds the tables wait for their people before each size's moves: what the server spends on live tables with no move.
IDLE_S = 5.0


@dataclass
class Table:
    """What the driver knows of one live table: the last projection it read and the moves the stream told of since."""

    event: str
    tokens: dict[int, str]
    seq: int = 0
    round: dict[str, Any] | None = None
    hands: dict[int, list[str]] = field(default_factory=dict)
    over: bool = False
    busy: bool = False
    queued: bool = False
    stream: TableStream | None = None
    later: list[dict[str, Any]] = field(default_factory=list)  # stream moves that came while a request was out

    @property
    def base(self) -> str:
        return f"/events/{self.event}/games/table/play"

    def mover(self) -> int | None:
        """The person's seat to move, or ``None`` (a bot's turn, the game over, a request out)."""
        r = self.round
        if self.over or self.busy or r is None:
            return None
        if r["phase"] == "challenges":
            return next((s for s in PEOPLE if not r["passed"][s]), None)
        return r["turn"] if r["turn"] in PEOPLE else None


@dataclass
class Window:
    """What one size's seconds of moves measured."""

    latencies: list[float] = field(default_factory=list)
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    answered: dict[tuple[str, int], float] = field(default_factory=dict)
    arrived: dict[tuple[str, int], float] = field(default_factory=dict)
    moves: int = 0  # every move the streams carried (people's and bots')
    arrivals: int = 0
    missed: int = 0
    stale: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    reads: int = 0
    lag: list[float] = field(default_factory=list)


class Driver:
    """The people of every live table, on one asyncio loop."""

    def __init__(self, server: Server, args: argparse.Namespace):
        self.server, self.args = server, args
        self.pool = Pool(server.port)
        self.rng = random.Random(args.seed)
        self.tables: list[Table] = []
        self.ready: deque[Table] = deque()
        self.window: Window | None = None
        self.created = 0
        self.pending: set[asyncio.Task[None]] = set()
        self.moving = 0  # moves sent and not yet answered
        self.ended: list[Table] = []  # tables whose game is over

    # ------------------------------------------------------------ tables

    async def add_tables(self, count: int) -> None:
        for start in range(0, count, 8):
            await asyncio.gather(*(self._new_table() for _ in range(min(8, count - start))))

    async def _new_table(self) -> None:
        self.created += 1
        levels = self.args.bot_levels
        body = {
            "seats": SEATS,
            "bots": [{"seat": s, "level": levels[i % len(levels)]} for i, s in enumerate(BOTS)],
            "ruleset": self.args.ruleset,
            "lang": self.args.lang,
        }
        status, made = await self.pool.request("POST", "/tables", body)
        if status != 201:
            raise SystemExit(f"POST /tables: {status} {made}")
        table = Table(made["event"], {})
        for seat, name in zip(PEOPLE, ("Ann", "Bob"), strict=True):
            status, taken = await self.pool.request("POST", f"{table.base}/seats", {"name": name, "seat": seat})
            if status != 201:
                raise SystemExit(f"POST seats: {status} {taken}")
            table.tokens[seat] = taken["token"]
        table.stream = TableStream(self.server.port, table.event, "table", lambda event, data, at: self._message(table, event, data, at))
        await table.stream.open()
        await asyncio.wait_for(table.stream.ready.wait(), READY)
        self.tables.append(table)
        await self._refresh(table)

    async def _refresh(self, table: Table) -> None:
        """Read both people's projections: after a round ends (new hands) or a refused move."""
        table.busy = True
        for seat in PEOPLE:
            status, answer = await self.pool.request("GET", table.base, token=table.tokens[seat])
            if self.window is not None:
                self.window.reads += 1
            if status != 200:
                raise SystemExit(f"GET {table.base}: {status} {answer}")
            self._state(table, answer["state"], seat)
        table.busy = False
        self._settle(table)

    def _state(self, table: Table, state: dict[str, Any], seat: int) -> None:
        if state["seq"] < table.seq:
            return
        table.seq, table.over, table.round = state["seq"], state["over"], state["round"]
        if state["round"] is not None:
            table.hands[seat] = state["round"]["hand"]

    def _settle(self, table: Table) -> None:
        """After a request: the stream's moves that came meanwhile, then the table queued if a person is to move (or replaced if over)."""
        later, table.later = table.later, []
        for data in sorted(later, key=lambda d: d["seq"]):
            self._bot_moved(table, data)
        if table.over:
            self._end(table)
        elif not table.queued and table.mover() is not None:
            table.queued = True
            self.ready.append(table)

    def _end(self, table: Table) -> None:
        if table in self.tables:
            self.tables.remove(table)
            self.ended.append(table)  # its stream stays open until the end: the game's last moves are still on their way
            self._spawn(self._new_table())  # the live count holds

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    # ------------------------------------------------------------ the stream

    def _message(self, table: Table, event: str, data: Any, at: float) -> None:
        if event != "move":
            return
        if self.window is not None:
            self.window.moves += 1
            if data["seat"] in PEOPLE:
                self.window.arrived.setdefault((table.event, data["seq"]), at)
        if data["seat"] in PEOPLE or data["seq"] <= table.seq:
            return  # a person's move: its answer says what changed
        if table.busy:
            table.later.append(data)
        else:
            self._bot_moved(table, data)
            self._settle(table)

    def _bot_moved(self, table: Table, data: dict[str, Any]) -> None:
        """A bot's move the driver has not seen: the turn passes on, or the round is over (then the projections are read again)."""
        if data["seq"] <= table.seq or table.round is None:
            return
        table.seq = data["seq"]
        r = table.round
        if "round_over" in data:
            table.round = None
            self._spawn(self._refresh(table))
        elif data["kind"] in TURN_ENDS:
            if data["kind"] == "go_out":
                r["out"] = data["seat"]
            r["turn"], r["phase"] = (data["seat"] + 1) % SEATS, "lay" if r["phase"] == "lay" else "draw"
        elif data["kind"] in ("draw", "take"):
            r["turn"], r["phase"] = data["seat"], "discard"
        elif data["kind"] == "pass":
            r["passed"][data["seat"]] = True

    # ------------------------------------------------------------ moves

    async def _move(self, table: Table, seat: int) -> None:
        assert table.round is not None
        move = person_move(table.round, seat, table.hands.get(seat, []), self.rng)
        window = self.window
        if move is None or window is None:
            return
        table.busy = True
        self.moving += 1
        try:
            await self._send(table, seat, move, window)
        finally:
            self.moving -= 1

    async def _send(self, table: Table, seat: int, move: dict[str, Any], window: Window) -> None:
        body = {"seq": table.seq, "move_id": f"p{seat}-{table.seq}", "move": move}
        started = time.perf_counter()
        try:
            status, answer = await self.pool.request("POST", f"{table.base}/moves", body, table.tokens[seat])
        except HTTPError:
            window.refused["connection"] = window.refused.get("connection", 0) + 1
            table.busy = False
            await self._refresh(table)
            return
        done = time.perf_counter()
        table.busy = False
        if status == 200:
            window.latencies.append(done - started)
            window.sent[(table.event, answer["seq"])] = started
            window.answered[(table.event, answer["seq"])] = done
            self._state(table, answer["state"], seat)
            self._settle(table)
        elif status == 409 and answer.get("code") == "stale_move":
            window.stale += 1
            self._state(table, answer["state"], seat)
            self._settle(table)
        else:
            code = answer.get("code", str(status)) if isinstance(answer, dict) else str(status)
            window.refused[code] = window.refused.get(code, 0) + 1
            await self._refresh(table)

    async def drive(self, seconds: float, rate: float) -> Window:
        """People's moves arriving at ``rate`` a second for ``seconds``: open loop, each to the next table whose person is to move."""
        self.window = window = Window()
        started = time.perf_counter()
        due = started
        while True:
            due += self.rng.expovariate(rate)
            if due - started > seconds:
                break
            now = time.perf_counter()
            if due > now:
                await asyncio.sleep(due - now)
            else:
                await asyncio.sleep(0)
            window.lag.append(max(0.0, time.perf_counter() - due))
            window.arrivals += 1
            while self.ready:
                table = self.ready.popleft()
                table.queued = False
                seat = table.mover()
                if seat is not None:
                    self._spawn(self._move(table, seat))
                    break
            else:
                window.missed += 1
        await asyncio.sleep(max(0.0, started + seconds - time.perf_counter()))
        give_up = time.monotonic() + READY  # the last moves' answers, and each answered move's message on its stream
        while (self.moving or not window.sent.keys() <= window.arrived.keys()) and time.monotonic() < give_up:
            await asyncio.sleep(0.05)
        self.window = None
        return window

    async def metrics(self) -> dict[str, dict[str, float]]:
        """The server's :data:`HISTOGRAMS` now (``GET /metrics`` sums the workers)."""
        reader, writer = await asyncio.open_connection("127.0.0.1", self.server.port)
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        raw = await reader.read()
        writer.close()
        head, _, body = raw.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"GET /metrics: {head[:200]!r}")
        if b"chunked" in head.lower():
            body = _unchunk(body)
        return histograms(body.decode())

    async def close(self) -> None:
        for task in list(self.pending):
            task.cancel()
        await asyncio.gather(*self.pending, return_exceptions=True)
        await asyncio.gather(*(t.stream.close() for t in self.tables + self.ended if t.stream is not None))
        self.pool.close()


#: The histograms of ``GET /metrics`` a size's seconds are read from: the app's time on a move (from the app receiving it to its
#: answer, without the wait for a thread) and a ledger write's time holding the write lock (taking it to the commit on disk).
HISTOGRAMS = {
    "the app's time on a move": ("wordsvc_request_duration_seconds", "move"),
    "a write holding the ledger's lock": ("wordsvc_ledger_commit_seconds", ""),
}
_SAMPLE = re.compile(r"^(\w+?)(_bucket|_sum|_count)\{?([^}]*)\}? ([0-9.e+-]+)$")


def histograms(text: str) -> dict[str, dict[str, float]]:
    """The :data:`HISTOGRAMS` of a ``/metrics`` page: for each, its cumulative bucket counts by upper bound (``"+Inf"`` too), ``sum`` and ``count``."""
    found: dict[str, dict[str, float]] = {what: {} for what in HISTOGRAMS}
    for line in text.splitlines():
        sample = _SAMPLE.match(line)
        if sample is None:
            continue
        name, part, labels, value = sample.groups()
        for what, (metric, needle) in HISTOGRAMS.items():
            if name == metric and needle in labels:
                key = re.search(r'le="([^"]+)"', labels).group(1) if part == "_bucket" else part[1:]  # type: ignore[union-attr]
                found[what][key] = found[what].get(key, 0.0) + float(value)
    return found


def histogram_line(before: dict[str, float], after: dict[str, float]) -> str:
    """Mean, and the bucket bounds holding the median and the 99th percentile, of what was observed between two readings."""
    count = after.get("count", 0.0) - before.get("count", 0.0)
    if count <= 0:
        return "none observed"
    mean = (after["sum"] - before.get("sum", 0.0)) / count * 1e3
    bounds = sorted((float(b), after[b] - before.get(b, 0.0)) for b in after if b not in ("sum", "count"))

    def bound(q: float) -> str:
        edge = next((b for b, n in bounds if n >= q * count), math.inf)
        return f"<= {edge * 1e3:g} ms" if edge != math.inf else "> the largest bucket"

    return f"{count:.0f} observed, mean {mean:.1f} ms, p50 {bound(0.5)}, p99 {bound(0.99)}"


def rss_mib(server: Server) -> float:
    """The resident memory (VmRSS) of the server's workers, in MiB: what a table costs the machine, shared pages the workers touch included."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == server.pid:
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[2]) != server.pid:
                    continue
            with open(f"/proc/{entry}/status") as status:
                total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        except (OSError, StopIteration):
            continue
    return total / 1024


def _unchunk(body: bytes) -> bytes:
    """A chunked body's bytes."""
    out = []
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out.append(body[:size])
        body = body[size + 2 :]
    return b"".join(out)


def probed(server: Server, seconds: float, loop: asyncio.AbstractEventLoop, work: Any) -> tuple[Any, list[float]]:
    """Run ``work`` on ``loop`` while ``/health`` is probed for ``seconds`` from a process of its own: (its result, the probes)."""
    probe, out = health_while(server.port, seconds)
    result = loop.run_until_complete(work)
    times = out.get()
    probe.join()
    return result, times


def run(server: Server, args: argparse.Namespace) -> None:
    loop = asyncio.new_event_loop()
    _, baseline = probed(server, HEALTH_BASELINE_S, loop, asyncio.sleep(HEALTH_BASELINE_S))
    h = summary(baseline)
    print(f"/health alone: p50 {h['p50']:.2f} ms, p99 {h['p99']:.2f} ms ({h['n']} probes)")
    driver = Driver(server, args)
    rows = []
    for size in args.sizes:
        before = rss_mib(server), private_mib(server)
        added = size - len(driver.tables)
        began = time.perf_counter()
        loop.run_until_complete(driver.add_tables(added))
        made_s = time.perf_counter() - began
        resting = sum(server.cpu_seconds())
        loop.run_until_complete(asyncio.sleep(IDLE_S))
        idle_cpu = sum(server.cpu_seconds()) - resting
        cpu, servers = time.process_time(), sum(server.cpu_seconds())
        metrics = loop.run_until_complete(driver.metrics())
        window, health = probed(server, args.seconds + 1.0, loop, driver.drive(args.seconds, args.rate))
        client_cpu, server_cpu = time.process_time() - cpu, sum(server.cpu_seconds()) - servers
        later = loop.run_until_complete(driver.metrics())
        after = rss_mib(server), private_mib(server)
        rows.append(report(size, added, made_s, window, health, client_cpu, server_cpu, before, after, args))
        for what in HISTOGRAMS:
            print(f"  {what} (GET /metrics, both workers): {histogram_line(metrics[what], later[what])}")
        print(f"  the server's CPU in the {IDLE_S:g} s before the moves, every table waiting for its people: {idle_cpu:.2f} s")
    loop.run_until_complete(driver.close())
    loop.close()
    print(f"tables created in all: {driver.created} (a finished game's table is replaced)")
    print("size | people's moves/s | move p50 / p99 ms | stream p99 ms | /health p99 ms | server CPU ms a move | RSS KiB a table")
    for row in rows:
        print(" | ".join(row))


def report(size: int, added: int, made_s: float, w: Window, health: list[float], client_cpu: float, server_cpu: float,
           before: tuple[float, float], after: tuple[float, float], args: argparse.Namespace) -> list[str]:  # fmt: skip
    """Print one size's figures; its row of the closing table."""
    reached = len(w.latencies) / args.seconds
    print(f"\n{size} live tables ({added} added in {made_s:.1f} s); people's moves for {args.seconds:g} s at {args.rate:g} a second asked")
    print(f"  arrivals {w.arrivals}, moves answered 200: {len(w.latencies)} ({reached:.1f} a second), stale 409: {w.stale}, refused: {w.refused or 0}, "
          f"projections read: {w.reads}; every move on the streams (the bots' too): {w.moves} ({w.moves / args.seconds:.1f} a second)")  # fmt: skip
    if reached < 0.95 * args.rate:
        lag = summary(w.lag) if w.lag else {"p99": 0.0}
        why = f"{w.missed} arrivals found no table whose person was to move" if w.missed else "the client fell behind its arrivals"
        print(f"  the rate was NOT reached: {reached:.1f} of {args.rate:g} a second ({why}; the client's lag behind an arrival, p99 {lag['p99']:.1f} ms)")
    m = summary(w.latencies) if w.latencies else {"p50": float("nan"), "p99": float("nan"), "worst": float("nan")}
    delays = [w.arrived[key] - sent for key, sent in w.sent.items() if key in w.arrived]
    d = summary(delays) if delays else {"p50": float("nan"), "p99": float("nan"), "worst": float("nan"), "n": 0}
    behind = sorted(max(0.0, w.arrived[key] - done) for key, done in w.answered.items() if key in w.arrived)
    h = summary(health)
    print(f"  move POST -> answer: p50 {m['p50']:.2f} ms, p99 {m['p99']:.2f} ms, worst {m['worst']:.2f} ms (goal p99 < 50 ms)")
    print(f"  move POST -> its message on the table's stream: p50 {d['p50']:.2f} ms, p99 {d['p99']:.2f} ms, worst {d['worst']:.2f} ms "
          f"over {d['n']} of {len(w.sent)} moves (goal p99 < 250 ms)")  # fmt: skip
    if behind:
        tenth = [behind[min(len(behind) - 1, len(behind) * k // 10)] * 1e3 for k in (1, 5, 9)]
        print(f"  the answer -> the stream's message (0 when the message came first): p10 {tenth[0]:.1f} ms, p50 {tenth[1]:.1f} ms, p90 {tenth[2]:.1f} ms")
    print(f"  /health in the same seconds: p50 {h['p50']:.2f} ms, p99 {h['p99']:.2f} ms ({h['n']} probes)")
    per_move = server_cpu / w.moves * 1e3 if w.moves else float("nan")
    print(f"  CPU over the seconds ({os.cpu_count()} CPUs): the server {server_cpu:.2f} s ({per_move:.2f} ms a move stored), the client {client_cpu:.2f} s")
    rss, private = (after[0] - before[0]) * 1024 / added if added else float("nan"), (after[1] - before[1]) * 1024 / added if added else float("nan")
    print(f"  workers' memory: RSS {before[0]:.1f} -> {after[0]:.1f} MiB, private {before[1]:.1f} -> {after[1]:.1f} MiB: "
          f"{rss:.1f} KiB RSS, {private:.1f} KiB private a table added (goal < 100 KB)")  # fmt: skip
    return [str(size), f"{reached:.1f}", f"{m['p50']:.2f} / {m['p99']:.2f}", f"{d['p99']:.1f}", f"{h['p99']:.2f}", f"{per_move:.2f}", f"{rss:.1f}"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=[10, 100], help="live tables, growing (default 10,100)")
    parser.add_argument("--rate", type=float, default=200.0, help="people's moves a second asked for")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of moves at each size")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--bot-levels", type=lambda s: [int(x) for x in s.split(",")], default=[2, 4], help="the levels of the bots at seats 1 and 3")
    parser.add_argument("--ruleset", default="standard")
    parser.add_argument("--lang", default="en-US")
    parser.add_argument("--seed", type=int, default=52)
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each figure as it comes, also into a file
    if sorted(args.sizes) != args.sizes or args.sizes[0] < 1:
        parser.error("--sizes: growing numbers of tables")
    print(machine_line())
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory(prefix="wordsvc-bench-play-") as tmp:
        if args.backend == "postgresql":
            try:
                database_url = stack.enter_context(temporary_postgres())
            except PostgresUnavailable as err:
                raise SystemExit(f"PostgreSQL not available: {err.reason} (install Debian's postgresql package)") from None
        else:
            database_url = f"sqlite:///{tmp}/ledger.sqlite3"
        env = {"WORDSVC_DATABASE_URL": database_url, "WORDSVC_BOT_DELAY_MS": "0", "WORDSVC_OPEN_EVENTS": str(1 << 20)}
        server = stack.enter_context(start_server(workers=2, env=env))
        print(
            f"backend: {args.backend}; wordsvc serve, 2 workers; bots at seats {BOTS} (levels {args.bot_levels}), people at {PEOPLE}; {args.ruleset}, {args.lang}"
        )
        run(server, args)
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Event streams at scale: 2,000 open streams, rounds stored through two replicas, how soon each stream has each round.

Two ``wordsvc serve`` replicas (two workers each) on one PostgreSQL database
(``--backend sqlite``: two servers on one SQLite file, the one-host case).
The run, in order:

1. the baseline: ``--rounds`` rounds stored (on tables of their own) with no
   stream open, while ``/health`` is probed from a process of its own every
   5 ms;
2. ``--streams`` streams opened, half on each replica, by one asyncio client;
   the workers' private memory with a tenth of them and with all gives the
   memory per stream (the tenth first, so what a worker sets up once is out);
3. ``/health`` probed with the streams open and idle; then ``--rounds``
   rounds stored, one every 100 ms, each through the replica the round's
   number picks, while ``/health`` is probed again: the first half as they
   are, and as the second half begins a tenth of the streams is cut by the
   client and reopened with ``Last-Event-ID`` (a forced reconnect), probed
   apart;
4. every stream is checked to have every round once, in order; the delay from
   sending a round's PUT to a stream having its message is summarised over
   every (stream, round) pair. The client's own CPU time is printed beside:
   on a small machine it competes with the servers for the same cores.

Run: ``.venv/bin/python bench/stream.py [--streams 2000] [--rounds 20] [--backend postgresql|sqlite] [--one-server]``
(``--one-server``: every stream on the first replica, the rounds still through both);
docs/performance.md ("Event streams") gives the figures.

``--silent N`` runs another bench instead, on one server of two workers: an
event of ``--history`` rounds (3,000) stored, then ``/health`` probed every
5 ms for 3 s as the baseline, then N streams resumed from 0 (``?after=0``)
whose clients never read, opened while ``/health`` is probed, and probed 5 s
more once they are open. Then what the kernel holds for them (from
``/proc/net/tcp``: the server's send queues, and what the clients' sockets
hold unread), and how many the server has cut after 35 s (two heartbeats of
15 s and a margin). docs/performance.md ("Streams that never read").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from common import Server, machine_line, start_server, summary

from api_tests.postgres import PostgresUnavailable, temporary_postgres

HOST = "127.0.0.1"
_ID = re.compile(rb"id: (\d+)\nevent: ([a-z._]+)\n")
READY = 60.0  # seconds a client waits for everything it expects: a safety net, never a measurement


def call(port: int, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, json.loads(data) if data else None


def admin_token(database_url: str) -> str:
    import subprocess
    import sys

    env = {**os.environ, "WORDSVC_DATABASE_URL": database_url}
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "wordsvc"), "token", "create", "--admin"], env=env, capture_output=True, text=True, check=True)
    return str(json.loads(done.stdout)["token"])


def private_mib(server: Server) -> float:
    """The private memory (smaps_rollup Private_Clean + Private_Dirty) of the server's workers, in MiB."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == server.pid:
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[2]) != server.pid:
                    continue
            with open(f"/proc/{entry}/smaps_rollup") as rollup:
                total += sum(int(line.split()[1]) for line in rollup if line.startswith(("Private_Clean:", "Private_Dirty:")))
        except OSError:
            continue
    return total / 1024


def probe_health(port: int, seconds: float, out: Any) -> None:
    """In a process of its own: GET /health every 5 ms on one keep-alive connection for ``seconds``; the durations."""
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, 0)  # the probe as any client, whatever the stream client's priority (--nice-client)
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    times: list[float] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        started = time.perf_counter()
        conn.request("GET", "/health")
        conn.getresponse().read()
        times.append(time.perf_counter() - started)
        time.sleep(0.005)
    out.put(times)


def health_while(port: int, seconds: float) -> tuple[mp.Process, Any]:
    out: Any = mp.Queue()
    process = mp.Process(target=probe_health, args=(port, seconds, out))
    process.start()
    return process, out


class Client:
    """One stream, read by the asyncio loop: the round messages it has had, with the time each arrived."""

    def __init__(self, port: int, event: str):
        self.port, self.event = port, event
        self.seen: list[int] = []  # the ids of round messages, in the order they came
        self.at: dict[int, float] = {}
        self.last = 0
        self.writer: asyncio.StreamWriter | None = None
        self.tasks: list[asyncio.Task[None]] = []

    async def open(self, ready: asyncio.Event | None = None) -> None:
        reader, self.writer = await asyncio.open_connection(HOST, self.port)
        resume = f"Last-Event-ID: {self.last}\r\n" if self.last else ""
        self.writer.write(f"GET /events/{self.event}/stream HTTP/1.1\r\nHost: bench\r\n{resume}\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head[:200]
        self.tasks.append(asyncio.get_running_loop().create_task(self._read(reader, ready)))

    async def _read(self, reader: asyncio.StreamReader, ready: asyncio.Event | None) -> None:
        buffer = b""
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
                if size == 0:
                    return
                chunk = (await reader.readexactly(size + 2))[:-2]
                now = time.perf_counter()
                buffer += chunk
                blocks = buffer.split(b"\n\n")
                buffer = blocks.pop()
                for block in blocks:
                    found = _ID.match(block + b"\n")
                    if found is None:
                        continue
                    seq, kind = int(found.group(1)), found.group(2)
                    self.last = max(self.last, seq)
                    if kind == b"ready" and ready is not None:
                        ready.set()
                    elif kind == b"round.stored":
                        self.seen.append(seq)
                        self.at.setdefault(seq, now)

    def cut(self) -> None:
        if self.writer is not None:
            self.writer.transport.abort()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--backend", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--one-server", action="store_true", help="every stream on the first replica (rounds still through both)")
    parser.add_argument("--nice-client", action="store_true", help="run the stream client at nice 10: the servers before it for the CPU")
    parser.add_argument("--silent", type=int, default=0, help="instead: this many never-reading streams resumed from 0 on a long event")
    parser.add_argument("--history", type=int, default=3000, help="with --silent: the event's rounds")
    args = parser.parse_args()
    print(machine_line())
    if args.silent:
        with tempfile.TemporaryDirectory(prefix="wordsvc-bench-stream-") as tmp:
            database_url = f"sqlite:///{tmp}/ledger.sqlite3"
            with start_server(workers=2, env={"WORDSVC_DATABASE_URL": database_url}) as server:
                silent(server, admin_token(database_url), args)
        print(machine_line())
        return 0
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory(prefix="wordsvc-bench-stream-") as tmp:
        if args.backend == "postgresql":
            try:
                database_url = stack.enter_context(temporary_postgres())
            except PostgresUnavailable as err:
                raise SystemExit(f"PostgreSQL not available: {err.reason} (install Debian's postgresql package)") from None
        else:
            database_url = f"sqlite:///{tmp}/ledger.sqlite3"
        env = {"WORDSVC_DATABASE_URL": database_url}
        replicas = [stack.enter_context(start_server(workers=2, env=env)) for _ in range(2)]
        run(replicas, admin_token(database_url), args)
    print(machine_line())
    return 0


def run(replicas: list[Server], admin: str, args: argparse.Namespace) -> None:
    a = replicas[0]
    status, created = call(a.port, "POST", "/events", admin, {"name": "Stream bench", "id": "stream-bench", "ruleset": "standard", "lang": "en-US"})
    assert status == 201, created
    director = created["director_token"]["token"]
    tables = max(1, (args.rounds + 7) // 8)
    for t in range(1, 2 * tables + 1):  # the first half for the baseline, the second for the streamed rounds
        assert call(a.port, "PUT", f"/events/stream-bench/games/t{t}", director, {"players": ["Ann", "Bob"]})[0] == 201

    sent: dict[int, float] = {}
    rng = random.Random(5)

    def store_rounds(first_table: int, first: int = 0, count: int = args.rounds) -> None:
        for i in range(first, first + count):
            table, number = first_table + i // 8, i % 8 + 1
            rest = rng.sample("eatoinsr", number - 1)
            body = {"players": [{"name": "Ann", "words": ["(qu)iz"], "unused": rest}, {"name": "Bob", "words": ["to"], "unused": ["p", *rest]}]}
            started = time.perf_counter()
            status, answer = call(replicas[i % 2].port, "PUT", f"/events/stream-bench/games/t{table}/rounds/{number}", director, body)
            assert status == 201, answer
            sent[answer["receipt"]["seq"]] = started
            time.sleep(0.1)

    probe, out = health_while(a.port, args.rounds * 0.1 + 1.0)
    store_rounds(1)
    baseline = out.get()
    probe.join()
    sent.clear()

    if args.nice_client:
        os.nice(10)  # after the servers started (they keep their priority); the probes set theirs back
    loop = asyncio.new_event_loop()
    clients = [Client(replicas[0 if args.one_server else i % 2].port, "stream-bench") for i in range(args.streams)]

    async def open_all(some: list[Client]) -> float:
        started = time.perf_counter()
        events = [asyncio.Event() for _ in some]
        for batch in range(0, len(some), 100):
            await asyncio.gather(*(c.open(events[i]) for i, c in enumerate(some[batch : batch + 100], start=batch)))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), READY)
        return time.perf_counter() - started

    # A tenth first, so that what a worker sets up once (its ledger, its watch, its pool threads) is out of the figure.
    first = max(2, args.streams // 10)
    opened_s = loop.run_until_complete(open_all(clients[:first]))
    time.sleep(1.0)
    memory_before = [private_mib(r) for r in replicas]
    opened_s += loop.run_until_complete(open_all(clients[first:]))
    time.sleep(1.0)  # let the workers settle the memory the opening took
    memory_after = [private_mib(r) for r in replicas]
    per_stream_kib = (sum(memory_after) - sum(memory_before)) * 1024 / (args.streams - first)

    probe, out = health_while(a.port, 3.0)
    loop.run_until_complete(asyncio.sleep(3.0))
    idle = out.get()
    probe.join()

    half = args.rounds // 2

    def wait_for_rounds(count: int) -> None:
        give_up = time.monotonic() + READY
        while any(len(set(c.seen)) < count for c in clients):
            if time.monotonic() > give_up:
                short = [c for c in clients if len(set(c.seen)) < count]
                raise SystemExit(f"{len(short)} streams lack rounds, e.g. {sorted(set(sent) - set(short[0].seen))} (had {short[0].seen}, last id {short[0].last})")
            loop.run_until_complete(asyncio.sleep(0.05))

    def stored(first: int, count: int, during: Callable[[], None] = lambda: None) -> tuple[list[float], float, float]:
        """Rounds ``first`` .. ``first + count - 1`` stored while /health is probed (``during`` once the writer runs); the probes, the CPU."""
        cpu, servers = time.process_time(), sum(sum(r.cpu_seconds()) for r in replicas)
        probe, out = health_while(a.port, count * 0.1 + 0.5)
        writer = threading.Thread(target=store_rounds, args=(tables + 1, first, count))
        writer.start()
        during()
        while writer.is_alive():
            loop.run_until_complete(asyncio.sleep(0.05))
        wait_for_rounds(first + count)
        times = out.get()
        probe.join()
        return times, time.process_time() - cpu, sum(sum(r.cpu_seconds()) for r in replicas) - servers

    cut = clients[::10]

    def reconnect() -> None:
        for c in cut:
            c.cut()
        loop.run_until_complete(asyncio.sleep(0.05))

        async def reopen() -> None:
            await asyncio.gather(*(c.open() for c in cut))

        loop.run_until_complete(reopen())

    during, client_cpu, servers_cpu = stored(0, half)
    reconnecting, _, _ = stored(half, args.rounds - half, reconnect)
    expected = sorted(sent)
    wrong = [i for i, c in enumerate(clients) if c.seen != expected]
    delays = [c.at[seq] - sent[seq] for c in clients for seq in expected]
    for c in clients:
        c.cut()
    async def ended() -> None:
        await asyncio.gather(*(task for c in clients for task in c.tasks), return_exceptions=True)

    loop.run_until_complete(ended())
    loop.close()

    where = "all on the first" if args.one_server else f"{args.streams // 2} a replica"
    print(f"backend: {args.backend}; two replicas of 2 workers; {args.streams} streams ({where}), opened in {opened_s:.2f} s")
    print(f"every stream had every round once and in order: {not wrong} ({len(wrong)} did not); {len(cut)} streams cut and resumed half way")
    d = summary(delays)
    print(f"round sent -> message at a stream, over {d['n']} (stream, round) pairs: p50 {d['p50']:.1f} ms, p99 {d['p99']:.1f} ms, worst {d['worst']:.1f} ms")
    phases = (("rounds stored, no stream", baseline), ("the streams open, idle", idle), ("the streams open, rounds stored", during),
              (f"the streams open, rounds stored, {len(cut)} streams reconnecting", reconnecting))  # fmt: skip
    for what, times in phases:
        h = summary(times)
        print(f"/health, {what}: p50 {h['p50']:.2f} ms, p99 {h['p99']:.2f} ms ({h['n']} probes)")
    print(f"CPU while the first {half} rounds were stored ({half * 0.1:.1f} s, {os.cpu_count()} CPUs): the client {client_cpu:.2f} s, the replicas {servers_cpu:.2f} s")
    print(f"workers' private memory: {sum(memory_before):.1f} MiB with {first} streams, {sum(memory_after):.1f} MiB with {args.streams}: {per_stream_kib:.1f} KiB a stream")


def tcp_queues(port: int) -> tuple[int, int, int]:
    """From ``/proc/net/tcp``: the server's established sockets on ``port``, the bytes in their send queues, and the bytes its
    clients' sockets hold unread."""
    sockets = sent = unread = 0
    with open("/proc/net/tcp") as table:
        next(table)
        for line in table:
            fields = line.split()
            local, remote, state = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16), fields[3]
            tx, rx = (int(n, 16) for n in fields[4].split(":"))
            if state != "01":  # ESTABLISHED
                continue
            if local == port:
                sockets += 1
                sent += tx
            elif remote == port:
                unread += rx
    return sockets, sent, unread


def silent(server: Server, admin: str, args: argparse.Namespace) -> None:
    """``--silent``: never-reading streams resumed from 0 on a long event (see the module docstring)."""
    status, created = call(server.port, "POST", "/events", admin, {"name": "Silent streams", "id": "silent", "ruleset": "standard", "lang": "en-US"})
    assert status == 201, created
    director = created["director_token"]["token"]
    tables = (args.history + 7) // 8
    rng = random.Random(5)

    def fill(table: int) -> None:
        assert call(server.port, "PUT", f"/events/silent/games/t{table}", director, {"players": ["Ann", "Bob"]})[0] == 201
        for number in range(1, min(8, args.history - (table - 1) * 8) + 1):
            rest = rng.sample("eatoinsr", number - 1)
            body = {"players": [{"name": "Ann", "words": ["(qu)iz"], "unused": rest}, {"name": "Bob", "words": ["to"], "unused": ["p", *rest]}]}
            assert call(server.port, "PUT", f"/events/silent/games/t{table}/rounds/{number}", director, body)[0] == 201

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(fill, range(1, tables + 1)))
    head = call(server.port, "GET", "/events/silent/audit?after=0&limit=1")[1]["head"]["seq"]

    probe, out = health_while(server.port, 3.0)
    time.sleep(3.0)
    baseline = out.get()
    probe.join()

    probe, out = health_while(server.port, 5.0 + args.silent * 0.01 + 5.0)
    socks: list[socket.socket] = []
    started = time.perf_counter()
    for _ in range(args.silent):
        sock = socket.create_connection((HOST, server.port))
        sock.sendall(b"GET /events/silent/stream?after=0 HTTP/1.1\r\nHost: bench\r\n\r\n")  # and never read
        socks.append(sock)
    opened_s = time.perf_counter() - started
    while tcp_queues(server.port)[0] < args.silent and time.perf_counter() - started < READY:
        time.sleep(0.05)
    opening = out.get()
    probe.join()
    held, sent, unread = tcp_queues(server.port)
    time.sleep(35.0)
    gone = 0
    for sock in socks:
        sock.setblocking(False)
        try:
            while sock.recv(1 << 20):
                pass
        except BlockingIOError:
            continue  # still open: nothing more has come, and no end
        except ConnectionError:
            pass
        gone += 1
        sock.close()
    for sock in socks:
        sock.close()

    print(f"one server of 2 workers, SQLite; an event of {head} entries ({args.history} rounds); {args.silent} streams resumed from 0, never read, opened in {opened_s:.2f} s")
    for what, times in (("baseline, no stream", baseline), (f"while the {args.silent} streams open and after", opening)):
        h = summary(times)
        print(f"/health, {what}: p50 {h['p50']:.2f} ms, p99 {h['p99']:.2f} ms, worst {h['worst']:.2f} ms ({h['n']} probes)")
    print(f"held: {held} sockets; the server's send queues {sent / 2**20:.1f} MiB ({sent / max(1, held) / 1024:.1f} KiB a stream); "
          f"unread in the clients' sockets {unread / 2**20:.1f} MiB ({unread / max(1, args.silent) / 1024:.1f} KiB a stream)")  # fmt: skip
    print(f"cut by the server within 35 s: {gone} of {args.silent}")


if __name__ == "__main__":
    raise SystemExit(main())

"""HTTP benchmark: the service under gunicorn (the old way) and under ``wordsvc serve`` (the new), in one run.

Starts the real app (``wordsvc.web.app:create_app``) three times on free ports,
side by side, with the same number of workers (2 unless ``--workers``):

- ``gunicorn``: the baseline, as ``wordsvc serve`` ran before
  :mod:`wordsvc.server`: sync workers, the app preloaded; every request on a
  new connection, since sync workers close each one;
- ``wordsvc serve``: the new server (:mod:`wordsvc.server`, started by
  :func:`common.start_server` the way ``make serve`` starts it), with
  keep-alive clients, one connection per client reused. It answers the
  GETs of ``/health``, ``/ready`` and ``/validate`` on the event loop (a
  probe never waits behind the pool; a verdict skips its round trip), every
  other request in its thread pool;
- ``wordsvc serve, all in the pool``: the same server and app with no path
  answered on the event loop (``python -m wordsvc.server --inline-path ''``),
  so that every endpoint takes the road of the pool, as under gunicorn.

For each server and endpoint (bare ``GET /health``, ``GET
/validate?word=quixotic``, ``POST /score-round`` with four players in round
8) it runs ``--clients`` client processes (their keep-alive connections
opened together first, as a load generator opens them) for ``--seconds`` seconds, in
``--rounds`` slices in which the servers and endpoints take turns, so a
neighbour's load hits them alike. It prints requests/s, p50 and p99 latency
and errors, and each endpoint's throughput as a share of the same server's
bare endpoint, and the server's CPU time per request (its processes' user and
system time over the slices, ÷ requests) with the bare endpoint's as a share
of it: the ratio of rates the server would reach with the CPU to itself, as
under a load generator on another machine (the clients here share the two
cores and take about as much CPU as the server, which lifts every endpoint's
share towards 100 %), then how the requests of each slice were spread over the
workers of the two ``wordsvc serve`` servers (from their access logs: a
keep-alive client stays on the worker that accepted its connection, so a
worker left without one idles), then what each endpoint costs the app alone (called in the
bench's process, no socket). Target (issue: a server no slow client can take down):
``/validate`` >= 90 % of the new server's bare endpoint, on the last line
with the other two servers' shares. The first and the
last line time a fixed Python loop (:func:`common.machine_loop_ms`): how
loaded the machine was.

The clients run on the same machine as the servers; on two cores they take
about as much CPU as the server does, so the absolute figures are a floor.

Run: ``.venv/bin/python bench/http_load.py [--seconds 6] [--clients 4] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import socket
import sys
import time
import timeit
from collections import Counter
from typing import Any

from common import Server, free_port, launch, machine_line, start_server, summary

NEW_SERVER_TARGET = 0.90  # /validate as a share of the new server's bare endpoint

ROUND_8 = {
    "ruleset": "standard",
    "round": 8,
    "players": [
        {"name": "Ann", "words": [["QU", "I", "Z"], "top"], "unused": ["A", "E", "R", "S"]},
        {"name": "Bob", "words": ["(cl)own", "jade"], "unused": ["B", "G"]},
        {"name": "Cat", "words": ["(th)ing", "fox", "we"], "unused": ["M"]},
        {"name": "Dan", "words": ["h(er)", "vat", "ski"], "unused": ["L", "N"]},
    ],
}

CASES = [
    ("bare GET /health", "GET", "/health", None),
    ("GET /validate", "GET", "/validate?word=quixotic", None),
    ("POST /score-round", "POST", "/score-round", json.dumps(ROUND_8).encode()),
]
#: server -> whether its clients keep the connection alive
SERVERS = {"gunicorn": False, "wordsvc serve": True, "wordsvc serve, all in the pool": True}


def start(kind: str, workers: int) -> Server:
    """``kind`` (a key of :data:`SERVERS`) serving the app with ``workers`` workers on a free port, once /ready is 200."""
    if kind == "wordsvc serve":
        return start_server(workers)
    port = free_port()
    if kind == "wordsvc serve, all in the pool":
        app = ["--app", "wordsvc.web.app:create_app", "--inline-path", ""]
        return launch([sys.executable, "-m", "wordsvc.server", *app, "--port", str(port), "--workers", str(workers)], port, kind)
    return launch([sys.executable, __file__, "--serve-gunicorn", str(port), "--workers", str(workers)], port, kind)


def serve_gunicorn(port: int, workers: int) -> None:
    """The baseline, as ``wordsvc serve`` ran it before wordsvc.server: gunicorn, sync workers, the app preloaded."""
    from gunicorn.app.base import BaseApplication

    class Baseline(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            options = {"bind": f"127.0.0.1:{port}", "workers": workers, "worker_class": "sync", "preload_app": True}
            options |= {"accesslog": None, "errorlog": "-", "loglevel": "warning", "timeout": 30, "graceful_timeout": 10}
            for key, value in options.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            from wordsvc.web.app import create_app

            return create_app()

    Baseline().run()


def client(port: int, keepalive: bool, method: str, path: str, body: bytes | None, seconds: float, out: mp.Queue, sock: socket.socket | None) -> None:  # type: ignore[type-arg]
    """One client: its requests for ``seconds``, on a connection kept alive (``keepalive``: ``sock``, opened by
    :func:`load`; a new one if the server closes it) or on a new connection each."""
    headers = {"Content-Type": "application/json"} if body else {}
    if not keepalive:
        headers["Connection"] = "close"
    latencies, errors = [], 0
    conn: http.client.HTTPConnection | None = None
    if sock is not None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.sock = sock
    end = time.perf_counter() + seconds
    while (start := time.perf_counter()) < end:
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                errors += 1
            if not keepalive or response.will_close:
                conn.close()
                conn = None
        except OSError:
            errors += 1
            if conn is not None:
                conn.close()
            conn = None
        latencies.append(time.perf_counter() - start)
    if conn is not None:
        conn.close()
    out.put((latencies, errors))


def load(port: int, keepalive: bool, method: str, path: str, body: bytes | None, seconds: float, clients: int) -> dict[str, Any]:
    """``clients`` processes sending requests for ``seconds``; their keep-alive connections are opened here first, one
    after another as fast as they go, as a load generator opens its connections (the processes inherit them)."""
    queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    socks = [socket.create_connection(("127.0.0.1", port), timeout=10) if keepalive else None for _ in range(clients)]
    for sock in socks:
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # as http.client's own connect does: a POST's head and body are two writes
    procs = [mp.Process(target=client, args=(port, keepalive, method, path, body, seconds, queue, sock)) for sock in socks]
    for p in procs:
        p.start()
    for sock in socks:
        if sock is not None:
            sock.close()  # the client process holds its own copy
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    return {"latencies": [x for lat, _ in results for x in lat], "errors": sum(e for _, e in results)}


def check(port: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _, method, path, body in CASES:
        conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        response = conn.getresponse()
        data = response.read()
        if response.status != 200:
            raise SystemExit(f"{method} {path} refused: {response.status} {data[:300]!r}")
        if response.will_close:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.close()


def report(kind: str, slices: dict[str, list[dict[str, Any]]], seconds: float) -> float:
    """Print one server's table; return its /validate ÷ bare ratio."""
    print(f"\n{kind} ({'keep-alive clients' if SERVERS[kind] else 'a new connection per request'})")
    print(f"{'endpoint':<20} {'requests':>9} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'vs bare':>8} {'server CPU µs':>14} {'bare ÷ it':>10}")
    bare = bare_cpu = 0.0
    ratios = {}
    for name, *_ in CASES:
        s = summary(x for r in slices[name] for x in r["latencies"])
        rps = s["n"] / seconds
        bare = bare or rps
        ratios[name] = rps / bare
        errors = sum(r["errors"] for r in slices[name])
        cpu = sum(r["cpu"] for r in slices[name]) / max(1, s["n"]) * 1e6
        bare_cpu = bare_cpu or cpu
        print(f"{name:<20} {s['n']:>9} {rps:>8.0f} {s['p50']:>7.2f} {s['p99']:>7.2f} {errors:>6} {ratios[name]:>8.0%} {cpu:>14.1f} {bare_cpu / cpu:>10.0%}")
    return ratios["GET /validate"]


def per_worker(server: Server, since: int, until: int | None, path: str) -> list[int]:
    """Requests for ``path`` the server's workers logged between two offsets of its log, most first (one figure a worker)."""
    text = server.log(tail=None, since=since)
    if until is not None:
        text = text[: until - since]
    counts: Counter[int] = Counter()
    for line in text.splitlines():
        if line.startswith('{"') and '"event": "request"' in line:
            event = json.loads(line)
            if event.get("path") == path:
                counts[event["worker"]] += 1
    return sorted(counts.values(), reverse=True)


def report_spread(kind: str, offsets: dict[str, list[int]], server: Server, workers: int) -> None:
    """Each slice's requests per worker, per endpoint, and the slices in which a worker served none."""
    print(f"\n{kind}: requests per worker in each slice, most first")
    for name, _, path, _ in CASES:
        marks = offsets[name]
        slices = [per_worker(server, since, until, path) for since, until in zip(marks, [*marks[1:], None], strict=True)]
        idle = sum(len(counts) < workers for counts in slices)
        shown = "  ".join("/".join(map(str, counts + [0] * (workers - len(counts)))) for counts in slices)
        print(f"  {name:<20} {shown}   (a worker idle in {idle} of {len(slices)} slices)")


def print_app_alone(calls: int = 5000, passes: int = 7) -> None:
    """What each endpoint costs the app alone: ``call_app`` in this process, no socket; the lowest of ``passes`` passes."""
    from wordsvc.server.wsgi import build_environ, call_app
    from wordsvc.web.app import create_app

    app = create_app()
    print(f"\nthe app alone (wordsvc.server.wsgi.call_app in this process, no socket; the lowest of {passes} passes of {calls} calls):")
    for name, method, path, body in CASES:
        headers = [(b"host", b"bench"), (b"content-type", b"application/json")] if body else [(b"host", b"bench")]

        def one(method: str = method, path: str = path, body: bytes | None = body, headers: list[tuple[bytes, bytes]] = headers) -> None:
            call_app(app, build_environ(method.encode(), path.encode(), b"1.1", headers, body or b"", ("127.0.0.1", 80), ("127.0.0.1", 1), lambda: False))

        best = min(timeit.timeit(one, number=calls) for _ in range(passes))
        print(f"  {name:<20} {best / calls * 1e6:7.1f} µs a request")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="per server and endpoint")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=6, help="turns each server and endpoint take (slices of seconds/rounds)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORDSVC_WORKERS", "2")))
    parser.add_argument("--serve-gunicorn", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_gunicorn:
        serve_gunicorn(args.serve_gunicorn, args.workers)
        return 0
    servers: dict[str, Server] = {}
    try:
        for kind in SERVERS:
            servers[kind] = start(kind, args.workers)
            check(servers[kind].port)
        print(machine_line())
        print(
            f"wordsvc HTTP benchmark: {args.workers} workers per server, {args.clients} client processes, "
            f"{args.seconds:g} s per server and endpoint, {os.cpu_count()} CPUs"
        )
        totals: dict[str, dict[str, list[dict[str, Any]]]] = {kind: {name: [] for name, *_ in CASES} for kind in SERVERS}
        offsets: dict[str, dict[str, list[int]]] = {kind: {name: [] for name, *_ in CASES} for kind in SERVERS}  # each slice's start in the log
        for kind, server in servers.items():
            for _, method, path, body in CASES:
                load(server.port, SERVERS[kind], method, path, body, 0.5, args.clients)  # warm-up
        for _ in range(args.rounds):
            for kind, server in servers.items():
                for name, method, path, body in CASES:
                    offsets[kind][name].append(server.log_size())
                    cpu = sum(server.cpu_seconds())
                    totals[kind][name].append(load(server.port, SERVERS[kind], method, path, body, args.seconds / args.rounds, args.clients))
                    totals[kind][name][-1]["cpu"] = sum(server.cpu_seconds()) - cpu
        ratios = {kind: report(kind, totals[kind], args.seconds) for kind in SERVERS}
        for kind in SERVERS:
            if kind != "gunicorn":
                report_spread(kind, offsets[kind], servers[kind], args.workers)
        shipped, pooled = ratios["wordsvc serve"], ratios["wordsvc serve, all in the pool"]
        print_app_alone()
        print(
            f"\n/validate ÷ bare: wordsvc serve {shipped:.1%} (target >= {NEW_SERVER_TARGET:.0%}: {'met' if shipped >= NEW_SERVER_TARGET else 'MISSED'}); "
            f"with every request in the pool {pooled:.1%}; gunicorn {ratios['gunicorn']:.1%}"
        )
        print(machine_line())
    finally:
        for server in servers.values():
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

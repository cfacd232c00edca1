"""HTTP benchmark: GET /validate and POST /score-round against the bare /health endpoint.

Starts the server the way ``make serve`` does (``wordsvc serve``, gunicorn,
2 workers unless ``--workers``) on a free port, then for each endpoint runs
``--clients`` client processes for ``--seconds`` seconds (in ``--rounds``
slices, the endpoints taking turns), each request on a
new connection (gunicorn's sync workers close every connection), and prints
requests/s, p50 and p99 latency, errors, and the throughput ratio to the bare
endpoint measured in the same run. Targets (issue 3): /validate >= 80 % of
the bare endpoint, /score-round (4 players, round 8) >= 50 %.

Run: ``.venv/bin/python bench/http_load.py [--seconds 5] [--clients 4]``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

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
    ("bare GET /health", "GET", "/health", None, None),
    ("GET /validate", "GET", "/validate?word=quixotic", None, 0.80),
    ("POST /score-round", "POST", "/score-round", json.dumps(ROUND_8).encode(), 0.50),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("wordsvc")
    proc = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers)], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/ready")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("server did not become ready: " + proc.stderr.read().decode() if proc.stderr else "")


def client(port: int, method: str, path: str, body: bytes | None, seconds: float, out: mp.Queue) -> None:  # type: ignore[type-arg]
    headers = {"Content-Type": "application/json"} if body else {}
    latencies, errors = [], 0
    end = time.perf_counter() + seconds
    while (start := time.perf_counter()) < end:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            response.read()
            conn.close()
            if response.status != 200:
                errors += 1
        except OSError:
            errors += 1
        latencies.append(time.perf_counter() - start)
    out.put((latencies, errors))


def run(port: int, method: str, path: str, body: bytes | None, seconds: float, clients: int) -> dict[str, Any]:
    queue: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    procs = [mp.Process(target=client, args=(port, method, path, body, seconds, queue)) for _ in range(clients)]
    for p in procs:
        p.start()
    results = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    return {"latencies": [x for lat, _ in results for x in lat], "errors": sum(e for _, e in results)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5, help="turns each endpoint takes (slices of seconds/rounds)")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("WORDSVC_WORKERS", "2")))
    args = parser.parse_args()
    port = free_port()
    server = start_server(port, args.workers)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port)
        conn.request("POST", "/score-round", body=CASES[2][3], headers={"Content-Type": "application/json"})
        check = conn.getresponse()
        if check.status != 200:
            raise SystemExit(f"score-round request refused: {check.status} {check.read()[:300]!r}")
        check.read()
        print(
            f"wordsvc HTTP benchmark: {args.workers} gunicorn workers, {args.clients} client processes, {args.seconds:g} s per endpoint, {os.cpu_count()} CPUs"
        )
        print(f"{'endpoint':<20} {'requests':>9} {'req/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'vs bare':>8}  target")
        # Endpoints take turns in short slices, so a neighbour's load hits them alike.
        totals: dict[str, list[dict[str, float]]] = {name: [] for name, *_ in CASES}
        for _name, method, path, body, _ in CASES:
            run(port, method, path, body, 0.5, args.clients)  # warm-up
        for _ in range(args.rounds):
            for name, method, path, body, _ in CASES:
                totals[name].append(run(port, method, path, body, args.seconds / args.rounds, args.clients))
        bare = None
        for name, _, _, _, target in CASES:
            slices = totals[name]
            latencies = sorted(x for r in slices for x in r["latencies"])
            rps = len(latencies) / args.seconds
            bare = bare or rps
            ratio = rps / bare
            verdict = "" if target is None else f">= {target:.0%}: {'met' if ratio >= target else 'MISSED'}"
            p50, p99 = statistics.median(latencies) * 1000, latencies[int(0.99 * (len(latencies) - 1))] * 1000
            errors = sum(r["errors"] for r in slices)
            print(f"{name:<20} {len(latencies):>9} {rps:>8.0f} {p50:>7.2f} {p99:>7.2f} {errors:>6} {ratio:>8.0%}  {verdict}")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())

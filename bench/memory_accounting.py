"""The caches' own estimate against a worker's real private memory, over best plays spread across every ruleset and language.

A worker's caches count what they hold by an estimate (entries times a
measured cost each); the process keeps more than that for them. This bench
starts ``wordsvc serve`` with one worker and a memory budget, sends best-play
requests (``POST /best-meld``: random hands of every ruleset's deck, in its
own language) from a few threads, and every ``--every`` requests reads the
worker's private memory (smaps_rollup) and the caches' estimate and limit
(``/metrics``). It prints, against the budget:

- the private memory, the caches' estimate and their limit as they go;
- bytes of private memory per byte of estimate (the growth of private memory
  over the growth of the estimate): what a budget trusting the estimate gets
  wrong by;
- whether the written private memory (Private_Dirty, what the memory
  governor steers by) stayed within the budget, with the governor steering the limit
  (wordsvc/service/memory.py).

Run: ``.venv/bin/python bench/memory_accounting.py [--requests 20000] [--budget-mb 160] [--every 1000]``.
"""

from __future__ import annotations

import argparse
import random
import threading
import urllib.request

from common import machine_line, post, start_server
from soak import children, memory

from wordsvc.service.memory import written_bytes

MIB = 1 << 20


def caches(port: int) -> tuple[int, int]:
    """(the caches' estimated bytes summed over every cache, their limit), from /metrics."""
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30).read().decode()
    estimate = limit = 0
    for line in text.splitlines():
        if line.startswith("wordsvc_cache_bytes{"):
            estimate += int(float(line.rsplit(" ", 1)[1]))
        elif line.startswith("wordsvc_cache_limit_bytes "):
            limit = int(float(line.rsplit(" ", 1)[1]))
    return estimate, limit


def hands(port: int, rng: random.Random) -> list[tuple[str, list[str]]]:
    """(ruleset id, its deck's cards, one per copy) for every ruleset the server has."""
    import json

    listed = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/rulesets", timeout=30).read())["rulesets"]
    out = []
    for entry in listed:
        ruleset = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/rulesets/{entry['id']}", timeout=30).read())
        cards = [card["face"] for card in ruleset["deck"]["cards"] for _ in range(card["count"])]
        out.append((entry["id"], cards))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--budget-mb", type=int, default=160, help="WORDSVC_MEMORY_BUDGET_MB of the worker (default 160: small, so it binds)")
    parser.add_argument("--every", type=int, default=1000, help="requests between two readings")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seed", type=int, default=43)
    args = parser.parse_args()
    print(machine_line())
    rng = random.Random(args.seed)
    env = {"WORDSVC_MEMORY_BUDGET_MB": str(args.budget_mb), "WORDSVC_HEAVY_CONCURRENCY": str(args.threads * 2)}
    with start_server(workers=1, env=env) as server:
        (worker,) = children(server.pid)
        decks = hands(server.port, rng)
        lock, sent, failures, statuses = threading.Lock(), [0], [0], {}

        def client(seed: int) -> None:
            local = random.Random(seed)
            while True:
                with lock:
                    if sent[0] >= args.requests:
                        return
                    sent[0] += 1
                ruleset, cards = local.choice(decks)
                hand = local.sample(cards, local.randint(4, 9))
                status, _ = post(server.port, "/best-meld", {"ruleset": ruleset, "hand": hand, "discard": local.random() < 0.5, "top": 3})
                if status != 200:
                    with lock:
                        failures[0] += 1
                        statuses[status] = statuses.get(status, 0) + 1

        start = memory(worker)
        written0 = written_bytes(f"/proc/{worker}/smaps_rollup") or 0
        estimate0, _ = caches(server.port)
        print(f"budget {args.budget_mb} MiB; worker private at start {start[1] / MIB:.1f} MiB; {len(decks)} rulesets\n")
        print(f"{'requests':>9} {'private MiB':>12} {'written MiB':>12} {'estimate MiB':>13} {'limit MiB':>10} {'written/estimate growth':>24}")
        threads = [threading.Thread(target=client, args=(args.seed + n,)) for n in range(args.threads)]
        for thread in threads:
            thread.start()
        worst, rows = 0, []
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(timeout=0.5)
            if sent[0] // args.every > len(rows) or not any(t.is_alive() for t in threads):
                private, written = memory(worker)[1], written_bytes(f"/proc/{worker}/smaps_rollup") or 0
                estimate, limit = caches(server.port)
                grown = (written - written0) / max(1, estimate - estimate0)
                rows.append((sent[0], private, estimate, limit))
                worst = max(worst, written)
                print(f"{sent[0]:>9} {private / MIB:>12.1f} {written / MIB:>12.1f} {estimate / MIB:>13.1f} {limit / MIB:>10.1f} {grown:>24.2f}")
        print(f"\nnot 200: {failures[0]} {statuses}; written private memory at most {worst / MIB:.1f} MiB against a budget of {args.budget_mb} MiB: "
              f"{'held' if worst <= args.budget_mb * MIB else 'OVER'}")  # fmt: skip
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

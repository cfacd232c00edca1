"""Tournament seating figures: Swiss against random, King of the Hill and the lower bound; schedules against random sessions.

Seating (docs/seating.md, docs/performance.md "Seating"):

- **Swiss** for 200 players at 50 tables of 4 in session 6, after 5 earlier sessions seated (a) at random and
  (b) by Swiss itself, the standings of each session a seeded pseudo-random order (standings do not change
  the repeat figures' meaning; they only move who is seated near whom). Printed per method: repeat meetings,
  the Swiss cost's drift, and the time (median and worst of ``--repeat`` runs), beside the random seating's and
  King of the Hill's figures of the same run and ``repeat_lower_bound``. The target: Swiss within 1 second.
- **Schedules**: 16 players at 4 tables of 4 over 5 sessions (the affine plane AG(2, 4)), 22 players at
  4, 4, 4, 4, 3, 3 over 5 and over 7 sessions, and 100 players at 25 tables of 4 over 8: the most meetings of a
  pair, the repeat meetings (meetings beyond a pair's first), the pairs that met, and the time, beside the
  same sessions seated at random.

Run: ``.venv/bin/python bench/tournament.py [--repeat 5] [--seed HEX]``. The first and the last line time a
fixed pure-Python loop (:func:`common.machine_loop_ms`); compare runs by it.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections import Counter

from common import machine_line

from wordsvc.core.seating import (
    SizePolicy,
    meetings,
    random_seating,
    repeat_lower_bound,
    repeat_meetings,
    round_robin_schedule,
    standings_seating,
    swiss_cost,
    swiss_seating,
    table_sizes,
)

DEFAULT_SEED = hashlib.sha256(b"wordsvc tournament bench").hexdigest()


def standings(players: list[str], seed: str, session: int) -> list[str]:
    """A seeded pseudo-random ranking for ``session``: the bench's stand-in for real results."""
    return sorted(players, key=lambda p: hashlib.sha256(f"{seed}/{session}/{p}".encode()).digest())


def timed(repeat: int, fn):  # type: ignore[no-untyped-def]
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return result, statistics.median(times) * 1000, max(times) * 1000


def swiss_figures(label: str, players: list[str], sizes: list[int], met: Counter, seed: str, repeat: int) -> None:
    ranked = standings(players, seed, 6)
    bound = repeat_lower_bound(sizes, met, players)
    print(f"\n{label}: {len(players)} players at {len(sizes)} tables, {sum(met.values())} earlier meetings of {len(met)} pairs; lower bound on repeats {bound}")
    print(f"{'method':20} {'repeats':>8} {'weight':>7} {'drift':>7} {'median ms':>10} {'worst ms':>9}")
    rows = {
        "random (session 6)": lambda: random_seating(players, sizes, seed, 6),
        "King of the Hill": lambda: standings_seating(ranked, sizes),
        "Swiss": lambda: swiss_seating(ranked, sizes, met),
    }
    for name, fn in rows.items():
        tables, median, worst = timed(repeat, fn)
        r, w, d = swiss_cost(tables, ranked, sizes, met)
        assert r == repeat_meetings(tables, met)
        print(f"{name:20} {r:8d} {w:7d} {d:7d} {median:10.1f} {worst:9.1f}")


def label(sizes: list[int]) -> str:
    """4, 4, 4, 4, 3, 3 as ``4x4+2x3``."""
    return "+".join(f"{n}x{size}" for size, n in sorted(Counter(sizes).items(), reverse=True))


def schedule_figures(players: int, sizes: list[int], sessions: int, seed: str) -> None:
    field = [f"p{i:03d}" for i in range(players)]
    started = time.perf_counter()
    schedule = round_robin_schedule(field, sizes, sessions, seed)
    ms = (time.perf_counter() - started) * 1000
    randoms = [random_seating(field, sizes, seed, s) for s in range(1, sessions + 1)]
    pairs = players * (players - 1) // 2
    for name, plan, took in (("schedule", schedule, f"{ms:8.1f}"), ("random", randoms, f"{'':>8}")):
        count = meetings(t for s in plan for t in s)
        repeats = sum(c - 1 for c in count.values())
        print(
            f"{players:3d} at {label(sizes):9} x{sessions}  {name:9} most {max(count.values())}  repeats {repeats:4d}  pairs met {len(count):5d} of {pairs:5d}  ms {took}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", default=DEFAULT_SEED)
    args = parser.parse_args()
    print(machine_line())
    players = [f"p{i:03d}" for i in range(200)]
    sizes = table_sizes(200, SizePolicy(4), 2, 8)
    met: Counter = Counter()
    for session in range(1, 6):
        met += meetings(random_seating(players, sizes, args.seed, session))
    swiss_figures("after 5 random sessions", players, sizes, met, args.seed, args.repeat)
    met = Counter()
    for session in range(1, 6):
        met += meetings(swiss_seating(standings(players, args.seed, session), sizes, met))
    swiss_figures("after 5 Swiss sessions", players, sizes, met, args.seed, args.repeat)
    print("\nschedules")
    for count, table, sessions in ((16, [4] * 4, 5), (22, [4, 4, 4, 4, 3, 3], 5), (22, [4, 4, 4, 4, 3, 3], 7), (100, [4] * 25, 8)):
        schedule_figures(count, table, sessions, args.seed)
    print("\nstandings of 200 players over 6 sessions (bench/standings.py)")
    import standings as standings_bench  # the same machine, the same run

    standings_bench.main([])
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Swiss seating by the hand-written swap search (wordsvc.core.seating.swiss) against OR-Tools CP-SAT on the same cost.

Both minimise the Swiss cost of docs/seating.md, (repeats, weight, drift) compared in that order; CP-SAT gets
it as one weighted sum (each level weighted above the largest value the levels below can take), booleans
x[p, t] for "player p at table t", one per pair that met and table for "both at t", and the King of the Hill
seating as its hint, on 2 workers (the machine's CPUs). Instances: 200 players at tables of 4 after 5 random
sessions (the service's target: within 1 second) and 40 players at tables of 4 after 5, where CP-SAT can
prove its optimum. Printed: cost, repeats, time, and CP-SAT's status and proven lower bound on the objective.

Run: ``.venv/bin/python bench/seating_solvers.py [--limits 1,10,60]`` (needs ``ortools``: the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections import Counter

from common import machine_line
from ortools.sat.python import cp_model

from wordsvc.core.seating import SizePolicy, meetings, random_seating, repeat_lower_bound, standings_seating, swiss_cost, swiss_seating, table_sizes
from wordsvc.core.seating.swiss import _bands, _drift

SEED = hashlib.sha256(b"wordsvc seating solvers").hexdigest()


def cp_sat(ranked: list[str], sizes: list[int], met: Counter, limit: float) -> tuple[list[list[str]], str, float, float]:
    """The seating CP-SAT finds within ``limit`` seconds, its status, objective and proven bound."""
    n, tables = len(ranked), range(len(sizes))
    lo, hi = _bands(sizes)
    index = {p: i for i, p in enumerate(ranked)}
    pairs = [(index[a], index[b], c) for a, b in (tuple(pair) for pair in met) for c in [met[frozenset((a, b))]] if a in index and b in index and c > 0]
    drift = [[_drift(p, lo[t], hi[t]) for t in tables] for p in range(n)]
    drift_max = sum(max(row) for row in drift) + 1
    weight_max = sum(c for _, _, c in pairs) + 1
    model = cp_model.CpModel()
    x = {(p, t): model.new_bool_var(f"x{p}_{t}") for p in range(n) for t in tables}
    for p in range(n):
        model.add_exactly_one(x[p, t] for t in tables)
    for t in tables:
        model.add(sum(x[p, t] for p in range(n)) == sizes[t])
    repeat_terms, weight_terms = [], []
    for a, b, c in pairs:
        for t in tables:
            y = model.new_bool_var(f"y{a}_{b}_{t}")
            model.add_bool_or([x[a, t].Not(), x[b, t].Not(), y])
            repeat_terms.append(y)
            weight_terms.append(c * y)
    drift_terms = [drift[p][t] * x[p, t] for p in range(n) for t in tables if drift[p][t]]
    model.minimize(weight_max * drift_max * sum(repeat_terms) + drift_max * sum(weight_terms) + sum(drift_terms))
    koth = [t for t, s in enumerate(sizes) for _ in range(s)]
    for p in range(n):
        for t in tables:
            model.add_hint(x[p, t], koth[p] == t)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = limit
    solver.parameters.num_workers = 2
    status = solver.solve(model)
    seated: list[list[str]] = [[] for _ in sizes]
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        for p in range(n):
            seated[next(t for t in tables if solver.value(x[p, t]))].append(ranked[p])
    return seated, solver.status_name(status), solver.objective_value, solver.best_objective_bound


def instance(count: int) -> tuple[list[str], list[int], Counter]:
    players = [f"p{i:03d}" for i in range(count)]
    sizes = table_sizes(count, SizePolicy(4), 2, 8)
    met: Counter = Counter()
    for session in range(1, 6):
        met += meetings(random_seating(players, sizes, SEED, session))
    ranked = sorted(players, key=lambda p: hashlib.sha256(f"{SEED}/{p}".encode()).digest())
    return ranked, sizes, met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limits", default="1,10,60", help="CP-SAT time limits in seconds, comma-separated")
    args = parser.parse_args()
    print(machine_line())
    for count in (40, 200):
        ranked, sizes, met = instance(count)
        print(f"\n{count} players at {len(sizes)} tables after 5 random sessions; lower bound on repeats {repeat_lower_bound(sizes, met, ranked)}")
        print(f"{'solver':24} {'repeats':>7} {'weight':>6} {'drift':>6} {'seconds':>8}  status / proven bound of the weighted objective")
        print(f"{'King of the Hill':24} {swiss_cost(standings_seating(ranked, sizes), ranked, sizes, met)[0]:7d}")
        started = time.perf_counter()
        tables = swiss_seating(ranked, sizes, met)
        took = time.perf_counter() - started
        r, w, d = swiss_cost(tables, ranked, sizes, met)
        print(f"{'swap search':24} {r:7d} {w:6d} {d:6d} {took:8.2f}")
        for limit in (float(v) for v in args.limits.split(",")):
            started = time.perf_counter()
            seated, status, objective, bound = cp_sat(ranked, sizes, met, limit)
            took = time.perf_counter() - started
            if any(seated):
                r, w, d = swiss_cost(seated, ranked, sizes, met)
                print(f"{f'CP-SAT, limit {limit:g} s':24} {r:7d} {w:6d} {d:6d} {took:8.2f}  {status} / {bound:g} (found {objective:g})")
            else:
                print(f"{f'CP-SAT, limit {limit:g} s':24} {'-':>7} {'-':>6} {'-':>6} {took:8.2f}  {status}: no seating")
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

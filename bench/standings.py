"""How long standings take: 200 players over 6 sessions, each format, against a baseline in the same run.

The tournament: 200 entrants (10 of them entering at session 3, 5
withdrawing from session 5), seated at random tables of 2 to 8 each session,
game scores drawn around 150 and rounded to tens so that ties (and the
tie-breaks, head-to-head among them) come up often. Timed: ``standings``
for each shipped format, ``crosstable``, and as the baseline, in the same
run, the bare sum and sort of the same games (total per player, sorted,
no tie-break, no fractions): what any ranking of these games must at least
cost. The budget is 100 ms for one standings call; each figure is the
median and p99 of repeated calls, between two machine-loop lines.

Run: ``.venv/bin/python bench/standings.py [--repeat 50]``; docs/performance.md gives the figures.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from common import machine_line, summary, time_each

from wordsvc.core.standings import Entrant, Game, crosstable
from wordsvc.core.standings import standings as rank
from wordsvc.data.formats import load_formats

PLAYERS, SESSIONS, BUDGET_MS = 200, 6, 100.0


def tournament(seed: int = 1) -> tuple[list[Entrant], list[Game]]:
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i:03d}", f"Player {i}", joined=3 if i < 10 else 1, withdrawn=5 if 10 <= i < 15 else None) for i in range(PLAYERS)]
    games = []
    for session in range(1, SESSIONS + 1):
        present = [e.id for e in entrants if e.joined <= session and (e.withdrawn is None or session < e.withdrawn)]
        rng.shuffle(present)
        start, t = 0, 1
        while start < len(present):
            size = min(rng.randint(2, 8), len(present) - start)
            if len(present) - start - size == 1:  # never leave one player alone
                size += 1
            seat = present[start : start + size]
            games.append(Game(session, f"s{session}-t{t}", tuple((p, 10 * round(rng.gauss(150, 40) / 10)) for p in seat)))
            start, t = start + size, t + 1
    return entrants, games


def bare_totals(entrants: list[Entrant], games: list[Game]) -> list[tuple[str, int]]:
    totals = dict.fromkeys((e.id for e in entrants), 0)
    for game in games:
        for player, score in game.scores:
            totals[player] += score
    return sorted(totals.items(), key=lambda item: (-item[1], item[0]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args(argv)
    entrants, games = tournament()
    formats = load_formats()
    print(machine_line())
    print(f"{PLAYERS} entrants, {SESSIONS} sessions, {len(games)} games, {sum(len(g.scores) for g in games)} player-games; {args.repeat} calls each")
    runs: dict[str, Callable[[Any], object]] = {"baseline: bare sum and sort of totals": lambda _: bare_totals(entrants, games)}
    for fid, fmt in sorted(formats.items()):
        runs[f"standings, format {fid}"] = lambda _, fmt=fmt: rank(fmt, entrants, games)
    runs["standings through session 3, format total"] = lambda _: rank(formats["total"], entrants, games, through=3)
    runs["crosstable"] = lambda _: crosstable(entrants, games)
    print(f"{'what':<46} {'p50 ms':>8} {'p99 ms':>8}")
    for name, run in runs.items():
        figures = summary(time_each(run, range(args.repeat)))
        print(f"{name:<46} {figures['p50']:>8.2f} {figures['p99']:>8.2f}")
    tied = sum(1 for line in rank(formats["total"], entrants, games) if line["tie_break"][0] is not None)
    print(f"players whose rank head-to-head was computed for (format total): {tied}; budget {BUDGET_MS:g} ms a call")
    print(machine_line())


if __name__ == "__main__":
    main()

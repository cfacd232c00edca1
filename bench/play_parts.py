"""Where a hosted move's time and a live table's memory go: the app in one process, its parts timed, its allocations traced.

``bench/play.py`` measures hosted play from outside, as clients see it. This
bench explains its figures: the Flask app runs in this process (its test
client, no HTTP server), on a fresh SQLite ledger with the server's bots at
once, and the parts of a move are wrapped with timers that read the calling
thread's CPU time (``time.thread_time``), so a bot's work on the bot thread and
a person's request on the main thread are told apart:

- a person's ``POST .../play/moves``, all told (the request in the app), and
  of it ``Plays.move`` (the ledger's write: the moves read again, the engine,
  the row, the audit append, the commit, the mover's projection), the
  engine's step (``_apply``), the audit appends and the projections;
- a bot's turn (``BotRunner._turn``: the table read, the bot's projection,
  its thinking, its ``Plays.move``) and of it ``Bot.move`` (the thinking).

With ``--memory``, the memory: ``tracemalloc`` from before the first table to after every
table has been played ``--moves`` people's moves in all, grouped by the file
that allocated it, divided by the tables: what one process holds for a live
table (each worker of ``wordsvc serve`` holds its own).

``--profile N`` also profiles the main thread's requests (cProfile) and
prints the N functions with the most time, callees included. Both slow
every part: take the times from a run without them.

Run: ``.venv/bin/python bench/play_parts.py [--tables 50] [--moves 1500] [--memory] [--profile 40]``;
docs/performance.md ("Hosted play") gives the figures.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import os
import pstats
import random
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import defaultdict
from typing import Any

from common import ROOT, machine_line
from play_client import person_move

PEOPLE, BOTS = (0, 2), (1, 3)
PATIENCE = 60.0  # seconds the driver waits for a bot's move: a safety net, never a measurement


class Parts:
    """CPU seconds and calls of each wrapped part, per part name; safe across threads."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._lock = threading.Lock()

    def wrap(self, owner: Any, name: str, part: str) -> None:
        """Replace ``owner.name`` (a function or method) with one that adds its thread's CPU time to ``part``."""
        original = getattr(owner, name)

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                spent = time.thread_time() - started
                with self._lock:
                    self.cpu[part] += spent
                    self.calls[part] += 1

        setattr(owner, name, timed)

    def line(self, part: str, per: int, what: str) -> str:
        return f"{part}: {self.cpu[part] / per * 1e3:.2f} ms of CPU a {what} ({self.calls[part]} calls)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=1500, help="people's moves in all, over the tables in turn")
    parser.add_argument("--bot-levels", type=lambda s: [int(x) for x in s.split(",")], default=[2, 4])
    parser.add_argument("--memory", action="store_true", help="trace the allocations (tracemalloc: it slows every part, so time without it)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="also print the N functions the requests spent most time in (cProfile)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]  # each figure as it comes, also into a file
    print(machine_line())
    with tempfile.TemporaryDirectory(prefix="wordsvc-bench-play-parts-") as tmp:
        env = {**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp}/ledger.sqlite3", "WORDSVC_BOT_DELAY_MS": "0", "WORDSVC_OPEN_EVENTS": str(1 << 20)}
        run(env, args)
    print(machine_line())
    return 0


def run(env: dict[str, str], args: argparse.Namespace) -> None:
    os.chdir(ROOT)
    from wordsvc.config import Settings
    from wordsvc.core.play.bots import Bot
    from wordsvc.ledger.hosting import plays
    from wordsvc.ledger.records.store import Store
    from wordsvc.web.app import create_app
    from wordsvc.web.views.play_bots import BotRunner

    parts = Parts()
    parts.wrap(plays.Plays, "move", "Plays.move")
    parts.wrap(plays, "_apply", "the engine's step")
    parts.wrap(plays, "project", "a projection")
    parts.wrap(Store, "append", "an audit append")
    parts.wrap(Bot, "move", "a bot thinks (Bot.move)")
    parts.wrap(BotRunner, "_turn", "a bot's turn (BotRunner._turn)")

    app = create_app(Settings.from_env(env))
    client = app.test_client()
    rng = random.Random(52)

    def new_table() -> tuple[str, dict[int, str]]:
        bots = [{"seat": s, "level": args.bot_levels[i % len(args.bot_levels)]} for i, s in enumerate(BOTS)]
        made = client.post("/tables", json={"seats": 4, "bots": bots})
        assert made.status_code == 201, made.get_data(as_text=True)
        event = made.get_json()["event"]
        tokens = {}
        for seat, name in zip(PEOPLE, ("Ann", "Bob"), strict=True):
            taken = client.post(f"/events/{event}/games/table/play/seats", json={"name": name, "seat": seat})
            assert taken.status_code == 201, taken.get_data(as_text=True)
            tokens[seat] = taken.get_json()["token"]
        return event, tokens

    client.get("/health")  # the app's first request sets up what every later one shares
    if args.memory:
        tracemalloc.start()
        memory_before = tracemalloc.take_snapshot()
    tables = [new_table() for _ in range(args.tables)]

    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()  # the main thread's requests only: the bots' thread is not profiled
    requests = reads = 0
    request_cpu = read_cpu = 0.0
    deadline = time.monotonic() + PATIENCE
    while requests < args.moves and time.monotonic() < deadline:
        moved = False
        for event, tokens in tables:
            base = f"/events/{event}/games/table/play"
            for seat, token in tokens.items():
                started = time.thread_time()
                state = client.get(base, headers={"Authorization": f"Bearer {token}"}).get_json()["state"]
                read_cpu += time.thread_time() - started
                reads += 1
                if state["round"] is None:
                    continue
                move = person_move(state["round"], seat, state["round"]["hand"], rng)
                if move is None:
                    continue
                started = time.thread_time()
                answer = client.post(
                    f"{base}/moves",
                    headers={"Authorization": f"Bearer {token}"},
                    json={"seq": state["seq"], "move_id": f"p{seat}-{state['seq']}", "move": move},
                )
                request_cpu += time.thread_time() - started
                requests += 1
                moved = moved or answer.status_code == 200
        if moved:
            deadline = time.monotonic() + PATIENCE
        else:
            time.sleep(0.005)  # the bots are thinking
    if profile is not None:
        profile.disable()
    time.sleep(0.5)  # the bots' last moves

    bot_turns = parts.calls["a bot's turn (BotRunner._turn)"]
    print(f"{args.tables} tables, bots at levels {args.bot_levels}; {requests} people's moves sent, {bot_turns} bot turns looked at, {reads} projections read")
    print(f"a person's POST .../play/moves in the app: {request_cpu / requests * 1e3:.2f} ms of CPU; a GET of the projection {read_cpu / reads * 1e3:.2f} ms")
    stored = parts.calls["Plays.move"]
    for part in ("Plays.move", "the engine's step", "an audit append", "a projection"):
        print("  " + parts.line(part, stored, "move stored (people's and bots')"))
    thinking = parts.calls["a bot thinks (Bot.move)"]
    print("  " + parts.line("a bot's turn (BotRunner._turn)", max(1, thinking), "bot move"))
    print("  " + parts.line("a bot thinks (Bot.move)", max(1, thinking), "bot move"))

    if args.memory:
        memory(memory_before, tracemalloc.take_snapshot(), args.tables)
        tracemalloc.stop()
    if profile is not None:
        print("the people's requests (GET and POST), the functions they spent most time in, with what they called:")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


def memory(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, tables: int) -> None:
    """What the process allocated from ``before`` to ``after`` and still holds, a table, by the file that allocated it."""
    grown = after.compare_to(before, "filename")
    total = sum(stat.size_diff for stat in grown)
    print(f"memory traced in this process: +{total / 1024:.0f} KiB over {tables} tables, {total / 1024 / tables:.1f} KiB a table; by file:")
    for stat in grown[:12]:
        name = os.path.relpath(stat.traceback[0].filename, ROOT) if stat.traceback[0].filename.startswith(str(ROOT)) else stat.traceback[0].filename
        print(f"  {stat.size_diff / 1024 / tables:8.1f} KiB a table  {name}")


if __name__ == "__main__":
    raise SystemExit(main())

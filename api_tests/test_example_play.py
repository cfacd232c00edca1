"""examples/play.py against the session's server: a whole hosted game against the bots, each round's scores printed.

The example is run as a reader runs it (``python examples/play.py URL``);
its output must show the eight rounds of ``standard``, totals that are the
sums of the rounds and the table's totals in the ledger, and the server
seed it checked against the table's commitment.
"""

from __future__ import annotations

import re
import subprocess
import sys

import requests

from .conftest import REPO

EXAMPLE = REPO / "examples" / "play.py"
TIMEOUT = 600  # seconds: a guard against a hang only; the suite's server plays its bots at once (WORDSVC_BOT_DELAY_MS=0)
SCORES = re.compile(r"^(round \d+|total): (.+)$")


def _scores(line: str, players: list[str]) -> tuple[str, list[int]]:
    """``round 3: Ann 0, Bot 2 (level 1) 20`` as ``("round 3", [0, 20])``, the players in seat order."""
    label, listed = SCORES.match(line).groups()  # type: ignore[union-attr]
    points = []
    for player, part in zip(players, listed.split(", "), strict=True):
        named, _, value = part.rpartition(" ")
        assert named == player, line
        points.append(int(value))
    return label, points


def test_the_example_plays_a_whole_game_against_the_bots_and_prints_each_round(base_url: str) -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE), base_url, "--bots", "1,4", "--name", "Zoë"], capture_output=True, text=True, timeout=TIMEOUT)
    assert (done.returncode, done.stderr) == (0, ""), done.stdout + done.stderr
    lines = done.stdout.splitlines()
    event = re.fullmatch(r"table (\S+): commitment [0-9a-f]{64}", lines[0]).group(1)  # type: ignore[union-attr]
    players = ["Zoë", "Bot 2 (level 1)", "Bot 3 (level 4)"]
    assert lines[1] == "players: " + ", ".join(players)
    scored = [_scores(line, players) for line in lines[2:-1]]
    assert [label for label, _ in scored] == [f"round {n}" for n in range(1, 9)] + ["total"]
    totals = scored[-1][1]
    assert [sum(points[seat] for _, points in scored[:-1]) for seat in range(3)] == totals
    assert re.fullmatch(rf"server seed [0-9a-f]{{64}}: the one committed to; the whole game log is GET /events/{event}/games/table/play/log", lines[-1])

    table = requests.get(f"{base_url}/events/{event}/games/table", timeout=30).json()
    assert len(table["rounds"]) == 8 and [t["total"] for t in table["totals"]] == totals  # what it printed is what the ledger holds


def test_the_example_refuses_bot_levels_it_cannot_read() -> None:
    done = subprocess.run([sys.executable, str(EXAMPLE), "http://127.0.0.1:9", "--bots", "weak"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--bots takes levels" in done.stderr

"""``bench/play.py`` runs at a tiny size: three live tables for a few seconds, its figures printed, every answered move on its stream.

The bench's figures are times and are read by people (docs/performance.md);
this test holds what is not a time: the script starts its server, seats its
tables, plays people's moves beside the server's bots, and every move a
person's POST had answered reached the table's open stream.
"""

from __future__ import annotations

import re
import subprocess
import sys

from .conftest import REPO

RUN_LIMIT = 600  # seconds: a safety net for a loaded machine, never a measurement (the run takes about 15 s alone)


def test_the_bench_plays_three_tables_and_every_answered_move_reaches_its_stream() -> None:
    done = subprocess.run(
        [sys.executable, "bench/play.py", "--sizes", "3", "--seconds", "3", "--rate", "20"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=RUN_LIMIT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    answered = int(re.search(r"moves answered 200: (\d+)", out).group(1))  # type: ignore[union-attr]
    assert answered > 0, out
    delivered = re.search(r"over (\d+) of (\d+) moves", out)
    assert delivered is not None and delivered.group(1) == delivered.group(2) == str(answered), out
    assert re.search(r"/health alone: p50 [\d.]+ ms, p99 [\d.]+ ms", out), out
    assert re.search(r"^3 \| [\d.]+ \| [\d.]+ / [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ \| -?[\d.]+$", out, re.MULTILINE), out

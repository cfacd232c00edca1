"""The README's whole event, run as written by bash against a real server (SQLite and PostgreSQL); and its hosted game's first turn."""

from __future__ import annotations

import json
import os
import re
import subprocess
from itertools import pairwise
from pathlib import Path

from .conftest import REPO, LedgerServer, _wordsvc_command

README = (REPO / "README.md").read_text(encoding="utf-8")


def walkthrough(title: str = "The ledger") -> str:
    section = README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```bash\n(.*?)```", section, flags=re.S).group(1)  # type: ignore[union-attr]


def test_the_readme_walkthrough_runs_a_whole_event(ledger_server: LedgerServer, tmp_path: Path) -> None:
    script = (walkthrough() + walkthrough("Tournaments")).replace("http://127.0.0.1:8000", ledger_server.url).replace(".venv/bin/wordsvc", _wordsvc_command())
    script = script.replace("curl -s ", "curl -s --fail-with-body ")  # a 4xx fails the script, not only the reader
    env = {**os.environ, "WORDSVC_DATABASE_URL": ledger_server.database_url}
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "event club-dec: ok" in done.stdout
    assert re.search(r"^round1\.json \(receipt of entry \d+ in \d+\): ok: the log of \d+ entries extends it; unsigned$", done.stdout, flags=re.M), done.stdout
    assert "rank,player,table,rounds,total\n1,Ann,t1,1," in done.stdout  # text mode reads CRLF as one newline
    outputs = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    corrected = next(o for o in outputs if o.get("revision") == 2)
    assert [p["total"] for p in corrected["result"]["players"]] == [35, 11]  # as /score-round scores the same play (docs/ledger.md says so)
    session = next(o for o in outputs if o.get("method") == "random")  # the tournament's first session: 8 players at two tables of 4
    assert session["number"] == 1 and [len(table["seats"]) for table in session["tables"]] == [4, 4]
    assert any("overall" in o and o["overall"]["through"] == 1 for o in outputs) and any("system" in o for o in outputs)
    audit = next(o for o in outputs if "entries" in o)["entries"]
    assert [e["payload"].get("reason") for e in audit if e["action"] == "round.corrected"] == ["Bob laid TOP, not TO and P"]


def test_the_readme_hosts_a_game_and_plays_its_first_turn(base_url: str, tmp_path: Path) -> None:
    field = walkthrough().splitlines()[0]  # the section reads answers with the ledger walkthrough's `field`
    assert field.startswith("field() {"), field
    script = f"{field}\n{walkthrough('Host a game')}".replace("http://127.0.0.1:8000", base_url)
    script = script.replace("curl -s ", "curl -s --fail-with-body ")  # a 4xx (a refused move, a stale one) fails the script
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    drawn = json.loads((tmp_path / "moved.json").read_text(encoding="utf-8"))
    assert drawn["seq"] == 1 and drawn["state"]["viewer"] == 1 and drawn["state"]["round"]["phase"] == "discard"
    discarded = next(json.loads(line) for line in done.stdout.splitlines() if line.startswith("{"))
    assert discarded["seq"] == 2 and discarded["repeat"] is False
    lines = done.stdout.splitlines()
    moves = [json.loads(data[len("data: ") :]) for event, data in pairwise(lines) if event == "event: move"]
    mine = [m for m in moves if m.get("seat") == 1]
    assert [m["kind"] for m in mine[:2]] == ["draw", "discard"] and "card" in mine[0]  # the stream shows your seat its own draw
    assert any(m.get("seat") == 2 for m in moves)  # and the bots, who play at once after you

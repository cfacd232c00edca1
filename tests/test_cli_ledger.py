"""``wordsvc db``, ``event``, ``token`` and ``audit`` as a referee runs them, on a SQLite ledger of the test's own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EN_US = ROOT / "build" / "lexicons" / "en-US"


@pytest.fixture
def wordsvc(tmp_path: Path):
    env = {**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'ledger.sqlite3'}"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "wordsvc.cli", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)

    return run


@pytest.mark.skipif(not (EN_US / "meta.json").is_file(), reason="the en-US lexicon is not built; run `make setup`")
def test_an_event_from_the_command_line(wordsvc, tmp_path: Path) -> None:
    upgraded = wordsvc("db", "upgrade")
    assert upgraded.returncode == 0 and "schema revision 0005" in upgraded.stderr
    created = wordsvc("event", "create", "--name", "Club night", "--id", "club", "--private")
    assert created.returncode == 0, created.stderr
    event = json.loads(created.stdout)
    assert event["private"] is True and event["director_token"]["token"].startswith("wsv_") and event["lexicon"]["id"] == "en-US"
    assert wordsvc("event", "create", "--name", "Again", "--id", "club").returncode == 2  # the id is taken: one line, exit 2
    referee = wordsvc("token", "create", "--event", "club", "--role", "referee", "--table", "t1")
    assert referee.returncode == 2 and "no table 't1'" in referee.stderr  # a table must be seated first
    viewer = json.loads(wordsvc("token", "create", "--event", "club", "--role", "viewer", "--label", "scoreboard").stdout)
    admin = json.loads(wordsvc("token", "create", "--admin").stdout)
    assert admin["role"] == "admin" and viewer["role"] == "viewer"
    assert wordsvc("token", "revoke", viewer["id"]).returncode == 0
    assert wordsvc("token", "revoke", admin["id"]).returncode == 0
    assert wordsvc("token", "revoke", "ffffffff").returncode == 2
    shown = json.loads(wordsvc("event", "show", "club", "--standings").stdout)
    assert shown["standings"] == [] and shown["games"] == []
    out = tmp_path / "club.json"
    assert wordsvc("event", "export", "club", "-o", str(out)).returncode == 0
    actions = [entry["action"] for entry in json.loads(out.read_text())["audit"]]
    assert actions == ["event.created", "token.issued", "token.issued", "token.revoked"]
    verified = wordsvc("audit", "verify")
    assert verified.returncode == 0 and "event club: ok" in verified.stdout and "admin tokens: ok" in verified.stdout
    named = wordsvc("audit", "verify", "club")  # the admin tokens' chain is checked with a named event too
    assert named.returncode == 0 and "admin tokens: ok" in named.stdout
    copied = wordsvc("db", "backup", str(tmp_path / "copy.sqlite3"))
    assert copied.returncode == 0 and "1 event(s), 6 audit entries" in copied.stdout, copied.stderr  # the event's 4 and the admin token's 2
    again = wordsvc("db", "backup", str(tmp_path / "copy.sqlite3"))
    assert again.returncode == 2 and "exists" in again.stderr  # a backup never overwrites a file


def test_bad_input_is_one_line_and_exit_2(wordsvc, tmp_path: Path) -> None:
    cases = [("token", "create"), ("token", "create", "--admin", "--event", "x"), ("event", "show", "nope"), ("audit", "verify", "nope")]
    cases += [("db", "backup", str(tmp_path / "no folder" / "copy.sqlite3"))]
    for args in cases:
        done = wordsvc(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, (args, done.stderr)

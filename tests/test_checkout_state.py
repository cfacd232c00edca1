""".ci/checkout-state, which ``make test`` and ``make check`` take before and after the suite and compare (docs/operations.md).

Run in a throwaway git repository holding a copy of the script: a run that changes a tracked
file, adds a file git does not ignore, or rewrites a file that already had local changes
changes its output; writing ignored files does not.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / ".ci" / "checkout-state"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=repo, check=True, capture_output=True, timeout=60)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    (tmp_path / ".ci").mkdir()
    shutil.copy(SCRIPT, tmp_path / ".ci" / "checkout-state")
    (tmp_path / ".gitignore").write_text("/build/\n", encoding="utf-8")
    (tmp_path / "tracked.txt").write_text("one\n", encoding="utf-8")
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "start")
    return tmp_path


def state(repo: Path) -> str:
    return subprocess.run([str(repo / ".ci" / "checkout-state")], cwd=repo, check=True, capture_output=True, text=True, timeout=60).stdout


def test_ignored_files_leave_the_state_as_it_was(repo: Path) -> None:
    before = state(repo)
    (repo / "build").mkdir()
    (repo / "build" / "out.png").write_bytes(b"picture")
    assert state(repo) == before


def test_a_tracked_file_rewritten_changes_the_state(repo: Path) -> None:
    before = state(repo)
    (repo / "tracked.txt").write_text("two\n", encoding="utf-8")
    assert state(repo) != before


def test_a_new_file_not_ignored_changes_the_state(repo: Path) -> None:
    before = state(repo)
    (repo / "new.png").write_bytes(b"picture")
    assert state(repo) != before


def test_a_file_with_local_changes_rewritten_again_changes_the_state(repo: Path) -> None:
    (repo / "tracked.txt").write_text("local change\n", encoding="utf-8")
    (repo / "draft.txt").write_text("not yet added\n", encoding="utf-8")
    before = state(repo)
    assert state(repo) == before
    (repo / "tracked.txt").write_text("rewritten by a test\n", encoding="utf-8")
    assert state(repo) != before
    (repo / "tracked.txt").write_text("local change\n", encoding="utf-8")
    (repo / "draft.txt").write_text("overwritten\n", encoding="utf-8")
    assert state(repo) != before

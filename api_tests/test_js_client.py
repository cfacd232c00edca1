"""The JavaScript client of examples/ against the live server: it must run clean and check out.

Runs ``node examples/client.mjs <base_url>`` when ``node`` is on PATH and skips
visibly (with the reason in the summary) when it is not.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from .conftest import node_or_skip

CLIENT = Path(__file__).resolve().parent.parent / "examples" / "client.mjs"
EXPECTED_LINES = [
    "ok   languages: en-US is loaded",
    "ok   validate quiz: valid, QU-I-Z 25, Q-U-I-Z 35",
    "ok   validate NFD café: valid, echoed as sent, judged as NFC",
    "ok   judge cloth/xqzt/piny: not acceptable, no word named",
    "ok   score round 8: ann 78, bob 25",
    "ok   bad round: 422 naming round and players.1.words.0",
    "ok   unknown language: 404 listing what exists",
    "all checks passed",
]


def _node() -> str:
    return node_or_skip("the JavaScript client (examples/client.mjs)")


def test_js_client_runs_its_scripted_session_against_the_live_server(base_url: str) -> None:
    node = _node()
    result = subprocess.run([node, str(CLIENT), base_url], capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"node exited with {result.returncode}:\n{output}"
    lines = result.stdout.splitlines()
    for expected in EXPECTED_LINES:
        assert expected in lines, f"missing {expected!r} in:\n{output}"
    assert not any(line.startswith("FAIL") for line in lines), output
    problem_line = next(line for line in lines if line.startswith("422 errors: "))
    assert '"players.1.words.0"' in problem_line and '"round"' in problem_line


def test_js_client_exits_non_zero_when_the_server_is_not_there() -> None:
    node = _node()
    result = subprocess.run([node, str(CLIENT), "http://127.0.0.1:9"], capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "all checks passed" not in result.stdout


def test_js_client_without_a_url_prints_its_usage() -> None:
    node = _node()
    result = subprocess.run([node, str(CLIENT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "usage" in result.stderr

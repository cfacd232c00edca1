"""The generated clients against the live server: made from its /openapi.json without a warning, built, and walked through a flow.

``clients/generate.py`` writes each client into build/clients/ from the
document the session's server serves (and fails on any line a generator
prints besides its progress). Then:

- TypeScript: ``tsc --strict`` compiles clients/typescript/flow.test.mts
  against the generated types (openapi-fetch, with openapi-typescript's
  ``paths``) and ``node --test`` runs it;
- Python: every module of the generated package ``wordsvc_client`` imports
  with warnings as errors, and pytest runs clients/python/test_flow.py with it.

Each flow validates in three languages, scores a round, finds the best play,
pages a word search with its cursor, walks an event (create, seat, submit,
correct, standings, audit), plays a hosted game against the server's bots to
its end (a table created, a seat taken with a nonce, every move from the
seat's projection, a stale move read again, the log revealed, the totals the
ledger table's) and reads errors as the typed Problem; the README's example
in each language runs as written too. Without
Node.js (or npm's packages) the TypeScript test is skipped, saying why; under
CI it fails instead (the root conftest's ``unavailable_tool``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from typing import NoReturn

import pytest

from .conftest import REPO

BUILD = REPO / "build" / "clients"
README = (REPO / "README.md").read_text(encoding="utf-8")
GENERATE = REPO / "clients" / "generate.py"
NPM_BIN = REPO / "node_modules" / ".bin"
TIMEOUT = 900  # seconds: a guard against a hang only; tsc takes seconds, and every flow's request is answered at once


def _run(command: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO, env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def _generate(base_url: str, language: str) -> str:
    done = _run([sys.executable, str(GENERATE), "--openapi", f"{base_url}/openapi.json", "--only", language])
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"generating the {language} client failed:\n{output}"
    assert "warn" not in output.lower() and "⚠" not in output, output
    return output


def _flow_env(base_url: str, admin_token: str | None) -> dict[str, str]:
    if not admin_token:
        pytest.fail("the client flows create an event: give WORDSVC_ADMIN_TOKEN (an admin token of its ledger) with WORDSVC_URL")
    return {"WORDSVC_URL": base_url, "WORDSVC_ADMIN_TOKEN": admin_token}


def readme_example(language: str, base_url: str) -> str:
    """The README's example in ``language`` (``ts``, ``python``), sent to ``base_url``."""
    section = README.split("\n## Clients\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(rf"```{language}\n(.*?)```", section, flags=re.S).group(1)  # type: ignore[union-attr]
    return code.replace("http://127.0.0.1:8000", base_url)


def _node(unavailable_tool: Callable[[str, str], NoReturn]) -> str:
    """Node.js 18 or newer and the npm packages the TypeScript client needs; else skipped (failed under CI) saying which is missing."""
    node = shutil.which("node")
    if node is None:
        unavailable_tool("Node.js", "node is not on PATH")
    version = _run([node, "--version"]).stdout.strip()
    if int(version.lstrip("v").split(".")[0] or 0) < 18:
        unavailable_tool("Node.js", f"node {version} is older than 18")
    missing = [tool for tool in ("openapi-typescript", "tsc") if not (NPM_BIN / tool).is_file()]
    if missing:
        unavailable_tool("Node.js", f"npm ci has not installed {', '.join(missing)}")
    return node


def test_the_typescript_client_builds_strictly_and_walks_the_flow(unavailable_tool: Callable[[str, str], NoReturn], base_url: str, admin_token: str | None) -> None:
    node = _node(unavailable_tool)
    env = _flow_env(base_url, admin_token)
    assert "schema.d.ts" in _generate(base_url, "typescript")
    shutil.rmtree(BUILD / "flow", ignore_errors=True)
    compiled = _run([node, str(NPM_BIN / "tsc"), "--project", "clients/typescript", "--strict"])
    assert (compiled.returncode, compiled.stdout + compiled.stderr) == (0, ""), f"tsc --strict:\n{compiled.stdout}{compiled.stderr}"
    flow = _run([node, "--test", str(BUILD / "flow" / "flow.test.mjs")], env=env)
    output = flow.stdout + flow.stderr
    assert flow.returncode == 0, f"node --test exited with {flow.returncode}:\n{output}"
    passed = re.search(r"^# pass (\d+)$", flow.stdout, flags=re.M)
    assert "# fail 0" in flow.stdout and passed and int(passed.group(1)) > 0, output
    assert "Warning" not in flow.stderr, output

    example = BUILD / "readme" / "example.mts"  # beside the generated folder, which it imports as ../typescript/schema.js
    example.parent.mkdir(exist_ok=True)
    example.write_text(readme_example("ts", base_url).replace('"./build/clients/typescript/schema"', '"../typescript/schema.js"'), encoding="utf-8")
    options = ["--strict", "--target", "ES2022", "--module", "NodeNext", "--moduleResolution", "NodeNext", "--types", "node", "--skipLibCheck"]
    compiled = _run([node, str(NPM_BIN / "tsc"), *options, str(example)])
    assert (compiled.returncode, compiled.stdout + compiled.stderr) == (0, ""), f"the README's TypeScript:\n{compiled.stdout}{compiled.stderr}"
    ran = _run([node, str(example.with_suffix(".mjs"))])
    assert (ran.returncode, ran.stderr, ran.stdout) == (0, "", "true [ [ 'Q', 'U', 'I', 'Z' ], [ 'QU', 'I', 'Z' ] ] undefined\n")


def test_the_python_client_imports_cleanly_and_walks_the_flow(base_url: str, admin_token: str | None) -> None:
    env = {**_flow_env(base_url, admin_token), "PYTHONPATH": str(BUILD / "python")}
    assert "build/clients/python" in _generate(base_url, "python")
    every_module = (
        "import importlib, pkgutil, wordsvc_client; "
        "names = [m.name for m in pkgutil.walk_packages(wordsvc_client.__path__, 'wordsvc_client.')]; "
        "[importlib.import_module(name) for name in names]; print(len(names), 'modules')"
    )
    imported = _run([sys.executable, "-W", "error", "-c", every_module], env=env)
    assert imported.returncode == 0 and imported.stderr == "", imported.stdout + imported.stderr
    assert int(imported.stdout.split()[0]) > 100  # every operation and model
    flow = _run([sys.executable, "-W", "error", "-m", "pytest", "-q", "-p", "no:cacheprovider", "clients/python/test_flow.py"], env=env)
    output = flow.stdout + flow.stderr
    assert flow.returncode == 0, f"pytest clients/python/test_flow.py exited with {flow.returncode}:\n{output}"
    assert " passed" in flow.stdout and "skipped" not in flow.stdout and "warning" not in output.lower(), output

    ran = _run([sys.executable, "-W", "error", "-c", readme_example("python", base_url)], env=env)
    assert (ran.returncode, ran.stderr, ran.stdout) == (0, "", "True [['Q', 'U', 'I', 'Z'], ['QU', 'I', 'Z']]\n")

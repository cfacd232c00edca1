"""Generates wordsvc's TypeScript and Python clients from its OpenAPI document, into ``build/clients/``.

    python clients/generate.py [--openapi URL_OR_FILE] [--out DIR] [--only typescript|python]

Without ``--openapi`` the document is rendered in-process, as ``GET
/openapi.json`` serves it; the suite passes the URL of the server it tests.
Writes, each time anew:

- ``DIR/openapi.json``: the document the clients were made from;
- ``DIR/typescript/schema.d.ts``: openapi-typescript's types, for openapi-fetch;
- ``DIR/python/``: openapi-python-client's package ``wordsvc_client`` (with its ``setup.py``).

Both generators are pinned (package-lock.json, pyproject.toml) and run with
every line they print shown. A warning fails the run (exit 1), and so does
any line that is not a generator's own progress line: what they cannot
generate is fixed in the document (``wordsvc/web/openapi.py``), never in the
generated code. Nothing in ``DIR`` is edited by hand.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OPENAPI_TYPESCRIPT = REPO / "node_modules" / ".bin" / "openapi-typescript"
PYTHON_CONFIG = REPO / "clients" / "python" / "generator.json"
#: The only lines each generator prints when all is well; anything else (a warning, a skipped operation) fails the run.
PROGRESS = {
    "openapi-typescript": re.compile(r"^(✨ openapi-typescript \d+\.\d+\.\d+|🚀 .+ → .+ \[[\d.]+m?s\])$"),
    "openapi-python-client": re.compile(r"^Generating .+$"),
}
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
LANGUAGES = ("typescript", "python")


class GenerationError(Exception):
    """A generator failed, or said more than its progress lines."""


def document(source: str | None) -> dict[str, object]:
    """The OpenAPI document: from a URL, from a file, or (``None``) rendered by the service's code."""
    if source is None:
        from wordsvc.web.openapi import spec  # here: a URL or a file needs no wordsvc installed

        return spec()
    if source.startswith(("http://", "https://")):
        with urllib.request.urlopen(source, timeout=30) as response:
            return json.loads(response.read())  # type: ignore[no-any-return]
    return json.loads(Path(source).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def run(name: str, command: list[str], env: dict[str, str] | None = None) -> None:
    """Runs a generator, echoing its output; GenerationError if it fails or prints anything but its progress lines."""
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    lines = [_ANSI.sub("", line).strip() for line in (done.stdout + done.stderr).splitlines()]
    lines = [line for line in lines if line]
    for line in lines:
        print(f"{name}: {line}")
    unexpected = [line for line in lines if not PROGRESS[name].match(line)]
    if done.returncode != 0:
        raise GenerationError(f"{name} exited with status {done.returncode}")
    if unexpected:
        raise GenerationError(f"{name} printed {len(unexpected)} line(s) besides its progress (a warning is fixed in the document): {unexpected[0]}")


def generate(doc: dict[str, object], out: Path, languages: tuple[str, ...] = LANGUAGES) -> None:
    """Writes the document and the clients in ``languages`` under ``out``, each replacing what was there."""
    if "typescript" in languages and not OPENAPI_TYPESCRIPT.is_file():
        raise GenerationError(f"no {OPENAPI_TYPESCRIPT.relative_to(REPO)}: run `npm ci` (make setup does)")
    out.mkdir(parents=True, exist_ok=True)
    spec_file = out / "openapi.json"
    spec_file.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for language in languages:
        shutil.rmtree(out / language, ignore_errors=True)
    if "typescript" in languages:
        (out / "typescript").mkdir()
        # --default-non-nullable false: a request field with a default stays optional (the generator's default makes it required)
        command = [str(OPENAPI_TYPESCRIPT), _shown(spec_file), "--output", _shown(out / "typescript" / "schema.d.ts"), "--default-non-nullable", "false"]
        run("openapi-typescript", command, env={**os.environ, "NO_COLOR": "1"})
    if "python" in languages:
        # the generator's post-hooks run ruff from PATH: the one of this Python's environment
        tools = str(Path(sys.executable).parent)
        env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"}
        command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", _shown(spec_file), "--output-path", _shown(out / "python")]
        command += ["--config", _shown(PYTHON_CONFIG), "--meta", "setup", "--fail-on-warning"]
        run("openapi-python-client", command, env=env)


def _shown(path: Path) -> str:
    """``path`` as the generators print it: relative to the repository (where they run) when inside it."""
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--openapi", metavar="URL_OR_FILE", help="the document to generate from (default: rendered by this checkout's wordsvc)")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "clients", help="where to write (default: build/clients)")
    parser.add_argument("--only", choices=LANGUAGES, help="generate one client only")
    args = parser.parse_args(argv)
    try:
        generate(document(args.openapi), args.out.resolve(), (args.only,) if args.only else LANGUAGES)
    except GenerationError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"clients written to {_shown(args.out.resolve())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

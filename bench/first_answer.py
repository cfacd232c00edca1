"""Time from ``git clone`` to the first 200 from ``GET /validate?word=quiz`` under ``make serve``.

Clones ``--repo`` (default: this checkout) into a fresh temporary folder,
starts ``make serve`` there on a free port, polls the URL every 0.5 s, and
prints the seconds from the clone's start to the first 200, with what
``/ready`` said at that moment; then stops the server (SIGTERM: it drains,
and stops the background build). Set-up is what a new user's first command
does; what was already on the machine (pip's cache, Debian packages) is the
user's, so say what was when quoting the figure.

Run: ``.venv/bin/python bench/first_answer.py [--repo PATH_OR_URL] [--timeout 600]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from common import free_port

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repo", default=str(ROOT))
    parser.add_argument("--timeout", type=float, default=600.0)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="wordsvc-first-answer-") as tmp:
        started = time.monotonic()
        subprocess.run(["git", "clone", "-q", args.repo, f"{tmp}/wordsvc"], check=True)
        log = open(f"{tmp}/serve.log", "wb")  # kept open for the server's lifetime
        env = {**os.environ, "WORDSVC_PORT": str(port)}
        server = subprocess.Popen(["make", "serve"], cwd=f"{tmp}/wordsvc", env=env, stdout=log, stderr=log, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            while time.monotonic() - started < args.timeout:
                try:
                    with urllib.request.urlopen(f"{url}/validate?word=quiz", timeout=2) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if server.poll() is not None:
                    raise SystemExit(f"make serve exited with {server.returncode}; see its log")
                time.sleep(0.5)
            else:
                raise SystemExit(f"no 200 within {args.timeout:.0f} s")
            elapsed = time.monotonic() - started
            with urllib.request.urlopen(f"{url}/ready", timeout=5) as response:
                ready = json.load(response)
            print(f"git clone to the first 200 from /validate?word=quiz: {elapsed:.1f} s")
            print(f"/ready then: languages {', '.join(ready['languages'])}; building {', '.join(ready['building']) or 'nothing'}")
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
            log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

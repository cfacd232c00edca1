"""Rebuild the lock files from pyproject.toml: every Python package the project installs, pinned, with its hashes.

``make lock`` runs this; ``make setup`` installs from the files it writes with
``pip install --require-hashes --no-deps``, so two machines a month apart run
the same code, and a file changed on the way is refused. Written with
pip-tools (``pip-compile --generate-hashes``), whose output plain pip reads:
nothing but pip is needed to install (docs/operations.md#dependencies says
why pip-tools rather than uv).

- ``base.txt``: what ``wordsvc serve`` needs (pyproject's ``dependencies``,
  and setuptools, its build backend, so the project itself installs with no
  unpinned download);
- ``dev.txt``: that and the ``test``, ``fuzz`` and ``bench`` extras, held to
  ``base.txt``'s versions;
- ``estonian-nodeps.txt``: estnltk, installed without its dependencies
  (wordsvc loads only its Vabamorf module); its hashes come from the same
  resolver, the rest of its block dropped.

An existing pin is kept unless ``--upgrade`` is given, so running this again
after a change to pyproject.toml changes only what that change needs.
``tests/test_lock.py`` fails when pyproject.toml and these files disagree.

Run: ``.venv/bin/python requirements/lock.py [--upgrade]`` (needs pip-tools and the package index).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: The estnltk release the Vabamorf loader (wordsvc/data/estonian.py) is written against.
ESTNLTK = "estnltk==1.7.5"
ESTONIAN_HEADER = """\
# Estonian lexicon (wordsvc.data.estonian): Vabamorf as shipped inside estnltk.
# Install WITHOUT dependencies (make setup does):
#     pip install --require-hashes --no-deps -r requirements/estonian-nodeps.txt
# wordsvc loads only estnltk's compiled Vabamorf module
# (estnltk/vabamorf/_vabamorf*.so) and its lexicon files
# (estnltk/vabamorf/dct/), never the estnltk package itself, so none of
# estnltk's dependencies are needed (17 declared, 57 packages in all).
# `pip check` lists them as missing: expected.
# The pin is exact: the loader relies on this release's file layout and on its
# six-argument Vabamorf.analyze(). Wheels only: a source build needs SWIG and
# a C++ toolchain. Written by requirements/lock.py (make lock); do not edit.
--only-binary estnltk
"""


def compile_lock(output: Path, *options: str, source: str = "pyproject.toml", upgrade: bool = False) -> None:
    command = [
        sys.executable, "-m", "piptools", "compile", "--quiet", "--generate-hashes", "--allow-unsafe", "--strip-extras",
        "--no-emit-index-url", "--no-emit-find-links", "--no-emit-trusted-host", "--resolver=backtracking",
        f"--output-file={output}", *options, *(["--upgrade"] if upgrade else []), source,
    ]  # fmt: skip
    subprocess.run(command, cwd=ROOT, check=True)
    text = output.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^#    pip-compile .*$", f"#    make lock  (requirements/lock.py: {' '.join(options) or 'the dependencies'})", text)
    output.write_text(text.replace(str(output.parent) + "/", "requirements/"), encoding="utf-8")


def estonian(upgrade: bool) -> None:
    """The estnltk block of a lock of estnltk alone: its pin and hashes, not its dependencies."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "estonian.in"
        source.write_text(f"--only-binary estnltk\n{ESTNLTK}\n", encoding="utf-8")
        out = Path(tmp) / "estonian.txt"
        compile_lock(out, source=str(source), upgrade=upgrade)
        block = re.search(rf"(?ms)^{re.escape(ESTNLTK)} \\\n(?:    --hash=sha256:[0-9a-f]{{64}}(?: \\)?\n)+", out.read_text(encoding="utf-8"))
        if block is None:
            raise SystemExit(f"no hashed {ESTNLTK} in pip-compile's output")
    (HERE / "estonian-nodeps.txt").write_text(ESTONIAN_HEADER + block.group(0), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--upgrade", action="store_true", help="take the newest releases pyproject.toml allows, not the pinned ones")
    args = parser.parse_args(argv)
    compile_lock(HERE / "base.txt", "--all-build-deps", upgrade=args.upgrade)
    compile_lock(HERE / "dev.txt", "--all-build-deps", "--extra=test", "--extra=fuzz", "--extra=bench", "--constraint=requirements/base.txt", upgrade=args.upgrade)
    estonian(args.upgrade)
    return 0


if __name__ == "__main__":
    sys.exit(main())

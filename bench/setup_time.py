"""Where a fresh set-up's time goes: each phase of ``make setup``, and each language's build steps, against a baseline.

Two parts, each printed as a table of wall and CPU seconds (CPU: user plus
system time of the step's processes and every process they waited for, from
``getrusage(RUSAGE_CHILDREN)``; on a shared machine CPU time moves far less
with the neighbours' load than wall time does). The machine's speed right
now (``common.machine_line``) is printed first and last.

1. **Set-up** (``--setup``): clones this repository (its committed ``HEAD``)
   into a temporary folder and runs ``make setup`` there with an empty,
   temporary pip cache (``PIP_CACHE_DIR``) and npm cache
   (``npm_config_cache``), make running each recipe line through a shell
   that times it (this script with ``--recipe-shell``). So every phase
   (virtualenv, pip installs, npm, the Debian package checks, ``wordsvc
   build``, the ledger's migration) is timed as make runs it. The Debian
   packages are whatever the machine has: the script says which of them are
   installed (make's ``apt-get`` lines install only missing ones, as root).
   pip reads whatever index and wheel folders its configuration names.

2. **Builds** (on unless ``--no-builds``): every build step of each
   language, one step at a time in a child process, into temporary data
   folders (``WORDSVC_DATA_DIR``), for this tree and for ``--baseline``
   (default ``HEAD``; exported with ``git archive``), the two trees taking
   turns step by step so that a neighbour's load falls on both alike: the
   Icelandic word list (``wordlists/is/build_bin.py``), each compile, each
   anagram index and search index alone, the two indexes as ``wordsvc
   build`` makes them (side by side where the tree does that), and the
   Estonian candidates' index (the short words Vabamorf reads, and
   myspell-et's forms). Then ``wordsvc build --force`` whole, for each
   tree, and the sha256 of every file the two builds wrote, compared (a
   build's ``anagrams.json`` for Estonian records how long its short words
   took, ``short_seconds``: it is compared without that field; and a
   generated word list's stamp, the sha256 of the script that made it, is
   left out).

Run: ``.venv/bin/python bench/setup_time.py [--baseline REV] [--setup]
[--no-builds] [--no-whole] [--only is,et] [--repeats N]``. The builds take
about ten minutes on two CPUs, the set-up as long again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from common import ROOT, machine_line

#: The Debian packages ``make setup`` installs when they are missing (Makefile).
DEBIAN_PACKAGES = ("myspell-et", "hunspell-tools", "scowl", "miscfiles", "postgresql", "chromium")

#: A child process that runs one build step of the tree at ``argv[1]``.
CHILD = r"""
import hashlib, json, sys
from pathlib import Path
root, step, lang_id, data_dir = sys.argv[1], sys.argv[2], sys.argv[3], Path(sys.argv[4])
sys.path.insert(0, root)
import wordsvc
assert wordsvc.__file__.startswith(root), wordsvc.__file__
from wordsvc.data import build
from wordsvc.data.anagram_index import deck_limits
from wordsvc.data.languages import LANGUAGES, wordlists_dir
from wordsvc.data.rulesets import load_rulesets
from wordsvc.data.search_index import build_search_index
lang = {lang.id: lang for lang in LANGUAGES}[lang_id]
out = data_dir / "lexicons" / lang_id
limits = deck_limits(load_rulesets())
quiet = lambda line: None
if step == "compile":
    if lang.builder:  # the word list the word-list step made: stamp it as this tree's builder's, so it is not made again
        stamp = data_dir / "sources" / f"{lang_id}.tsv.gz.builder-sha256"
        if hasattr(build, "builder_sha256"):  # the builder and the builders' kit
            stamp.write_text(build.builder_sha256(lang) + "\n")
        else:
            stamp.write_text(hashlib.sha256((wordlists_dir() / lang.builder).read_bytes()).hexdigest() + "\n")
    (out / "meta.json").unlink(missing_ok=True)
    build.build_language(lang, data_dir, log=quiet)
elif step == "anagram index":
    build.build_anagrams(out, limits, force=True, log=quiet)
elif step == "search index":
    build_search_index(out, force=True, log=quiet)
elif step == "both indexes":
    if hasattr(build, "build_indexes"):
        build.build_indexes(out, limits, force=True, log=quiet)
    else:
        build.build_anagrams(out, limits, force=True, log=quiet)
        build_search_index(out, force=True, log=quiet)
elif step == "candidates index":
    from wordsvc.data.estonian_candidates import build_estonian_anagrams
    build_estonian_anagrams(data_dir, limits, force=True, log=quiet)
    meta = json.loads((out / "anagrams.json").read_text(encoding="utf-8"))
    print(json.dumps({"short words found in (s)": meta["short_seconds"]}))
"""


@dataclass
class Timed:
    wall: float
    cpu: float
    note: str = ""


def run_timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> Timed:
    """Run ``cmd``; its wall time and the CPU time of it and every process it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:4])} ... failed ({result.returncode}):\n{result.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timed(wall, cpu, result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "")


# ---------------------------------------------------------------- part 1: make setup


def recipe_shell(argv: list[str]) -> int:
    """Make's SHELL for part 1: run ``sh -c RECIPE``, then append its wall and CPU seconds to ``$SETUP_TIME_LOG``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    code = subprocess.run(["/bin/sh", *argv], check=False).returncode
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    entry = {
        "recipe": argv[-1],
        "wall": time.perf_counter() - started,
        "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        "status": code,
    }
    with open(os.environ["SETUP_TIME_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(entry) + "\n")
    return code


#: Recipe lines by what they do: the first pattern a line holds names it.
PHASES = (
    ("apt-get install -y -qq myspell-et", "Debian packages of the service (checked; installed when missing)"),
    ("postgresql >/dev/null", "Debian postgresql (checked; installed when missing)"),
    ("install -y -qq chromium", "Debian chromium (checked; installed when missing)"),
    ("-m venv", "virtualenv"),
    ("--upgrade pip", "pip: upgrade pip"),
    ("estonian-nodeps", "pip: estnltk, without dependencies"),
    ("'.[test]'", "pip: the test tools (.[test])"),
    ("install --quiet -e .", "pip: the service (-e .)"),
    ("npm ci", "npm ci (axe-core)"),
    ("wordsvc build", "wordsvc build (every lexicon and index)"),
    ("db upgrade", "wordsvc db upgrade (the ledger)"),
)


def setup_phases(scratch: Path) -> tuple[list[tuple[str, Timed]], float]:
    clone = scratch / "wordsvc"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    log = scratch / "recipes.jsonl"
    shell = scratch / "timed-sh"
    shell.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{Path(__file__).resolve()}" --recipe-shell "$@"\n')
    shell.chmod(0o755)
    env = {
        "SETUP_TIME_LOG": str(log),
        "PIP_CACHE_DIR": str(scratch / "pip-cache"),
        "npm_config_cache": str(scratch / "npm-cache"),
    }
    started = time.perf_counter()
    result = subprocess.run(["make", "setup", f"SHELL={shell}"], cwd=clone, env={**os.environ, **env}, capture_output=True, text=True, check=False)
    total = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"make setup failed ({result.returncode}):\n{result.stdout[-2000:]}\n{result.stderr[-3000:]}")
    phases = []
    for line in log.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        recipe = " ".join(entry["recipe"].split())
        name = next((label for pattern, label in PHASES if pattern in recipe), recipe[:60])
        phases.append((name, Timed(entry["wall"], entry["cpu"])))
    return phases, total


def debian_packages() -> list[str]:
    """Each package ``make setup`` may install, and whether the machine has it."""
    if shutil.which("dpkg-query") is None:
        return ["(no dpkg-query: not a Debian system)"]
    found = []
    for package in DEBIAN_PACKAGES:
        status = subprocess.run(["dpkg-query", "-W", "-f", "${Status} ${Version}", package], capture_output=True, text=True, check=False).stdout
        found.append(f"{package} {status.split()[-1]}" if "install ok installed" in status else f"{package} (not installed)")
    return found


def print_setup(phases: list[tuple[str, Timed]], total: float) -> None:
    print("\nmake setup in a fresh clone, empty pip and npm caches; Debian packages as on the machine:")
    print("  " + ", ".join(debian_packages()))
    print(f"\n| {'phase (recipe line)':<66} | {'wall s':>7} | {'CPU s':>7} |")
    print(f"|{'-' * 68}|{'-' * 8}:|{'-' * 8}:|")
    short = [timed for _, timed in phases if timed.wall < 0.05]
    for name, timed in phases:
        if timed.wall >= 0.05:
            print(f"| {name:<66} | {timed.wall:>7.1f} | {timed.cpu:>7.1f} |")
    if short:
        name = f"{len(short)} lines under 0.05 s each (package checks, stamps)"
        print(f"| {name:<66} | {sum(t.wall for t in short):>7.1f} | {sum(t.cpu for t in short):>7.1f} |")
    print(f"| {'**make setup, all told**':<66} | {total:>7.1f} | {sum(t.cpu for _, t in phases):>7.1f} |")


# ---------------------------------------------------------------- part 2: the builds


def export_tree(revision: str, into: Path) -> str:
    """``git archive`` of ``revision`` unpacked in ``into``; its short hash."""
    short = subprocess.run(["git", "rev-parse", "--short", revision], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "--format=tar", short], cwd=ROOT, capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return short


def steps_of(languages: list[str]) -> list[tuple[str, str]]:
    """(language, step) in the order a build takes them."""
    steps = []
    for lang in languages:
        if lang == "et":
            steps.append((lang, "candidates index"))
            continue
        if lang == "is":
            steps.append((lang, "word list"))
        steps += [(lang, "compile"), (lang, "anagram index"), (lang, "search index"), (lang, "both indexes")]
    return steps


def run_step(root: Path, lang: str, step: str, data_dir: Path) -> Timed:
    env = {"WORDSVC_DATA_DIR": str(data_dir)}
    if step == "word list":
        target = data_dir / "sources" / f"{lang}.tsv.gz"
        target.parent.mkdir(parents=True, exist_ok=True)
        # a tree whose builders are modules of the wordlists package runs them with -m (wordsvc.data.build.run_builder); an older one, by path
        builder = ["-m", f"wordlists.{lang}.build_bin"] if (root / "wordlists" / "__init__.py").is_file() else [str(root / "wordlists" / lang / "build_bin.py")]
        return run_timed([sys.executable, *builder, "--out", str(target)], root, env)
    return run_timed([sys.executable, "-c", CHILD, str(root), step, lang, str(data_dir)], root, env)


def build_steps(trees: dict[str, Path], languages: list[str], repeats: int, scratch: Path) -> dict[tuple[str, str], dict[str, Timed]]:
    """Each step of each tree, the trees taking turns; the fastest (by CPU) of ``repeats`` runs."""
    found: dict[tuple[str, str], dict[str, Timed]] = {}
    for lang, step in steps_of(languages):
        for _ in range(repeats):
            for number, (name, root) in enumerate(trees.items()):
                timed = run_step(root, lang, step, scratch / f"data-{number}")
                best = found.setdefault((lang, step), {}).get(name)
                if best is None or timed.cpu < best.cpu:
                    found[(lang, step)][name] = timed
                print(f"  {lang} {step} ({name}): {timed.wall:.1f} s wall, {timed.cpu:.1f} s CPU {timed.note}", file=sys.stderr, flush=True)
    return found


def whole_builds(trees: dict[str, Path], languages: list[str] | None, scratch: Path) -> dict[str, Timed]:
    found = {}
    for number, (name, root) in enumerate(trees.items()):
        data_dir = scratch / f"whole-{number}"
        cmd = [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); from wordsvc.cli import main; sys.exit(main(sys.argv[2:]))", str(root), "build", "--force"]
        if languages:
            cmd += ["--only", ",".join(languages)]
        found[name] = run_timed(cmd, root, {"WORDSVC_DATA_DIR": str(data_dir)})
        print(f"  wordsvc build --force ({name}): {found[name].wall:.1f} s wall, {found[name].cpu:.1f} s CPU", file=sys.stderr, flush=True)
    return found


def digest(path: Path) -> str:
    """sha256 of a file; of an ``anagrams.json`` without its timing field ``short_seconds``."""
    data = path.read_bytes()
    if path.name == "anagrams.json":
        meta = json.loads(data)
        if meta.pop("short_seconds", None) is not None:
            data = json.dumps(meta, ensure_ascii=False, indent=1).encode()
    return hashlib.sha256(data).hexdigest()


def compare_outputs(first: Path, second: Path) -> tuple[int, list[str]]:
    """How many files both builds wrote with the same sha256, and every path that differs or is in one only.

    Not compared: a generated word list's ``.builder-sha256``, the sha256 of
    the builder that made it and of the builders' kit (so a changed builder
    makes it again), which a change to either changes by design.
    """
    files = {path.relative_to(first) for path in first.rglob("*") if path.is_file()} | {path.relative_to(second) for path in second.rglob("*") if path.is_file()}
    files = {name for name in files if not name.name.endswith(".builder-sha256")}
    same, different = 0, []
    for name in sorted(files):
        a, b = first / name, second / name
        if a.is_file() and b.is_file() and digest(a) == digest(b):
            same += 1
        else:
            different.append(str(name))
    return same, different


def print_builds(steps: dict[tuple[str, str], dict[str, Timed]], names: list[str]) -> None:
    """The steps' table; each language's total is its steps as ``wordsvc build`` takes them (not the indexes timed alone)."""
    this, base = names[0], names[-1]
    both = base != this
    print(f"\n| language | step | {this}: wall s | CPU s |" + (f" {base}: wall s | CPU s | CPU, this ÷ baseline |" if both else ""))
    print("|---|---|---:|---:|" + ("---:|---:|---:|" if both else ""))

    def row(lang: str, step: str, timed: dict[str, Timed]) -> str:
        line = f"| {lang} | {step} | {timed[this].wall:.1f} | {timed[this].cpu:.1f} |"
        if both:
            line += f" {timed[base].wall:.1f} | {timed[base].cpu:.1f} | {timed[this].cpu / max(timed[base].cpu, 1e-9):.2f} |"
        return line

    totals: dict[str, dict[str, Timed]] = {}
    for (lang, step), timed in steps.items():
        print(row(lang, step, timed) + (f" {timed[this].note}" if timed[this].note else ""))
        if step not in ("anagram index", "search index"):
            for name in names:
                total = totals.setdefault(lang, {}).setdefault(name, Timed(0.0, 0.0))
                total.wall += timed[name].wall
                total.cpu += timed[name].cpu
    for lang, timed in totals.items():
        print(row(lang, "**as wordsvc build takes it**", timed))
    every = {name: Timed(sum(t[name].wall for t in totals.values()), sum(t[name].cpu for t in totals.values())) for name in names}
    print(row("**all**", "**as wordsvc build takes it**", every))


def main() -> int:
    if sys.argv[1:2] == ["--recipe-shell"]:
        return recipe_shell(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision to compare the builds against (default HEAD); 'none' for none")
    parser.add_argument("--setup", action="store_true", help="also time make setup in a fresh clone (part 1)")
    parser.add_argument("--no-builds", action="store_true", help="leave out the build steps (part 2)")
    parser.add_argument("--no-whole", action="store_true", help="leave out the whole wordsvc build --force runs and the sha256 comparison")
    parser.add_argument("--only", default="en-US,en-GB,en-US-common,en-US-large,is,et", help="languages whose steps are timed")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each build step (the fastest by CPU is shown)")
    args = parser.parse_args()
    languages = [lang.strip() for lang in args.only.split(",") if lang.strip()]
    print(machine_line())
    print(f"CPUs: {os.cpu_count()} (nproc {len(os.sched_getaffinity(0))}); Python {sys.version.split()[0]}; {time.strftime('%Y-%m-%d')}")
    with tempfile.TemporaryDirectory(prefix="wordsvc-setup-time-") as folder:
        scratch = Path(folder)
        if args.setup:
            phases, total = setup_phases(scratch / "setup")
            print_setup(phases, total)
        if not args.no_builds:
            trees = {"this tree": ROOT}
            if args.baseline != "none":
                revision = export_tree(args.baseline, scratch / "baseline")
                trees[f"baseline {revision}"] = scratch / "baseline"
            print(f"\nbuild steps, one at a time ({args.repeats} run(s) each, the lowest CPU shown); languages {', '.join(languages)}:", flush=True)
            steps = build_steps(trees, languages, args.repeats, scratch)
            print_builds(steps, list(trees))
            if not args.no_whole:
                whole = whole_builds(trees, None if args.only == parser.get_default("only") else languages, scratch)
                print("\n| wordsvc build --force | wall s | CPU s |\n|---|---:|---:|")
                for name, timed in whole.items():
                    print(f"| {name} | {timed.wall:.1f} | {timed.cpu:.1f} |")
                if len(trees) == 2:
                    same, different = compare_outputs(scratch / "whole-0", scratch / "whole-1")
                    print(f"\nfiles written by both builds with the same sha256: {same}; different or in one only: {len(different)}")
                    for name in different:
                        print(f"  differs: {name}")
        shutil.rmtree(scratch / "setup", ignore_errors=True)
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

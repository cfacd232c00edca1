"""Instructions per verdict and per solved hand, this tree against a baseline revision, counted by valgrind.

Wall-clock figures on a shared machine drift by 2-3x from minute to minute
(the other benches print a fixed loop's time so runs can be compared), which
hides a 10 % change. The number of machine instructions a workload executes
does not drift: cachegrind counts them exactly (the same count on every run
of the same command, with a fixed hash seed; a different command line or
environment moves object addresses, and the count by about 0.2 %). So this bench runs the same workload under
``valgrind --tool=cachegrind`` on this tree and on ``--baseline`` (default:
``HEAD``, checked out in a temporary git worktree) and prints both counts and
the change. Memory latency is not counted: a change that saves instructions
but misses the cache more can still be slower; the timed benches have the last
word on speed.

Workloads (the same data for both, this tree's data folder: ``WORDSVC_DATA_DIR``
or ``build/``):

- ``verdicts <lexicon>``: ``judge`` over 2,000 forms a hand can lay (an even
  spread of the lexicon; half of them with one letter changed), under the
  language's ruleset, as in ``bench/lexicons.py``.
- ``solver``: the best play (``discard: true``) of 100 random 11-card hands
  from the standard deck with the English lexicon, after 100 others warmed the
  solver's caches, as in ``bench/solver.py``.

Each count is the difference between a run that does the work three times and
one that only sets up and warms up, so imports and loading do not count.

Run: ``.venv/bin/python bench/instructions.py [--baseline REV]`` (needs
``valgrind``: ``apt-get install valgrind``; takes a few minutes).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSES = 3

#: (name, argument, unit) of each workload.
WORKLOADS = (("verdicts", "en-US", "verdict"), ("verdicts", "is", "verdict"), ("solver", "en", "hand"))

CHILD = r"""
import os, random, sys
root, kind, arg, passes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
sys.path.insert(0, root)
import wordsvc
assert wordsvc.__file__.startswith(root), wordsvc.__file__
from wordsvc.config import Settings
settings = Settings.from_env()
if kind == "verdicts":
    import itertools
    from wordsvc.core.verdict import judge
    from wordsvc.data.languages import Languages
    from wordsvc.data.rulesets import load_rulesets
    lexicon = Languages.load(settings.data_dir, (arg,)).get(arg)
    ruleset = load_rulesets().get({"is": "islenska", "et": "eesti"}.get(arg, "standard"))
    step = max(1, len(lexicon) // 20000)
    spread = list(itertools.islice(lexicon.forms(), 0, None, step))
    random.Random(7).shuffle(spread)
    layable = [f for f in spread if not {r.code for r in judge(f, ruleset, lexicon).reasons} & {"too_long", "not_spellable", "invalid_characters"}][:1000]
    rng = random.Random(11)
    letters = sorted({c for w in layable for c in w})
    mix = layable + [w[:i] + rng.choice(letters) + w[i + 1:] for w in layable for i in [rng.randrange(len(w))]]
    def work():
        for w in mix:
            judge(w, ruleset, lexicon)
    units = len(mix)
else:
    from wordsvc.service import Service
    from wordsvc.service.solvers import Solvers
    service = Service.from_settings(settings)
    solver = Solvers.from_data_dir(service, settings.data_dir).get("standard", arg)
    deck = service.ruleset("standard").deck
    cards = [face.upper() for face, card in deck.cards.items() for _ in range(card.count)]
    rng = random.Random(8)
    hands = [rng.sample(cards, 11) for _ in range(200)]
    for hand in hands[:100]:
        solver.solve(hand, discard=True)
    def work():
        for hand in hands[100:]:
            solver.solve(hand, discard=True)
    units = 100
work()
for _ in range(passes):
    work()
print(units)
"""


def count(root: Path, kind: str, arg: str, passes: int, data_dir: Path) -> tuple[int, int]:
    """(instructions, units of work per pass) of one run."""
    env = {**os.environ, "PYTHONHASHSEED": "0", "WORDSVC_DATA_DIR": str(data_dir)}
    result = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable, "-c", CHILD, str(root), kind, arg, str(passes)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    refs = [line for line in result.stderr.splitlines() if "I   refs:" in line or "I refs:" in line]
    if result.returncode != 0 or not refs:
        raise SystemExit(f"{kind} {arg} at {root}: {result.stderr.strip().splitlines()[-1] if result.stderr.strip() else 'failed'}")
    return int(refs[-1].split(":")[1].replace(",", "")), int(result.stdout.split()[-1])


def per_unit(root: Path, kind: str, arg: str, data_dir: Path) -> float:
    (setup, units), (total, _) = count(root, kind, arg, 0, data_dir), count(root, kind, arg, PASSES, data_dir)
    return (total - setup) / (PASSES * units)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision to compare against (default HEAD)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): nothing counted")
        return 0
    sys.path.insert(0, str(ROOT))
    from wordsvc.config import Settings

    data_dir = Settings.from_env().data_dir  # this tree's data: the baseline reads it too
    revision = subprocess.run(["git", "rev-parse", "--short", args.baseline], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    with tempfile.TemporaryDirectory() as scratch:
        baseline = Path(scratch) / "baseline"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(baseline), revision], cwd=ROOT, check=True)
        try:
            jobs = [(root, kind, arg) for kind, arg, _ in WORKLOADS for root in (ROOT, baseline)]
            with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
                counts = list(pool.map(lambda job: per_unit(*job, data_dir), jobs))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(baseline)], cwd=ROOT, check=False)
    print(f"instructions per unit of work (valgrind cachegrind, exact); baseline {args.baseline} = {revision}")
    print(f"{'workload':<18} {'unit':<8} {'this tree':>12} {'baseline':>12} {'change':>8}")
    for index, (kind, arg, unit) in enumerate(WORKLOADS):
        now, then = counts[2 * index], counts[2 * index + 1]
        print(f"{kind + ' ' + arg:<18} {unit:<8} {now:>12,.0f} {then:>12,.0f} {(now - then) / then:>+8.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

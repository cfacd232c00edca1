"""Lexicon benchmark: load time, RSS, verdicts per second; one worker with everything; time to ready.

For each lexicon, in a fresh subprocess: the time to open it, the process RSS
after opening it (and the RSS of the bare interpreter with wordsvc imported,
the baseline), and full verdicts per second (``wordsvc.core.verdict.judge``
under the language's ruleset) on a realistic mix: a third forms of the
lexicon, a third the same forms with one letter changed (mostly not words), a
third forms with a banned class (proper nouns) where the lexicon has them.
Then the RSS of one process with every lexicon loaded, and the seconds from
starting ``wordsvc serve`` to a 200 from /ready.

Targets (issue 4): >= 50,000 verdicts/s per lexicon; one worker with all
languages < 250 MB RSS; ready within 5 s.

Run: ``.venv/bin/python bench/lexicons.py``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The ruleset each lexicon is judged under, and sample forms for analysers that cannot list theirs.
RULESET = {"en-US": "standard", "en-GB": "standard", "is": "islenska", "et": "eesti"}
ESTONIAN = (
    "kass kassi kassile kassidega koer koera koerad maja majas majja lugema loen luges loetud kirjutan kirjutas "
    "raamat raamatu raamatutes õun õunad äri öö ülikool ülikoolis šokolaad žürii tee teed teel Tallinn Tallinnas "
    "Tartu Tartus Jüri Mari Eesti jne nt"
).split()

CHILD = r"""
import json, os, random, sys, time
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024
lang, ruleset_id, samples = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
from wordsvc.config import Settings
from wordsvc.data.languages import Languages
from wordsvc.data.rulesets import load_rulesets
from wordsvc.core.verdict import judge
book = load_rulesets()
base = rss()
t = time.perf_counter()
langs = Languages.load(Settings.from_env().data_dir, None if lang == "*" else (lang,))
load = time.perf_counter() - t
out = {"load_s": load, "rss_base_mb": base, "rss_mb": rss(), "loaded": sorted(langs.lexicons)}
if lang != "*":
    lexicon = langs.get(lang)
    ruleset = book.get(ruleset_id)
    if not samples:
        import itertools
        step = max(1, len(lexicon) // 60000)  # every step-th form: an even spread, no list of all forms
        spread = list(itertools.islice(lexicon.forms(), 0, None, step))
        rng = random.Random(7)
        rng.shuffle(spread)
        ordinary = [f for f in spread if frozenset() in lexicon.readings(f)][:3000]
        proper = [f for f in spread if any("proper_noun" in r for r in lexicon.readings(f))][:3000]
    else:
        ordinary, proper = samples, []
    rng = random.Random(11)
    letters = sorted({c for w in ordinary for c in w})
    mutated = []
    for w in ordinary:
        i = rng.randrange(len(w))
        mutated.append(w[:i] + rng.choice(letters) + w[i + 1:])
    mix = ordinary + mutated + (proper or ordinary)
    rng.shuffle(mix)
    for w in mix[:500]:
        judge(w, ruleset, lexicon)
    n, t = 0, time.perf_counter()
    while time.perf_counter() - t < 2.0:
        for w in mix:
            judge(w, ruleset, lexicon)
        n += len(mix)
    out["verdicts_per_s"] = n / (time.perf_counter() - t)
    out["distinct"] = len(set(mix))
    if hasattr(lexicon, "cache_clear"):  # an analyser with an LRU cache: also every verdict a miss
        n, t = 0, time.perf_counter()
        while time.perf_counter() - t < 2.0:
            for w in mix:
                lexicon.cache_clear()
                judge(w, ruleset, lexicon)
            n += len(mix)
        out["cold_per_s"] = n / (time.perf_counter() - t)
    out["valid_share"] = sum(judge(w, ruleset, lexicon).valid for w in mix) / len(mix)
    out["rss_after_mb"] = rss()
print(json.dumps(out))
"""


def child(lang: str, ruleset: str, samples: list[str]) -> dict[str, float]:
    result = subprocess.run([sys.executable, "-c", CHILD, lang, ruleset, json.dumps(samples)], capture_output=True, text=True, cwd=ROOT, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{lang}: {result.stderr.strip().splitlines()[-1] if result.stderr else 'failed'}")
    return json.loads(result.stdout)


def time_to_ready() -> float:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("wordsvc")
    start = time.perf_counter()
    proc = subprocess.Popen([str(exe), "serve", "--port", str(port), "--workers", "2"], stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - start < 60:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=1) as response:
                    if response.status == 200:
                        return time.perf_counter() - start
            except OSError:
                time.sleep(0.05)
        return float("nan")
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> int:
    everything = child("*", "standard", [])
    print(f"wordsvc lexicon benchmark ({os.cpu_count()} CPUs); baseline RSS (python + wordsvc + rulesets): {everything['rss_base_mb']:.0f} MB")
    print(f"{'lexicon':<8} {'load ms':>8} {'RSS MB':>7} {'+MB':>6} {'verdicts/s':>11} {'valid %':>8}  target >= 50,000/s; RSS right after loading")
    for lang in everything["loaded"]:
        r = child(lang, RULESET.get(lang, "standard"), ESTONIAN if lang == "et" else [])
        ok = "met" if r["verdicts_per_s"] >= 50_000 else "MISSED"
        print(
            f"{lang:<8} {r['load_s'] * 1000:>8.1f} {r['rss_mb']:>7.0f} {r['rss_mb'] - r['rss_base_mb']:>6.0f} "
            f"{r['verdicts_per_s']:>11,.0f} {r['valid_share'] * 100:>7.0f}%  {ok}  ({r['distinct']} distinct forms)"
        )
        if "cold_per_s" in r:
            print(f"{'':<8} {'':>8} {'':>7} {'':>6} {r['cold_per_s']:>11,.0f}          every lookup a cache miss")
    ok = "met" if everything["rss_mb"] < 250 else "MISSED"
    print(f"one worker, all lexicons ({', '.join(everything['loaded'])}): load {everything['load_s'] * 1000:.0f} ms, RSS {everything['rss_mb']:.0f} MB  (target < 250 MB: {ok})")
    ready = time_to_ready()
    print(f"`wordsvc serve` to /ready: {ready:.2f} s  (target <= 5 s: {'met' if ready <= 5 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

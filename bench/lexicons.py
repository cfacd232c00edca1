"""Lexicon benchmark: load time, RSS, verdicts per second; one worker with everything; time to ready.

For each lexicon, in a fresh subprocess: the time to open it, the process RSS
after opening it (and the RSS of the bare interpreter with wordsvc imported,
the baseline), and full verdicts per second (``wordsvc.core.verdict.judge``
under the language's ruleset, every way to lay the word included).

The mix (9,000 distinct forms): a third forms of the lexicon, a third the
same forms with one letter changed (mostly not words), a third forms with a
banned class (proper nouns; where the spread has fewer than 1,000 of them, as
for Estonian, the words again). Forms are an even spread over the lexicon, kept
to those a hand can lay (at most the ruleset's largest hand of cards): those
are the words a referee or a game sends. A second figure takes the spread as
it is, every length: 58 % of Icelandic forms need more than 10 cards.
Estonian's analyser cannot list forms, so its spread comes from the forms the
solver's index holds (myspell-et, expanded by unmunch); its verdicts are
cached (LRU, as in the service), so it is also measured with every verdict a
cache miss.

Each figure is the median of 11 passes over the mix (the first pass is a
warm-up and not counted), with the slowest and fastest pass beside it: this
machine's speed drifts, and the time of a fixed Python loop
(:func:`common.machine_loop_ms`) is printed first and last to show how fast
it is running.

Targets (issue 4): >= 50,000 verdicts/s per lexicon; one worker with all
languages < 250 MB RSS; ready within 5 s.

Run: ``.venv/bin/python bench/lexicons.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from common import ROOT, machine_line, start_server

from wordsvc.data.languages import LANGUAGES

#: The ruleset each lexicon is judged under.
#: Each lexicon judged under the ruleset its manifest names (wordlists/<folder>/manifest.yaml).
RULESET = {lang.id: lang.ruleset or "standard" for lang in LANGUAGES}

CHILD = r"""
import itertools, json, random, statistics, sys, time
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024
lang, ruleset_id = sys.argv[1], sys.argv[2]
from wordsvc.config import Settings
from wordsvc.data.languages import Languages
from wordsvc.data.rulesets import load_rulesets
from wordsvc.core.verdict import judge
book = load_rulesets()
base = rss()
t = time.perf_counter()
data_dir = Settings.from_env().data_dir
langs = Languages.load(data_dir, None if lang == "*" else (lang,))
load = time.perf_counter() - t
out = {"load_s": load, "rss_base_mb": base, "rss_mb": rss(), "loaded": sorted(langs.lexicons)}

def rates(mix, passes=11, each=None):
    # verdicts/s of each pass over mix (after one warm-up pass): median, slowest, fastest
    def one_pass():
        t = time.perf_counter()
        for w in mix:
            if each:
                each()
            judge(w, ruleset, lexicon)
        return len(mix) / (time.perf_counter() - t)
    one_pass()
    got = sorted(one_pass() for _ in range(passes))
    return {"median": statistics.median(got), "low": got[0], "high": got[-1]}

def make_mix(forms):
    ordinary = [f for f in forms if frozenset() in lexicon.readings(f)][:3000]
    proper = [f for f in forms if any("proper_noun" in r for r in lexicon.readings(f))][:3000]
    rng = random.Random(11)
    letters = sorted({c for w in ordinary for c in w})
    mutated = []
    for w in ordinary:
        i = rng.randrange(len(w))
        mutated.append(w[:i] + rng.choice(letters) + w[i + 1:])
    mix = ordinary + mutated + (proper if len(proper) >= 1000 else ordinary)
    rng.shuffle(mix)
    return mix

def in_a_hand(form):
    codes = {r.code for r in judge(form, ruleset, lexicon).reasons}
    return not codes & {"too_long", "not_spellable", "invalid_characters"}

if lang != "*":
    lexicon = langs.get(lang)
    ruleset = book.get(ruleset_id)
    if lexicon.info.enumerable:
        step = max(1, len(lexicon) // 200000)  # every step-th form: an even spread, no list of all forms
        spread = list(itertools.islice(lexicon.forms(), 0, None, step))
    else:
        from wordsvc.data.anagram_index import AnagramIndexes
        index = AnagramIndexes(data_dir).get(lexicon)
        spread = list(itertools.islice(index.words(every=97), 0, 60000))
    random.Random(7).shuffle(spread)
    mix = make_mix([f for f in spread[:40000] if in_a_hand(f)])
    out["hand"] = rates(mix)
    out["distinct"] = len(set(mix))
    out["valid_share"] = sum(judge(w, ruleset, lexicon).valid for w in mix) / len(mix)
    if lexicon.info.enumerable:
        out["all"] = rates(make_mix(spread[:40000]))
    if hasattr(lexicon, "cache_clear"):  # an analyser with an LRU cache: also every verdict a miss
        out["cold"] = rates(mix[:1500], passes=3, each=lexicon.cache_clear)
    out["rss_after_mb"] = rss()
print(json.dumps(out))
"""


def child(lang: str, ruleset: str) -> dict:
    result = subprocess.run([sys.executable, "-c", CHILD, lang, ruleset], capture_output=True, text=True, cwd=ROOT, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{lang}: {result.stderr.strip().splitlines()[-1] if result.stderr else 'failed'}")
    return json.loads(result.stdout)


def rate(figures: dict[str, float]) -> str:
    return f"{figures['median']:>9,.0f} ({figures['low'] / 1000:,.0f}-{figures['high'] / 1000:,.0f}k)"


def time_to_ready() -> float:
    """Seconds from starting ``wordsvc serve --workers 2`` to its first 200 from /ready."""
    with start_server(workers=2) as server:
        return server.ready_s


def main() -> int:
    print(machine_line())
    everything = child("*", "standard")
    print(f"wordsvc lexicon benchmark ({os.cpu_count()} CPUs); baseline RSS (python + wordsvc + rulesets): {everything['rss_base_mb']:.0f} MB")
    print("verdicts/s: median of 11 passes (slowest-fastest); target >= 50,000/s on forms a hand can lay; RSS right after loading")
    print(f"{'lexicon':<8} {'load ms':>8} {'RSS MB':>7} {'+MB':>4}  {'forms a hand can lay':>22} {'valid':>6}  {'target':<7} {'all forms, any length':>22}")
    for lang in everything["loaded"]:
        r = child(lang, RULESET.get(lang, "standard"))
        ok = "met" if r["hand"]["median"] >= 50_000 else "MISSED"
        every = rate(r["all"]) if "all" in r else "(cannot list forms)"
        print(
            f"{lang:<8} {r['load_s'] * 1000:>8.1f} {r['rss_mb']:>7.0f} {r['rss_mb'] - r['rss_base_mb']:>4.0f}  "
            f"{rate(r['hand']):>22} {r['valid_share'] * 100:>5.0f}%  {ok:<7} {every:>22}"
        )
        if "cold" in r:
            print(f"{'':<8} {'':>8} {'':>7} {'':>4}  {rate(r['cold']):>22}  every verdict a cache miss ({r['distinct']} distinct forms above)")
    ok = "met" if everything["rss_mb"] < 250 else "MISSED"
    print(f"one worker, all lexicons ({', '.join(everything['loaded'])}): load {everything['load_s'] * 1000:.0f} ms, RSS {everything['rss_mb']:.0f} MB  (target < 250 MB: {ok})")
    ready = time_to_ready()
    print(f"`wordsvc serve` to /ready: {ready:.2f} s  (target <= 5 s: {'met' if ready <= 5 else 'MISSED'})")
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

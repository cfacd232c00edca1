"""Work units against time: how many microseconds one unit of a work budget costs, per operation and language.

Budgets count work (wordsvc/core/work.py) and their weights are set so that
a unit is about a microsecond on the reference machine, so that the default
budgets keep the latencies of the time budgets they replaced. This bench is
the evidence: the same seeded query mix as ``bench/search.py`` goes straight
to :class:`~wordsvc.data.wordsearch.WordSearch` with an unbounded budget; each
query's units spent and its time give a rate. Prints, per operation and
language, the queries, the median and p99 microseconds a unit, the
aggregate (all time over all units), the p99 units a query spends, and how
many queries the default budget would cut. The first and last lines time a
fixed Python loop (how loaded the machine was).

Run: ``.venv/bin/python bench/work_units.py [--queries 200] [--seed 6]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict

from common import machine_line
from search import hands, playable_forms, typos, word_queries

from wordsvc.core.wordsearch.queries import WordQuery, compile_pattern
from wordsvc.core.work import Work
from wordsvc.data.search_index import index_ruleset
from wordsvc.data.wordsearch import Budgets
from wordsvc.web.app import create_app


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200, help="queries per operation and language (default 200)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    print(machine_line())
    app = create_app()
    svc = app.extensions["wordsvc"]
    with app.app_context():
        from wordsvc.web.views.words import searcher

        search = searcher()
    defaults = Budgets()
    rng = random.Random(args.seed)
    runs: dict[tuple[str, str], list[tuple[int, float]]] = defaultdict(list)

    def run(key: tuple[str, str], call) -> None:  # type: ignore[no-untyped-def]
        work = Work.unbounded()
        started = time.perf_counter()
        call(work)
        runs[key].append((work.spent, (time.perf_counter() - started) * 1e6))

    for lang in ("en-US", "is", "et"):
        if lang not in svc.languages.lexicons:
            print(f"{lang}: not loaded, skipped")
            continue
        lexicon = svc.languages.lexicons[lang]
        ruleset = index_ruleset(svc.rulesets, lang)
        letters = sorted(ruleset.deck.letters)
        jobs = []
        index = search.index(lexicon) if lexicon.info.enumerable else None
        if index is not None:
            forms = playable_forms(index, rng, args.queries * 2)
            vowels = "".join(ch for ch in "aeiouyáéíóúýæöäõü" if ch in ruleset.deck.letters)
            for kind, query in word_queries(forms[: args.queries], vowels, rng):
                classes = frozenset(query["classes"].split(",")) if "classes" in query else None
                q = WordQuery(compile_pattern(query["pattern"]), query.get("min_len"), query.get("max_len"), classes)
                jobs.append((f"words:{kind}", lambda work, q=q, r=ruleset, x=lexicon: search.words(q, r, x, work=work)))
            for word in typos(forms[args.queries :], letters, rng):
                jobs.append(("suggest", lambda work, w=word, r=ruleset, x=lexicon: search.suggest(w, r, x, 10, work=work)))
        else:
            from wordsvc.core.wordsearch.queries import edits1

            seeds = ["maja", "koer", "kool", "raamat", "linn", "tänav", "päike", "sõber", "laps", "vesi"]
            for _ in range(args.queries):
                word = rng.choice(sorted(set(edits1(rng.choice(seeds), letters))))
                jobs.append(("suggest", lambda work, w=word, r=ruleset, x=lexicon: search.suggest(w, r, x, 10, work=work)))
        for cards, every in hands(ruleset, rng, args.queries):
            faces = cards.split(",")
            jobs.append(("anagrams", lambda work, f=faces, e=every, r=ruleset, x=lexicon: search.anagrams(f, r, x, not e, work=work)))
        rng.shuffle(jobs)
        for _, call in jobs[:30]:  # warm the memory maps, as a running server is
            call(Work.unbounded())
        for name, call in jobs:
            run((name, lang), call)
            if ":" in name:
                runs[(name.split(":")[0], lang)].append(runs[(name, lang)][-1])

    print(f"\n{'operation':<16} {'lang':<6} {'n':>5} {'us/unit p50':>12} {'us/unit p99':>12} {'us/unit all':>12} {'units p99':>11} {'cut by default':>15}")
    for (name, lang), values in sorted(runs.items(), key=lambda item: (item[0][1], item[0][0])):
        rates = [us / units for units, us in values if units]
        budget = getattr(defaults, name.split(":")[0])
        cut = sum(units >= budget for units, _ in values)
        total = sum(us for _, us in values) / max(1, sum(units for units, _ in values))
        units_p99 = percentile([units for units, _ in values], 0.99)
        print(f"{name:<16} {lang:<6} {len(values):>5} {percentile(rates, 0.5):>12.2f} {percentile(rates, 0.99):>12.2f} {total:>12.2f} {units_p99:>11,} {cut:>15}")
    print(machine_line())


if __name__ == "__main__":
    main()

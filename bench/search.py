"""Word-search benchmark: GET /words, /anagrams and /suggest in-process, per query type and language.

A seeded mix of the queries players send, built from the lexicon's own
playable forms and the ruleset's own deck, goes through the Flask app in this
process (schema, search, verdicts, JSON: everything but the socket). Prints
p50, p99 and worst latency, and how many answers were cut by their time
budget (``truncated``), per query type and language, then the p99 of the
whole mix. Target (issue 6): p99 of the English mix 50 ms or less. The
first and the last line time a fixed Python loop
(:func:`common.machine_loop_ms`): how loaded the machine was.

Languages: en-US always; ``is`` when its lexicon and search index are built;
``et`` (suggestions only: Vabamorf cannot list its words) when it loads.

Run: ``.venv/bin/python bench/search.py [--queries 200] [--seed 6]``.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from urllib.parse import urlencode

from common import Timer, machine_line, summary

from wordsvc.data.search_index import SearchIndex, index_ruleset
from wordsvc.web.app import create_app
from wordsvc.web.views.words import bp


def playable_forms(index: SearchIndex, rng: random.Random, count: int) -> list[str]:
    """``count`` forms from the index's playable sections (kind 0), spread over the file."""
    text, encoding = index._text, index.encoding
    spans = [(start, end) for rank in index._ranks_in_order for _, kind, start, end in index._groups[rank] if kind == 0 and end - start > 2]
    weights = [end - start for start, end in spans]
    out = []
    for start, end in rng.choices(spans, weights, k=count):
        at = rng.randrange(start, end - 1)
        lead = text.rfind(b"\n", 0, at + 1)
        out.append(text[lead + 1 : text.find(b"\n", lead + 1)].decode(encoding))
    return out


def word_queries(forms: list[str], vowels: str, rng: random.Random) -> list[tuple[str, dict[str, object]]]:
    """(kind, query) pairs: the patterns people type, from real words so most have answers."""
    out: list[tuple[str, dict[str, object]]] = []
    for i, word in enumerate(forms):
        kind = ("mask", "prefix", "suffix", "infix", "vowels", "sparse", "length", "classes")[i % 8]
        if kind == "mask":
            pattern = "".join(ch if rng.random() < 0.5 else "?" for ch in word[:12])
        elif kind == "prefix":
            pattern = word[: rng.choice((1, 2, 3))] + "*"
        elif kind == "suffix":
            pattern = "*" + word[-rng.choice((2, 3)) :]
        elif kind == "infix":
            at = rng.randrange(max(1, len(word) - 1))
            pattern = "*" + word[at : at + 2] + "*"
        elif kind == "vowels":
            pattern = ""
            for ch in word:
                token = f"[{vowels}]" if ch in vowels else ch
                if len(pattern) + len(token) > 32:
                    break
                pattern += token
        elif kind == "sparse":
            picks = sorted(rng.sample(range(len(word)), min(2, len(word))))
            pattern = "*" + "*".join(word[p] for p in picks) + "*"
        elif kind == "length":
            n = rng.randint(4, 12)
            out.append((kind, {"pattern": "*", "min_len": n, "max_len": n}))
            continue
        else:
            out.append((kind, {"pattern": word[:1] + "*", "classes": "proper_noun"}))
            continue
        out.append((kind, {"pattern": pattern[:32]}))
    return out


def typos(forms: list[str], letters: list[str], rng: random.Random) -> list[str]:
    """Each form with one or two random edits: deletion, insertion, substitution or swap."""
    out = []
    for word in forms:
        for _ in range(rng.choice((1, 1, 2))):
            at = rng.randrange(len(word))
            op = rng.choice("disw")
            if op == "d" and len(word) > 2:
                word = word[:at] + word[at + 1 :]
            elif op == "i":
                word = word[:at] + rng.choice(letters) + word[at:]
            elif op == "s":
                word = word[:at] + rng.choice(letters) + word[at + 1 :]
            elif at + 1 < len(word):
                word = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
        out.append(word)
    return out


def hands(ruleset, rng: random.Random, count: int) -> list[tuple[str, bool]]:
    """(cards, all) pairs: 7 to 11 cards dealt from the ruleset's deck."""
    deck = [face for face, card in ruleset.deck.cards.items() for _ in range(card.count)]
    out = []
    for i in range(count):
        dealt = rng.sample(deck, rng.randint(7, 11))
        out.append((",".join(face.upper() for face in dealt), i % 2 == 0))
    return out


def timed(client, path: str, params: dict[str, object]) -> tuple[float, dict]:
    url = f"{path}?{urlencode(params)}"
    with Timer() as timer:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url}: {response.status_code} {response.get_data(as_text=True)[:300]}")
    return timer.seconds, response.get_json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200, help="queries per type and language (default 200)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()
    print(machine_line())

    app = create_app()
    if "words" not in app.blueprints:
        app.register_blueprint(bp)
    client = app.test_client()
    svc = app.extensions["wordsvc"]
    with app.app_context():
        from wordsvc.web.views.words import searcher

        search = searcher()
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cut: dict[tuple[str, str], int] = defaultdict(int)
    rng = random.Random(args.seed)

    for lang in ("en-US", "is", "et"):
        if lang not in svc.languages.lexicons:
            print(f"{lang}: not loaded, skipped")
            continue
        lexicon = svc.languages.lexicons[lang]
        ruleset = index_ruleset(svc.rulesets, lang)
        if ruleset is None:
            print(f"{lang}: no ruleset of its own, skipped")
            continue
        letters = sorted(ruleset.deck.letters)
        common = {"lang": lang, "ruleset": ruleset.id}
        index = search.index(lexicon) if lexicon.info.enumerable else None
        jobs: list[tuple[str, str, dict[str, object]]] = []
        if index is not None:
            forms = playable_forms(index, rng, args.queries * 2)
            vowels = "".join(ch for ch in "aeiouyáéíóúýæöäõü" if ch in ruleset.deck.letters)
            jobs += [("words", kind, {**query, **common}) for kind, query in word_queries(forms[: args.queries], vowels, rng)]
            jobs += [("suggest", "suggest", {"word": word, **common}) for word in typos(forms[args.queries :], letters, rng)]
        else:
            from wordsvc.core.wordsearch.queries import edits1

            seeds = ["maja", "koer", "kool", "raamat", "linn", "tänav", "päike", "sõber", "laps", "vesi"]
            words = [rng.choice(sorted(set(edits1(rng.choice(seeds), letters)))) for _ in range(args.queries)]
            jobs += [("suggest", "suggest", {"word": word, **common}) for word in words]
        try:
            search.candidate_source(lexicon, ruleset)
            jobs += [
                ("anagrams", "all" if every else "every", {"cards": cards, "all": str(every).lower(), **common})
                for cards, every in hands(ruleset, rng, args.queries)
            ]
        except Exception as err:  # an analyser without a word list for candidates
            print(f"{lang}: /anagrams skipped ({type(err).__name__}: {err})")
        rng.shuffle(jobs)
        for endpoint, _, params in jobs[:30]:  # warm the memory maps, as a running server is
            timed(client, f"/{endpoint}", params)
        for endpoint, kind, params in jobs:
            elapsed, body = timed(client, f"/{endpoint}", params)
            for key in ((endpoint, lang), (f"{endpoint}:{kind}", lang), ("mix", lang)):
                times[key].append(elapsed)
                cut[key] += bool(body.get("truncated"))

    print(f"\n{'query':<18} {'lang':<6} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'truncated':>10}")
    for (name, lang), values in sorted(times.items(), key=lambda item: (item[0][1], item[0][0] == "mix", item[0][0])):
        s = summary(values)
        print(f"{name:<18} {lang:<6} {s['n']:>5} {s['p50']:>8.1f} {s['p99']:>8.1f} {s['worst']:>8.1f} {cut[(name, lang)]:>10}")
    if ("mix", "en-US") in times:
        p99 = summary(times["mix", "en-US"])["p99"]
        print(f"\nEnglish mix p99: {p99:.1f} ms (target 50 ms): {'ok' if p99 <= 50 else 'OVER'}")
    print(machine_line())


if __name__ == "__main__":
    main()

"""Estonian lexicon probe: load cost, memory, and verdict speed with and without the cache.

Prints, for :class:`wordsvc.data.estonian.VabamorfLexicon` in this process:

- import + load time and resident memory (VmRSS) before and after loading;
- microseconds per ``readings()`` call that misses the cache (each distinct
  form of the mix once), split into words and non-words;
- microseconds per call that hits the cache;
- verdicts per second on a game-like stream: ``--stream`` draws (Zipf,
  exponent 1) from the mix, through an empty cache, with its hit rate;
  and the same stream with the cache off (``cache_size=0``).

The mix: the common inflected forms in :data:`WORDS` (lengths 2-10, as laid
in Quiddler) and as many non-words made from them by changing one letter, as
a typo or a solver's candidate would. ``--words FILE`` replaces WORDS (one
form a line). Targets (issue brief): >= 50,000 verdicts/s on the stream. The
first and the last line time a fixed Python loop (:func:`common.machine_loop_ms`):
how loaded the machine was.

Run: ``.venv/bin/python bench/estonian_probe.py [--stream 200000] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from common import Timer, machine_line

#: Common Estonian forms of nouns, verbs, adjectives, pronouns and adverbs,
#: several cases and persons each; written for this probe.
WORDS = """
kass kassi kassile kassid kassidega kasse koer koera koerad koertega maja majas majja majad majadest
auto autoga autod tee teed teel teele kool koolis koolist koolid laud lauale lauad tool toolil aken akna
aknad uks ukse uksed käsi käe käed kätega jalg jala jalad pea peas silm silmad suu nina vesi vee vett
veega leib leiba piim piima õun õuna õunad pirn mets metsas metsa puu puud puudel lill lilled meri merel
mere järv järve jõgi jõe saar saarel linn linnas linna küla külas tänav tänaval raamat raamatu raamatud
kiri kirja sõna sõnad keel keelt aeg aega päev päeva päevad öö ööd hommik õhtu õhtul nädal kuu aasta
aastat ema isa laps lapsed lastega poiss tüdruk mees mehed naine naised sõber sõbrad töö tööd raha elu
maa taevas päike tuul vihm lumi jää tuli kivi liiv rohi lugema loen loed loeb luges loetud kirjutama
kirjutan kirjutas tegema teen teeb tegi olema olen oled on oli olid minema lähen läheb läks tulema tulen
tuleb tuli nägema näen nägi sööma söön sõi jooma joon jõi magama magan magas andma annan andis võtma
võtan võttis hea halb suur suure väike uus uue vana ilus kiire punane sinine valge must roheline kollane
mina sina tema meie teie nemad see need kes mis kus millal siin seal nüüd täna homme eile ja ning aga
ka ei ära jah kassikool raudtee ülikool kasski minagi seegi šokolaad žürii äri ülikooli jne nt
""".split()

LETTERS = "abdeghijklmnoprstuvõäöü"


def rss_kib() -> int:
    """Resident set size of this process in KiB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def non_words(words: list[str], rng: random.Random) -> list[str]:
    """One edited copy of each word: a letter swapped for another Estonian letter."""
    out = []
    for word in words:
        i = rng.randrange(len(word))
        out.append(word[:i] + rng.choice(LETTERS.replace(word[i], "")) + word[i + 1 :])
    return out


def per_call_us(lexicon, forms: list[str]) -> float:
    with Timer() as timer:
        for form in forms:
            lexicon.readings(form)
    return timer.seconds / len(forms) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=Path, help="file of real forms, one a line (default: the built-in WORDS)")
    parser.add_argument("--stream", type=int, default=200_000, help="verdicts in the game-like stream")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(machine_line())

    rss_before = rss_kib()
    with Timer() as loading:
        from wordsvc.core.text import normalize
        from wordsvc.data.estonian import VabamorfLexicon

        lexicon = VabamorfLexicon()
    rss_after = rss_kib()
    print(f"lexicon {lexicon.info.version}  sha256 {lexicon.info.sha256[:16]}...")
    print(f"import + load: {loading.seconds:.3f} s; VmRSS {rss_before / 1024:.1f} MiB -> {rss_after / 1024:.1f} MiB")

    rng = random.Random(args.seed)
    source = args.words.read_text(encoding="utf-8").split() if args.words else WORDS
    words = sorted({normalize(w) for w in source})
    bad = sorted(set(non_words(words, rng)) - set(words))
    found_words = sum(bool(lexicon.readings(w)) for w in words)
    found_bad = sum(bool(lexicon.readings(w)) for w in bad)
    print(f"mix: {len(words)} forms ({found_words} found), {len(bad)} one-letter edits ({found_bad} found)")

    lexicon.cache_clear()
    miss_words = per_call_us(lexicon, words)
    miss_bad = per_call_us(lexicon, bad)
    hits = per_call_us(lexicon, (words + bad) * 20)
    print(f"uncached: {miss_words:.1f} us a word, {miss_bad:.1f} us a non-word; cached hit: {hits:.2f} us")

    pool = words + bad
    rng.shuffle(pool)
    stream = rng.choices(pool, weights=[1 / rank for rank in range(1, len(pool) + 1)], k=args.stream)
    lexicon.cache_clear()
    cached_us = per_call_us(lexicon, stream)
    info = lexicon.cache_info()
    print(f"stream of {len(stream)} (Zipf over {len(pool)} forms), cache on: {1e6 / cached_us:,.0f} verdicts/s, hit rate {info.hits / len(stream):.1%}")
    uncached = VabamorfLexicon(cache_size=0)
    sample = stream[: max(1, len(stream) // 10)]
    uncached_us = per_call_us(uncached, sample)
    print(f"same stream, cache off ({len(sample)} draws): {1e6 / uncached_us:,.0f} verdicts/s")
    print(machine_line())


if __name__ == "__main__":
    main()

"""The figures of README.md's "Counts" section, recounted from a built word list.

.venv/bin/python -m wordlists.is.counts [build/sources/is.tsv.gz]   (from the checkout's root)
"""

from __future__ import annotations

import collections
import gzip
import sys

from wordsvc.core.text import normalize

ICELANDIC = set("aábdðeéfghiíjklmnoóprstuúvxyýþæö")


def main(path: str = "build/sources/is.tsv.gz") -> None:
    lines, ranks, per_set = 0, collections.Counter(), collections.Counter()
    sets_of: dict[str, set[str]] = collections.defaultdict(set)
    with gzip.open(path, "rt", encoding="utf-8") as source:
        for line in source:
            if line.startswith("#"):
                continue
            form, classes, rank = line.rstrip("\n").split("\t")
            lines += 1
            ranks[rank] += 1
            per_set[classes or "ordinary"] += 1
            sets_of[form].add(classes)
    ordinary = [form for form, sets in sets_of.items() if "" in sets]
    print(f"lines {lines:,}; distinct forms {len(sets_of):,}; after case folding {len({normalize(f) for f in sets_of}):,}")
    print(
        f"ordinary {len(ordinary):,}; letters only {sum(f.isalpha() for f in ordinary):,}; Icelandic letters only {sum(set(f) <= ICELANDIC for f in ordinary):,}"
    )
    for name in ("proper_noun", "rare", "obsolete", "hyphenated"):
        print(f"forms with {name} {sum(any(name in s.split(',') for s in sets) for sets in sets_of.values()):,}")
    print(f"forms with more than one class set {sum(len(sets) > 1 for sets in sets_of.values()):,}; rank 1 / 2 {ranks['1']:,} / {ranks['2']:,}")
    print("lines per class set: " + "; ".join(f"{name} {count:,}" for name, count in per_set.most_common()))


if __name__ == "__main__":
    main(*sys.argv[1:])

"""Build the Icelandic word list from BÍN, read through the ``islenska`` package.

Contract: every word form of every BÍN lemma, as BÍN spells it (case kept,
NFC), one line per distinct (form, class set) and nothing the package invents
(``only_bin``: no compounds, no ``-legur`` or ``ó-`` forms, no z spellings, no
Miðeind additions). Output is the wordsvc word-list format, sorted by form and
then classes, so two runs on the same package versions give the same bytes::

    # wordsvc word list v1
    # id: is
    # version: bin-islenska-<version>-data-<version>
    # source: BÍN via islenska <version>, islenska-data <version>, only_bin
    # columns: form<TAB>classes<TAB>rank
    hestur<TAB><TAB>1

Why enumerate by id: BÍN has no list of forms, only lemmas numbered by
``bin_id``; ``Bin.lookup_id`` returns a lemma's whole paradigm in the
Kristínarsnið format, which also carries the domain (``hluti``), the style
marks (``malsnid``, ``bmalsnid``) and whether the lemma is in the BÍN core
(``birting``). The ids are spread over processes because the package's
Python wrapper, not the lookup, is the cost (about a minute of CPU).

Classes (see README.md for the evidence behind each mapping):

- ``proper_noun``: the lemma is capitalised. (Every lemma of BÍN's name
  domains is; the domains alone would also tag 30 lowercase common nouns
  such as nóbelsverðlaun, so capitalisation decides.)
- ``hyphenated``: the form holds ``-``;
- ``obsolete`` / ``rare``: the lemma's or the form's style mark is in
  :data:`OBSOLETE_STYLES` / :data:`RARE_STYLES`.

Rank: BÍN has no frequencies. Its one commonness signal is the core
(``birting`` K: "the most common and accepted word forms") against the rest
(V), so rank is 1 for a reading of a core lemma and 2 otherwise; a line takes
the smallest rank of its readings. (``einkunn`` is a correctness grade, not a
commonness one, and is not used.)

The list file and the options come from the builders' kit
(:mod:`wordlists._builder`). Run from the checkout's root:
``python -m wordlists.is.build_bin --out is.tsv.gz``
"""

from __future__ import annotations

import functools
import os
import sys
import unicodedata
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from operator import add

from islenska import Bin

from wordlists._builder import header, parser, write_list

#: Style marks: úrelt (obsolete), fornt (Old Icelandic), gamalt (old-fashioned).
OBSOLETE_STYLES = frozenset({"URE", "FORN", "GAM"})
#: Style marks: sjaldgæft (rare), staðbundið (regional), skáldamál (poetic).
RARE_STYLES = frozenset({"SJALD", "STAD", "SKALD"})
#: ``birting``: K is the BÍN core, V the rest of published BÍN.
RANK_BY_BIRTING = {"K": 1, "V": 2}
NO_RANK = sys.maxsize  # an unknown ``birting``: after every rank, written as ""

CHUNK = 10_000  # ids per task: small enough to balance the processes


def source() -> str:
    """The provenance line: package and data versions, and the mode."""
    return f"BÍN via islenska {version('islenska')}, islenska-data {version('islenska-data')}, only_bin"


def _lemma_classes(k) -> frozenset[str]:
    """Classes that hold for every form of the lemma of ``k`` (a Ksnid entry)."""
    found = set()
    if k.ord[:1].isupper():
        found.add("proper_noun")
    if k.malsnid in OBSOLETE_STYLES:
        found.add("obsolete")
    if k.malsnid in RARE_STYLES:
        found.add("rare")
    return frozenset(found)


@functools.cache
def _classes(lemma_classes: frozenset[str], hyphenated: bool, style: str) -> str:
    """The classes column of a form: its lemma's classes, its spelling, its own style mark."""
    found = set(lemma_classes)
    if hyphenated:
        found.add("hyphenated")
    if style in OBSOLETE_STYLES:
        found.add("obsolete")
    if style in RARE_STYLES:
        found.add("rare")
    return ",".join(sorted(found))


def _keep_best(best: dict[str, int], key: str, rank: int) -> None:
    old = best.get(key)
    if old is None or rank < old:
        best[key] = rank


def _scan(ids: range) -> dict[str, int]:
    """Best (smallest) rank of each ``form<TAB>classes`` among the lemmas numbered ``ids``.

    ``ord``, ``hluti``, ``malsnid`` and ``birting`` belong to the lemma (the
    same in all its entries); ``bmynd`` and ``bmalsnid`` to the form. One
    string key, not a tuple: cheaper to hash, pickle and sort.
    """
    b = Bin(only_bin=True)
    best: dict[str, int] = {}
    for bin_id in ids:
        entries = b.lookup_id(bin_id)
        if not entries:
            continue
        lemma_classes = _lemma_classes(entries[0])
        rank = RANK_BY_BIRTING.get(entries[0].birting, NO_RANK)
        for form, style in {(k.bmynd, k.bmalsnid) for k in entries}:
            form = unicodedata.normalize("NFC", form)
            _keep_best(best, f"{form}\t{_classes(lemma_classes, '-' in form, style)}", rank)
    return best


def best_ranks(jobs: int | None = None) -> dict[str, int]:
    """The best (smallest) rank of each ``form<TAB>classes`` of all of BÍN, by :func:`_scan` over ``jobs`` processes.

    BÍN's own ids are those below ``begin_greynir_utg``, where the Miðeind
    additions start; ``Bin`` uses the same bound to hide them. The parts are
    merged a dict at a time: only the keys two parts share (a form with the
    same classes in lemmas of both) are compared one by one.
    """
    end = Bin(only_bin=True)._bc.begin_greynir_utg
    chunks = [range(start, min(start + CHUNK, end)) for start in range(0, end, CHUNK)]
    best: dict[str, int] = {}
    with ProcessPoolExecutor(max_workers=jobs or os.cpu_count()) as pool:
        for part in pool.map(_scan, chunks):
            for key in part.keys() & best.keys():
                part[key] = min(part[key], best[key])
            best.update(part)
    return best


def iter_rows(jobs: int | None = None) -> Iterator[tuple[str, str, int | None]]:
    """Yield ``(form, classes, rank)`` for all of BÍN, sorted by form, then classes.

    ``classes`` is the comma-separated string ("" for an ordinary word),
    ``rank`` 1 (core) or 2, or None if a lemma has an unknown ``birting``.
    Sorting the ``form<TAB>classes`` keys sorts by (form, classes): a tab
    sorts before every character of a form.
    """
    best = best_ranks(jobs)
    for key in sorted(best):
        form, classes = key.split("\t")
        rank = best[key]
        yield form, classes, None if rank == NO_RANK else rank


def rows(best: dict[str, int]) -> Iterator[str]:
    """The lines :func:`iter_rows` gives, as the word list writes them (``form<TAB>classes<TAB>rank``, no newline).

    Made by ``map`` over the sorted keys, not a Python loop a row: 3.7
    million rows, a few seconds less of the set-up.
    """
    rank_text = {rank: f"\t{'' if rank == NO_RANK else rank}" for rank in set(best.values())}
    keys = sorted(best)
    return map(add, keys, map(rank_text.__getitem__, map(best.__getitem__, keys)))


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__)
    options.add_argument("--jobs", type=int, default=None, help="processes (default: all CPUs)")
    args = options.parse_args(argv)
    best = best_ranks(args.jobs)
    head = header("is", f"bin-islenska-{version('islenska')}-data-{version('islenska-data')}", source())
    write_list(args.out, head, rows(best), sync_flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

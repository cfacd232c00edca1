"""Which structure answers which search query: whoosh against the trie and the search index, on English.

Builds a lean whoosh index of the compiled English forms (one ``ID`` field:
the term dictionary is what term checks, prefix expansion and fuzzy terms
use) in a temporary folder, then times the same look-ups on it and on the
structures wordsvc serves from: the lexicon's marisa-trie, edit candidates
checked in it, and the search index's ``forms.txt``. The figures are the
ones docs/search.md quotes. The first and the last line time a fixed Python
loop (:func:`common.machine_loop_ms`): how loaded the machine was.

Run: ``.venv/bin/python bench/search_structures.py [--words 200]`` (about a
minute, most of it the whoosh build).
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from common import ROOT, Timer, machine_line, summary, time_each

from wordsvc.core.wordsearch.queries import WordQuery, compile_pattern, edits1, find_words
from wordsvc.core.wordsearch.suggest import _two_edits as two_edits
from wordsvc.core.work import Work
from wordsvc.data.lexicons import CompiledLexicon
from wordsvc.data.rulesets import load_rulesets
from wordsvc.data.search_index import SearchIndex

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def per_call(run, items) -> tuple[float, float]:
    """Median and worst milliseconds of ``run(item)`` over ``items``."""
    s = summary(time_each(run, items))
    return s["p50"], s["worst"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=200)
    args = parser.parse_args()
    from whoosh import fields, index

    print(machine_line())
    lexicon = CompiledLexicon(ROOT / "build" / "lexicons" / "en-US")
    search = SearchIndex(lexicon)
    standard = load_rulesets().get("standard")
    rng = random.Random(6)
    forms = [f for f in lexicon.forms() if f.isalpha() and f.isascii()]
    words = rng.sample(forms, args.words)
    typos = []
    for word in rng.sample(forms, args.words):
        at = rng.randrange(len(word))
        typos.append(word[:at] + rng.choice(LETTERS) + word[at + 1 :])
    prefixes = [w[:2] for w in words]
    rows: list[tuple[str, str, float, float]] = []

    with tempfile.TemporaryDirectory() as folder:
        with Timer() as build:
            ix = index.create_in(folder, fields.Schema(form=fields.ID()))
            writer = ix.writer(limitmb=256)
            for form in lexicon.forms():
                writer.add_document(form=form)
            writer.commit()
        size = sum(p.stat().st_size for p in Path(folder).iterdir()) / 1e6
        with Timer() as opened:
            reader = index.open_dir(folder).reader()
        print(f"whoosh: {len(lexicon)} forms indexed in {build.seconds:.1f} s, {size:.0f} MB, opened in {opened.ms:.0f} ms")
        rows.append(("term check", "whoosh", *per_call(lambda w: ("form", w) in reader, words)))
        rows.append(("prefix expansion (2 letters)", "whoosh expand_prefix", *per_call(lambda p: list(reader.expand_prefix("form", p)), prefixes)))
        rows.append(("one edit", "whoosh terms_within 1", *per_call(lambda w: list(reader.terms_within("form", w, 1)), typos)))
        rows.append(("two edits", "whoosh terms_within 2", *per_call(lambda w: list(reader.terms_within("form", w, 2)), typos[:20])))

    trie_known = search.known
    rows.append(("term check", "marisa-trie", *per_call(trie_known, words)))
    rows.append(("prefix expansion (2 letters)", "marisa-trie prefixed(prefix)", *per_call(lambda p: list(lexicon.prefixed(p)), prefixes)))
    rows.append(("one edit", "edit candidates in the trie", *per_call(lambda w: [c for c in edits1(w, LETTERS, search.has_prefix) if trie_known(c)], typos)))
    rows.append(
        (
            "two edits",
            "edit candidates, prefix-pruned",
            *per_call(lambda w: two_edits(w, LETTERS, trie_known, search.has_prefix, frozenset(), Work.unbounded(), 1), typos[:20]),
        )
    )
    patterns = [compile_pattern(p[0] + "*") for p in prefixes]
    rows.append(
        (
            "first page of a prefix pattern",
            "forms.txt sections",
            *per_call(lambda p: find_words(WordQuery(p), standard, lexicon, search, Work.unbounded()), patterns),
        )
    )
    print(f"\n{'query':<32} {'structure':<32} {'median ms':>10} {'worst ms':>10}")
    for query, structure, median, worst in rows:
        print(f"{query:<32} {structure:<32} {median:>10.3f} {worst:>10.3f}")
    print(machine_line())


if __name__ == "__main__":
    main()

"""Build the Polish word list from sjp.pl's spelling list, as Debian's ``wpolish`` packages it.

Contract: read ``/usr/share/dict/polish`` (one form a line, UTF-8: sjp.pl's
spell-checking list, 4.3 million forms, not its games' list) and
write the wordsvc word list v1, gzip'd, one line per distinct (form, class
set), forms lowercased, sorted by code point, so the same package version
gives the same bytes (gzip ``mtime`` 0, no file name in its header)::

    # wordsvc word list v1
    # id: pl
    # version: wpolish-<package version>-house<FILTER_VERSION>
    # source: wpolish <package version> (Debian, sjp.pl), /usr/share/dict/polish sha256 <hex>
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    kot<TAB><TAB>

Why a filter: a spell checker's list holds what no Polish word game
accepts. sjp.pl's own rules for games ("Zasady dopuszczalności słów w
grach", https://sjp.pl/sl/dp.phtml), like the Polish Scrabble Federation's
(PFS), refuse proper names ("słowa rozpoczynające się wielką literą"),
abbreviations ("zł, mgr, płk, jw."), words with a hyphen or apostrophe and
words with non-Polish diacritics. The filter (:func:`judge`) therefore

- **drops** what no card lays: a space, an apostrophe, a hyphen, a digit, a
  period, or a letter outside the 32 letters of the Polish alphabet (and of
  Polish Scrabble's tiles): ``q v x`` and foreign diacritics (``é ü``);
- **classes** what a ruleset bans by name: ``abbreviation`` (all capitals;
  or no vowel letter and no interjection or one-letter preposition; or one
  of a short hand-written list of abbreviations with vowels) and
  ``proper_noun`` (any other capital: Polish capitalises names, not common
  nouns).

The list has no frequencies, so the rank column is empty. README.md gives
every count and what the source cannot tell.

The list file, the options and the package version come from the
builders' kit (:mod:`wordlists._builder`). Run from the checkout's root:
``python -m wordlists.pl.build_sjp --out pl.tsv.gz``
"""

from __future__ import annotations

import collections
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from wordlists._builder import debian_header, entries, package_version, parser, write_list

PACKAGE = "wpolish"
DEFAULT_INPUT = Path("/usr/share/dict/polish")

#: Bumped whenever :func:`judge` decides differently; part of the list's version.
FILTER_VERSION = 1

#: The 32 letters of the Polish alphabet: the letters Polish Scrabble has tiles for (no q, v, x).
ALPHABET = frozenset("aąbcćdeęfghijklłmnńoóprsśtuwyzźż")
#: Polish vowel letters (y is one: "my", "ty").
VOWELS = frozenset("aąeęioóuy")

#: Forms without a vowel letter that are words, not abbreviations: the one-letter prepositions.
PREPOSITIONS = frozenset({"w", "z"})
#: Forms without a vowel letter that are sound words (wykrzykniki: brr, hm, pst), read off the
#: 297 lowercase vowel-less forms of wpolish 20220301-1 (README.md); the rest are abbreviations and symbols.
INTERJECTIONS = frozenset("brr bzz bzzz chrr drr frr frrr grr hm hmm hmmm mhm mmm mrr pff phm prr pss psss pst psst trr trrr tss tsss wrr śś ćśś ćśśś".split())
#: Lowercase abbreviations that hold a vowel, which the source cannot tell from words: written by hand, only forms
#: that are no Polish word in any reading (not "gen", "min", "por", "ul", "os": words too). README.md, "Abbreviations".
ABBREVIATIONS_WITH_VOWELS = frozenset("abp ang doc godz inż itd itp łac niem oprac prof rozdz sierż tel tłum tys wyd zob".split())

#: Why a form is dropped, in the order the tests are tried (the first that applies is counted).
DROPS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("multi_word", re.compile(r"\s")),
    ("apostrophe", re.compile(r"['\u2019]")),
    ("hyphen", re.compile(r"-")),
    ("digit", re.compile(r"\d")),
    ("period", re.compile(r"\.")),
)
NOT_ON_DECK = "letter_not_on_deck"

#: What the filter does, as the list's header says it.
FILTER = (
    "drops multi-word, apostrophe, hyphen, digit, period and letters off the Polish deck; "
    "classes abbreviation, proper_noun (wordlists/pl/build_sjp.py)"
)


def judge(entry: str) -> tuple[str, str]:
    """``(dropped, classes)`` of one entry of the list: ``dropped`` names why no card lays it ("" when kept).

    ``classes`` is "" for an ordinary word, else ``abbreviation`` or
    ``proper_noun``; it is meaningful only when the entry is kept.
    """
    for kind, pattern in DROPS:
        if pattern.search(entry):
            return kind, ""
    form = entry.lower()
    if not set(form) <= ALPHABET:
        return NOT_ON_DECK, ""
    return "", word_class(entry, form)


def word_class(entry: str, form: str) -> str:
    """The class of a kept entry (``form`` is it lowercased): what sjp.pl's game rules refuse, by name."""
    if entry.isupper():
        return "abbreviation"  # PKP, NATO, ASCII: acronyms are written in capitals
    if entry != form:
        return "proper_noun"  # Warszawa, Kowalski, Polak, mBank: Polish capitalises names only
    if not VOWELS.intersection(form) and form not in PREPOSITIONS and form not in INTERJECTIONS:
        return "abbreviation"  # mgr, płk, zł, np, tzn: no vowel, so no word
    if form in ABBREVIATIONS_WITH_VOWELS:
        return "abbreviation"
    return ""


def filtered_lines(entries: Iterable[str]) -> tuple[list[bytes], collections.Counter[str]]:
    """The sorted, distinct ``form<TAB>classes<TAB>`` lines kept, UTF-8, and a count of every drop kind and class.

    Lines are kept as bytes (half the memory of str for 4.3 million lines:
    most Polish forms hold a letter beyond Latin-1, which makes a str two
    bytes a character); UTF-8 bytes sort as their code points do, and a tab
    sorts before every letter, so the lines sort by (form, classes). The
    counter counts entries: ``dropped:<kind>`` and ``class:<name>``
    (``class:`` for ordinary words).
    """
    counts: collections.Counter[str] = collections.Counter()
    lines = []
    for entry in entries:
        dropped, classes = judge(entry)
        if dropped:
            counts[f"dropped:{dropped}"] += 1
            continue
        counts[f"class:{classes}"] += 1
        lines.append(f"{entry.lower()}\t{classes}\t".encode())
    lines.sort()
    return [line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1]], counts


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, source=DEFAULT_INPUT, package=PACKAGE).parse_args(argv)
    version = package_version(PACKAGE, args.package_version)
    lines, counts = filtered_lines(entries(args.source, package=PACKAGE, nfc=False))
    write_list(args.out, debian_header("pl", PACKAGE, version, args.source, FILTER, house=FILTER_VERSION, origin="Debian, sjp.pl"), lines)
    summary = ", ".join(f"{key} {counts[key]}" for key in sorted(counts))
    print(f"{args.out}: {len(lines)} lines from {counts.total()} entries; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

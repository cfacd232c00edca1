"""Build the Italian word list from Debian's ``witalian`` (/usr/share/dict/italian).

Contract: read ``/usr/share/dict/italian`` (one form a line, UTF-8: Davide
Salvetti's list for look(1) and spell(1), built in part from Antonio
Palamà's Italian ispell dictionary; 116,758 forms) and write the wordsvc
word list v1, gzip'd, one line per distinct (form, class set), forms
lowercased and spelled as the source spells them (accents kept: the
manifest's ``fold_diacritics`` folds them when the lexicon is compiled),
sorted by code point, so the same package version gives the same bytes
(gzip ``mtime`` 0, no file name in its header)::

    # wordsvc word list v1
    # id: it
    # version: witalian-<package version>-house<FILTER_VERSION>
    # source: witalian <package version> (Debian), /usr/share/dict/italian sha256 <hex>
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    città<TAB><TAB>

Why a filter: a spell checker's list holds what no Italian word game
accepts. Italian Scrabble's tiles are the 21 letters of the Italian
alphabet, without accents (an accented vowel is played with the plain
tile) and without the foreign letters j k w x y; its rules refuse proper
names, abbreviations and elided forms (``dell'acqua``). The filter
(:func:`judge`) therefore

- **drops** what no card lays: a space, an apostrophe (8,117 elided forms:
  ``l'esercizio``, ``dall'imperizia``), a hyphen, a digit, a period, or a
  letter outside the 21 once accents are folded (``hacker``, ``taxi``);
- **recovers** the word after an elided article, articulated preposition or
  adjective (``l'``, ``dell'``, ``un'``, ``quest'`` ...: :data:`ELIDING`),
  which is a word of its own (``l'adolescenza``: ``adolescenza``) that the
  list does not always hold alone (:func:`with_elided_words`);
- **classes** what a ruleset bans by name: ``abbreviation`` (all capitals,
  or no vowel letter) and ``proper_noun`` (any other capital: Italian
  capitalises names, not common nouns).

The list has no frequencies, so the rank column is empty. README.md gives
every count and what the source cannot tell.

The list file, the options and the package version come from the
builders' kit (:mod:`wordlists._builder`). Run from the checkout's root:
``python -m wordlists.it.build_witalian --out it.tsv.gz``
"""

from __future__ import annotations

import collections
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from wordlists._builder import debian_header, entries, package_version, parser, write_list
from wordsvc.core.text import fold_diacritics

PACKAGE = "witalian"
DEFAULT_INPUT = Path("/usr/share/dict/italian")

#: Bumped whenever :func:`judge` decides differently; part of the list's version.
FILTER_VERSION = 2

#: The 21 letters of the Italian alphabet: the letters Italian Scrabble has tiles for (no j, k, w, x, y, no accents).
ALPHABET = frozenset("abcdefghilmnopqrstuvz")
#: Italian vowel letters, as they are after folding.
VOWELS = frozenset("aeiou")

#: Words that elide before a vowel and leave a whole word after the apostrophe: the articles, the articulated
#: prepositions, the demonstratives and bello, santo, tutto. Not d' c' m' t' s' v' n' ch' cos' (pronouns,
#: particles, "di"): after them a word can be bound (d'altronde: no "altronde" alone). README.md, "Elided forms".
ELIDING = frozenset("l dell all nell dall sull coll un quell quest bell sant tutt".split())

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
    "drops multi-word, apostrophe, hyphen, digit, period and letters off the Italian deck (accents folded); "
    "recovers the word after an elided article or preposition; "
    "classes abbreviation, proper_noun (wordlists/it/build_witalian.py)"
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
    if not set(fold_diacritics(form)) <= ALPHABET:
        return NOT_ON_DECK, ""
    return "", word_class(entry, form)


def with_elided_words(entries: Iterable[str]) -> Iterator[tuple[str, bool]]:
    """Each entry as ``(entry, False)``, and after an elided form of :data:`ELIDING` its word as ``(word, True)``.

    ``dell'adolescenza`` gives ``adolescenza``, which witalian holds only
    elided; the elided form itself is dropped by :func:`judge` (its apostrophe).
    """
    for entry in entries:
        yield entry, False
        head, apostrophe, word = entry.partition("'")
        if apostrophe and word and "'" not in word and head.lower() in ELIDING:
            yield word, True


def word_class(entry: str, form: str) -> str:
    """The class of a kept entry (``form`` is it lowercased): what Italian word games refuse, by name."""
    if entry.isupper():
        return "abbreviation"  # IVA, CD, FAQ: acronyms are written in capitals
    if entry != form:
        return "proper_noun"  # Roma, Dante, Giovanni, emTeX: Italian capitalises names only
    if not VOWELS.intersection(fold_diacritics(form)):
        return "abbreviation"  # kg: no vowel, so no Italian word
    return ""


def filtered_lines(entries: Iterable[str]) -> tuple[list[bytes], collections.Counter[str]]:
    """The sorted, distinct ``form<TAB>classes<TAB>`` lines kept, UTF-8, and a count of every drop kind and class.

    Lines are kept as UTF-8 bytes, as the Polish builder keeps its 4.3
    million; UTF-8 bytes sort as their code points do, and a tab
    sorts before every letter, so the lines sort by (form, classes). The
    counter counts the list's entries, ``dropped:<kind>`` and
    ``class:<name>`` (``class:`` for ordinary words), and apart the words
    recovered after an elision, ``recovered dropped:<kind>`` and
    ``recovered class:<name>``.
    """
    counts: collections.Counter[str] = collections.Counter()
    lines = []
    for entry, recovered in with_elided_words(entries):
        prefix = "recovered " if recovered else ""
        dropped, classes = judge(entry)
        if dropped:
            counts[f"{prefix}dropped:{dropped}"] += 1
            continue
        counts[f"{prefix}class:{classes}"] += 1
        lines.append(f"{entry.lower()}\t{classes}\t".encode())
    lines.sort()
    return [line for i, line in enumerate(lines) if i == 0 or line != lines[i - 1]], counts


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, source=DEFAULT_INPUT, package=PACKAGE).parse_args(argv)
    version = package_version(PACKAGE, args.package_version)
    lines, counts = filtered_lines(entries(args.source, package=PACKAGE, nfc=False))
    write_list(args.out, debian_header("it", PACKAGE, version, args.source, FILTER, house=FILTER_VERSION), lines)
    summary = ", ".join(f"{key} {counts[key]}" for key in sorted(counts))
    recovered = sum(n for key, n in counts.items() if key.startswith("recovered "))
    print(f"{args.out}: {len(lines)} lines from {counts.total() - recovered} entries and {recovered} words after an elision; {summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Build the Portuguese (Portugal) word list from Debian's ``wportuguese`` (ispell.pt, /usr/share/dict/portuguese).

Contract: reads the package's plain list (one entry a line, UTF-8) and writes
the wordsvc word list v1, gzip'd, to ``--out``: one line per distinct
(form, class set), the form lowercased (accents kept: the lexicon folds them,
``fold_diacritics: true``), sorted by (form, classes) in code-point order,
no rank (the source has no frequencies). The same input gives the same bytes
(gzip ``mtime`` 0, no file name in the gzip header)::

    # wordsvc word list v1
    # id: pt
    # version: wportuguese-20220621-1-house1
    # source: wportuguese 20220621-1 (Debian), /usr/share/dict/portuguese sha256 <hex>
    # filter: house1 (wordlists/pt/build_wportuguese.py): ...
    # columns: form<TAB>classes<TAB>rank
    ação<TAB><TAB>

The filter (README.md beside this file gives each rule's count and evidence):

- **dropped**, because no card lays them: entries with a space, apostrophe,
  hyphen, digit or period, and entries with a letter the deck lacks once
  accents are folded (k, w, y: Portuguese Scrabble has no such tiles);
- **classed**, so a ruleset bans them by name and a verdict says why:
  ``abbreviation`` (all capitals: ONU; mixed case of at most 4 letters: GHz;
  a lowercase form without a vowel: km, sr; the lowercase abbreviations of
  :data:`ABBREVIATIONS`), ``proper_noun`` (any other form with a capital:
  Portuguese writes common nouns, months and nationalities in lowercase, so
  a capital marks a name), ``roman_numeral`` (ii, xiv; not the words of
  :data:`ROMAN_WORDS`).

Accents are folded by :func:`wordsvc.core.text.fold_diacritics`, as the
lexicon folds them. The list file, the options and the package version come
from the builders' kit (:mod:`wordlists._builder`). Run from the checkout's
root: ``python -m wordlists.pt.build_wportuguese --out pt.tsv.gz``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from wordlists._builder import debian_header, entries, filter_entries, package_version, parser, write_list
from wordsvc.core.text import fold_diacritics

LIST_ID = "pt"
PACKAGE = "wportuguese"
SOURCE = Path("/usr/share/dict/portuguese")
#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 1

#: The deck's letters, as Portuguese Scrabble's: "all the diacritical marks are eliminated" and "K, W and Y are not
#: used" (README.md, "Folding and the deck"). Ç is a Scrabble tile of its own, but the service's folding cannot keep it
#: apart (it folds every mark), so here it is laid as C.
DECK_LETTERS = frozenset("abcdefghijlmnopqrstuvxz")
#: Vowel letters once accents are folded.
VOWELS = frozenset("aeiou")
#: Lowercase abbreviations with a vowel, which the source lists among its words without a mark; found by reading
#: every lowercase form of two and three letters, and the usual abbreviations of titles (Sr.ª, Dr.ª, Prof., Eng.º).
ABBREVIATIONS = frozenset({"etc", "sra", "sras", "dra", "dras", "prof", "eng", "pág", "séc", "sécs"})
#: Roman-numeral shaped forms that are words: vi (ver), xi (the interjection, and the Greek letter).
ROMAN_WORDS = frozenset({"vi", "xi"})
#: A Roman numeral as written with i, v, x (the numerals of centuries and chapters); cm, mm, li, mi are other things.
ROMAN = re.compile(r"x{0,3}(ix|iv|v?i{0,3})")

#: What drops an entry, tried in this order; the first that applies names the drop.
DROPS = (("space", " "), ("apostrophe", "'"), ("hyphen", "-"), ("period", "."))
#: The classes, in the order the classes column writes them.
CLASS_ORDER = ("abbreviation", "proper_noun", "roman_numeral")
#: What the filter does, as the list's header says it.
FILTER = (
    f"house{FILTER_VERSION} (wordlists/pt/build_wportuguese.py): dropped entries with a space, apostrophe, hyphen, "
    f"digit, period or a letter no card lays; classes {', '.join(CLASS_ORDER)}"
)


def drop_reason(entry: str) -> str | None:
    """Why no card can lay ``entry`` (``space``, ``apostrophe``, ``hyphen``, ``period``, ``digit``, ``letter``), or None."""
    for reason, character in DROPS:
        if character in entry:
            return reason
    if any(ch.isdigit() for ch in entry):
        return "digit"
    if not set(fold_diacritics(entry.lower())) <= DECK_LETTERS:
        return "letter"
    return None


def word_class(entry: str) -> str:
    """The class of one entry as the source spells it, or ``""`` for an ordinary word; see the module docstring."""
    lower = entry.lower()
    if entry.isupper():
        return "abbreviation"  # ONU, CTT
    if entry != lower:
        if len(entry) <= 4 and not entry[1:].islower():
            return "abbreviation"  # GHz, MHz: mixed case that is not a capitalised word
        return "proper_noun"  # Lisboa, OpenOffice
    letters = fold_diacritics(lower)
    if len(letters) >= 2 and ROMAN.fullmatch(letters) and lower not in ROMAN_WORDS:
        return "roman_numeral"  # ii, xiv, xx
    if not set(letters) & VOWELS or lower in ABBREVIATIONS:
        return "abbreviation"  # km, sr, etc, pág
    return ""


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, source=SOURCE, package=PACKAGE).parse_args(argv)
    keys, drops, classes = filter_entries(entries(args.source, package=PACKAGE, strict=True), drop_reason, word_class)
    head = debian_header(LIST_ID, PACKAGE, package_version(PACKAGE, args.package_version), args.source, FILTER, house=FILTER_VERSION)
    write_list(args.out, head, (f"{key}\t" for key in keys))
    forms = len({key.split("\t")[0] for key in keys})
    print(f"{args.out}: {len(keys)} lines, {forms} forms; dropped {dict(sorted(drops.items()))}; classes {dict(sorted(classes.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

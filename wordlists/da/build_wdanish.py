"""Build the Danish word list from Debian's ``wdanish`` (Den store danske ordliste, /usr/share/dict/danish).

Contract: reads the package's plain list (one entry a line, UTF-8) and writes
the wordsvc word list v1, gzip'd, to ``--out``: one line per distinct
(form, class set), the form lowercased as the list spells it (idé; the
lexicon folds every mark but å's ring, so idé is also ide: manifest.yaml), sorted
by (form, classes) in code-point order, no rank (the source has no
frequencies). The same input gives the same bytes (gzip ``mtime`` 0, no file
name in the gzip header)::

    # wordsvc word list v1
    # id: da
    # version: wdanish-1.6.36-14-house1
    # source: wdanish 1.6.36-14 (Debian), /usr/share/dict/danish sha256 <hex>
    # filter: house1 (wordlists/da/build_wdanish.py): ...
    # columns: form<TAB>classes<TAB>rank
    hus<TAB><TAB>

The filter (README.md beside this file gives each rule's count and evidence):

- **dropped**, because no card lays them: entries with a space, apostrophe
  (the genitive of words ending in s: hus'), hyphen, digit or period, and
  entries with a letter the deck lacks (q, w: Danish Scrabble has no such
  tiles);
- **classed**, so a ruleset bans them by name and a verdict says why:
  ``abbreviation`` (all capitals: DSB; mixed case of at most 4 letters: kWh;
  a lowercase form without a vowel that is no word: km, tv, not hm; the
  lowercase abbreviations of :data:`ABBREVIATIONS`), ``proper_noun`` (any
  other form with a capital: Danish has written common nouns in lowercase
  since 1948, so a capital marks a name). (The list holds no Roman numeral
  but vi, which is a word: we.)

The lexicon folds (``fold_diacritics: true``) and keeps å (``fold_keep``):
å is a card of its own, the other marks are laid plain. The deck check
(:func:`deck_spelling`) folds the same way (:func:`wordsvc.core.text.fold_diacritics`),
to drop what no card can lay.

The list file, the options and the package version come from the builders'
kit (:mod:`wordlists._builder`). Run from the checkout's root:
``python -m wordlists.da.build_wdanish --out da.tsv.gz``
"""

from __future__ import annotations

import sys
from pathlib import Path

from wordlists._builder import debian_header, entries, filter_entries, package_version, parser, write_list
from wordsvc.core.text import fold_diacritics

LIST_ID = "da"
PACKAGE = "wdanish"
SOURCE = Path("/usr/share/dict/danish")
#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 1

#: The letters with tiles of their own in Danish Scrabble that a mark would fold away (å is a + ring; æ and ø are no
#: base letter with a mark and stay by themselves).
OWN_LETTERS = "æøå"
#: The deck's letters, as Danish Scrabble's: a-z less q and w, and æ ø å (README.md, "Folding and the deck").
DECK_LETTERS = frozenset("abcdefghijklmnoprstuvxyz" + OWN_LETTERS)
#: Vowel letters of the folded forms.
VOWELS = frozenset("aeiouyæøå")
#: Lowercase forms without a vowel that are Danish words: the interjections hm, pst and prr.
VOWELLESS_WORDS = frozenset({"hm", "pst", "prr"})
#: Lowercase abbreviations with a vowel, which the source lists among its words without a mark; found by reading
#: every lowercase form of two and three letters: atm (atmosfære), atp, dna, edb, ngo, opg (opgave), pda, årh (århundrede).
ABBREVIATIONS = frozenset({"atm", "atp", "dna", "edb", "ngo", "opg", "pda", "årh"})

#: What drops an entry, tried in this order; the first that applies names the drop.
DROPS = (("space", " "), ("apostrophe", "'"), ("hyphen", "-"), ("period", "."))
#: The classes, in the order the classes column writes them.
CLASS_ORDER = ("abbreviation", "proper_noun")
#: What the filter does, as the list's header says it.
FILTER = (
    f"house{FILTER_VERSION} (wordlists/da/build_wdanish.py): dropped entries with a space, apostrophe, hyphen, "
    f"digit, period or a letter no card lays; marks other than æ ø å folded; classes {', '.join(CLASS_ORDER)}"
)


def deck_spelling(text: str) -> str:
    """``text`` (lowercase) spelled with the deck's letters: æ ø å kept, every other mark folded (idé -> ide, lübecker -> lubecker)."""
    return fold_diacritics(text, keep=OWN_LETTERS)


def drop_reason(entry: str) -> str | None:
    """Why no card can lay ``entry`` (``space``, ``apostrophe``, ``hyphen``, ``period``, ``digit``, ``letter``), or None."""
    for reason, character in DROPS:
        if character in entry:
            return reason
    if any(ch.isdigit() for ch in entry):
        return "digit"
    if not set(deck_spelling(entry.lower())) <= DECK_LETTERS:
        return "letter"
    return None


def word_class(entry: str) -> str:
    """The class of one entry as the source spells it, or ``""`` for an ordinary word; see the module docstring."""
    lower = entry.lower()
    if entry.isupper():
        return "abbreviation"  # DSB, EU
    if entry != lower:
        if len(entry) <= 4 and not entry[1:].islower():
            return "abbreviation"  # kWh, ApS, MHz: mixed case that is not a capitalised word
        return "proper_noun"  # Aalborg, FreeBSD
    letters = deck_spelling(lower)
    if (not set(letters) & VOWELS and letters not in VOWELLESS_WORDS) or letters in ABBREVIATIONS:
        return "abbreviation"  # km, tv, dna
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

"""Build the French word list (lexicon ``fr``) from Debian's ``wfrench`` list, with the house filter.

Contract: reads ``/usr/share/dict/french`` (Debian package ``wfrench``: one
form a line, UTF-8, all lowercase) and writes, gzip'd, the wordsvc word list
v1::

    # wordsvc word list v1
    # id: fr
    # version: wfrench-<Debian version>-house<FILTER_VERSION>
    # source: wfrench <Debian version> (Debian), /usr/share/dict/french sha256 <hex>
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    abaca<TAB><TAB>

One line per distinct (form, classes), sorted in code-point order, UTF-8, LF;
the form lowercased and NFC, accents kept (the lexicon folds them:
``fold_diacritics`` in the manifest, as French Scrabble has no accented
tiles). ``rank`` is empty: the list has no frequencies. The gzip header holds
no name and no time, so the same input gives the same bytes.

The filter (README.md beside this file gives each rule's count and evidence):

- **dropped**, because no card lays them: entries with a space, an
  apostrophe (``aujourd'hui``; also ``jusqú``, where the list writes ``ú``
  for the apostrophe), a hyphen, a digit, a period (``etc.``), or a letter
  that does not fold to a-z; an elided ``qu'`` written bare (``qu``,
  ``quelqu``, beside the list's ``qú``, ``quelqú``); and, by hand, parts of
  hyphenated entries (``gri`` of ``gri-gri``) and an English word (``men``);
- **classed** ``abbreviation``, so a ruleset bans it by name: a form of two
  or more letters without a vowel that is no interjection (``kg``, ``qqn``),
  and a form of two or more letters the list also holds with a final period
  (``ac`` beside ``ac.``), unless it is a word of its own (``ex``, ``long``,
  ``sept``), and a short hand list of abbreviations with no evidence in the
  list (``enc``, ``int``). Single letters are left alone: no ruleset plays one.

``proper_noun`` is never given: wfrench holds no capitalised entry, and its
name-like forms are common words (``paris``, bets; ``pierre``, stone).

Accents are folded by :func:`wordsvc.core.text.fold_diacritics`, as the
lexicon folds them. The list file, the options and the package version come
from the builders' kit (:mod:`wordlists._builder`). Run from the checkout's
root: ``python -m wordlists.fr.build_wfrench --out fr.tsv.gz``
"""

from __future__ import annotations

import collections
import sys
from collections.abc import Iterable
from pathlib import Path

from wordlists._builder import debian_header, entries, package_version, parser, write_list
from wordsvc.core.text import fold_diacritics

LEXICON_ID = "fr"
PACKAGE = "wfrench"
SOURCE = Path("/usr/share/dict/french")
#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 2

#: The letters of the French deck: French Scrabble's 26 plain tiles; accented letters fold onto them.
DECK_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
#: Vowel letters (after folding). A form of 2+ letters with none is an abbreviation unless it is an interjection.
VOWELS = frozenset("aeiouy")
#: The forms without a vowel that are words: interjections (brrr, pfft, pst).
INTERJECTIONS = frozenset({"brrr", "pfft", "pst"})
#: Forms the list also holds with a final period that are words in their own right:
#: ex (ex-husband, Latin ex), long (long, length), sept (seven). Every other such twin is an abbreviation.
WORDS_WITH_A_PERIOD_TWIN = frozenset({"ex", "long", "sept"})
#: wfrench writes the apostrophe after qu as ``ú`` in 15 entries (jusqú, lorsqú, presqúîle, qúen-dira-t-on):
#: French has no ú, so it is read as the apostrophe it stands for.
APOSTROPHES = frozenset("'\u2019ú")
#: Forms that stand in the list only as a part of a hyphenated or two-word entry it also holds, with no
#: inflection of their own (a spell checker splits the entry and must accept each part): gri (gri-gri),
#: gum (chewing-gum), king (king-charles), quo (statu quo), ray (ray-grass), sad (tan-sad), yé (yé-yé).
#: A hand list: the list holds hundreds of such parts that are words (sud, quatre, néo), so only these were judged.
EXPRESSION_PARTS = frozenset({"gri", "gum", "king", "quo", "ray", "sad", "yé"})
#: English words the list holds that French does not use on their own: men (and English am, below). A hand list.
FOREIGN = frozenset({"men"})
#: Abbreviations written without their period and with a vowel, for which the list gives no evidence (no
#: period twin): déf (défini, défense), dég (degré), él (élève, élu), enc (encyclopédie), inc (incorporated),
#: int (intérieur, intransitif), am (a.m., ante meridiem). A hand list.
HAND_ABBREVIATIONS = frozenset({"am", "déf", "dég", "él", "enc", "inc", "int"})

#: What the filter drops, in the order the kinds are tried (the first that applies names the kind).
DROP_KINDS = ("space", "apostrophe", "hyphen", "digit", "period", "character_not_in_deck", "elision", "expression_part", "foreign")
#: The classes the filter gives, with their header description.
CLASSES = ("abbreviation",)
#: What the filter does, as the list's header says it.
FILTER = f"house{FILTER_VERSION}: dropped {', '.join(DROP_KINDS)}; classes {', '.join(CLASSES)} (wordlists/fr/build_wfrench.py)"


def drop_kind(entry: str) -> str | None:
    """Why no card can lay ``entry`` (a kind of :data:`DROP_KINDS`), or ``None`` when it can be laid."""
    if entry.isascii() and entry.isalpha():  # most entries: plain letters, at once
        return None
    if any(ch.isspace() for ch in entry):
        return "space"
    if any(ch in APOSTROPHES for ch in entry):
        return "apostrophe"
    if "-" in entry:
        return "hyphen"
    if any(ch.isdigit() for ch in entry):
        return "digit"
    if "." in entry:
        return "period"
    if not set(fold_diacritics(entry.lower())) <= DECK_LETTERS:
        return "character_not_in_deck"
    return None


def elided(entries: Iterable[str]) -> frozenset[str]:
    """The forms that are an elided ``qu'`` written without its apostrophe: ``qu`` beside the list's ``qú``.

    The list writes the apostrophe after ``qu`` as ``ú`` (``qú``, ``puisqú``,
    ``quelqú``) and also holds the same forms bare (``qu``, ``puisqu``,
    ``quelqu``): those are ``qu'`` with the apostrophe lost, no words.
    """
    present = set(entries)
    return frozenset(entry[:-1] + "u" for entry in present if entry.endswith("qú") and entry[:-1] + "u" in present)


def house_drop(entry: str, elisions: frozenset[str]) -> str | None:
    """Why the house drops a form a card could lay (a kind of :data:`DROP_KINDS`), or ``None``."""
    if entry in elisions:
        return "elision"
    if entry in EXPRESSION_PARTS:
        return "expression_part"
    if entry in FOREIGN:
        return "foreign"
    return None


def word_class(form: str, period_twins: frozenset[str]) -> str:
    """The class of a kept, lowercase ``form`` (``""`` for an ordinary word).

    ``period_twins`` are the list's forms that it also holds with a final
    period (``ac`` for ``ac.``): the list's own evidence of an abbreviation.
    """
    letters = fold_diacritics(form)
    if len(letters) >= 2 and not set(letters) & VOWELS and form not in INTERJECTIONS:
        return "abbreviation"  # kg, km, qqn, bd
    if len(letters) >= 2 and form in period_twins and form not in WORDS_WITH_A_PERIOD_TWIN:
        return "abbreviation"  # ac, déc, dép
    if form in HAND_ABBREVIATIONS:
        return "abbreviation"  # déf, enc, int: no evidence in the list
    return ""


def filtered_rows(entries: Iterable[str]) -> tuple[list[tuple[str, str]], collections.Counter[str], collections.Counter[str]]:
    """Sorted, unique ``(form, classes)`` rows; how many entries each drop kind took; how many rows each class took."""
    entries = list(entries)
    present = set(entries)
    period_twins = frozenset(entry[:-1] for entry in entries if entry.endswith(".") and entry[:-1] in present)
    elisions = elided(entries)
    dropped: collections.Counter[str] = collections.Counter()
    rows: set[tuple[str, str]] = set()
    for entry in entries:
        kind = drop_kind(entry) or house_drop(entry, elisions)
        if kind:
            dropped[kind] += 1
            continue
        form = entry.lower()
        rows.add((form, word_class(form, period_twins)))
    classed = collections.Counter(classes for _, classes in rows if classes)
    return sorted(rows), dropped, classed


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, source=SOURCE, package=PACKAGE).parse_args(argv)
    rows, dropped, classed = filtered_rows(entries(args.source, package=PACKAGE))
    head = debian_header(LEXICON_ID, PACKAGE, package_version(PACKAGE, args.package_version), args.source, FILTER, house=FILTER_VERSION)
    write_list(args.out, head, (f"{form}\t{classes}\t" for form, classes in rows))
    kinds = ", ".join(f"{kind} {dropped[kind]}" for kind in DROP_KINDS)
    print(f"{args.out}: {len(rows)} rows; dropped entries: {kinds}; classed rows: {dict(sorted(classed.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

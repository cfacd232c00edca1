"""Build the Dutch word list (lexicon ``nl``) from Debian's ``wdutch`` list (OpenTaal), with the house filter.

Contract: reads ``/usr/share/dict/dutch`` (Debian package ``wdutch``: the
OpenTaal word list, one entry a line, UTF-8, case kept) and writes, gzip'd,
the wordsvc word list v1::

    # wordsvc word list v1
    # id: nl
    # version: wdutch-<Debian version>-house<FILTER_VERSION>
    # source: wdutch <Debian version> (Debian; OpenTaal), /usr/share/dict/dutch sha256 <hex>
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    aardbei<TAB><TAB>
    aardbei<TAB>proper_noun<TAB>

One line per distinct (form, classes), sorted in code-point order, UTF-8, LF;
the form lowercased and NFC, accents kept (the lexicon folds them:
``fold_diacritics`` in the manifest, as Dutch Scrabble has no accented
tiles). An entry the list holds both capitalised and in lowercase gives two
lines (``Aardbei`` a street, ``aardbei`` a strawberry): a form is playable
when any reading is. ``rank`` is empty: the list has no frequencies. The gzip
header holds no name and no time, so the same input gives the same bytes.

The filter (README.md beside this file gives each rule's count and evidence):

- **dropped**, because no card lays them: entries with a space
  (``a capella``), an apostrophe (``auto's``), a hyphen, a digit (``cm²``
  too), a period (``bijv.``), or any other character that does not fold to
  a-z (``B&B``, ``en/of``, ``C++``); and, by hand, the lowercase parts of
  multi-word expressions that OpenTaal's wordparts data lists (``quo``, ``feng``);
- **classed**, so a ruleset bans it by name: ``abbreviation`` for an
  all-capital entry (``ANWB``), a short mixed-case one (``kWh``, ``PhD``), a
  lowercase form of two or more letters without a vowel that is no
  interjection (``btw``, ``cd``), and a form the list also holds with a final
  period (``okt`` beside ``okt.``) unless it is a word of its own (``vrij``,
  ``red``), a form the list inflects with an apostrophe as only an
  abbreviation is (``azc's``, ``hbo'er``), and a short hand list with no
  evidence in the list (``hiv``, ``ov``); ``proper_noun`` for any other entry with a capital (Dutch
  capitalises names, not common nouns: ``Amsterdam``, ``Jan``, ``Engels``).

Accents are folded by :func:`wordsvc.core.text.fold_diacritics`, as the
lexicon folds them. The list file, the options and the package version come
from the builders' kit (:mod:`wordlists._builder`). Run from the checkout's
root: ``python -m wordlists.nl.build_wdutch --out nl.tsv.gz``
"""

from __future__ import annotations

import collections
import sys
from collections.abc import Iterable
from pathlib import Path

from wordlists._builder import debian_header, entries, package_version, parser, write_list
from wordsvc.core.text import fold_diacritics

LEXICON_ID = "nl"
PACKAGE = "wdutch"
SOURCE = Path("/usr/share/dict/dutch")
#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 2

#: The letters of the Dutch deck: Dutch Scrabble's 26 plain tiles (IJ is laid as I and J); accented letters fold onto them.
DECK_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyz")
#: Vowel letters (after folding). A lowercase form of 2+ letters with none is an abbreviation unless it is an interjection.
VOWELS = frozenset("aeiouy")
#: The lowercase forms without a vowel that are words: interjections (brr, hm, mmm, pst, zzz).
INTERJECTIONS = frozenset({"brr", "hm", "mmm", "pst", "zzz"})
#: Lowercase forms the list also holds with a final period that are words in their own right: bijl (axe),
#: dra (soon), fa (the note), jan (jan en alleman), max, min, prof, red (I save), verg (I demand), vrij (free).
#: (``jan`` is not among them: its twin is ``jan.``, januari, and "Jan en alleman" is written with a capital.)
WORDS_WITH_A_PERIOD_TWIN = frozenset({"bijl", "dra", "fa", "max", "min", "prof", "red", "verg", "vrij"})
#: Lowercase forms the list also holds with an apostrophe inflection that are no abbreviation: ``collector``
#: (only the genitive collector's, of collector's item) and ``id`` (het id, Freud's; id'er is ID, a party).
WORDS_WITH_AN_APOSTROPHE_FORM = frozenset({"collector", "id"})
#: Lowercase abbreviations the list gives no evidence for (no period twin, no vowel-less spelling, no apostrophe
#: inflection): a hand list, judged by hand. am (AM radio), bo (basisonderwijs), cif (cost,
#: insurance, freight), flo (functioneel leeftijdsontslag), fte (fulltime-equivalent), hiv, ov (openbaar
#: vervoer), to (no Dutch word: English to, of business-to-business, or an initialism), uv (ultraviolet),
#: vve (vereniging van eigenaars), vo (voortgezet onderwijs), wo (wetenschappelijk onderwijs), ozb
#: (onroerendezaakbelasting).
HAND_ABBREVIATIONS = frozenset({"am", "bo", "cif", "flo", "fte", "hiv", "ov", "ozb", "to", "uv", "vo", "vve", "wo"})
#: Lowercase entries that are first names, not words: the list also holds each capitalised with a name's
#: genitive (Chris', Eddy's, Rex'), and no inflection of the lowercase form. A hand list.
HAND_NAMES = frozenset({"chris", "eddy", "rex"})
#: Lowercase entries that stand only inside a multi-word expression the list also holds (a spell checker
#: must accept each part; a card game has no use for them): OpenTaal's own elements/wordparts.tsv (upstream,
#: not shipped by Debian) lists ab (ab initio), bloc (en bloc), co (en co), coq (coq au vin), cum (cum laude),
#: feng (feng shui), mer (fruits de mer), quid (quid pro quo), quo (status quo), wide (world wide web),
#: bin (Osama bin Laden), five (high five), toy (dinky toy) and vu (déjà vu); va (rien ne va plus, va-banque)
#: is not in that file and is judged by hand.
EXPRESSION_PARTS = frozenset({"ab", "bin", "bloc", "co", "coq", "cum", "feng", "five", "mer", "quid", "quo", "toy", "va", "vu", "wide"})
#: The longest mixed-case entry that is a symbol or an abbreviation (kWh, PhD, BSc, iOS, KvK); from five letters
#: mixed case is a brand or a name (GitHub, eBay, ChristenUnie).
MAX_MIXED_ABBREVIATION = 4

#: What the filter drops, in the order the kinds are tried (the first that applies names the kind).
DROP_KINDS = ("space", "apostrophe", "hyphen", "digit", "period", "character_not_in_deck", "expression_part")
#: The classes the filter gives.
CLASSES = ("proper_noun", "abbreviation")
#: What the filter does, as the list's header says it.
FILTER = f"house{FILTER_VERSION}: dropped {', '.join(DROP_KINDS)}; classes {', '.join(CLASSES)} (wordlists/nl/build_wdutch.py)"


def drop_kind(entry: str) -> str | None:
    """Why no card can lay ``entry`` (a kind of :data:`DROP_KINDS`), or ``None`` when it can be laid."""
    if entry.isascii() and entry.isalpha():  # most entries: plain letters, at once
        return None
    if any(ch.isspace() for ch in entry):
        return "space"
    if "'" in entry or "\u2019" in entry:
        return "apostrophe"
    if "-" in entry:
        return "hyphen"
    if any(ch.isdigit() for ch in entry):
        return "digit"  # also the superscripts and subscripts of cm², CO₂
    if "." in entry:
        return "period"
    if not set(fold_diacritics(entry.lower())) <= DECK_LETTERS:
        return "character_not_in_deck"
    return None


def expression_part(entry: str) -> bool:
    """``entry`` is a lowercase part of a multi-word expression with no use of its own (:data:`EXPRESSION_PARTS`)."""
    return entry in EXPRESSION_PARTS


def is_capitalised(entry: str) -> bool:
    """``entry`` is a capital then lowercase letters; Dutch capitalises the digraph IJ whole (``IJsland``)."""
    rest = entry[2:] if entry.startswith("IJ") else entry[1:]
    return entry[:1].isupper() and (not rest or rest.islower())


def case_class(entry: str) -> str:
    """The class an entry's capitals give it (``""`` when it has none)."""
    if entry == entry.lower():
        return ""
    if entry.isupper() and not is_capitalised(entry):
        return "abbreviation"  # ANWB, ADHD, CD
    if not is_capitalised(entry) and len(entry) <= MAX_MIXED_ABBREVIATION:
        return "abbreviation"  # kWh, dB, PhD, BSc, iOS
    return "proper_noun"  # Amsterdam, IJsland, GitHub, eBay


def apostrophe_marked(entries: Iterable[str]) -> frozenset[str]:
    """The lowercase forms the list inflects with an apostrophe as only abbreviations are.

    Dutch writes a plural ``'s`` after a consonant only for an abbreviation or
    a letter (``azc's``, ``ecg's``, ``ij's``; a word ending in a consonant takes
    ``-s`` or ``-en``), and a derivation ``'er`` only after an abbreviation
    (``hbo'er``, ``vmbo'er``). Letters are compared folded (``aloë's`` ends
    in a vowel).
    """
    present = set(entries)
    marked = set()
    for entry in present:
        if entry.endswith("'s") and entry[:-2] in present and fold_diacritics(entry[-3:-2]) not in VOWELS:
            marked.add(entry[:-2])
        elif entry.endswith(("'er", "'ers")) and entry[: entry.rindex("'")] in present:
            marked.add(entry[: entry.rindex("'")])
    return frozenset(form for form in marked if form == form.lower() and form.isalpha() and form not in WORDS_WITH_AN_APOSTROPHE_FORM)


def lowercase_class(form: str, period_twins: frozenset[str], apostrophe_forms: frozenset[str] = frozenset()) -> str:
    """The class of a lowercase entry ``form`` (``""`` for an ordinary word).

    ``period_twins`` are the list's forms that it also holds with a final
    period (``okt`` for ``okt.``), and ``apostrophe_forms`` the forms it
    inflects with an apostrophe after a consonant (``azc's``) or derives with
    ``'er`` (``hbo'er``): the list's own evidence of an abbreviation.
    """
    letters = fold_diacritics(form)
    if len(letters) < 2:
        return ""  # single letters: no ruleset plays one
    if not set(letters) & VOWELS and form not in INTERJECTIONS:
        return "abbreviation"  # btw, cd, tv, kg
    if form in period_twins and form not in WORDS_WITH_A_PERIOD_TWIN:
        return "abbreviation"  # okt, nov, febr, jan
    if form in apostrophe_forms:
        return "abbreviation"  # azc, ecg, ic, ij, hbo, vmbo
    if form in HAND_ABBREVIATIONS:
        return "abbreviation"  # hiv, ov, uv, fte: no evidence in the list
    if form in HAND_NAMES:
        return "proper_noun"  # chris, eddy, rex
    return ""


def filtered_rows(entries: Iterable[str]) -> tuple[list[tuple[str, str]], collections.Counter[str], collections.Counter[str]]:
    """Sorted, unique ``(form, classes)`` rows; how many entries each drop kind took; how many rows each class took."""
    entries = list(entries)
    present = set(entries)
    period_twins = frozenset(entry[:-1] for entry in entries if entry.endswith(".") and entry[:-1] in present)
    apostrophe_forms = apostrophe_marked(entries)
    dropped: collections.Counter[str] = collections.Counter()
    rows: set[tuple[str, str]] = set()
    for entry in entries:
        kind = drop_kind(entry) or ("expression_part" if expression_part(entry) else None)
        if kind:
            dropped[kind] += 1
            continue
        form = entry.lower()
        rows.add((form, case_class(entry) or lowercase_class(form, period_twins, apostrophe_forms)))
    classed = collections.Counter(classes for _, classes in rows if classes)
    return sorted(rows), dropped, classed


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, source=SOURCE, package=PACKAGE).parse_args(argv)
    rows, dropped, classed = filtered_rows(entries(args.source, package=PACKAGE))
    head = debian_header(LEXICON_ID, PACKAGE, package_version(PACKAGE, args.package_version), args.source, FILTER, house=FILTER_VERSION, origin="Debian; OpenTaal")
    write_list(args.out, head, (f"{form}\t{classes}\t" for form, classes in rows))
    kinds = ", ".join(f"{kind} {dropped[kind]}" for kind in DROP_KINDS)
    print(f"{args.out}: {len(rows)} rows; dropped entries: {kinds}; classed rows: {dict(sorted(classed.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

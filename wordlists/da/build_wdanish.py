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
(:func:`deck_spelling`) folds the same way, to drop what no card can lay.

Standard library only, so it runs before the project is installed.
Run: ``python wordlists/da/build_wdanish.py --out da.tsv.gz``
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import io
import subprocess
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

LIST_ID = "da"
PACKAGE = "wdanish"
SOURCE = Path("/usr/share/dict/danish")
#: Bumped whenever the filter decides differently; part of the list's version.
FILTER_VERSION = 1

#: The letters with tiles of their own in Danish Scrabble that a mark would fold away (å is a + ring; æ and ø are no
#: base letter with a mark and stay by themselves).
OWN_LETTERS = frozenset("æøå")
#: The deck's letters, as Danish Scrabble's: a-z less q and w, and æ ø å (README.md, "Folding and the deck").
DECK_LETTERS = frozenset("abcdefghijklmnoprstuvxyz") | OWN_LETTERS
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


def deck_spelling(text: str) -> str:
    """``text`` (lowercase) spelled with the deck's letters: æ ø å kept, every other mark folded (idé -> ide, lübecker -> lubecker)."""
    if text.isascii():
        return text
    return "".join(ch if ch in OWN_LETTERS else _plain(ch) for ch in text)


def _plain(ch: str) -> str:
    return "".join(part for part in unicodedata.normalize("NFD", ch) if not unicodedata.combining(part))


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


def filtered(entries: Iterable[str]) -> tuple[list[str], collections.Counter[str], collections.Counter[str]]:
    """The sorted ``form<TAB>classes`` keys of the kept entries, and how many distinct entries each drop and class took."""
    keys = set()
    drops: collections.Counter[str] = collections.Counter()
    classes: collections.Counter[str] = collections.Counter()
    for entry in sorted(set(entries)):
        reason = drop_reason(entry)
        if reason:
            drops[reason] += 1
            continue
        found = word_class(entry)
        classes[found or "ordinary"] += 1
        keys.add(f"{entry.lower()}\t{found}")
    return sorted(keys), drops, classes


def read_entries(path: Path) -> list[str]:
    """The entries of the list, NFC; a line with whitespace other than its newline is refused (it would corrupt the TSV)."""
    text = path.read_text(encoding="utf-8")
    entries = [unicodedata.normalize("NFC", line) for line in text.split("\n") if line]
    bad = next((e for e in entries if any(ch.isspace() and ch != " " for ch in e)), None)
    if bad is not None:
        raise ValueError(f"{path}: whitespace inside the entry {bad!r}")
    return entries


def debian_version(package: str) -> str:
    """The installed version of a Debian package; SystemExit naming the package when it is not installed."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as err:
        raise SystemExit(f"{package} is not installed (apt-get install {package}; make setup does): {err}") from None
    return out.stdout.strip()


def header(version: str, sha256: str, path: Path) -> str:
    return (
        "# wordsvc word list v1\n"
        f"# id: {LIST_ID}\n"
        f"# version: {PACKAGE}-{version}-house{FILTER_VERSION}\n"
        f"# source: {PACKAGE} {version} (Debian), {path} sha256 {sha256}\n"
        f"# filter: house{FILTER_VERSION} (wordlists/da/build_wdanish.py): dropped entries with a space, apostrophe, hyphen, "
        f"digit, period or a letter no card lays; marks other than æ ø å folded; classes {', '.join(CLASS_ORDER)}\n"
        "# columns: form\tclasses\trank\n"
    )


def write_list(out: Path, head: str, keys: list[str]) -> None:
    """Write the list: gzip'd (``mtime`` 0, no name: same input, same bytes) when ``out`` ends in .gz."""
    data = (head + "".join(f"{key}\t\n" for key in keys)).encode("utf-8")
    if out.suffix == ".gz":
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=6, mtime=0) as packed:
            packed.write(data)
        data = buffer.getvalue()
    out.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--out", required=True, type=Path, help="output path; gzip-compressed if it ends in .gz")
    parser.add_argument("--source", type=Path, default=SOURCE, help=f"the word list (default {SOURCE})")
    parser.add_argument("--version", help=f"the {PACKAGE} version to name (default: the installed one, from dpkg-query)")
    args = parser.parse_args(argv)
    if not args.source.is_file():
        raise SystemExit(f"{args.source}: no such file; install the Debian package {PACKAGE}")
    version = args.version or debian_version(PACKAGE)
    sha256 = hashlib.sha256(args.source.read_bytes()).hexdigest()
    keys, drops, classes = filtered(read_entries(args.source))
    write_list(args.out, header(version, sha256, args.source), keys)
    forms = len({key.split("\t")[0] for key in keys})
    print(f"{args.out}: {len(keys)} lines, {forms} forms; dropped {dict(sorted(drops.items()))}; classes {dict(sorted(classes.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

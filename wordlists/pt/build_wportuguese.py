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

Standard library only, so it runs before the project is installed.
Run: ``python wordlists/pt/build_wportuguese.py --out pt.tsv.gz``
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import io
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

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


def plain(text: str) -> str:
    """``text`` without its diacritics (ação -> acao): the letters the deck lays it with."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def drop_reason(entry: str) -> str | None:
    """Why no card can lay ``entry`` (``space``, ``apostrophe``, ``hyphen``, ``period``, ``digit``, ``letter``), or None."""
    for reason, character in DROPS:
        if character in entry:
            return reason
    if any(ch.isdigit() for ch in entry):
        return "digit"
    if not set(plain(entry.lower())) <= DECK_LETTERS:
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
    letters = plain(lower)
    if len(letters) >= 2 and ROMAN.fullmatch(letters) and lower not in ROMAN_WORDS:
        return "roman_numeral"  # ii, xiv, xx
    if not set(letters) & VOWELS or lower in ABBREVIATIONS:
        return "abbreviation"  # km, sr, etc, pág
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
        f"# filter: house{FILTER_VERSION} (wordlists/pt/build_wportuguese.py): dropped entries with a space, apostrophe, hyphen, "
        f"digit, period or a letter no card lays; classes {', '.join(CLASS_ORDER)}\n"
        "# columns: form\tclasses\trank\n"
    )


def write_list(out: Path, head: str, keys: list[str]) -> None:
    """Write the list: gzip'd (``mtime`` 0, no name: same input, same bytes) when ``out`` ends in .gz."""
    body = head + "".join(f"{key}\t\n" for key in keys)
    data = body.encode("utf-8")
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

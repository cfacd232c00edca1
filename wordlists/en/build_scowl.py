"""Build the English word lists ``en-US.tsv`` and ``en-GB.tsv`` from SCOWL.

Contract: reads the SCOWL "final" lists (Debian package ``scowl``: one form a
line, in files named ``<spelling>-<subcategory>.<size>``) and writes, for each
list in :data:`LISTS`, a file in the project's word-list format::

    # wordsvc word list v1
    # id: en-US
    # version: scowl-<version>-size80
    # source: SCOWL <version> (Debian package scowl <version>), sizes <= 80, ...
    # columns: form<TAB>classes<TAB>rank
    form<TAB>classes<TAB>rank

One line per reading of a form, sorted by (form, classes), UTF-8, LF. ``form``
is as SCOWL spells it (case kept, NFC). ``classes`` is a comma-separated subset
of proper_noun, abbreviation, contraction, possessive (empty: an ordinary
word). ``rank`` is the smallest SCOWL size holding that reading: 10 is the most
common level, 80 the word-game level. The output depends only on the input
files, so a rerun is byte-identical.

Why these choices (details and counts in README.md beside this file):

- Size 80 is SCOWL's word-game level (it includes ENABLE); 95 adds too much
  junk to judge a play by.
- A form counts as an abbreviation only when it is not also in ``words``,
  as game words hide among SCOWL's abbreviations. (In SCOWL 2020.12.07 no
  form is in both, so ``aa`` stays an abbreviation; the guard stays.)
- Upstream SCOWL lists are ISO-8859-1; Debian ships them re-encoded as UTF-8.
  A file is decoded as UTF-8 when it is valid UTF-8 (Latin-1 text with
  accents practically never is), else as Latin-1.

Standard library only, so it runs before the project is installed.
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import unicodedata
from pathlib import Path

#: List id -> SCOWL spelling categories. en-GB takes both British spellings
#: (-ise in ``british``, -ize in ``british_z``) and SCOWL's British variant
#: category; see README.md for why not the American-leaning ``variant_1``.
LISTS = {
    "en-US": ("english", "american", "variant_1"),
    "en-GB": ("english", "british", "british_z", "british_variant_1"),
}
MAX_SIZE = 80

#: SCOWL subcategory -> our class ("" is an ordinary word).
CLASS_OF_SUBCATEGORY = {
    "words": "",
    "upper": "proper_noun",
    "proper-names": "proper_noun",
    "abbreviations": "abbreviation",
    "contractions": "contraction",
}
CLASS_ORDER = ("proper_noun", "abbreviation", "contraction", "possessive")

#: ``<spelling>-<subcategory>.<size>``; ``special-*`` lists do not match a
#: subcategory and are left out.
FILE_NAME = re.compile(r"(?P<spelling>[a-z0-9_]+)-(?P<sub>[a-z-]+)\.(?P<size>\d+)")
#: Whitespace other than the line feed that ends each form (a CR, a tab, a
#: space) would corrupt the TSV or the form.
SPACE_IN_LINE = re.compile(r"[^\S\n]")


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


def collect(scowl_dir: Path, spellings: tuple[str, ...]) -> dict[tuple[str, str], int]:
    """(form, base class) -> smallest size, over the chosen categories and sizes."""
    readings: dict[tuple[str, str], int] = {}
    seen_spellings = set()
    for path in sorted(scowl_dir.iterdir()):
        match = FILE_NAME.fullmatch(path.name)
        if not match or match["sub"] not in CLASS_OF_SUBCATEGORY:
            continue
        size = int(match["size"])
        if match["spelling"] not in spellings or size > MAX_SIZE:
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


def tagged_lines(readings: dict[tuple[str, str], int]) -> list[str]:
    """Sorted, unique ``form<TAB>classes<TAB>rank`` lines."""
    rows = set()
    for (form, cls), rank in readings.items():
        if cls == "abbreviation" and (form, "") in readings:
            continue
        classes = {cls} - {""}
        if form.endswith("'s"):
            classes.add("possessive")
        rows.add((form, ",".join(c for c in CLASS_ORDER if c in classes), rank))
    return [f"{form}\t{classes}\t{rank}" for form, classes, rank in sorted(rows)]


def scowl_version(readme: Path) -> str:
    """The ``Version`` line of SCOWL's README (plain or gzipped)."""
    opener = gzip.open if readme.suffix == ".gz" else open
    with opener(readme, "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("Version "):
                return line.split()[1]
    raise ValueError(f"{readme}: no Version line")


def debian_version() -> str | None:
    """The installed version of the Debian package ``scowl``, if any."""
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "scowl"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() or None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scowl-dir", type=Path, default=Path("/usr/share/dict/scowl"))
    parser.add_argument(
        "--readme",
        type=Path,
        default=Path("/usr/share/doc/scowl/README.gz"),
        help="SCOWL README, read for the version",
    )
    parser.add_argument("--out-dir", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)

    version = scowl_version(args.readme)
    source = f"SCOWL {version}"
    deb = debian_version()
    if deb:
        source += f" (Debian package scowl {deb})"
    for list_id, spellings in LISTS.items():
        lines = tagged_lines(collect(args.scowl_dir, spellings))
        header = [
            "# wordsvc word list v1",
            f"# id: {list_id}",
            f"# version: scowl-{version}-size{MAX_SIZE}",
            f"# source: {source}, sizes <= {MAX_SIZE}, categories {', '.join(spellings)}",
            "# columns: form\tclasses\trank",
        ]
        out = args.out_dir / f"{list_id}.tsv"
        out.write_text("\n".join(header + lines) + "\n", encoding="utf-8", newline="\n")
        print(f"{out}: {len(lines)} lines")


if __name__ == "__main__":
    main()

"""Word lists in, compiled lexicons out; and the compiled lexicon as a :class:`Lexicon`.

Word-list format (UTF-8 text, optionally gzip), shared by every language::

    # wordsvc word list v1
    # id: en-US
    # source: ...
    # columns: form<TAB>classes<TAB>rank
    café<TAB><TAB>60
    Derby<TAB>proper_noun<TAB>50

One line per reading: the form as the source spells it, comma-separated
classes (empty: an ordinary word), a commonness rank (smaller is more common;
empty if unknown).

A compiled lexicon is a folder:

``forms.marisa``   a marisa-trie of the normalized forms; a form's key id
                   indexes the two arrays below. Memory-mapped, so the server's
                   workers share one copy.
``readings.u16``   per key id, an index into ``meta.json``'s reading table
                   (each entry: the class sets of one form's readings).
``ranks.u8``       per key id, the best commonness rank (0: unknown).
``meta.json``      id, lang, version, source, licence, attribution,
                   fold_diacritics, entries, the reading table, and the
                   sha256 of the three binary files.

Forms are normalized by :func:`wordsvc.core.text.normalize`, the same
function that normalizes a word at lookup.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import mmap
import os
from array import array
from collections.abc import Iterable, Iterator
from itertools import chain, compress, filterfalse, repeat
from operator import itemgetter
from pathlib import Path
from typing import IO, NamedTuple

import marisa_trie

from ..core.lexicon import KNOWN_CLASSES, LexiconInfo, Readings, add_folded_forms
from ..core.text import fold_diacritics, normalize

__all__ = ["FORMAT", "Columns", "CompiledLexicon", "LexiconFormatError", "columns_of", "compile_lexicon", "read_wordlist", "read_wordlist_columns"]

FORMAT = "wordsvc-lexicon/1"
#: Bumped whenever compiling gives different output for the same word list, so `wordsvc build` redoes it.
COMPILER = 2
_FILES = ("forms.marisa", "readings.u16", "ranks.u8")


class LexiconFormatError(ValueError):
    """A word list or compiled lexicon that does not follow the format."""


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8", newline="\n")
    return path.open(encoding="utf-8", newline="\n")


class Columns(NamedTuple):
    """A word list's rows as three parallel lists: what :func:`compile_lexicon` works on, millions of rows at C speed."""

    forms: list[str]
    classes: list[frozenset[str]]
    ranks: list[int | None]


def read_wordlist(path: str | Path) -> tuple[dict[str, str], Iterator[tuple[str, frozenset[str], int | None]]]:
    """The header fields (``# key: value`` lines) and an iterator of ``(form, classes, rank)``."""
    path = Path(path)
    header: dict[str, str] = {}
    with _open_text(path) as handle:
        for line in handle:
            if not line.startswith("#"):
                break
            key, _, value = line[1:].partition(":")
            if value:
                header[key.strip()] = value.strip()
    return header, _rows(path)


def read_wordlist_columns(path: str | Path) -> tuple[dict[str, str], Columns]:
    """The header fields and every row, as :class:`Columns`: the rows :func:`read_wordlist` gives, in its order.

    Why: reading 3.7 million Icelandic rows one line at a time, a tuple and a
    frozenset each, cost more than the rest of compiling. Here the file is
    decompressed and split whole, and each distinct classes field and rank
    is parsed once (a word list has a handful of each). A file the bulk
    split does not take as it is (a comment or blank line among the rows, a
    row without three columns, an unknown class, a rank that is no number)
    is read row by row instead, which raises the same error as
    :func:`read_wordlist`'s rows, naming the line.
    """
    path = Path(path)
    with _open_text(path) as handle:
        text = handle.read()
    header, start = _header(text)
    columns = _split_rows(text[start:])
    return header, columns if columns is not None else columns_of(_rows(path))


def _header(text: str) -> tuple[dict[str, str], int]:
    """The ``# key: value`` fields of the comment lines ``text`` starts with, and where the first other line starts."""
    header: dict[str, str] = {}
    pos = 0
    while text.startswith("#", pos):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end + 1
        key, _, value = text[pos + 1 : end].partition(":")
        if value:
            header[key.strip()] = value.strip()
        pos = end
    return header, pos


def _split_rows(body: str) -> Columns | None:
    """The rows of ``body`` (the file after its header), or ``None`` when a line is not a plain row (see :func:`read_wordlist_columns`)."""
    lines = body.split("\n")
    if lines and not lines[-1]:
        lines.pop()  # the newline that ends the last row
    if not lines:
        return Columns([], [], [])
    if "\n#" in body or any(map(str.isspace, lines)) or set(map(str.count, lines, repeat("\t"))) - {2}:
        return None
    fields = "\t".join(lines).split("\t")
    names, numbers = fields[1::3], fields[2::3]
    classes: dict[str, frozenset[str]] = {}
    for text in set(names):
        classes[text] = frozenset(c for c in text.split(",") if c)
        if classes[text] - KNOWN_CLASSES:
            return None
    ranks: dict[str, int | None] = {}
    for text in set(numbers):
        try:
            ranks[text] = int(text) if text else None
        except ValueError:
            return None
    return Columns(fields[0::3], list(map(classes.__getitem__, names)), list(map(ranks.__getitem__, numbers)))


def columns_of(rows: Iterable[tuple[str, frozenset[str], int | None]]) -> Columns:
    """``(form, classes, rank)`` rows as :class:`Columns`."""
    found = list(zip(*rows, strict=True))
    return Columns(*map(list, found)) if found else Columns([], [], [])


def _rows(path: Path) -> Iterator[tuple[str, frozenset[str], int | None]]:
    with _open_text(path) as handle:
        for number, line in enumerate(handle, 1):
            if line.startswith("#") or not line.strip():
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3:
                raise LexiconFormatError(f"{path.name}:{number}: expected 3 tab-separated columns")
            form, classes, rank = parts
            names = frozenset(c for c in classes.split(",") if c)
            if names - KNOWN_CLASSES:
                raise LexiconFormatError(f"{path.name}:{number}: unknown class {sorted(names - KNOWN_CLASSES)}")
            yield form, names, int(rank) if rank else None


def compile_lexicon(rows: Columns | Iterable[tuple[str, frozenset[str], int | None]], out_dir: str | Path, meta: dict[str, object]) -> LexiconInfo:
    """Compile ``rows`` (or their :class:`Columns`) into ``out_dir``; ``meta`` gives id, lang, version, source, licence, ...

    A form's key is its :func:`~wordsvc.core.text.normalize`; a key's
    readings are the class sets of every row with that key, its rank the
    smallest rank given (capped at 255; 0 when none is). The work is done a
    column at a time (``map`` over lists, dicts built from ``zip``), so the
    3.7 million Icelandic rows compile in seconds rather than the better
    part of a minute a row at a time; only keys several rows share, and with
    ``fold_diacritics`` the keys that fold, are handled one by one. The
    files are the same bytes either way.
    """
    columns = rows if isinstance(rows, Columns) else columns_of(rows)
    row_of, entries, combos = _key_entries(columns, bool(meta.get("fold_diacritics")), str(meta.get("fold_keep", "")))
    # marisa lays out its trie from the set of keys alone (their order does not matter; a repeated key would weigh)
    trie = marisa_trie.Trie(row_of)
    by_id = [0] * len(trie)
    for key_id, entry in zip(map(trie.__getitem__, row_of), map(entries.__getitem__, row_of.values()), strict=True):
        by_id[key_id] = entry
    del row_of, entries
    # the reading table numbers combinations in the order the trie's iteration first meets them, as it always has
    met = dict.fromkeys(map(int.__rshift__, map(by_id.__getitem__, map(itemgetter(1), trie.iteritems())), repeat(8)))
    if len(met) > 0xFFFF:
        raise LexiconFormatError("more than 65535 distinct reading combinations")
    table = {code: n for n, code in enumerate(met)}
    reading_ids = array("H", map(table.__getitem__, map(int.__rshift__, by_id, repeat(8))))
    rank_bytes = bytes(map(int.__and__, by_id, repeat(0xFF)))
    del by_id
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Write beside, then rename: a running server keeps its memory-mapped old files intact.
    trie.save(str(out / "forms.marisa.new"))
    (out / "readings.u16.new").write_bytes(reading_ids.tobytes())
    (out / "ranks.u8.new").write_bytes(rank_bytes)
    for name in _FILES:
        os.replace(out / f"{name}.new", out / name)
    full = {
        **meta,
        "format": FORMAT,
        "compiler": COMPILER,
        "entries": len(trie),
        "readings": [[list(c) for c in combos[code]] for code in table],
        "sha256": _digest(out),
    }
    (out / "meta.json.new").write_text(json.dumps(full, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(out / "meta.json.new", out / "meta.json")
    return CompiledLexicon(out).info


Combo = tuple[tuple[str, ...], ...]


def _combo(readings: Iterable[frozenset[str]]) -> Combo:
    """A key's readings as the reading table holds them: each class set sorted, the sets sorted."""
    return tuple(sorted(tuple(sorted(classes)) for classes in readings))


def _key_entries(columns: Columns, fold: bool, keep: str = "") -> tuple[dict[str, int], list[int], list[Combo]]:
    """Each key's entry, ``readings << 8 | rank``: a row number by key (keys in order of their first row) and the entries by row; and the readings by number.

    ``readings`` numbers a :func:`_combo` in the list returned (a number
    hashes at once; a tuple of tuples anew at every look-up); ``rank`` is
    the smallest rank of the key's rows, capped at 255, 0 for none. Most
    keys have one row, and are taken a column at a time; the keys several
    rows share are merged after. With ``fold``, the plain spelling of a key
    with diacritics gets its readings too
    (:func:`~wordsvc.core.lexicon.add_folded_forms`, run on just the keys
    that fold and their plain spellings, in the same order).
    """
    forms, classes, ranks = columns
    keys = list(map(normalize, forms))
    numbers: dict[Combo, int] = {}

    def number(combo: Combo) -> int:
        return numbers.setdefault(combo, len(numbers))

    readings = {found: number(_combo([found])) << 8 for found in set(classes)}
    rank_byte = {rank: 0 if rank is None else min(rank, 255) for rank in set(ranks)}
    values = list(map(int.__or__, map(readings.__getitem__, classes), map(rank_byte.__getitem__, ranks)))
    last = dict(zip(keys, range(len(keys)), strict=True))  # each key's last row
    if len(last) < len(keys):
        several: dict[str, set[frozenset[str]]] = {}
        best: dict[str, int] = {}
        earlier = compress(range(len(keys)), map(int.__ne__, map(last.__getitem__, keys), range(len(keys))))
        for row in chain.from_iterable((row, last[keys[row]]) for row in earlier):
            key, rank = keys[row], ranks[row]
            several.setdefault(key, set()).add(classes[row])
            if rank is not None:
                best[key] = min(rank, best.get(key, rank))
        for key, found in several.items():
            values[last[key]] = number(_combo(found)) << 8 | min(best.get(key, 0), 255)
    if fold:
        combos = list(numbers)
        plain = {fold_diacritics(key, keep) for key in filterfalse(str.isascii, last)}
        table = {key: set(map(frozenset, combos[values[row] >> 8])) for key, row in last.items() if key in plain or not key.isascii()}
        add_folded_forms(table, keep)
        for key, found in table.items():
            row = last.setdefault(key, len(values))  # a plain spelling of its own, or a new key with no rank
            if row == len(values):
                values.append(0)
            values[row] = number(_combo(found)) << 8 | values[row] & 0xFF
    return last, values, list(numbers)


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for name in _FILES:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


class CompiledLexicon:
    """A compiled lexicon folder, memory-mapped: loads in milliseconds, shared by workers."""

    def __init__(self, folder: str | Path):
        folder = Path(folder)
        try:
            meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise LexiconFormatError(f"{folder.name}: no readable meta.json") from err
        if meta.get("format") != FORMAT:
            raise LexiconFormatError(f"{folder.name}: format {meta.get('format')!r}, expected {FORMAT}")
        self.folder = folder
        self._trie = marisa_trie.Trie()
        self._trie.mmap(str(folder / "forms.marisa"))
        self._readings_map = map_file(folder / "readings.u16")
        self._reading_ids = memoryview(self._readings_map).cast("H")
        self._ranks_map = map_file(folder / "ranks.u8")
        self._table: tuple[Readings, ...] = tuple(tuple(frozenset(c) for c in combo) for combo in meta["readings"])
        self.info = LexiconInfo(
            id=meta["id"],
            lang=meta["lang"],
            version=meta["version"],
            sha256=meta["sha256"],
            entries=meta["entries"],
            source=meta.get("source", ""),
            licence=meta.get("licence", ""),
            attribution=meta.get("attribution", ""),
            fold_diacritics=bool(meta.get("fold_diacritics", False)),
            fold_keep=str(meta.get("fold_keep", "")),
        )

    def readings(self, form: str) -> Readings:
        key_id = self._trie.get(form)
        if key_id is None:
            return ()
        return self._table[self._reading_ids[key_id]]

    def at_hand(self, form: str) -> bool:
        return True  # a memory-mapped trie: a look-up never waits

    def rank(self, form: str) -> int | None:
        key_id = self._trie.get(form)
        return None if key_id is None or not self._ranks_map[key_id] else self._ranks_map[key_id]

    def forms(self) -> Iterator[str]:
        return self._trie.iterkeys()

    def prefixed(self, prefix: str) -> Iterator[str]:
        return self._trie.iterkeys(prefix)

    def has_prefix(self, prefix: str) -> bool:
        return self._trie.has_keys_with_prefix(prefix)

    def __len__(self) -> int:
        return len(self._trie)


def map_file(path: Path) -> mmap.mmap | bytes:
    """``path`` memory-mapped read-only (shared by every process that maps it); an empty file is ``b""``."""
    with path.open("rb") as handle:
        if path.stat().st_size == 0:
            return b""
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)

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
from pathlib import Path
from typing import IO

import marisa_trie

from ..core.lexicon import KNOWN_CLASSES, LexiconInfo, Readings, add_folded_forms
from ..core.text import normalize

__all__ = ["FORMAT", "CompiledLexicon", "LexiconFormatError", "compile_lexicon", "read_wordlist"]

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


def compile_lexicon(rows: Iterable[tuple[str, frozenset[str], int | None]], out_dir: str | Path, meta: dict[str, object]) -> LexiconInfo:
    """Compile ``rows`` into ``out_dir``; ``meta`` gives id, lang, version, source, licence, ..."""
    readings: dict[str, set[frozenset[str]]] = {}
    ranks: dict[str, int] = {}
    for form, classes, rank in rows:
        key = normalize(form)
        readings.setdefault(key, set()).add(classes)
        if rank is not None:
            ranks[key] = min(rank, ranks.get(key, rank))
    if meta.get("fold_diacritics"):
        add_folded_forms(readings)
    trie = marisa_trie.Trie(readings.keys())
    table: dict[tuple[tuple[str, ...], ...], int] = {}
    reading_ids = array("H", bytes(2 * len(trie)))
    rank_bytes = bytearray(len(trie))
    for key, key_id in trie.iteritems():
        combo = tuple(sorted(tuple(sorted(c)) for c in readings[key]))
        reading_ids[key_id] = table.setdefault(combo, len(table))
        rank_bytes[key_id] = min(ranks.get(key, 0), 255)
    if len(table) > 0xFFFF:
        raise LexiconFormatError("more than 65535 distinct reading combinations")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Write beside, then rename: a running server keeps its memory-mapped old files intact.
    trie.save(str(out / "forms.marisa.new"))
    (out / "readings.u16.new").write_bytes(reading_ids.tobytes())
    (out / "ranks.u8.new").write_bytes(bytes(rank_bytes))
    for name in _FILES:
        os.replace(out / f"{name}.new", out / name)
    full = {
        **meta,
        "format": FORMAT,
        "compiler": COMPILER,
        "entries": len(trie),
        "readings": [[list(c) for c in combo] for combo in sorted(table, key=table.__getitem__)],
        "sha256": _digest(out),
    }
    (out / "meta.json.new").write_text(json.dumps(full, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(out / "meta.json.new", out / "meta.json")
    return CompiledLexicon(out).info


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

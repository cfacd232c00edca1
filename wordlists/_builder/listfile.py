"""The wordsvc word list v1, as the builders write it (docs/data.md reads it).

A header of ``# key: value`` lines, then one row a line,
``form<TAB>classes<TAB>rank``, UTF-8, LF. The builder gives the rows sorted;
this module writes them, gzip-compressed when the path ends in ``.gz``, so
that the same rows give the same bytes: no time (``mtime`` 0) and no file
name in the gzip header. The bytes of every list are recorded
(``list_sha256`` in each manifest, checked by tests/test_wordlist_bytes.py).
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
from collections.abc import Iterable
from pathlib import Path

from .sources import file_sha256

__all__ = ["FORMAT", "debian_header", "header", "write_list"]

#: The first line of every list: the format and its version.
FORMAT = "# wordsvc word list v1"
#: Rows joined and written at a time: fewer writes than one a row, a bounded piece of memory (4.3 million Polish rows).
CHUNK_ROWS = 1 << 18


def header(list_id: str, version: str, source: str, filter: str | None = None) -> str:
    """The header lines of a list, each ending in a newline: format, id, version, source, ``filter`` (what the builder dropped
    and classed) when it has one, columns."""
    lines = [FORMAT, f"# id: {list_id}", f"# version: {version}", f"# source: {source}"]
    if filter is not None:
        lines.append(f"# filter: {filter}")
    lines.append("# columns: form\tclasses\trank")
    return "".join(line + "\n" for line in lines)


def debian_header(list_id: str, package: str, version: str, source: Path, filter: str, *, house: int, origin: str = "Debian") -> str:
    """The header of a list filtered from one file of one Debian package: what it was built from, named whole.

    Version ``<package>-<version>-house<house>`` (``house``: the filter's
    version, bumped whenever it decides differently); source ``<package>
    <version> (<origin>), <file> sha256 <hex>``.
    """
    return header(list_id, f"{package}-{version}-house{house}", f"{package} {version} ({origin}), {source} sha256 {file_sha256(source)}", filter)


def write_list(out: str | Path, head: str, rows: Iterable[str] | Iterable[bytes], *, level: int = 6, sync_flush: bool = False) -> None:
    """Write ``head`` and ``rows`` (each a line without its newline, text or UTF-8 bytes) to ``out``.

    Gzip-compressed when ``out`` ends in ``.gz``, at ``level`` (6: a fifth of
    level 9's time for about 1 % more), with no name and ``mtime`` 0. Bytes
    rows let a large list keep half the memory (most Polish rows hold a
    letter beyond Latin-1, which makes a str two bytes a character).
    ``ValueError`` when a row is not three columns (a field holding a tab).

    ``sync_flush``: flush the compressor once (``Z_SYNC_FLUSH``) before the
    stream ends. The German, Spanish and Icelandic lists were first written
    through a text layer whose closing does so; those bytes are part of
    their recorded sha256s, and a list keeps its bytes.
    """
    with contextlib.ExitStack() as stack:
        raw = stack.enter_context(open(out, "wb"))
        packed = None
        if str(out).endswith(".gz"):
            packed = stack.enter_context(gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=level, mtime=0))
        sink = packed or raw
        sink.write(head.encode("utf-8"))
        iterator = iter(rows)
        while chunk := list(itertools.islice(iterator, CHUNK_ROWS)):
            data = b"\n".join(chunk) + b"\n" if isinstance(chunk[0], bytes) else ("\n".join(chunk) + "\n").encode("utf-8")  # type: ignore[arg-type]
            if data.count(b"\t") != 2 * len(chunk):  # three columns a row, and no field holds a tab
                raise ValueError(f"{out}: a row without three columns, or a field holding a tab, among rows {chunk[0]!r} to {chunk[-1]!r}")
            sink.write(data)
        if packed is not None and sync_flush:
            packed.flush()

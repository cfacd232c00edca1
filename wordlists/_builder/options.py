"""The command line every builder shares: ``--out``, and for a builder of one source list ``--source`` and ``--package-version``."""

from __future__ import annotations

import argparse
from pathlib import Path

__all__ = ["parser"]


def parser(doc: str, *, source: Path | None = None, package: str | None = None, out: bool = True) -> argparse.ArgumentParser:
    """An argument parser described by the first line of ``doc`` (the builder's docstring).

    ``out``: the required ``--out`` path (gzip-compressed if it ends in
    ``.gz``). ``source``: ``--source`` (also spelled ``--input``), the list
    read, by default ``source``. ``package``: ``--package-version`` (also
    spelled ``--version``), the version of the Debian package the list is
    named after, by default the installed one.
    """
    made = argparse.ArgumentParser(description=doc.split("\n", 1)[0])
    if out:
        made.add_argument("--out", required=True, type=Path, help="output path; gzip-compressed if it ends in .gz")
    if source is not None:
        made.add_argument("--source", "--input", type=Path, default=source, help=f"the word list (default: {source})")
    if package is not None:
        made.add_argument("--package-version", "--version", dest="package_version", help=f"the {package} version to name (default: the installed one, from dpkg-query)")
    return made

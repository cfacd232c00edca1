"""A builder's sources: the lists it reads, their sha256, the Debian package version each comes from.

A list's header names what it was built from (package, version, the sha256
of every file read), so two lists with the same header are the same list.
"""

from __future__ import annotations

import hashlib
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path

__all__ = ["debian_version", "entries", "file_sha256", "package_version"]


def entries(path: Path, *, package: str | None = None, nfc: bool = True, strict: bool = False) -> Iterator[str]:
    """The entries of a plain list (one a line, UTF-8), read as they come; empty lines skipped.

    ``nfc``: each entry in NFC (the form the service compares). ``strict``:
    ``ValueError`` for an entry holding whitespace other than a space (a tab
    would corrupt the list's columns). A missing file is ``SystemExit``
    naming the Debian ``package`` that installs it.
    """
    if not path.is_file():
        raise SystemExit(f"{path}: no such file" + (f"; install the Debian package {package} (make setup does)" if package else ""))
    with path.open(encoding="utf-8", newline="\n") as handle:
        for line in handle:
            entry = line.rstrip("\n")
            if not entry:
                continue
            if nfc:
                entry = unicodedata.normalize("NFC", entry)
            if strict and any(ch.isspace() and ch != " " for ch in entry):
                raise ValueError(f"{path}: whitespace inside the entry {entry!r}")
            yield entry


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read a megabyte at a time (the Polish list is 60 MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def debian_version(package: str, default: str | None = None) -> str | None:
    """The installed version of a Debian package (``dpkg-query``), or ``default`` when it cannot be told."""
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return default
    return out.stdout.strip() or default


def package_version(package: str, given: str | None = None) -> str:
    """``given``, else the installed version of ``package``: it names the list's version, so it must be known (``SystemExit``)."""
    version = given or debian_version(package)
    if not version:
        raise SystemExit(f"cannot read the version of the Debian package {package} (apt-get install {package}; make setup does); give --package-version")
    return version

"""What every word-list builder shares: the list file, its sources, the command line, the hunspell expander.

A builder (``wordlists/<folder>/build_*.py``) holds its language's rules
only: which entries are dropped, which classes a form carries, and the
counts it prints. Everything else is here, once:

- :mod:`.listfile`: the wordsvc word list v1 (its header, and the header of
  a list filtered from one Debian package's file; one row a line,
  written byte for byte the same from the same rows: gzip ``mtime`` 0, no
  file name);
- :mod:`.sources`: reading a source list, its sha256, the installed version
  of the Debian package it comes from;
- :mod:`.filtering`: the filter loop of a plain list, given the language's
  drop and class rules;
- :mod:`.options`: the options every builder takes (``--out``, ``--source``,
  ``--package-version``);
- :mod:`.hunspell`: a hunspell ``.dic`` + ``.aff`` expanded into its forms
  (Spanish and German).

Text is folded by :mod:`wordsvc.core.text`, the rule the service looks words
up with (a builder decides what a card lays with the same folding the
lexicon is compiled with). The kit is standard library only, and
``wordsvc.core`` is too, so a builder runs from a checkout before the
project is installed.
"""

from .filtering import filter_entries
from .listfile import debian_header, header, write_list
from .options import parser
from .sources import debian_version, entries, file_sha256, package_version

__all__ = ["debian_header", "debian_version", "entries", "file_sha256", "filter_entries", "header", "package_version", "parser", "write_list"]

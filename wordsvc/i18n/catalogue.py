"""One language's words, read by the standard library's ``gettext`` from a compiled catalogue.

Each language is one ``.po`` file in ``locales/`` (docs/translations.md). The
first process to need a file's words compiles it (:mod:`.compiler`, Babel)
into a cache named by the sha256 of the file's bytes; every later process,
and every worker, reads the ``.mo`` from there with ``gettext`` alone, in a
few milliseconds. The cache is outside the checkout
(``$XDG_CACHE_HOME/wordsvc/i18n``, else ``~/.cache/wordsvc/i18n``), so
neither the suite nor the service rewrites a tracked file; an edit to a
``.po`` file gives it a new name, so a stale ``.mo`` is never read. Where the
cache cannot be written the catalogue is compiled in memory each start.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import os
import tempfile
from functools import cache
from pathlib import Path

__all__ = ["LOCALE_FILES", "Catalogue", "cache_dir", "load"]

#: The folder of the ``.po`` files, one a language: ``locales/<code>.po``.
LOCALE_FILES = Path(__file__).resolve().parent / "locales"
#: Bumped when the compiled form changes (what :mod:`.compiler` adds), so that no older ``.mo`` is read.
_COMPILED_FORM = b"wordsvc-i18n-1"


class Catalogue(gettext.GNUTranslations):
    """A compiled catalogue: gettext's lookups (``gettext``, ``pgettext``, ``npgettext``), and its entries by context.

    The ``msgctxt`` of an entry says who reads it: none for the API's messages,
    ``page`` for the pages, ``document`` for the printed documents,
    ``language`` for the language's own name.
    """

    def texts(self, context: str | None) -> dict[str, str]:
        """Every singular entry of ``context`` (``None``: those without one), key -> text."""
        prefix = "" if context is None else f"{context}\x04"
        # gettext keeps the parsed entries in ``_catalog`` (str keys, (msgid, form) for plural ones): it has no public way to list them
        return {
            key[len(prefix) :]: text
            for key, text in self._catalog.items()
            if isinstance(key, str) and key and key.startswith(prefix) and (context is not None or "\x04" not in key)
        }

    def plurals(self, context: str) -> dict[str, dict[str, str]]:
        """Every plural entry of ``context``: key -> CLDR category -> text, in the language's form order."""
        prefix = f"{context}\x04"
        out: dict[str, dict[str, str]] = {}
        for key in sorted(k for k in self._catalog if isinstance(k, tuple) and k[0].startswith(prefix)):
            out.setdefault(key[0][len(prefix) :], {})[self.categories[key[1]]] = self._catalog[key]
        return out

    @property
    def language(self) -> str:
        """The BCP 47 tag of the file's ``Language`` header (``pt-PT``): whose CLDR plural rules its forms follow."""
        return self.info()["language"].replace("_", "-")

    @property
    def categories(self) -> tuple[str, ...]:
        """The language's CLDR plural categories, form 0 first (written in by :func:`.compiler.compile_po`)."""
        return tuple(self.pgettext("cldr", "plural-categories").split())

    def category(self, n: int) -> str:
        """The CLDR plural category the ``Plural-Forms`` header gives the whole number ``n``."""
        return self.categories[self.plural(n)]


def cache_dir() -> Path:
    """Where compiled catalogues are kept: ``$XDG_CACHE_HOME/wordsvc/i18n``, else ``~/.cache/wordsvc/i18n``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "wordsvc" / "i18n"


def _compiled(path: Path) -> bytes:
    source = path.read_bytes()
    name = f"{path.stem}-{hashlib.sha256(_COMPILED_FORM + source).hexdigest()[:24]}.mo"
    cached = cache_dir() / name
    try:
        return cached.read_bytes()
    except OSError:
        pass
    from .compiler import compile_po  # Babel, only when this file's bytes were never compiled here

    compiled = compile_po(path)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cached.parent, prefix=f".{name}.", delete=False) as out:
            out.write(compiled)
        os.replace(out.name, cached)  # whole or not at all: workers starting together may race here
    except OSError:
        pass  # a read-only home: compiled again next start, still correct
    return compiled


@cache
def load(locale: str) -> Catalogue:
    """The catalogue of ``locale`` (a file ``locales/<locale>.po``), compiled once per process; :class:`FileNotFoundError` if none."""
    return Catalogue(io.BytesIO(_compiled(LOCALE_FILES / f"{locale}.po")))

"""Compiling a language's ``.po`` file into gettext's binary ``.mo`` form, with Babel.

The one place that imports Babel. :mod:`.catalogue` calls :func:`compile_po`
only when its cache holds no ``.mo`` for a file's exact bytes, so a running
service reads its words with the standard library alone (``gettext``) and
imports Babel once per edit of a ``.po`` file, not once per start.

Besides the messages, the compiled catalogue carries the names of the
language's CLDR plural categories (``msgctxt "cldr"``, ``msgid
"plural-categories"``: ``one few many other`` for Polish), in the order the
``Plural-Forms`` expression numbers them. gettext itself only knows form
numbers; the names are what Babel's CLDR data (``Locale.plural_form``) and
the browser's ``Intl.PluralRules`` speak, so the documents' plural forms can
be shown and checked by name (docs/translations.md, "Plurals").
"""

from __future__ import annotations

import io
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

__all__ = ["CATEGORIES_CONTEXT", "CATEGORIES_ID", "CLDR_ORDER", "compile_po"]

#: CLDR's plural categories in the order Babel's ``to_gettext`` numbers a language's forms (the ``Plural-Forms`` header).
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")
CATEGORIES_CONTEXT = "cldr"
CATEGORIES_ID = "plural-categories"


def plural_categories(language: str) -> tuple[str, ...]:
    """The CLDR plural categories of ``language`` (a ``Language`` header such as ``pl`` or ``pt_PT``), in form order.

    >>> plural_categories("pl"), plural_categories("en")
    (('one', 'few', 'many', 'other'), ('one', 'other'))
    """
    tags = Locale.parse(language).plural_form.tags | {"other"}
    return tuple(tag for tag in CLDR_ORDER if tag in tags)


def compile_po(path: Path) -> bytes:
    """The ``.mo`` bytes of the ``.po`` file at ``path``, its language's plural category names added.

    Raises :class:`ValueError` when the header's ``Plural-Forms`` count differs from the
    language's CLDR categories, so that a wrong header fails at the first load rather than
    choosing the wrong form.
    """
    with path.open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    categories = plural_categories(str(catalog.locale))
    if catalog.num_plurals != len(categories):
        raise ValueError(f"{path.name}: Plural-Forms has {catalog.num_plurals} forms, CLDR gives {catalog.locale} {len(categories)}: {categories}")
    catalog.add(CATEGORIES_ID, " ".join(categories), context=CATEGORIES_CONTEXT)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()

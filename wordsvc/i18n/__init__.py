"""The words people read, in every language the service speaks: one gettext catalogue a language (docs/translations.md).

``locales/<code>.po`` holds all of a language's words: the API's messages
(verdict reasons, error titles), the pages' words (``msgctxt "page"``), the
printed documents' (``msgctxt "document"``, plural ones with one form per
CLDR plural category) and the language's own name. Keys are the msgids and
never change; English is a language file like the others.

Read at run time with the standard library's ``gettext`` (:mod:`.catalogue`),
so :mod:`wordsvc.core` may render a verdict's reason with it and stay
standard-library only; the mappings below load a language on first use.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import TypeVar

from .catalogue import load

__all__ = [
    "CATALOG",
    "DEFAULT_LOCALE",
    "DOCUMENT_CATALOG",
    "DOCUMENT_LOCALES",
    "DOCUMENT_PLURALS",
    "LANGUAGE_TAGS",
    "LOCALES",
    "LOCALE_NAMES",
    "PAGE_CATALOG",
    "PAGE_PLURALS",
    "PLURAL_CATEGORIES",
    "document_count",
    "document_text",
    "plural_category",
    "render",
]

DEFAULT_LOCALE = "en"
#: The languages, in the order the pages' language switch lists them; each is a file ``locales/<code>.po``.
LOCALES = ("en", "et", "is", "de", "es", "fr", "nl", "pl", "it", "pt", "da")
DOCUMENT_LOCALES = LOCALES

T = TypeVar("T")


class _ByLocale(Mapping[str, T]):
    """locale -> what ``make`` reads from its catalogue, read on first use and kept."""

    def __init__(self, make: Callable[[str], T]) -> None:
        self._make = cache(make)

    def __getitem__(self, locale: str) -> T:
        if locale not in LOCALES:
            raise KeyError(locale)
        return self._make(locale)

    def __iter__(self) -> Iterator[str]:
        return iter(LOCALES)

    def __len__(self) -> int:
        return len(LOCALES)


#: locale -> key -> template of the API's messages and the pages' words (the pages' keys start ``page.``, ``console.``, ...).
CATALOG: Mapping[str, dict[str, str]] = _ByLocale(lambda locale: {**load(locale).texts(None), **load(locale).texts("page")})
#: locale -> key -> template of the pages' words alone.
PAGE_CATALOG: Mapping[str, dict[str, str]] = _ByLocale(lambda locale: load(locale).texts("page"))
#: locale -> key -> CLDR category -> template of the pages' texts that hold a count (the browser picks the form: docs/translations.md).
PAGE_PLURALS: Mapping[str, dict[str, dict[str, str]]] = _ByLocale(lambda locale: load(locale).plurals("page"))
#: locale -> key -> template of the printed documents' words.
DOCUMENT_CATALOG: Mapping[str, dict[str, str]] = _ByLocale(lambda locale: load(locale).texts("document"))
#: locale -> key -> CLDR category -> template of the documents' texts that hold a count ``{n}``.
DOCUMENT_PLURALS: Mapping[str, dict[str, dict[str, str]]] = _ByLocale(lambda locale: load(locale).plurals("document"))
#: locale -> the CLDR plural categories of its language, in its ``Plural-Forms`` order.
PLURAL_CATEGORIES: Mapping[str, tuple[str, ...]] = _ByLocale(lambda locale: load(locale).categories)
#: locale -> the BCP 47 tag whose CLDR plural rules the language's file follows (``pt-PT`` for ``pt``), for the browser's ``Intl.PluralRules``.
LANGUAGE_TAGS: Mapping[str, str] = _ByLocale(lambda locale: load(locale).language)
#: locale -> the language's name in itself, for the language switch.
LOCALE_NAMES: Mapping[str, str] = _ByLocale(lambda locale: load(locale).pgettext("language", "name"))


def render(key: str, locale: str = DEFAULT_LOCALE, params: Mapping[str, object] | None = None) -> str:
    """The message ``key`` in ``locale`` (falling back to English), filled with ``params``."""
    catalog = CATALOG.get(locale, CATALOG[DEFAULT_LOCALE])
    template = catalog.get(key) or CATALOG[DEFAULT_LOCALE][key]
    return template.format(**(params or {}))


def document_text(locale: str, key: str, **fields: object) -> str:
    """The document text ``key`` in ``locale`` (English when the locale is not one of ours), its braces filled from ``fields``.

    >>> document_text("is", "session", n=2)
    'Lota 2'
    """
    catalog = DOCUMENT_CATALOG.get(locale, DOCUMENT_CATALOG[DEFAULT_LOCALE])
    return catalog[key].format(**fields) if fields else catalog[key]


def plural_category(locale: str, n: int) -> str:
    """The CLDR plural category of the whole number ``n`` in ``locale`` (English's for a locale not ours), by its ``Plural-Forms``.

    >>> [plural_category("pl", n) for n in (1, 2, 5, 12, 22)]
    ['one', 'few', 'many', 'many', 'few']
    >>> [plural_category("is", n) for n in (1, 11, 21)]
    ['one', 'other', 'one']
    """
    return load(locale if locale in LOCALES else DEFAULT_LOCALE).category(n)


def document_count(locale: str, key: str, n: int, **fields: object) -> str:
    """The plural document text ``key`` for the count ``n`` (gettext's ``npgettext``), filled with ``n`` and ``fields``.

    >>> document_count("pl", "audit.line.tables", 3), document_count("pl", "audit.line.tables", 5)
    ('3 stoły', '5 stołów')
    """
    catalogue = load(locale if locale in LOCALES else DEFAULT_LOCALE)
    return catalogue.npgettext("document", key, key, n).format(n=n, **fields)

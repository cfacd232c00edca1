"""The service's words in further languages, one module a locale: NAME, MESSAGES, PAGES, DOCUMENTS and DOCUMENT_PLURALS.

English, Estonian and Icelandic are written in the catalogues themselves
(:mod:`..messages`, :mod:`..page_messages`, :mod:`..document_messages`),
which merge every module here; a test holds each to the English keys and
placeholders (tests/test_messages.py). A new language's module is listed in
:data:`MODULES` (docs/languages.md).
"""

from __future__ import annotations

from types import ModuleType

from . import da, de, es, fr, it, nl, pl, pt

__all__ = ["MODULES"]

#: Locale code -> its module, in the order the language switch lists them after English, Estonian and Icelandic.
MODULES: dict[str, ModuleType] = {"de": de, "es": es, "fr": fr, "nl": nl, "pl": pl, "it": it, "pt": pt, "da": da}

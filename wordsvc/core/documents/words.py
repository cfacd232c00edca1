"""The words of one document: its locale's texts, with the yes/no, roles, plural forms and numbers every document shares.

A document is printed in its event's language whatever the reader's own
(docs/documents.md, "Language"); everything shown that is not a name or an
identifier comes through here, so that no English word is left in another
language's document.
"""

from __future__ import annotations

from fractions import Fraction

from ...i18n import DOCUMENT_CATALOG, document_count, document_text
from ..standings import DECIMALS, rounded

__all__ = ["Words"]


class Words:
    """The document texts of ``locale`` (English for a locale we do not print in): ``words(key, **fields)``."""

    def __init__(self, locale: str) -> None:
        self.locale = locale if locale in DOCUMENT_CATALOG else "en"

    def __call__(self, key: str, **fields: object) -> str:
        return document_text(self.locale, key, **fields)

    def has(self, key: str) -> bool:
        return key in DOCUMENT_CATALOG[self.locale]

    def count(self, key: str, n: int, **fields: object) -> str:
        """The plural text ``key`` in the form the language gives the count ``n``."""
        return document_count(self.locale, key, n, **fields)

    def answer(self, value: object) -> str:
        return self("yes") if value else self("no")

    def role(self, role: object) -> str:
        """A token's role in the language (an unknown one as it is named)."""
        return self(f"role.{role}") if self.has(f"role.{role}") else str(role)

    def number(self, value: object, decimals: int = DECIMALS) -> str:
        """A standings number as every screen shows it (:func:`wordsvc.core.standings.rounded`: the format's ``decimals``), with the language's decimal sign (``12,5``).

        >>> Words("is").number(12.5), Words("en").number(2 / 3), Words("de").number(3), Words("de").number(0.125, 1)
        ('12,5', '0.67', '3', '0,1')
        """
        if isinstance(value, Fraction):
            value = float(value)
        if isinstance(value, (float, int)) and not isinstance(value, bool):
            return rounded(value, decimals).replace(".", self("decimal"))
        return "" if value is None else str(value)

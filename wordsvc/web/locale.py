"""Choosing the language of messages: ``?locale=`` first, then ``Accept-Language`` with q-values."""

from __future__ import annotations

from ..i18n import DEFAULT_LOCALE, LOCALES

__all__ = ["negotiate"]


def negotiate(query_locale: str | None, accept_language: str | None) -> str:
    """The best locale we speak (those of the message catalogue: en, et, is, de, es); English when the client names none we have.

    A tag counts by its primary subtag, so ``es-ES`` and ``de-AT`` are ``es`` and ``de``.

    >>> negotiate(None, "fr;q=0.9, es-ES;q=0.8, en;q=0.5")
    'es'
    >>> negotiate("de-DE", "is")
    'de'
    """
    if query_locale:
        primary = query_locale.strip().lower().split("-")[0]
        if primary in LOCALES:
            return primary
    choices: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:32]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LOCALES and quality > 0:
            choices.append((-quality, index, primary))
    return min(choices)[2] if choices else DEFAULT_LOCALE

"""Human-readable messages for reason codes and error titles, per locale.

Codes never change; messages are for people and come in every locale the
service speaks. :data:`CATALOG` maps locale -> key -> template; a test checks
that every locale has every key. ``str.format`` fields name the parameters a
reason carries.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["CATALOG", "LOCALES", "DEFAULT_LOCALE", "render"]

DEFAULT_LOCALE = "en"

CATALOG: dict[str, dict[str, str]] = {
    "en": {
        "reason.not_in_lexicon": "'{word}' is not in the {lexicon} lexicon.",
        "reason.banned_class": "'{word}' is only a word in a class this ruleset bans: {class_label}.",
        "reason.house_refused": "'{word}' is refused by this ruleset's house rules.",
        "reason.too_short": "A word needs at least {min_cards} card(s) and {min_letters} letter(s).",
        "reason.too_long": "'{word}' needs more cards than the largest hand ({max_cards}).",
        "reason.not_spellable": "The deck cannot lay '{word}': {why}.",
        "reason.invalid_characters": "A word holds only letters.",
        "why.missing_letters": "no card has {letters}",
        "why.too_many_copies": "it needs more copies of a card than the deck holds",
        "why.unknown_cards": "no card reads {cards}",
        "class.proper_noun": "proper noun",
        "class.abbreviation": "abbreviation",
        "class.contraction": "contraction",
        "class.possessive": "possessive",
        "class.hyphenated": "hyphenated word",
        "class.prefix": "prefix",
        "class.suffix": "suffix",
        "class.compound": "compound",
        "class.clitic": "form with a clitic",
        "class.obsolete": "obsolete form",
        "class.rare": "rare form",
        "title.bad_request": "Malformed request",
        "title.invalid_request": "Invalid request",
        "title.not_found": "Not found",
        "title.method_not_allowed": "Method not allowed",
        "title.payload_too_large": "Request body too large",
        "title.unsupported_media_type": "Unsupported media type",
        "title.internal_error": "Internal server error",
        "title.not_ready": "Not ready",
    },
}

LOCALES = tuple(CATALOG)


def render(key: str, locale: str = DEFAULT_LOCALE, params: Mapping[str, object] | None = None) -> str:
    """The message ``key`` in ``locale`` (falling back to English), filled with ``params``."""
    catalog = CATALOG.get(locale, CATALOG[DEFAULT_LOCALE])
    template = catalog.get(key) or CATALOG[DEFAULT_LOCALE][key]
    return template.format(**(params or {}))

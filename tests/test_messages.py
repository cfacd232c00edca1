"""The message catalogues in every language: the same keys as English, the same fields, a name for the switch, a locale the API and the documents choose.

The pages and the service fill a message's braces by name: a translation that drops a field loses what it says
(the player, the round), one that adds or misspells a field shows ``{plyer}`` raw on a page or raises in the
service. So every translated message carries exactly the English one's fields.
"""

from __future__ import annotations

import re
import string

import pytest

from wordsvc.core import documents as docs
from wordsvc.i18n import CATALOG, DOCUMENT_CATALOG, DOCUMENT_LOCALES, LOCALE_NAMES, LOCALES, PAGE_CATALOG, render
from wordsvc.web.locale import negotiate

FIELD = re.compile(r"\{(\w*)\}")
NEW_LOCALES = ("de", "es")


def fields(template: str) -> set[str]:
    return set(FIELD.findall(template))


@pytest.mark.parametrize("catalogue", [CATALOG, PAGE_CATALOG, DOCUMENT_CATALOG], ids=["messages", "pages", "documents"])
def test_every_locale_has_every_english_key_and_no_other(catalogue: dict[str, dict[str, str]]) -> None:
    english = set(catalogue["en"])
    for locale, texts in catalogue.items():
        assert set(texts) == english, f"{locale}: missing {sorted(english - set(texts))}, extra {sorted(set(texts) - english)}"
        assert all(text.strip() for text in texts.values()), locale


@pytest.mark.parametrize("catalogue", [CATALOG, DOCUMENT_CATALOG], ids=["messages and pages", "documents"])
def test_every_translated_message_has_exactly_the_english_fields(catalogue: dict[str, dict[str, str]]) -> None:
    english = catalogue["en"]
    wrong = [
        (locale, key, sorted(fields(text)), sorted(fields(english[key])))
        for locale, texts in catalogue.items()
        for key, text in texts.items()
        if fields(text) != fields(english[key])
    ]
    assert wrong == []


def test_every_message_is_a_well_formed_template_that_fills_with_the_english_fields() -> None:
    for locale, texts in CATALOG.items():
        for key, text in texts.items():
            parsed = [name for _literal, name, _spec, _conversion in string.Formatter().parse(text) if name is not None]
            assert all(parsed), (locale, key)  # no positional {} and no stray brace
            filled = render(key, locale, {name: f"<{name}>" for name in fields(CATALOG["en"][key])})
            assert "{" not in filled and "}" not in filled, (locale, key, filled)


def test_the_catalogues_speak_the_same_languages_and_the_switch_names_each_in_itself() -> None:
    assert set(NEW_LOCALES) <= set(LOCALES)
    assert set(LOCALES) == set(PAGE_CATALOG) == set(DOCUMENT_LOCALES) == set(LOCALE_NAMES)
    assert LOCALE_NAMES["de"] == "Deutsch" and LOCALE_NAMES["es"] == "Español"


def test_the_kiosks_rulings_are_told_in_the_tables_language() -> None:
    assert "ZULÄSSIG" in CATALOG["de"]["judge.acceptable"] and "UNZULÄSSIG" in CATALOG["de"]["judge.unacceptable"]
    assert "VÁLIDA" in CATALOG["es"]["judge.acceptable"] and "NO VÁLIDA" in CATALOG["es"]["judge.unacceptable"]
    for locale in LOCALES:
        assert CATALOG[locale]["judge.acceptable"] != CATALOG[locale]["judge.unacceptable"], locale


@pytest.mark.parametrize(
    "query, header, locale",
    [
        ("de", None, "de"),
        ("es-ES", "de", "es"),
        (None, "es-ES,es;q=0.9,en;q=0.5", "es"),
        (None, "de-AT", "de"),
        (None, "sv-SE,de;q=0.7,en;q=0.5", "de"),
        (None, "sv-SE", "en"),
        (None, "fr-CA", "fr"),
        ("pl", "nl", "pl"),
        (None, "da-DK,en;q=0.5", "da"),
        ("xx", "es-MX", "es"),
    ],
)
def test_the_api_negotiates_every_language_it_speaks(query: str | None, header: str | None, locale: str) -> None:
    assert negotiate(query, header) == locale


def test_a_verdict_reason_reads_in_german_and_spanish() -> None:
    assert render("reason.not_in_lexicon", "de", {"word": "xyz", "lexicon": "de"}) == "'xyz' steht nicht im Wörterbuch de."
    assert render("reason.not_in_lexicon", "es", {"word": "xyz", "lexicon": "es"}) == "'xyz' no está en el diccionario es."
    assert render("title.not_found", "de") == "Nicht gefunden" and render("title.not_found", "es") == "No encontrado"


@pytest.mark.parametrize("lexicon, locale", [("de", "de"), ("de-DE", "de"), ("es", "es"), ("es-ES", "es")])
def test_a_german_or_spanish_event_prints_its_documents_in_its_language(lexicon: str, locale: str) -> None:
    assert docs.document_locale({"lexicon": {"id": lexicon}}) == locale
    assert DOCUMENT_CATALOG[locale]["scorecard.round"] in {"Runde", "Ronda"}

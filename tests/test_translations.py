"""The catalogue of words people read: one gettext file a language, CLDR's plural rules, one edit a language for a new string.

What tests/test_messages.py does not hold: that each ``.po`` file is one
translators' tools read (Babel parses it strictly), that its ``Plural-Forms``
header chooses the form CLDR gives a count (Babel's ``Locale.plural_form``
is the reference), that a plural text renders that form, that a string added
to the language files alone reaches every reader (API, pages, documents), and
that the compiled catalogues live outside the checkout.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from wordsvc.i18n import LOCALES, PLURAL_CATEGORIES, document_count, plural_category
from wordsvc.i18n.catalogue import LOCALE_FILES, cache_dir

COUNTS = (0, 1, 2, 5, 21, 22)

#: A plural text of every language for COUNTS, as its speakers say them.
RENDERED = {
    "en": ("audit.line.tables", ["0 tables", "1 table", "2 tables", "5 tables", "21 tables", "22 tables"]),
    "et": ("audit.line.tables", ["0 lauda", "1 laud", "2 lauda", "5 lauda", "21 lauda", "22 lauda"]),
    "is": ("audit.line.players", ["0 keppendur", "1 keppandi", "2 keppendur", "5 keppendur", "21 keppandi", "22 keppendur"]),
    "de": ("audit.line.tables", ["0 Tische", "1 Tisch", "2 Tische", "5 Tische", "21 Tische", "22 Tische"]),
    "es": ("audit.line.tables", ["0 mesas", "1 mesa", "2 mesas", "5 mesas", "21 mesas", "22 mesas"]),
    "fr": ("audit.line.tables", ["0 table", "1 table", "2 tables", "5 tables", "21 tables", "22 tables"]),
    "nl": ("audit.line.tables", ["0 tafels", "1 tafel", "2 tafels", "5 tafels", "21 tafels", "22 tafels"]),
    "pl": ("audit.line.tables", ["0 stołów", "1 stół", "2 stoły", "5 stołów", "21 stołów", "22 stoły"]),
    "it": ("audit.line.tables", ["0 tavoli", "1 tavolo", "2 tavoli", "5 tavoli", "21 tavoli", "22 tavoli"]),
    "pt": ("audit.line.tables", ["0 mesas", "1 mesa", "2 mesas", "5 mesas", "21 mesas", "22 mesas"]),
    "da": ("audit.line.tables", ["0 borde", "1 bord", "2 borde", "5 borde", "21 borde", "22 borde"]),
}


def po(locale: str):  # a babel Catalog
    with (LOCALE_FILES / f"{locale}.po").open("rb") as source:
        return read_po(source, abort_invalid=True)


def test_every_language_is_one_po_file_and_nothing_else_is() -> None:
    assert sorted(path.name for path in LOCALE_FILES.iterdir()) == sorted(f"{locale}.po" for locale in LOCALES)


@pytest.mark.parametrize("locale", LOCALES)
def test_each_file_is_a_gettext_catalogue_of_its_language_with_nothing_fuzzy(locale: str) -> None:
    catalog = po(locale)
    assert str(catalog.locale).split("_")[0] == locale
    assert not catalog.fuzzy and [message.id for message in catalog if message.id and message.fuzzy] == []
    assert [message.id for message in catalog if message.id and not message.string] == []


@pytest.mark.parametrize("locale", LOCALES)
def test_the_plural_forms_header_chooses_the_form_cldr_gives_each_count(locale: str) -> None:
    catalog = po(locale)
    cldr = Locale.parse(str(catalog.locale)).plural_form  # pt.po is Portugal's (pt_PT): 0 takes the plural there
    assert [plural_category(locale, n) for n in COUNTS] == [cldr(n) for n in COUNTS]
    assert catalog.num_plurals == len(PLURAL_CATEGORIES[locale]) and set(PLURAL_CATEGORIES[locale]) == cldr.tags | {"other"}


@pytest.mark.parametrize("locale", LOCALES)
def test_a_plural_text_renders_the_form_of_the_count(locale: str) -> None:
    key, expected = RENDERED[locale]
    assert [document_count(locale, key, n) for n in COUNTS] == expected
    forms = po(locale).get((key, key), context="document").string  # form i of the file is CLDR category i
    assert [document_count(locale, key, n) for n in COUNTS] == [forms[PLURAL_CATEGORIES[locale].index(plural_category(locale, n))].format(n=n) for n in COUNTS]


def test_the_known_plural_rules_hold_where_a_hand_written_rule_goes_wrong() -> None:
    assert [plural_category("pl", n) for n in COUNTS] == ["many", "one", "few", "many", "many", "few"]
    assert [plural_category("is", n) for n in (1, 11, 21, 111)] == ["one", "other", "one", "other"]
    assert [plural_category("fr", n) for n in (0, 1, 2, 1_000_000)] == ["one", "one", "other", "many"]
    assert plural_category("pt", 0) == "other" and plural_category("xx", 1) == "one"


PROBE = r"""
import json, sys
from pathlib import Path
import wordsvc.i18n.catalogue as catalogue
catalogue.LOCALE_FILES = Path(sys.argv[1])
from wordsvc.i18n import CATALOG, LOCALES, PAGE_CATALOG, document_count, document_text, render
from wordsvc.web.views.pages import page_strings
print(json.dumps({
    locale: {
        "message": render("reason.example", locale, {"word": "xyz"}),
        "page": page_strings("console")[locale].get("console.example"),
        "page_plural": page_strings("console")[locale].get("console.examples"),
        "document": document_text(locale, "example", n=3),
        "documents": document_count(locale, "examples", 2),
        "same_keys": set(CATALOG[locale]) == set(CATALOG["en"]) and set(PAGE_CATALOG[locale]) == set(PAGE_CATALOG["en"]),
    }
    for locale in LOCALES
}))
"""


def added(locale: str, plural_forms: int) -> str:
    """The lines a translator appends to one language's file for four new strings: a message, a page's, a document's, a plural."""
    forms = "".join(f'msgstr[{i}] "{locale} form {i} of {{n}}"\n' for i in range(plural_forms))
    return (
        f'\nmsgid "reason.example"\nmsgstr "{locale}: {{word}}"\n'
        f'\nmsgctxt "page"\nmsgid "console.example"\nmsgstr "{locale} page"\n'
        f'\nmsgctxt "page"\nmsgid "console.examples"\nmsgid_plural "console.examples"\n{forms}'
        f'\nmsgctxt "document"\nmsgid "example"\nmsgstr "{locale} {{n}}"\n'
        f'\nmsgctxt "document"\nmsgid "examples"\nmsgid_plural "examples"\n{forms}'
    )


def test_a_new_string_is_one_edit_to_each_language_file_and_nothing_else(tmp_path: Path) -> None:
    """Only the copies of the .po files change; the API's messages, the pages and the documents all have the new words."""
    files = tmp_path / "locales"
    shutil.copytree(LOCALE_FILES, files)
    for locale in LOCALES:
        path = files / f"{locale}.po"
        path.write_text(path.read_text(encoding="utf-8") + added(locale, len(PLURAL_CATEGORIES[locale])), encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", PROBE, str(files)], capture_output=True, text=True, check=True, timeout=120, env=env)
    seen = json.loads(out.stdout)
    for locale in LOCALES:
        categories = PLURAL_CATEGORIES[locale]
        assert seen[locale] == {
            "message": f"{locale}: xyz",
            "page": f"{locale} page",
            "page_plural": {category: f"{locale} form {i} of {{n}}" for i, category in enumerate(categories)},
            "document": f"{locale} 3",
            "documents": f"{locale} form {categories.index(plural_category(locale, 2))} of 2",
            "same_keys": True,
        }


CACHED = r"""
import json, sys
from wordsvc.i18n import CATALOG, LOCALES
[CATALOG[locale] for locale in LOCALES]
print(json.dumps("babel" in sys.modules))
"""


def test_the_compiled_catalogues_are_cached_outside_the_checkout_and_read_without_babel(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    runs = [json.loads(subprocess.run([sys.executable, "-c", CACHED], capture_output=True, text=True, check=True, timeout=120, env=env).stdout) for _ in range(2)]
    assert runs == [True, False]  # compiled once, by Babel; then read by gettext alone
    compiled = sorted(path.name for path in (tmp_path / "wordsvc" / "i18n").iterdir())
    assert [re.sub(r"-[0-9a-f]{24}\.mo$", "", name) for name in compiled] == sorted(LOCALES)
    checkout = Path(__file__).resolve().parents[1]
    assert checkout not in cache_dir().resolve().parents  # the default cache, too, is outside the checkout

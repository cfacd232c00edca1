"""German (de, deutsch) and Spanish (es, espanol): the house lexicons and their filters, and the service working in each.

The builder's filter rules on their own, and the built lexicon's classes and
folding under the language's ruleset. The words the lexicon is held to, the
solver's best play and a deal are tested for every language in
``tests/test_held_words.py``. Without the built lexicon the tests that need it
skip, and under CI (``CI`` set) they fail.
"""

from __future__ import annotations

import gzip
import importlib
import json
from pathlib import Path

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
RULESET_OF = {"de": "deutsch", "es": "espanol"}
#: The marks Spanish cards do not show (acute accent, diaeresis); the tilde of ñ stays.


#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them its tests skip, and fail under CI.
LEXICONS = tuple(RULESET_OF)


@pytest.mark.parametrize(
    ("lang", "word", "cls"),
    [
        ("de", "Goethe", "proper_noun"),
        ("de", "USA", "abbreviation"),
        ("de", "usw", "abbreviation"),
        ("es", "Madrid", "proper_noun"),
        ("es", "ONU", "abbreviation"),
        ("es", "km", "abbreviation"),
    ],
)
def test_names_and_abbreviations_are_refused_by_their_class(service, lang, word, cls):
    verdict = judge(word, service.ruleset(RULESET_OF[lang]), service.languages.get(lang))
    assert not verdict.valid and ("banned_class", cls) in [(r.code, r.params.get("class")) for r in verdict.reasons]


def test_german_nouns_are_words_in_any_case_and_sharp_s_is_laid_s_s(service):
    ruleset, lexicon = service.ruleset("deutsch"), service.languages.get("de")
    assert judge("HAUS", ruleset, lexicon).valid and judge("haus", ruleset, lexicon).valid
    assert judge("STRASSE", ruleset, lexicon).valid and judge("Straße", ruleset, lexicon).valid
    assert judge("(ch)(er)(qu)", ruleset, lexicon).valid is False  # the three doubles are cards, the laying no word
    assert judge("b(ä)(ch)e", ruleset, lexicon).valid  # Bäche: Ä is a card of its own


def test_spanish_keeps_n_tilde_apart_and_lays_accents_plain(service):
    ruleset, lexicon = service.ruleset("espanol"), service.languages.get("es")
    assert judge("niño", ruleset, lexicon).valid and judge("ni(ñ)o", ruleset, lexicon).valid
    assert not judge("nino", ruleset, lexicon).valid
    assert judge("cancion", ruleset, lexicon).valid and judge("(ll)ave", ruleset, lexicon).valid
    assert judge("pe(rr)o", ruleset, lexicon).valid and judge("(ch)ico", ruleset, lexicon).valid


@pytest.mark.parametrize(("lang", "pattern", "word"), [("de", "häus*", "häuser"), ("es", "niñ?", "niño")])
def test_words_finds_forms_with_the_languages_own_letters(service, lang, pattern, word):
    from wordsvc.web.app import create_app

    response = create_app(service=service).test_client().get("/words", query_string={"pattern": pattern, "ruleset": RULESET_OF[lang], "limit": 50})
    assert response.status_code == 200, response.get_json()
    assert word in [w["word"] for w in response.get_json()["words"]]


@pytest.mark.parametrize(("lang", "cards", "word"), [("de", "(ch)aus", "schau"), ("es", "(ll)ave", "llave")])
def test_anagrams_use_the_double_cards(service, lang, cards, word):
    from wordsvc.web.app import create_app

    response = create_app(service=service).test_client().get("/anagrams", query_string={"cards": cards, "ruleset": RULESET_OF[lang]})
    assert response.status_code == 200, response.get_json()
    assert word in [w["word"] for w in response.get_json()["words"]]


def _builder(lang: str, script: str):  # type: ignore[no-untyped-def]
    """``wordlists/<lang>/<script>`` as a module, its rules callable one by one."""
    return importlib.import_module(f"wordlists.{lang}.{script.removesuffix('.py')}")


@pytest.mark.parametrize(
    ("lang", "script", "package"), [("de", "build_de.py", "/usr/share/dict/ngerman"), ("es", "build_es.py", "/usr/share/hunspell/es_ES.dic")]
)
def test_the_builder_writes_the_same_bytes_twice_with_the_package_version_in_the_header(tmp_path, lang, script, package):
    if not Path(package).is_file():
        pytest.skip(f"{package} is not installed")
    builder = _builder(lang, script)
    first, second = tmp_path / "a.tsv.gz", tmp_path / "b.tsv.gz"
    for out in (first, second):
        assert builder.main(["--out", str(out)]) == 0
    assert first.read_bytes() == second.read_bytes()
    head = gzip.decompress(first.read_bytes()).decode("utf-8").split("\n")[:3]
    assert head[0] == "# wordsvc word list v1" and head[1] == f"# id: {lang}" and f"-filter{builder.FILTER_VERSION}" in head[2]


def test_a_german_town_is_a_name_unless_the_list_shows_the_word_is_a_noun_or_a_verb(tmp_path):
    """GeoNames' towns of DE, AT and CH that the list holds capitalised are names, except a name that ends two or more
    compounds of the list (Kuchen: Käsekuchen, Apfelkuchen), whose lowercase is a form (singen: das Singen), or that
    is a noun by hand (Kilo). A town of another country, and a town the list does not hold, take nothing."""
    builder = _builder("de", "build_de.py")
    cities = tmp_path / "cities5000.json"
    towns = [("München", "DE", ["Munich", "Minca"]), ("Kuchen", "DE", []), ("Singen", "DE", []), ("Kilo", "DE", []), ("Graz", "AT", []), ("Paris", "FR", [])]
    cities.write_text(
        json.dumps({str(i): {"name": name, "countrycode": country, "alternatenames": other} for i, (name, country, other) in enumerate(towns)}),
        encoding="utf-8",
    )
    forms = ["München", "Münchens", "Kuchen", "Käse", "Käsekuchen", "Apfel", "Apfelkuchen", "Singen", "singen", "Kilo", "Graz", "Paris", "Haus"]
    assert builder.town_names(cities, forms) == {"München", "Graz"}
    place_flags = {"Sm"}
    for form, expected in [("München", "proper_noun"), ("Münchens", "proper_noun"), ("Kuchen", ""), ("Paris", "")]:
        assert builder.capitalised_class(form, place_flags, frozenset(), towns=frozenset({"München", "Graz"}))[0] == expected, form
    # A stem with a plural flag is a noun whatever town shares its name.
    assert builder.capitalised_class("München", {"Sm", "P"}, frozenset(), towns=frozenset({"München"})) == ("", "noun_flag")

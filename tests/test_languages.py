"""Real forms in every language the service speaks (issue 4), through the service object.

These need the built lexicons (`make setup`); each language skips with the
reason when its lexicon is not there.
"""

from __future__ import annotations

import unicodedata

import pytest

from wordsvc.core.errors import UnknownLanguage
from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.i18n import CATALOG
from wordsvc.service import Service


@pytest.fixture(scope="module")
def service() -> Service:
    return Service.from_settings()


def needs(service: Service, lang: str) -> None:
    if lang not in service.languages.lexicons:
        pytest.skip(f"lexicon {lang} is not built/installed; run `make setup`")


def codes(verdict) -> list[str]:  # type: ignore[no-untyped-def]
    return [(r.code + ":" + str(r.params.get("class"))) if "class" in r.params else r.code for r in verdict.reasons]


# ---- Icelandic


@pytest.mark.parametrize("form", ["hestur", "hest", "hesti", "hests", "hestar", "hestum", "fór", "farið", "fara", "ég", "þú", "bók", "bækur"])
def test_inflected_icelandic_nouns_and_verbs_are_words(service, form):
    needs(service, "is")
    verdict = service.verdict(form, "islenska")
    assert verdict.valid, codes(verdict)


@pytest.mark.parametrize("form", ["Reykjavík", "Guðrún", "Þórður", "Ísafjörður"])
def test_icelandic_proper_nouns_are_refused_as_proper_nouns(service, form):
    needs(service, "is")
    assert codes(service.verdict(form, "islenska")) == ["banned_class:proper_noun"]


def test_a_name_with_a_common_noun_twin_is_a_word(service):
    needs(service, "is")
    # BÍN: Jón is a man's name, jón (an ion) a common noun; cards carry no capitals, so it plays.
    verdict = service.verdict("Jón", "islenska")
    assert verdict.valid and "proper_noun" in verdict.classes


def test_icelandic_takes_no_invented_compounds(service):
    needs(service, "is")
    assert "not_in_lexicon" in codes(service.verdict("hestabókarfarið", "islenska"))


def test_icelandic_letters_are_not_folded(service):
    needs(service, "is")
    verdict = service.verdict("quiz", "islenska")
    assert "not_spellable" in codes(verdict)
    assert service.verdict("bók", "islenska").spellings[0].cards == ("b", "ó", "k")


def test_nfc_and_nfd_icelandic_give_the_same_verdict(service):
    needs(service, "is")
    nfc, nfd = "bækur", unicodedata.normalize("NFD", "Þórður fór")
    assert service.verdict(nfc, "islenska").to_dict()["valid"] is True
    decomposed = unicodedata.normalize("NFD", "fór")
    assert decomposed != "fór"
    a, b = service.verdict("fór", "islenska").to_dict(), service.verdict(decomposed, "islenska").to_dict()
    assert a["normalized"] == b["normalized"] == "fór"
    assert (a["valid"], a["spellings"]) == (b["valid"], b["spellings"])
    assert b["word"] == decomposed
    assert nfd  # the decomposed phrase is not a word: invalid characters (a space)
    assert codes(service.verdict(nfd, "islenska")) == ["invalid_characters"]


def test_a_scored_icelandic_round(service):
    needs(service, "is")
    play = RoundPlay(
        (
            PlayerPlay("Anna", (("h", "e", "st", "u", "r"),), ("a",)),
            PlayerPlay("Siggi", (("b", "ó", "k"),), ("ð",)),
        )
    )
    result = service.score_round(play, "islenska").to_dict()
    deck = service.ruleset("islenska").deck
    anna, siggi = result["players"]
    assert anna["word_points"] == deck.points(["h", "e", "st", "u", "r"])
    assert anna["unused_points"] == deck.value("a")
    assert siggi["total"] == max(0, deck.points("bók") - deck.value("ð"))
    assert result["bonuses"][0]["winner"] == "Anna"


# ---- Estonian


@pytest.mark.parametrize("form", ["kass", "kassi", "kassile", "kassidega", "lugema", "loen", "luges", "loetud", "õun", "äri", "öö", "šokolaad", "žürii"])
def test_inflected_estonian_nouns_and_verbs_are_words(service, form):
    needs(service, "et")
    verdict = service.verdict(form, "eesti")
    assert verdict.valid, codes(verdict)


def test_estonian_proper_nouns_and_abbreviations_are_refused_by_class(service):
    needs(service, "et")
    assert codes(service.verdict("Tallinnas", "eesti")) == ["banned_class:proper_noun"]
    assert codes(service.verdict("jne", "eesti")) == ["banned_class:abbreviation"]


def test_estonian_compounds_and_clitics_follow_the_ruleset(service):
    needs(service, "et")
    assert service.verdict("kassikool", "eesti").valid
    assert codes(service.verdict("kassikool", "eesti-no-compounds")) == ["banned_class:compound"]
    assert service.verdict("kassgi", "eesti").valid is False  # Vabamorf knows -gi follows a voiced sound, -ki not
    assert service.verdict("minagi", "eesti").valid
    assert "banned_class:clitic" in codes(service.verdict("minagi", "eesti-no-compounds"))


def test_nfc_and_nfd_estonian_give_the_same_verdict(service):
    needs(service, "et")
    decomposed = unicodedata.normalize("NFD", "šokolaad")
    assert decomposed != "šokolaad"
    a, b = service.verdict("šokolaad", "eesti"), service.verdict(decomposed, "eesti")
    assert a.valid and b.valid and a.normalized == b.normalized


def test_a_scored_estonian_round(service):
    needs(service, "et")
    play = RoundPlay((PlayerPlay("Mari", (tuple("kass"),), ()), PlayerPlay("Jüri", (tuple("õun"),), ("ä",))))
    result = service.score_round(play, "eesti").to_dict()
    deck = service.ruleset("eesti").deck
    mari, juri = result["players"]
    assert mari["word_points"] == deck.points("kass")
    assert juri["unused_points"] == deck.value("ä")
    assert all(w["valid"] for p in result["players"] for w in p["words"])


# ---- English spellings and tags


def test_british_and_american_spellings_differ_by_lexicon(service):
    needs(service, "en-US")
    needs(service, "en-GB")
    assert service.verdict("colour", lang="en-GB").valid
    assert not service.verdict("colour", lang="en-US").valid
    assert service.verdict("color", lang="en").valid


@pytest.mark.parametrize("tag, lexicon", [("en", "en-US"), ("EN-us", "en-US"), ("en-GB", "en-GB"), ("is-IS", "is"), ("IS", "is"), ("et-EE", "et"), ("et", "et")])
def test_bcp47_tags_are_matched_without_regard_to_case(service, tag, lexicon):
    needs(service, lexicon)
    assert service.languages.resolve(tag) == lexicon


def test_an_unknown_language_lists_the_supported_tags(service):
    with pytest.raises(UnknownLanguage) as err:
        service.languages.resolve("tlh")  # Klingon: no lexicon of it is built
    assert "en-US" in err.value.detail


def test_a_request_in_another_language_uses_the_rulesets_deck(service):
    needs(service, "is")
    # Icelandic words judged with the English deck: letters the deck lacks make them unlayable.
    verdict = service.verdict("bók", "standard", lang="is")
    assert verdict.lang == "is"
    assert "not_spellable" in codes(verdict)


def test_a_language_named_alone_is_judged_under_its_own_ruleset_and_deck(service):
    needs(service, "is")
    verdict = service.verdict("bók", lang="is")
    assert (verdict.valid, verdict.ruleset) == (True, "islenska")
    assert service.verdict("quiz").ruleset == "standard"  # neither: the standard ruleset
    assert service.verdict("quiz", "no-floor", lang="en-US").ruleset == "no-floor"  # a ruleset named wins


def test_the_english_deck_names_the_icelandic_ruleset_for_a_word_it_cannot_lay(service):
    needs(service, "is")
    (reason,) = service.verdict("bók", "standard", lang="is").reasons
    assert reason.code == "not_spellable" and reason.params["hint"] == "islenska"
    shown = reason.to_dict("is")
    assert shown["hint"] == {"ruleset": "islenska"} and "ruleset=islenska" in shown["message"]


def test_a_language_whose_ruleset_is_not_loaded_falls_back_to_the_standard_ruleset():
    from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
    from wordsvc.data.languages import LANGUAGES, Languages
    from wordsvc.data.rulesets import load_rulesets

    lexicon = MemoryLexicon({"quiz": [()]}, LexiconInfo(id="de", lang="de", version="1", sha256="1" * 64))
    german = next(lang for lang in LANGUAGES if lang.id == "de")
    book = load_rulesets()
    without = type(book)({k: v for k, v in book.rulesets.items() if k != "deutsch"}, book.folder)
    assert Service(book, Languages({"de": lexicon}, (german,))).ruleset_id(None, "de") == "deutsch"
    assert Service(without, Languages({"de": lexicon}, (german,))).ruleset_id(None, "de") == "standard"


def test_every_message_exists_in_every_locale():
    keys = set(CATALOG["en"])
    for locale, catalog in CATALOG.items():
        assert set(catalog) == keys, f"{locale}: missing {sorted(keys - set(catalog))}, extra {sorted(set(catalog) - keys)}"
        assert all(text.strip() for text in catalog.values())

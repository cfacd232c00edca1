"""The English lexicons: the word-game filter, the sizes, the two-letter lists, the solver's best plays.

The filter's rules are tested on their own (``wordlists/en/build_scowl.py``,
imported as a module of the word-list package). The rest reads the committed lists and the lexicons built from them
(skipped when ``wordsvc build`` has not run), and, when Debian's ``scowl``
and ``miscfiles`` are installed (``make setup`` installs them), rebuilds the
lists and compares them byte for byte.
"""

from __future__ import annotations

import importlib
import random
import re
from pathlib import Path

import pytest

from wordsvc.core.verdict import judge

ROOT = Path(__file__).resolve().parents[1]
EN = ROOT / "wordlists" / "en"
BUILT = ROOT / "build" / "lexicons"
ENGLISH = {"en-US-common": "standard-common", "en-US": "standard", "en-US-large": "standard-large", "en-GB": "standard"}
FILTER_CLASSES = {"letter_plural", "symbol", "run_together", "roman_numeral", "rare_short"}

#: Short forms word-game dictionaries refuse, and SCOWL <= 80 used to accept (issue 17).
REFUSED = "lm ln lx kb mb db mf ph kw khz bs cs ds fs gs hs js ks ls ms ns ps qs rs ss ts ws xs ys zs csc csch dkl hhd".split()
#: Real short words that must stay, where the lexicon has them (SCOWL <= 60 has only some).
KEPT = "qi xu za brr nth hmm shh tsk psst cwm crwth".split()
KEPT_COMMON = "brr nth hmm shh psst".split()


scowl = importlib.import_module("wordlists.en.build_scowl")


# ---------------------------------------------------------------- the filter's rules


WEB2 = frozenset({"as", "es", "is", "us", "cwm", "nth", "sh", "pst", "ey", "ak"})
ACRONYMS = frozenset({"dna", "fbi", "nasa", "lm", "kb", "ymca", "cs"})


@pytest.mark.parametrize(
    "form, rank, expected",
    [
        ("bs", 80, "letter_plural"),
        ("cs", 10, "letter_plural"),
        ("zs", 80, "letter_plural"),
        ("as", 10, ""),  # web2 lists it: a word
        ("es", 40, ""),  # the letter S's name
        ("kHz", 50, "symbol"),
        ("dB", 50, "symbol"),
        ("kW", 40, "symbol"),
        ("mmHg", 95, "symbol"),
        ("eBook", 80, ""),  # five letters: a word
        ("crystalDector", 95, "run_together"),
        ("lm", 70, "symbol"),
        ("csch", 70, "symbol"),
        ("hhd", 70, "symbol"),
        ("http", 95, "symbol"),
        ("brr", 50, ""),  # interjections come from 12dicts (<= 60) and ENABLE (80)
        ("tsk", 80, ""),
        ("zzz", 80, ""),
        ("cwm", 70, ""),  # w is the vowel of Welsh loans
        ("crwth", 70, ""),
        ("très", 70, ""),  # è is a vowel
        ("xii", 95, "roman_numeral"),
        ("mix", 10, ""),
        ("xi", 60, ""),
        ("dna", 95, "abbreviation"),
        ("nasa", 95, "abbreviation"),
        ("ik", 95, "rare_short"),
        ("ey", 95, "rare_short"),  # web2 does not save a 95-only short form
        ("ibm", 95, "rare_short"),
        ("aardwolf", 95, ""),
        ("qi", 70, ""),
        ("za", 80, ""),
    ],
)
def test_each_filter_rule_names_its_class(form, rank, expected):
    assert scowl.word_game_class(form, rank, WEB2, ACRONYMS) == expected


def test_every_class_the_filter_gives_is_known_to_the_lexicons_and_named_in_every_locale():
    from wordsvc.core.lexicon import KNOWN_CLASSES
    from wordsvc.i18n import CATALOG

    assert set(scowl.FILTER_CLASSES) == FILTER_CLASSES <= KNOWN_CLASSES
    for locale, catalog in CATALOG.items():
        assert {f"class.{c}" for c in FILTER_CLASSES} <= set(catalog), locale


def test_standard_and_the_size_rulesets_ban_every_filter_class(rulesets):
    for ruleset_id in set(ENGLISH.values()):
        assert FILTER_CLASSES <= rulesets.get(ruleset_id).banned_classes, ruleset_id
    assert rulesets.get("standard-common").language == "en-US-common"
    assert rulesets.get("standard-large").language == "en-US-large"


# ---------------------------------------------------------------- the committed lists


def rows(list_id: str) -> list[tuple[str, str, str]]:
    with (EN / f"{list_id}.tsv").open(encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t")) for line in handle if not line.startswith("#")]  # type: ignore[misc]


def test_the_sizes_nest_line_for_line():
    common, us, large = rows("en-US-common"), rows("en-US"), rows("en-US-large")
    assert common == [r for r in us if int(r[2]) <= 60]
    assert us == [r for r in large if int(r[2]) <= 80]


def test_the_lists_name_their_filter_and_its_independent_list():
    for list_id in ENGLISH:
        with (EN / f"{list_id}.tsv").open(encoding="utf-8") as handle:
            header = [line for line in handle if line.startswith("#")]
        assert f"# id: {list_id}\n" in header
        assert any(line.startswith("# version: scowl-") and line.endswith(f"-wordgame{scowl.FILTER_VERSION}\n") for line in header)
        assert any(line.startswith("# filter: ") and "web2" in line and "sha256" in line for line in header)


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@pytest.mark.skipif(
    not (Path("/usr/share/dict/scowl").is_dir() and Path("/usr/share/dict/web2").is_file()),
    reason="Debian's scowl and miscfiles are not installed (make setup installs them as root)",
)
def test_rebuilding_the_lists_gives_the_committed_files_byte_for_byte(tmp_path):
    scowl.main(["--out-dir", str(tmp_path)])
    for list_id in ENGLISH:
        assert (tmp_path / f"{list_id}.tsv").read_bytes() == (EN / f"{list_id}.tsv").read_bytes(), list_id


# ---------------------------------------------------------------- the built lexicons


@pytest.fixture(scope="module")
def service():
    from wordsvc.data.languages import Languages
    from wordsvc.data.rulesets import load_rulesets
    from wordsvc.service import Service

    missing = [lang for lang in ENGLISH if not (BUILT / lang / "meta.json").is_file()]
    if missing:
        pytest.skip(f"not built: {', '.join(missing)}; run `wordsvc build`")
    return Service(load_rulesets(), Languages.load(ROOT / "build", tuple(ENGLISH)))


@pytest.mark.parametrize("lang", list(ENGLISH))
def test_symbols_and_letter_plurals_are_refused_with_their_class(service, lang):
    lexicon, ruleset = service.languages.get(lang), service.ruleset("standard")
    for word in REFUSED:
        verdict = judge(word, ruleset, lexicon)
        assert not verdict.valid, (lang, word)
        codes = {(r.code, r.params.get("class")) for r in verdict.reasons}
        assert codes <= {("not_in_lexicon", None), *(("banned_class", c) for c in {*FILTER_CLASSES, "abbreviation", "proper_noun"})}, (lang, word)
    if lang != "en-US-common":  # SCOWL <= 60 has no lm
        reasons = {r["class"]: r["message"] for r in judge("lm", ruleset, lexicon).to_dict()["reasons"]}  # type: ignore[index, union-attr]
        assert "unit or technical symbol" in reasons["symbol"]  # and the abbreviation LM
        assert [r.params["class"] for r in judge("js", ruleset, lexicon).reasons] == ["letter_plural"]


@pytest.mark.parametrize("lang", list(ENGLISH))
def test_real_short_words_stay(service, lang):
    lexicon, ruleset = service.languages.get(lang), service.ruleset(ENGLISH[lang])
    for word in KEPT_COMMON if lang == "en-US-common" else KEPT:
        assert judge(word, ruleset, lexicon).valid, (lang, word)


def readme_two_letter_lists() -> dict[str, list[str]]:
    text = (EN / "README.md").read_text(encoding="utf-8")
    block = text.split("## Two-letter words", 1)[1].split("```", 2)[1]
    found = {}
    for line in block.strip().splitlines():
        match = re.fullmatch(r"(\S+) \((\d+)\): (.*)", line)
        assert match, line
        words = match[3].split()
        assert len(words) == int(match[2]), line
        found[match[1]] = words
    return found


def test_the_readme_prints_a_two_letter_list_for_every_english_lexicon():
    assert set(readme_two_letter_lists()) == set(ENGLISH)


@pytest.mark.parametrize("lang", list(ENGLISH))
def test_the_readme_two_letter_list_is_what_the_lexicon_accepts_under_standard(service, lang):
    lexicon, ruleset = service.languages.get(lang), service.ruleset("standard")
    accepted = sorted(form for form in lexicon.forms() if len(form) == 2 and judge(form, ruleset, lexicon).valid)
    assert readme_two_letter_lists()[lang] == accepted


def test_get_languages_lists_every_english_size_with_its_entries(service):
    from wordsvc.web.app import create_app

    listed = {lang["id"]: lang for lang in create_app(service=service).test_client().get("/languages").get_json()["languages"]}
    assert set(ENGLISH) <= set(listed)
    entries = {lang: listed[lang]["entries"] for lang in ENGLISH}
    assert entries["en-US-common"] < entries["en-US"] < entries["en-US-large"]
    assert all(entries[lang] == len(service.languages.get(lang)) for lang in ENGLISH)  # type: ignore[arg-type]


def test_a_ruleset_or_a_requests_lang_picks_the_size(service):
    assert service.verdict("qi", "standard").valid
    assert not service.verdict("qi", "standard-common").valid  # SCOWL has qi at 70
    assert service.verdict("qi", "standard-common", lang="en-US").valid
    assert service.verdict("abditive", "standard-large").valid and not service.verdict("abditive").valid


# ---------------------------------------------------------------- the solver's best plays


def deal(deck, cards: int, hands: int, seed: int) -> list[list[str]]:  # type: ignore[no-untyped-def]
    pack = [face.upper() for face, card in deck.cards.items() for _ in range(card.count)]
    rng = random.Random(seed)
    return [rng.sample(pack, cards) for _ in range(hands)]


def banned_by_filter(word: str, ruleset, lexicon) -> bool:  # type: ignore[no-untyped-def]
    verdict = judge(word, ruleset, lexicon)
    return not verdict.valid and any(r.code == "banned_class" and r.params.get("class") in FILTER_CLASSES for r in verdict.reasons)


@pytest.mark.slow  # 400 best plays a lexicon, some 5 s each: left out of make check, run by make test
@pytest.mark.parametrize("lang", list(ENGLISH))
def test_no_best_play_of_200_8_card_and_200_11_card_hands_holds_a_form_of_a_filter_class(service, lang):
    """Before the filter, en-US's best plays held one on 26 and 48 of these hands (wordlists/en/README.md)."""
    from wordsvc.service.solvers import Solvers

    if not (BUILT / lang / "anagrams.json").is_file():
        pytest.skip(f"the {lang} anagram index is not built")
    ruleset_id = ENGLISH[lang]
    solvers, ruleset, lexicon = Solvers.from_data_dir(service, ROOT / "build"), service.ruleset(ruleset_id), service.languages.get(lang)
    held, words = [], 0
    for cards in (8, 11):
        for hand in deal(ruleset.deck, cards, 200, 17 + cards):
            best = solvers.solve(hand, ruleset_id, lang).best
            words += len(best.words)
            held += [" ".join(w.word for w in best.words) for w in best.words if banned_by_filter(w.word, ruleset, lexicon)]
    assert words > 400  # the hands were played
    assert held == []


# ---------------------------------------------------------------- Estonian: genitive attributes of names


def test_estonian_genitive_attributes_are_ordinary_words(rulesets):
    """wordlists/et/README.md, "Genitive attributes": a ``G`` reading is ordinary even where the Capitalised form is a name."""
    estonian = pytest.importorskip("wordsvc.data.estonian")
    try:
        lexicon = estonian.VabamorfLexicon(cache_size=0)
    except (ModuleNotFoundError, FileNotFoundError) as err:
        pytest.skip(f"no Vabamorf: {err}")
    eesti = rulesets.get("eesti")
    for form in ("tartu", "narva", "viljandi", "eesti", "soome"):  # G lowercase, H Capitalised
        assert set(lexicon.readings(form)) == {frozenset(), frozenset({"proper_noun"})}, form
        assert judge(form, eesti, lexicon).valid, form
    assert lexicon.readings("inglise") == (frozenset(),)  # G, and no name Capitalised
    for form in ("tallinn", "jüri"):  # names without a G entry
        verdict = judge(form, eesti, lexicon)
        assert lexicon.readings(form) == (frozenset({"proper_noun"}),) and [r.params.get("class") for r in verdict.reasons] == ["proper_noun"], form

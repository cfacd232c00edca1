"""One folding rule at every entry point (docs/text.md): each class of character, walked through each.

A compatibility character that stands for letters (a ligature, a full-width,
circled or superscript letter, a Roman numeral) is those letters, and so are
ß and ẞ (ss): the word is judged, laid, searched and corrected exactly as if
the plain letters had been typed. A compatibility character that does not
stand for letters (⒜, ½, full-width ？ or （) is refused as
``invalid_characters`` everywhere; it never turns into card notation, a
wildcard or a digit. The entry points: ``judge`` (GET /validate), the cards
of a laying (``parse_cards`` then ``judge_cards``: POST /score-round words,
compact words on /validate), ``compile_pattern`` (/words), ``suggest``
(/suggest) and the cards of a hand (``parse_cards`` then ``anagram_words``:
/anagrams; the solver reads its hand with the same ``parse_cards``).
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import pytest

from wordsvc.core.cards import parse_cards
from wordsvc.core.errors import InvalidRequest
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.text import has_invalid_characters, normalize
from wordsvc.core.verdict import judge, judge_cards
from wordsvc.core.wordsearch.patterns import PatternError, compile_pattern
from wordsvc.core.wordsearch.queries import anagram_words
from wordsvc.core.wordsearch.suggest import suggest

BUILT = Path(__file__).resolve().parents[1] / "build" / "lexicons"

#: (class, as typed, the plain letters it is judged as). Every one of these folds.
FOLDED = [
    ("ligature fi", "\ufb01sh", "fish"),
    ("ligature fl", "\ufb02ow", "flow"),
    ("ligature ff", "o\ufb00", "off"),
    ("ligature ffi", "o\ufb03ce", "office"),
    ("ligature st", "la\ufb06", "last"),
    ("full-width small letters", "ｑｕｉｚ", "quiz"),
    ("full-width capital letters", "ＱＵＩＺ", "quiz"),
    ("one full-width capital", "Ｑuiz", "quiz"),
    ("sharp s", "baß", "bass"),
    ("capital sharp s", "BAẞ", "bass"),
    ("feminine ordinal (superscript a)", "ªt", "at"),
    ("modifier letter t", "\u1d57ea", "tea"),
    ("circled small letter", "ⓐt", "at"),
    ("circled capital letters", "ⓉⓄⓅ", "top"),
    ("Roman numeral one", "ⅰt", "it"),
    ("Roman numeral capital one", "Ⅰn", "in"),
    ("combining acute", "cafe\u0301", "café"),
    ("precomposed e-acute", "caf\u00e9", "café"),
    ("long s", "\u017fee", "see"),
]

#: Compatibility characters that do not stand for letters: refused, never read as syntax.
REFUSED = [
    ("parenthesized letter", "⒜t"),  # NFKC: "(a)t", card notation if it were folded
    ("full-width parentheses", "（ｑｕ）ｉｚ"),  # NFKC: "(qu)iz"
    ("full-width question mark", "quiz？"),  # NFKC: "quiz?", a wildcard if it were folded
    ("full-width digit", "ｑｕ１ｚ"),  # NFKC: "qu1z"
    ("vulgar fraction", "½"),
    ("letter l with middle dot", "\u0140a"),  # NFKC: "l·a": not letters
]

IDS = [name for name, *_ in FOLDED]


@pytest.fixture(scope="module")
def lex(lexicon: MemoryLexicon) -> MemoryLexicon:
    """The shared English test words and those the cases above fold to, in a lexicon that folds diacritics."""
    extra = ["fish", "flow", "off", "office", "last", "bass", "see"]
    return MemoryLexicon({**{form: lexicon.readings(form) for form in lexicon.forms()}, **{word: [()] for word in extra}}, lexicon.info)


@pytest.fixture(scope="module")
def candidates(lex: MemoryLexicon) -> MemoryCandidates:
    return MemoryCandidates.from_lexicon(lex)


def outcome(verdict):
    return verdict.normalized, [reason.code for reason in verdict.reasons]


# ---- the rule, character by character


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_each_class_normalizes_to_the_plain_letters(name, typed, plain):
    assert normalize(typed) == plain


def test_turkish_dotted_capital_i_is_an_i_with_a_dot_above_not_a_plain_i():
    # Not a compatibility character: the default case folding gives i + U+0307, which has no precomposed form.
    assert normalize("İt") == "i\u0307t" == normalize("i\u0307t")


@pytest.mark.parametrize("letter", "þðæöõšžáéíóúýäü")
def test_icelandic_and_estonian_letters_stay_themselves(letter):
    assert normalize(letter) == normalize(letter.upper()) == letter


def test_every_deck_face_of_every_ruleset_is_its_own_key(rulesets):
    for ruleset in rulesets:
        for face in ruleset.deck.cards:
            assert normalize(face) == normalize(face.upper()) == face


def test_no_compatibility_character_reaches_a_lexicon_unless_folded_to_letters_every_other_is_refused():
    """Every assigned code point: its key holds no compatibility character, or the character check refuses it."""
    category = unicodedata.category
    for code in range(0x80, sys.maxunicode + 1):
        if category(chr(code)) in ("Cn", "Co", "Cs"):  # unassigned, private use, surrogates: no decomposition, no case
            continue
        key = normalize(chr(code))
        assert unicodedata.is_normalized("NFKC", key) or has_invalid_characters(key), f"U+{code:04X}"
        assert not set(key) & set("()[]?*^!0123456789"), f"U+{code:04X} folded into syntax or a digit: {key!r}"
        assert normalize(key) == key, f"U+{code:04X}"


# ---- the same outcome at every entry point


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_validate_judges_the_word_as_its_plain_letters(name, typed, plain, standard, lex):
    verdict, expected = judge(typed, standard, lex), judge(plain, standard, lex)
    assert outcome(verdict) == outcome(expected)
    assert verdict.spellings == expected.spellings
    assert verdict.word == typed  # the answer still echoes what was typed


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_the_cards_of_a_laying_are_the_plain_letters_and_agree_with_the_verdict(name, typed, plain, standard, lex):
    cards = parse_cards(typed)
    assert cards == parse_cards(plain)
    assert outcome(judge_cards(cards, standard, lex)) == outcome(judge(typed, standard, lex))


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_a_word_pattern_is_the_plain_letters(name, typed, plain):
    pattern = compile_pattern(typed)
    assert pattern.text == plain
    assert pattern.matches(plain)


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_suggestions_are_those_for_the_plain_letters(name, typed, plain, standard, lex):
    got, expected = suggest(typed, standard, lex), suggest(plain, standard, lex)
    assert got.word == plain
    assert got.suggestions == expected.suggestions


@pytest.mark.parametrize(("name", "typed", "plain"), FOLDED, ids=IDS)
def test_a_hand_of_these_cards_lays_what_the_plain_cards_lay(name, typed, plain, standard, lex, candidates):
    hand = parse_cards(typed)
    try:
        expected = anagram_words(parse_cards(plain), standard, lex, candidates, every_card=False)
    except InvalidRequest as err:  # a letter no card has (é under the standard deck): refused alike
        with pytest.raises(InvalidRequest) as got:
            anagram_words(hand, standard, lex, candidates, every_card=False)
        assert got.value.problems == err.problems
        return
    assert anagram_words(hand, standard, lex, candidates, every_card=False).hits == expected.hits


@pytest.mark.parametrize(("name", "typed"), REFUSED, ids=[name for name, _ in REFUSED])
def test_a_compatibility_character_that_is_not_letters_is_refused_everywhere(name, typed, standard, lex):
    verdict = judge(typed, standard, lex)
    assert [reason.code for reason in verdict.reasons] == ["invalid_characters"]
    assert outcome(judge_cards(parse_cards(typed), standard, lex)) == outcome(verdict)
    with pytest.raises(PatternError, match="not a letter"):
        compile_pattern(typed)
    assert suggest(typed, standard, lex).word == verdict.normalized


def test_a_no_break_space_is_a_space_refused_in_a_word_and_skipped_between_cards_as_any_space(standard, lex):
    for space in (" ", "\u00a0", "\u3000"):  # ASCII, no-break, ideographic (full-width)
        typed = f"two{space}words"
        assert normalize(typed) == typed
        assert [reason.code for reason in judge(typed, standard, lex).reasons] == ["invalid_characters"]
        assert parse_cards(typed) == tuple("twowords")


def test_turkish_dotted_capital_i_is_not_in_an_english_lexicon_though_laid_as_i(standard, lex):
    verdict = judge("İt", standard, lex)
    assert outcome(verdict) == ("i\u0307t", ["not_in_lexicon"])
    assert [s.cards for s in verdict.spellings] == [("i", "t")]
    assert compile_pattern("İt").text == "i\u0307t"
    assert suggest("İt", standard, lex).word == "i\u0307t"


def test_turkish_dotted_capital_i_in_cards_is_one_card_as_in_the_verdict(standard, lex):
    cards = parse_cards("İt")
    assert cards == ("i\u0307", "t")
    assert outcome(judge_cards(cards, standard, lex)) == outcome(judge("İt", standard, lex))


# ---- the compiled word lists


@pytest.mark.parametrize("lang", ["en-US", "en-GB", "is"])
def test_no_form_of_a_built_lexicon_holds_a_compatibility_character(lang):
    """So the folding changes no stored form: lexicons built before it still agree with lookups."""
    folder = BUILT / lang / "search"
    if not (folder / "forms.txt").is_file():
        pytest.skip(f"lexicon {lang} and its search index not built")
    encoding = json.loads((folder / "meta.json").read_text(encoding="utf-8"))["encoding"]
    characters = set((folder / "forms.txt").read_bytes().decode(encoding)) - {"\n"}
    assert [ch for ch in sorted(characters) if normalize(ch) != ch or not unicodedata.is_normalized("NFKC", ch)] == []


def _spanish(rulesets):  # type: ignore[no-untyped-def]
    """The espanol ruleset (its deck has Ñ and no accented card) and a lexicon that folds every mark but ñ's tilde."""

    info = LexiconInfo(id="es-test", lang="es", version="t", sha256="0" * 64, fold_diacritics=True, fold_keep="ñ")
    return rulesets.get("espanol"), MemoryLexicon(["canción", "niño", "pingüino"], info)


def test_a_lexicon_that_keeps_a_letter_folds_the_other_marks_and_lays_that_letter_as_its_own_card(rulesets):
    ruleset, lexicon = _spanish(rulesets)
    typed, plain, tilde, no_tilde = (judge(word, ruleset, lexicon) for word in ("canción", "cancion", "niño", "nino"))
    assert typed.valid and plain.valid and [s.cards for s in typed.spellings] == [tuple("cancion")]
    assert tilde.valid and [s.cards for s in tilde.spellings] == [tuple("niño")]
    assert not no_tilde.valid and "not_in_lexicon" in {r.code for r in no_tilde.reasons}  # ñ never folds to n
    assert judge("pingüino", ruleset, lexicon).valid


def test_a_hand_lays_a_folded_word_with_plain_cards_and_the_kept_letter_with_its_own(rulesets):
    _, lexicon = _spanish(rulesets)
    from wordsvc.core.solver.candidates import deck_letters

    assert [deck_letters(w, True, "ñ") for w in ("canción", "niño")] == ["cancion", "niño"]
    candidates = MemoryCandidates.from_lexicon(lexicon)
    assert tuple(candidates.candidates("accinno")) == ("cancion",) and tuple(candidates.candidates("inoñ")) == ("niño",)


def test_the_oe_ligature_is_written_out_as_french_word_games_lay_it(rulesets):
    """French word games lay sœur as S-O-E-U-R, and no deck has an Œ card: œ is looked up and laid as oe."""
    folding = MemoryLexicon(["soeur", "coeur"], LexiconInfo(id="fr-test", lang="fr", version="t", sha256="0" * 64, fold_diacritics=True))
    ruleset = rulesets.get("francais")
    for typed in ("sœur", "SŒUR", "cœur", "soeur"):
        verdict = judge(typed, ruleset, folding)
        assert verdict.valid and [s.cards for s in verdict.spellings] == [tuple(verdict.normalized)], typed
    assert judge("sœur", ruleset, folding).normalized == "soeur" and normalize("BŒUF Œil") == "boeuf oeil"

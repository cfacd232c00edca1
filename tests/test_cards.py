from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wordsvc.core.cards import Card, CardSyntaxError, Deck, format_cards, parse_cards

ENGLISH_COUNTS = {
    "a": (10, 2), "b": (2, 8), "c": (2, 8), "d": (4, 5), "e": (12, 2), "f": (2, 6), "g": (4, 6), "h": (2, 7),
    "i": (8, 2), "j": (2, 13), "k": (2, 8), "l": (4, 3), "m": (2, 5), "n": (6, 5), "o": (8, 2), "p": (2, 6),
    "q": (2, 15), "r": (6, 5), "s": (4, 3), "t": (6, 3), "u": (6, 4), "v": (2, 11), "w": (2, 10), "x": (2, 12),
    "y": (4, 4), "z": (2, 14), "qu": (2, 9), "in": (2, 7), "er": (2, 7), "cl": (2, 10), "th": (2, 9),
}  # fmt: skip


@pytest.fixture(scope="module")
def deck(standard):
    return standard.deck


# ---- parse_cards


def test_a_card_list_is_read_card_by_card():
    assert parse_cards(["QU", "I", "Z"]) == ("qu", "i", "z")


def test_compact_notation_marks_multi_letter_cards_with_parentheses():
    assert parse_cards("(qu)iz") == ("qu", "i", "z")
    assert parse_cards("(cl)ow(n)") == ("cl", "o", "w", "n")
    assert parse_cards("(in)(qu)ir(in)g") == ("in", "qu", "i", "r", "in", "g")


def test_plain_letters_mean_single_letter_cards_only():
    assert parse_cards("quiz") == ("q", "u", "i", "z")


@pytest.mark.parametrize("spec", ["(QU)IZ", "(Qu)iZ", ["qu", "I", "z"], ["Qu", "i", "Z"]])
def test_faces_are_case_insensitive(spec):
    assert parse_cards(spec) == ("qu", "i", "z")


def test_spaces_in_compact_notation_are_ignored():
    assert parse_cards("(qu) i z") == ("qu", "i", "z")


@pytest.mark.parametrize("spec", ["(qu", "qu)iz", "()iz", "((q))", "(q(u))", ["qu", ""], ["qu", "  "], ["qu", 3]])
def test_malformed_card_specs_raise_card_syntax_error(spec):
    with pytest.raises(CardSyntaxError):
        parse_cards(spec)


def test_card_syntax_error_is_a_value_error():
    assert issubclass(CardSyntaxError, ValueError)


def test_format_cards_is_the_inverse_of_compact_parsing():
    for text in ["(qu)iz", "top", "(cl)own", "(in)(qu)ir(in)g"]:
        assert format_cards(parse_cards(text)) == text


# ---- the English deck


def test_english_deck_has_118_cards_worth_592(deck):
    assert deck.size == 118
    assert deck.total_value == 592


def test_english_deck_has_the_counts_and_values_of_the_rules(deck):
    assert {face: (card.count, card.value) for face, card in deck.cards.items()} == ENGLISH_COUNTS


def test_english_deck_has_108_single_letters_and_10_double_letter_cards(deck):
    singles = sum(c.count for c in deck.cards.values() if len(c.face) == 1)
    doubles = sum(c.count for c in deck.cards.values() if len(c.face) == 2)
    assert (singles, doubles) == (108, 10)


def test_deck_from_mapping_normalizes_faces():
    small = Deck.from_mapping({"QU": (1, 9), "A": (2, 2)})
    assert "qu" in small and "a" in small and "QU" not in small
    assert small.size == 3 and small.total_value == 13


# ---- spellings


def test_inquiring_can_be_laid_eight_ways_worth_36_or_46(deck):
    ways = deck.spellings("inquiring")
    assert len(ways) == 8 == len(set(ways))
    assert {deck.points(w) for w in ways} == {36, 46}
    assert all("".join(w) == "inquiring" for w in ways)


def test_quiz_is_25_with_the_qu_card_and_35_with_q_and_u(deck):
    ways = {w: deck.points(w) for w in deck.spellings("quiz")}
    assert ways == {("qu", "i", "z"): 25, ("q", "u", "i", "z"): 35}


def test_quiddler_is_31_with_double_cards_and_41_with_single_letters(deck):
    ways = {w: deck.points(w) for w in deck.spellings("quiddler")}
    assert ways[("qu", "i", "d", "d", "l", "er")] == 31
    assert ways[("q", "u", "i", "d", "d", "l", "e", "r")] == 41
    assert set(ways.values()) == {31, 41}


def test_clown_with_the_cl_card_is_27_points_in_4_cards(deck):
    ways = deck.spellings("clown")
    assert ("cl", "o", "w", "n") in ways
    assert deck.points(("cl", "o", "w", "n")) == 27
    assert len(("cl", "o", "w", "n")) == 4


def test_spellings_are_best_points_first(deck):
    points = [deck.points(w) for w in deck.spellings("inquiring")]
    assert points == sorted(points, reverse=True)


def test_pizzazz_cannot_be_laid_with_two_z_cards(deck):
    assert deck.spellings("pizzazz") == []


def test_a_letter_no_card_has_cannot_be_laid(deck):
    assert deck.spellings("café") == []


def test_spellings_never_use_more_copies_than_the_deck_holds(deck):
    # IN x2, I x8, N x6: "ininin" could use three IN cards but the deck holds two.
    ways = deck.spellings("ininin")
    assert ways
    for way in ways:
        for face, n in Counter(way).items():
            assert n <= deck.count(face)
    assert all(Counter(w)["in"] <= 2 for w in ways)


def test_spellings_respect_a_small_deck_exactly():
    small = Deck([Card("q", 1, 15), Card("u", 1, 4), Card("qu", 1, 9), Card("a", 1, 2)])
    assert small.spellings("ququ") == [("q", "u", "qu"), ("qu", "q", "u")]
    assert small.spellings("quqa") == [("qu", "q", "a")]  # Q-U-Q-A would need two Q cards
    assert small.spellings("ququq") == []


def test_spellings_honour_max_cards(deck):
    assert deck.spellings("inquiring", max_cards=6) == [("in", "qu", "i", "r", "in", "g")]


def test_over_count_and_unknown_faces(deck):
    assert deck.over_count(["z", "z", "z", "a"]) == {"z": 3}
    assert deck.unknown_faces(["a", "xy", "qu", "é"]) == ["xy", "é"]


# ---- every way, against a plain reference


def reference_spellings(deck: Deck, letters: str, max_cards: int | None = None) -> list[tuple[tuple[str, ...], int]]:
    """Every segmentation of ``letters`` into the deck's faces, by brute force, in answer order."""
    found = []

    def split(pos: int, way: tuple[str, ...]) -> None:
        if pos == len(letters):
            found.append(way)
            return
        for face in deck.cards:
            if letters.startswith(face, pos):
                split(pos + len(face), (*way, face))

    split(0, ())
    legal = [w for w in found if all(w.count(f) <= deck.count(f) for f in set(w)) and (max_cards is None or len(w) <= max_cards)]
    return sorted(((w, deck.points(w)) for w in legal), key=lambda wp: (-wp[1], len(wp[0]), wp[0]))


#: A deck whose faces overlap and start one another (S, SC, SCH, CH), with scarce copies.
TANGLED = Deck(
    [Card("s", 2, 3), Card("c", 1, 6), Card("h", 2, 4), Card("a", 3, 1), Card("sc", 1, 5), Card("sch", 1, 9), Card("ch", 2, 2), Card("aa", 1, 4)]
)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet="schaqueinrth", max_size=14), max_cards=st.one_of(st.none(), st.integers(1, 10)))
def test_spellings_are_every_legal_way_in_answer_order(standard, word, max_cards):
    deck = standard.deck
    assert [tuple(s) for s in deck.scored_spellings(word, max_cards)] == reference_spellings(deck, word, max_cards)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet="schaa", max_size=12), max_cards=st.one_of(st.none(), st.integers(1, 8)))
def test_spellings_with_faces_that_start_one_another(word, max_cards):
    assert [tuple(s) for s in TANGLED.scored_spellings(word, max_cards)] == reference_spellings(TANGLED, word, max_cards)


#: A deck whose faces overlap one another and themselves (NN in NNN, NA and AN in NAN) but none begins another.
OVERLAPPING = Deck([Card("a", 3, 1), Card("n", 3, 2), Card("r", 2, 2), Card("nn", 2, 5), Card("na", 1, 4), Card("an", 2, 2), Card("ar", 1, 7)])


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet="anr", max_size=12), max_cards=st.one_of(st.none(), st.integers(1, 8)))
def test_spellings_with_faces_that_overlap(word, max_cards):
    assert [tuple(s) for s in OVERLAPPING.scored_spellings(word, max_cards)] == reference_spellings(OVERLAPPING, word, max_cards)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet="schaa", min_size=1, max_size=12), max_cards=st.integers(0, 8))
def test_spellings_within_a_hand_or_else_the_one_with_the_fewest_cards(word, max_cards):
    every = reference_spellings(TANGLED, word)
    fitting = [w for w in every if len(w[0]) <= max_cards]
    ways, in_hand = TANGLED.spellings_within(word, max_cards)
    if len(word) > max_cards * TANGLED.widest:
        assert (ways, in_hand) == ([], False)
    elif fitting:
        assert in_hand and [tuple(w) for w in ways] == fitting
    elif every:
        assert not in_hand and [tuple(w) for w in ways] == [min(every, key=lambda wp: (len(wp[0]), -wp[1], wp[0]))]
    else:
        assert (ways, in_hand) == ([], False)


def test_a_long_run_of_a_double_letter_costs_no_more_than_the_copies_allow():
    # 'nn' fits at 63 places of 64 n's: every non-overlapping choice would be
    # about 10**13 ways; two NN cards in the deck leave about two thousand.
    icelandic = Deck([Card("n", 7, 1), Card("nn", 2, 4), Card("a", 7, 1)])
    ways = icelandic.scored_spellings("n" * 7 + "a")
    assert len(ways) == 1 + 6 + 10
    assert icelandic.spellings_within("n" * 64, 10) == ([], False)
    assert icelandic.spellings_within("n" * 20, 10) == ([], False)  # 20 n's: 18 singles needed, 7 held

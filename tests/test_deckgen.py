"""The deck generator's named doubles and value range (wordsvc.core.deckgen), on a small made-up letter count."""

from __future__ import annotations

import pytest

from wordsvc.core.deckgen import letter_stats, plan_deck

ALPHABET = "abcdefghijklmnopqrstuvwxyzäöü"
FIT = (-4.4546, 2.8956)  # the English fit of rulesets/decks/deutsch.yaml
WORDS = [
    "haus",
    "häuser",
    "buch",
    "bücher",
    "quelle",
    "quiz",
    "lachen",
    "machen",
    "erde",
    "vater",
    "mutter",
    "öl",
    "jaguar",
    "xylofon",
    "zwerg",
    "kiwi",
    "pony",
    "fjord",
    "dachs",
    "vogel",
]


def test_named_doubles_replace_the_most_frequent_pairs_with_their_own_counts():
    plan = plan_deck(letter_stats(WORDS, ALPHABET), ALPHABET, FIT, named_doubles={"ch": 2, "er": 2, "qu": 1}, value_range=(2, 9), double_cap=9)
    doubles = {face: card for face, card in plan.cards.items() if len(face) == 2}
    assert {face: count for face, (count, _) in doubles.items()} == {"ch": 2, "er": 2, "qu": 1}
    assert sum(count for count, _ in plan.cards.values()) == 118
    assert all(2 <= value <= 9 for _, value in plan.cards.values())


def test_without_names_the_most_frequent_pairs_are_the_doubles_two_each_on_the_english_scale():
    stats = letter_stats(WORDS, ALPHABET)
    plan = plan_deck(stats, ALPHABET, FIT)
    top = [pair for pair, _ in sorted(stats.pairs.items(), key=lambda kv: (-kv[1], kv[0]))][:5]
    assert sorted(face for face in plan.cards if len(face) == 2) == sorted(top)
    assert all(count == 2 for face, (count, _) in plan.cards.items() if len(face) == 2)
    assert max(value for _, value in plan.cards.values()) <= 15 and sum(count for count, _ in plan.cards.values()) == 118


def test_a_narrower_value_range_keeps_the_order_of_the_letters_values():
    stats = letter_stats(WORDS, ALPHABET)
    wide = plan_deck(stats, ALPHABET, FIT, named_doubles={"ch": 2})
    narrow = plan_deck(stats, ALPHABET, FIT, named_doubles={"ch": 2}, value_range=(2, 9))
    for a in ALPHABET:
        for b in ALPHABET:
            if wide.cards[a][1] < wide.cards[b][1]:
                assert narrow.cards[a][1] <= narrow.cards[b][1]


def test_a_named_double_must_be_two_letters_of_the_alphabet():
    with pytest.raises(ValueError, match="named doubles"):
        plan_deck(letter_stats(WORDS, ALPHABET), ALPHABET, FIT, named_doubles={"ñe": 2})

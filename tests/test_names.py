"""Names people can tell apart (UTS #39): no invisible characters, no mixed scripts, no two seats that look alike."""

from __future__ import annotations

import re

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.ids import ID_PATTERN, id_from_name
from wordsvc.core.names import confusable_pairs, folded_name, invisible_problem
from wordsvc.data.names import mixed_script, skeleton
from wordsvc.schemas.common import name_problem


@pytest.mark.parametrize("name", ["Ann\u200b", "\u202eAnn", "An\u2066n", "A\u00adnn", "Ann\u3164", "Ann\ufe0f", "\u200dAnn"])
def test_invisible_and_direction_changing_characters_are_refused(name):
    assert invisible_problem(name) is not None and name_problem(name) is not None


@pytest.mark.parametrize(
    ("a", "b"),
    [("Ann", "\u0410nn"), ("Bill", "BiII"), ("Ann", "ann"), ("paypal", "p\u0430ypal"), ("Oli", "0li"), ("Kim", "Kirn")],
)
def test_names_a_reader_could_take_for_one_another_are_confusable(a, b):
    assert confusable_pairs([a, "Cy", b], skeleton) == [(0, 2)]


@pytest.mark.parametrize(("a", "b"), [("Jón", "Jon"), ("Ann", "Anna"), ("Þóra", "Thora"), ("Mari", "Mart")])
def test_different_names_are_not_confusable(a, b):
    assert confusable_pairs([a, b], skeleton) == []


@pytest.mark.parametrize("name", ["Þóra", "Jüri", "Ólafur Ragnar", "山田 Taro", "O'Brien-Smith", "Анна", "Ann 2"])
def test_names_of_one_script_or_an_allowed_mix_pass(name):
    assert mixed_script(name) == frozenset() and name_problem(name) is None


def test_a_name_mixing_latin_and_cyrillic_is_mixed_script():
    assert mixed_script("\u0410nn") == {"LATIN", "CYRILLIC"}


def test_a_table_whose_names_look_alike_is_refused_naming_both(tmp_path):
    from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
    from wordsvc.data.rulesets import load_rulesets
    from wordsvc.ledger import LOCAL, Ledger

    lexicon = MemoryLexicon({"cat": [()]}, LexiconInfo(id="en-US", lang="en-US", version="1", sha256="1" * 64, fold_diacritics=True))
    ledger = Ledger.open(f"sqlite:///{tmp_path / 'l.db'}", lambda lang: lexicon)
    try:
        ledger.events.create_event(LOCAL, load_rulesets().get("standard"), lexicon, "Names", "names")
        with pytest.raises(InvalidRequest) as refused:
            ledger.games.put_game(LOCAL, "names", "t1", ["Ann", "Bob", "\u0410nn"])
        problems = refused.value.problems
        assert list(problems) == ["players.2"] and any("'Ann' (seat 0)" in m for m in problems["players.2"])
        assert any("mixes scripts" in m for m in problems["players.2"])
        with pytest.raises(InvalidRequest) as refused:
            ledger.games.put_game(LOCAL, "names", "t2", ["Bill", "BiII"])
        assert list(refused.value.problems) == ["players.1"]
        assert ledger.games.put_game(LOCAL, "names", "t3", ["Jón", "Jon", "Þóra"])[0]
    finally:
        ledger.close()


@pytest.mark.parametrize(
    ("a", "b"),
    [("Zoe Martin", "Zoë Martin"), ("ZOË  MARTIN", "zoe martin"), ("Þóra", "Thora"), ("Õnne", "Onne"), ("Straße", "STRASSE"), ("Łukasz", "Lukasz"), ("Ｋｉｍ", "Kim")],
)
def test_names_one_once_folded_as_words_are_folded_are_similar(a, b):
    assert folded_name(a) == folded_name(b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anna"), ("Jón", "Jónas"), ("Mari", "Marí Ósk")])
def test_names_that_differ_once_folded_are_not_similar(a, b):
    assert folded_name(a) != folded_name(b)


@pytest.mark.parametrize(
    ("name", "taken", "expected"),
    [
        ("Þórdís Jónsdóttir", (), "thordis-jonsdottir"),
        ("Õnne Saar", (), "onne-saar"),
        ("Zoë Martin", (), "zoe-martin"),
        ("Zoe Martin", {"zoe-martin"}, "zoe-martin-2"),
        ("Zoé Martin", {"zoe-martin", "zoe-martin-2"}, "zoe-martin-3"),
        ("Ævar Ørn Ðaníelsson", (), "aevar-orn-danielsson"),
        ("O'Brien, Seán (jr.)", (), "o-brien-sean-jr"),
        ("  --Ann--  ", (), "ann"),
        ("Import", (), "import-2"),  # a reserved id is never made
        ("Анна", (), "player"),
        ("李华", {"player"}, "player-2"),
        ("x" * 80, (), "x" * 64),
        ("x" * 80, {"x" * 64}, "x" * 62 + "-2"),
    ],
)
def test_an_id_is_made_from_the_folded_name_unique_among_those_taken(name, taken, expected):
    made = id_from_name(name, taken)
    assert made == expected and re.fullmatch(ID_PATTERN, made)


def test_an_id_from_a_name_is_the_same_every_time():
    taken = {"ann", "ann-2"}
    assert {id_from_name("Ánn", taken) for _ in range(3)} == {"ann-3"}

"""Request schemas: the direct round reader agrees with the marshmallow schema it stands in for."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from wordsvc.core.scoring import PlayerPlay, RoundPlay
from wordsvc.schemas.common import CONTROL as _CONTROL
from wordsvc.schemas.events import RoundSubmission, load_round_submission, read_round_submission
from wordsvc.schemas.rounds import RoundRequest, load_round_request, read_round
from wordsvc.schemas.validate import ValidateQuery, _read_query, load_validate_query

GOOD_WORDS = [["QU", "I", "Z"], "t(o)p", "(th)ing", ["C", "L", "O", "W", "N"], "jade"]
GOOD_PLAYER = st.fixed_dictionaries(
    {"name": st.sampled_from(["Ann", "Bob", "Þóra", "Dan"])},
    optional={
        "words": st.lists(st.sampled_from(GOOD_WORDS), max_size=3),
        "unused": st.sampled_from([[], ["A"], "ae", "(in)"]),
        "went_out": st.booleans(),
    },
)
GOOD_ROUND = st.fixed_dictionaries(
    {"players": st.lists(GOOD_PLAYER, min_size=1, max_size=4)},
    optional={
        "ruleset": st.sampled_from(["standard", "challenge"]),
        "lang": st.sampled_from([None, "en", "is-IS"]),
        "round": st.sampled_from([None, 1, 8, 64]),
        "bonus_choice": st.sampled_from([None, "most_words", "longest_word"]),
        "challenges": st.just([]),
    },
)
#: One change each, most of which the schema refuses: (where, key, value); where is "round" or "player".
CHANGES = [
    ("round", "ruleset", v) for v in ["", "x" * 65, None, 3]
] + [
    ("round", "lang", v) for v in ["", 5, "x" * 36]
] + [
    ("round", "round", v) for v in [0, 65, True, "3", 2.0, -1]
] + [
    ("round", "bonus_choice", v) for v in ["bogus", 1, ""]
] + [
    ("round", "challenges", v) for v in [None, [{"by": "Ann", "player": "Bob", "word": 0}], {}, "x"]
] + [
    ("round", "players", v) for v in [None, [], "Ann", [None], [[]], [{"name": "A"}] * 17]
] + [
    ("round", "colour", "red"),
] + [
    ("player", "name", v) for v in ["", "x" * 65, "A\x00n", "A\nB", "\x9f", 5, None, ["Ann"], " Ann", "Ann\u00a0", "\ufeffAnn", "e\u0301va"]
] + [
    ("player", "words", v) for v in [None, "quiz", ["(qu"], [["", "A"]], [[1]], [["A"] * 300], [[]], [["x" * 9]], [["A\x00"]], ["q" * 300]]
] + [
    ("player", "unused", v) for v in [None, [""], ["QU", "x" * 9], "((", 7, [None]]
] + [
    ("player", "went_out", v) for v in [None, 1, "true", 0]
] + [
    ("player", "colour", "red"),
]


@st.composite
def rounds(draw):
    data = draw(GOOD_ROUND)
    for where, key, value in draw(st.lists(st.sampled_from(CHANGES), max_size=2)):
        if where == "round":
            data[key] = value
        elif isinstance(data.get("players"), list) and data["players"] and isinstance(data["players"][0], dict):
            data["players"][draw(st.integers(0, len(data["players"]) - 1))][key] = value
    return data


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@settings(max_examples=800, deadline=None)
@given(data=rounds())
def test_the_direct_reader_accepts_only_what_the_schema_accepts_and_reads_it_the_same(data):
    assert_agrees(data, RoundRequest(), read_round, load_round_request)


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@settings(max_examples=400, deadline=None)
@given(data=rounds(), extra=st.sampled_from([{}, {"correction": {"reason": "slip"}}, {"ruleset": "standard"}, {"correction": None}]))
def test_a_ledger_submission_is_read_directly_only_as_the_schema_reads_it(data, extra):
    data = {**data, **extra}
    data.pop("ruleset", None) if "ruleset" not in extra else None
    data.pop("lang", None)

    assert_agrees(data, RoundSubmission(), read_round_submission, load_round_submission)


def assert_agrees(data, schema, direct_reader, loader):
    """The direct reader takes only what the schema takes, to the same value; the loader gives the schema's value."""
    try:
        expected = schema.load(dict(data))
    except ValidationError:
        expected = None
    direct = direct_reader(data)
    if direct is not None:
        assert direct == expected
    if expected is not None:
        assert loader(data) == expected


def test_a_plain_round_is_read_directly_into_the_same_objects():
    data = {
        "ruleset": "standard",
        "round": 3,
        "players": [{"name": "Ann", "words": [["QU", "I", "Z"]], "unused": []}, {"name": "Bob", "words": ["t(o)p"], "went_out": True}],
    }
    expected = {
        "play": RoundPlay((PlayerPlay("Ann", (("qu", "i", "z"),), ()), PlayerPlay("Bob", (("t", "o", "p"),), (), True)), 3, (), None),
        "ruleset": "standard",
        "lang": None,
    }
    assert read_round(data) == expected == RoundRequest().load(data)


def test_a_round_the_direct_reader_is_unsure_of_gets_the_schemas_errors():
    data = {"players": [{"name": "", "words": ["(qu"]}], "round": 0}
    try:
        load_round_request(data)
    except ValidationError as err:
        assert set(err.messages) == {"players", "round"}
        assert set(err.messages["players"][0]) == {"name", "words"}
    else:
        raise AssertionError("an invalid round was accepted")


def test_control_characters_are_exactly_unicode_category_cc():
    control = "".join(chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cc")
    assert all(_CONTROL.fullmatch(ch) for ch in control)
    assert len(_CONTROL.findall(control + "aé\u200b\u2028 ")) == len(control)


QUERY_GOOD = st.fixed_dictionaries(
    {"word": st.sampled_from(["quiz", "(qu)iz", "Þóra", "cafe\u0301", "", "two words"])},
    optional={
        "ruleset": st.sampled_from(["standard", "islenska"]),
        "lang": st.sampled_from(["en", "is-IS"]),
        "locale": st.sampled_from(["", "et", "is"]),
        "suggest": st.sampled_from(["true", "false"]),
    },
)
QUERY_CHANGES = [
    ("word", "q" * 257), ("word", "qu\x00iz"), ("word", "a\tb"), ("ruleset", ""), ("ruleset", "x" * 65), ("lang", ""),
    ("lang", "x" * 36), ("locale", "x" * 36), ("suggest", "yes"), ("suggest", "1"), ("suggest", ""), ("colour", "red"),
]  # fmt: skip


@st.composite
def queries(draw):
    args = draw(QUERY_GOOD)
    for key, value in draw(st.lists(st.sampled_from(QUERY_CHANGES), max_size=2)):
        args[key] = value
    if draw(st.booleans()) and draw(st.booleans()):
        del args["word"]
    return args


@settings(max_examples=400, deadline=None)
@given(args=queries())
def test_the_direct_query_reader_agrees_with_the_schema(args):
    assert_agrees(args, ValidateQuery(), _read_query, load_validate_query)

"""The app's JSON answers (wordsvc.web.encoding): orjson's bytes, the same JSON the standard library writes."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections import namedtuple

import pytest
from flask.json.provider import DefaultJSONProvider

from wordsvc.web.app import create_app
from wordsvc.web.encoding import JSONProvider


@dataclasses.dataclass
class Stamp:
    id: str
    version: str


@pytest.fixture(scope="module")
def app():
    return create_app()


def stdlib(value: object) -> bytes:
    return (json.dumps(value, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


@pytest.mark.parametrize(
    "path",
    ["/validate?word=quixotic", "/validate?word=%C3%BEj%C3%B3%C3%B0&lang=is", "/validate?word=xyzzyq&suggest=false", "/rulesets/standard", "/health"],
)
def test_an_answer_is_what_the_standard_library_writes(app, path):
    response = app.test_client().get(path)
    assert response.status_code == 200
    assert response.content_type == "application/json"
    assert response.data == stdlib(json.loads(response.data))  # compact, keys in order, non-ASCII as itself, one newline


def test_non_ascii_letters_are_written_as_themselves(app):
    data = app.test_client().get("/validate?word=%C3%BEj%C3%B3%C3%B0&lang=is").data
    assert "þjóð".encode() in data and b"\\u" not in data


@pytest.mark.parametrize(
    "value",
    [
        {"pair": namedtuple("Pair", "a b")(1, "b")},  # a named tuple: orjson refuses the subclass
        {1: "one", 2: "two"},  # keys that are not strings
        {"big": 2**70},  # beyond 64 bits
        {"at": datetime.date(2026, 12, 2), "when": datetime.datetime(2026, 12, 2, 18, 0, tzinfo=datetime.UTC)},  # Flask's HTTP dates
        {"stamp": Stamp("en-US", "1")},  # a dataclass: Flask's dict of it
    ],
    ids=["named-tuple", "int-keys", "big-int", "dates", "dataclass"],
)
def test_what_orjson_refuses_or_has_its_own_way_with_is_written_as_flasks_provider_wrote_it(app, value):
    with app.app_context():
        response = JSONProvider(app).response(value)
        flask = DefaultJSONProvider(app)
        flask.ensure_ascii = flask.sort_keys = False
        assert json.loads(response.data) == json.loads(flask.dumps(value))
    assert response.data == (json.dumps(value, default=flask.default, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def test_dumps_has_no_trailing_newline(app):
    assert JSONProvider(app).dumps({"word": "café", "n": [1, 2]}) == '{"word":"café","n":[1,2]}'


def test_dumps_with_options_takes_them(app):
    assert JSONProvider(app).dumps({"b": 1, "a": [2]}, indent=1, sort_keys=True) == '{\n "a": [\n  2\n ],\n "b": 1\n}'

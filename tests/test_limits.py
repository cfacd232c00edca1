"""Limits: refused before the work they bound, answered in a few kilobytes, and stated in the OpenAPI document as enforced.

Three promises. A list past its limit is refused without reading one of its
items (counted: marshmallow's field reads, through the whole app), so a 60 KB
body costs its parse and no more (bench/resilience.py times it); an error answer
lists at most MAX_LISTED_ERRORS problems, so it stays small whatever was
sent; and every limit the document states is the limit a request meets
(probed at the boundary, both sides), and no limit is enforced that the
document does not state. A JSON body is read one way only: a key given
twice in an object is refused, not silently last-wins.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from marshmallow import Schema, ValidationError, fields, validate
from problem_shape import codes, messages

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.schemas.best_meld import MAX_HAND_CARDS, BestMeldRequest
from wordsvc.schemas.common import (
    MAX_FACE,
    MAX_LISTED_ERRORS,
    MAX_PLAYERS,
    MAX_TEXT,
    MAX_WORDS,
    MORE_ERRORS,
    BoundedList,
    BoundedNested,
    cap_errors,
    flatten_errors,
)
from wordsvc.schemas.rounds import MAX_ROUNDS, GameRequest, RoundRequest
from wordsvc.schemas.validate import MAX_VERDICTS, ValidateBody
from wordsvc.schemas.words import MAX_BUDGET, MAX_BUDGET_MS, MAX_LIMIT, MAX_SUGGESTIONS

SMALL_ANSWER = 64 * 1024  # bytes: the most an error answer may take, whatever the request


@pytest.fixture(scope="module")
def client(rulesets):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    memory = MemoryLexicon({w: [()] for w in ("quiz", "top", "cat")}, LexiconInfo(id="mem", lang="en-US", version="1", sha256="3" * 64, fold_diacritics=True))
    return create_app(service=Service(rulesets, Languages({"en-US": memory}))).test_client()


def post(client, path: str, body: Any) -> tuple[Any, int]:
    """The answer to ``body`` posted as JSON, and how many marshmallow fields were read (``Field.deserialize``) on the way."""
    raw = json.dumps(body, separators=(",", ":")) if not isinstance(body, str) else body
    assert len(raw) < 65536, "the body must pass the body limit, or it tests the 413"
    with FieldCalls() as calls:
        response = client.post(path, data=raw, content_type="application/json")
    return response, calls.count


class FieldCalls:
    """Counts marshmallow field reads (``Field.deserialize``) while it is active."""

    def __enter__(self) -> FieldCalls:
        self.count = 0
        original = fields.Field.deserialize

        def counting(field: fields.Field, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(field, *args, **kwargs)

        self._patch = mock.patch.object(fields.Field, "deserialize", counting)
        self._patch.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._patch.stop()


# ---------------------------------------------------------------- cheap refusals

#: (name, path, body past a list limit, the field path refused); the first two are the issue's amplification requests.
TOO_LONG = [
    ("20000-empty-challenges", "/score-round", {"players": [{"name": "a"}], "challenges": [{}] * 20_000}, "challenges"),
    ("30000-ones-in-words", "/score-round", {"players": [{"name": "a", "words": [1] * 30_000}]}, "players.0.words"),
    ("players", "/score-round", {"players": [{}] * 20_000}, "players"),
    ("unused", "/score-round", {"players": [{"name": "a", "unused": [1] * 30_000}]}, "players.0.unused"),
    ("validate-words", "/validate", {"words": [1] * 30_000}, "words"),
    ("game-players", "/score-game", {"players": [1] * 30_000, "rounds": [{"players": [{"name": "a"}]}]}, "players"),
    ("game-rounds", "/score-game", {"players": ["a"], "rounds": [{}] * 20_000}, "rounds"),
    ("game-round-words", "/score-game", {"players": ["a"], "rounds": [{"players": [{"name": "a", "words": [1] * 30_000}]}]}, "rounds.0.players.0.words"),
    ("hand", "/best-meld", {"hand": [1] * 30_000}, "hand"),
]


@pytest.mark.parametrize(("path", "body", "field"), [pytest.param(*case[1:], id=case[0]) for case in TOO_LONG])
def test_a_list_past_its_limit_is_refused_at_once_in_a_small_answer(client, path, body, field):
    response, reads = post(client, path, body)
    assert response.status_code == 422
    assert len(response.data) < SMALL_ANSWER
    assert reads < 20, f"{reads} field reads: the items were read"  # the schemas' own fields, not 20,000 items
    assert field in response.get_json()["errors"]


@pytest.mark.parametrize(("schema", "body"), [
    (RoundRequest, {"players": [{"name": "a"}], "challenges": [{}] * 20_000}),
    (RoundRequest, {"players": [{}] * 20_000}),
    (RoundRequest, {"players": [{"name": "a", "words": [1] * 30_000}]}),
    (ValidateBody, {"words": [1] * 30_000}),
    (GameRequest, {"players": [1] * 30_000, "rounds": [{}] * 20_000}),
    (BestMeldRequest, {"hand": [1] * 30_000}),
])  # fmt: skip
def test_a_list_past_its_limit_is_refused_without_reading_its_items(schema, body):
    with FieldCalls() as calls, pytest.raises(ValidationError) as refused:
        schema().load(body)
    assert calls.count < 20, f"{calls.count} field reads: the items were read"  # the schemas' own fields, not 20,000 items
    assert sum(len(m) for m in flatten_errors(refused.value.messages, limit=None).values()) <= 2


def test_every_list_field_of_a_request_schema_checks_its_length_first():
    unchecked = [
        f"{schema.__name__}.{name}"
        for schema, name, field in request_fields()
        if any(isinstance(v, validate.Length) for v in field.validators) and isinstance(field, fields.List | fields.Nested)
        and not isinstance(field, BoundedList | BoundedNested)
    ]  # fmt: skip
    assert unchecked == []


def test_a_list_at_its_limit_still_reads_every_item():
    with pytest.raises(ValidationError) as refused:
        RoundRequest().load({"players": [{"name": "a"}], "challenges": [{}] * MAX_WORDS})
    assert len(flatten_errors(refused.value.messages, limit=None)) == 3 * MAX_WORDS  # by, player, word of each


# ---------------------------------------------------------------- the error cap


def test_an_answer_lists_the_first_problems_and_counts_the_rest(client):
    body = {"players": [{"name": "a", "words": [[""] * 250] * 10}]}  # 2,500 bad cards, within every list limit
    response, _ = post(client, "/score-round", body)
    problem = response.get_json()
    assert response.status_code == 422 and len(response.data) < 8 * 1024
    listed = {path: messages for path, messages in problem["errors"].items() if path != MORE_ERRORS}
    assert sum(len(m) for m in listed.values()) == MAX_LISTED_ERRORS
    assert list(listed)[:2] == ["players.0.words.0.0", "players.0.words.0.1"]  # the request's order
    assert problem["errors"][MORE_ERRORS] == [
        {"code": "errors_not_listed", "message": f"{2500 - MAX_LISTED_ERRORS} more problem(s) not listed: an answer lists the first {MAX_LISTED_ERRORS}"}
    ]
    assert problem["detail"] == "The request has 2500 invalid field(s); see errors."


def test_the_round_checks_answer_is_capped_too(client):
    body = {"players": [{"name": f"p{i}", "unused": ["ZZ"] * 250} for i in range(16)]}  # 4,000 cards not in the deck
    response, _ = post(client, "/score-round", body)
    assert response.status_code == 422 and len(response.data) < 8 * 1024
    assert response.get_json()["detail"] == "The round does not add up; see errors."
    assert "more problem(s) not listed" in response.get_json()["errors"][MORE_ERRORS][0]["message"]


def test_a_small_request_gets_every_problem_and_no_count(client):
    response, _ = post(client, "/score-round", {"players": [{"name": ""}], "round": 0})
    assert messages(response.get_json()["errors"]) == {
        "players.0.name": ["Length must be between 1 and 64"],
        "round": ["Must be greater than or equal to 1 and less than or equal to 64"],
    }
    assert codes(response.get_json()["errors"]) == {"players.0.name": ["length_out_of_range"], "round": ["value_out_of_range"]}


def test_cap_errors_counts_fields_and_keeps_each_paths_messages_together():
    pairs = [(f"f{i}", ["a", "b"]) for i in range(30)] + [("f0", ["c"])]
    listed, fields_count = cap_errors(pairs, limit=5)
    assert listed == {"f0": ["a", "b"], "f1": ["a", "b"], "f2": ["a"], MORE_ERRORS: ["56 more problem(s) not listed: an answer lists the first 5"]}
    assert fields_count == 30
    assert cap_errors(pairs, limit=None)[0]["f0"] == ["a", "b", "c"]
    assert cap_errors({"x": ["y"]}) == ({"x": ["y"]}, 1)


# ---------------------------------------------------------------- one reading of a JSON body


@pytest.mark.parametrize(("raw", "paths"), [
    ('{"words":["xyzzy"],"words":["quiz"]}', ["words"]),
    ('{"players":[{"name":"a","name":"b"},{"name":"c"}],"round":1,"round":1}', ["players.0.name", "round"]),
    ('[{"a":1},{"a":1,"b":{"c":1,"c":1},"a":2}]', ["1.a", "1.b.c"]),
])  # fmt: skip
def test_a_key_given_twice_in_an_object_is_a_400_naming_it(client, raw, paths):
    response, _ = post(client, "/validate", raw)
    problem = response.get_json()
    assert response.status_code == 400
    assert problem["errors"] == {path: [{"code": "given_twice", "message": "given more than once"}] for path in paths}
    assert problem["code"] == "given_twice"
    assert all(repr(path) in problem["detail"] for path in paths)


def test_the_same_key_in_different_objects_is_no_repeat(client):
    response, _ = post(client, "/validate", '{"words":[["Q","U"]],"judge":false,"lang":"en-US"}')
    assert response.status_code == 200
    response, _ = post(client, "/score-round", {"players": [{"name": "a", "words": ["cat"]}, {"name": "b", "words": ["top"]}]})
    assert response.status_code == 200


@pytest.mark.parametrize(("raw", "detail"), [
    ('{"words":["\\ud800"]}', "unpaired UTF-16 surrogate"),
    ("[" * 100_00 + "]" * 100_00, "nested too deeply"),
    ('{"words":[NaN]}', "NaN is not a JSON number"),
    ('{"words":', "not valid JSON"),
])  # fmt: skip
def test_read_json_still_refuses_what_it_refused(client, raw, detail):
    response, _ = post(client, "/validate", raw)
    assert response.status_code == 400 and detail in response.get_json()["detail"]


def test_read_json_still_refuses_bytes_that_are_not_utf8(client):
    response = client.post("/validate", data=b'{"words":["\xff"]}', content_type="application/json")
    assert response.status_code == 400 and "not valid UTF-8" in response.get_json()["detail"]


# ---------------------------------------------------------------- the document states the limits enforced

BODY_SCHEMAS: dict[str, type[Schema]] = {
    "ValidateBody": ValidateBody,
    "RoundRequest": RoundRequest,
    "GameRequest": GameRequest,
    "BestMeldRequest": BestMeldRequest,
}
HUGE = 10_000  # past any limit the service has: a field the document leaves unbounded must take it


def request_fields() -> Iterator[tuple[type[Schema], str, fields.Field]]:
    """Every field of every request and query schema, nested ones included."""
    from wordsvc.web.openapi import query_schemas

    seen: set[type[Schema]] = set()
    todo: list[type[Schema]] = [*BODY_SCHEMAS.values(), *query_schemas().values()]
    while todo:
        schema = todo.pop()
        if schema in seen:
            continue
        seen.add(schema)
        for name, field in schema().fields.items():
            yield schema, name, field
            for part in (field, getattr(field, "inner", None)):
                if isinstance(part, fields.Nested):
                    todo.append(type(part.schema))


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    from wordsvc.web.openapi import spec

    return spec()


def resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = doc["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def nodes(doc: dict[str, Any], node: dict[str, Any], path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """Every schema node under ``node`` with the field path a value there has (list items at index 0)."""
    node = resolve(doc, node)
    yield path, node
    for branch in node.get("oneOf", []):
        yield from nodes(doc, branch, path)
    for name, sub in node.get("properties", {}).items():
        yield from nodes(doc, sub, (*path, name))
    if "items" in node:
        yield from nodes(doc, node["items"], (*path, 0))


def embed(path: tuple[str | int, ...], value: Any) -> Any:
    for step in reversed(path):
        value = {step: value} if isinstance(step, str) else [value]
    return value


def text(node: dict[str, Any], length: int) -> str:
    """A string of ``length`` characters the node's pattern takes, of one card or letter (white space pads it)."""
    for first, pad in (("a", " "), ("a", "a"), ("ordinary", " "), ("0", "0")):  # "0"s: a hex seed (/deal)
        candidate = (first + pad * length)[:length] if length >= len(first) else "a" * length
        if "pattern" not in node or re.fullmatch(node["pattern"], candidate):
            return candidate
    if length > node.get("maxLength", length):  # past the length limit no string fits a pattern that fixes the length (a seed): any will do
        return "0" * length
    raise AssertionError(f"no probe string fits the pattern {node['pattern']!r}: add one to text()")


def filler(doc: dict[str, Any], node: dict[str, Any]) -> Any:
    """One item for a list of these nodes: valid enough that the list's own checks are what is probed."""
    node = resolve(doc, node)
    if "oneOf" in node:
        node = next(b for b in node["oneOf"] if b.get("type") == "string")
    return {"object": {}, "string": text(node, max(1, node.get("minLength", 1))), "integer": node.get("minimum", 0)}.get(node.get("type"), "A")


def probes(doc: dict[str, Any], node: dict[str, Any]) -> Iterator[tuple[str, Any, bool]]:
    """(what, value, refused): values on both sides of every limit the node states, and past the limits it does not state."""
    kind = node.get("type")
    if kind == "array":
        item = filler(doc, node["items"])
        most = node.get("maxItems")
        yield ("maxItems", [item] * most, False) if most is not None else ("no maxItems", [item] * HUGE, False)
        if most is not None:
            yield "maxItems + 1", [item] * (most + 1), True
        if node.get("minItems"):
            yield "minItems", [item] * node["minItems"], False
            yield "minItems - 1", [item] * (node["minItems"] - 1), True
    elif kind == "string" and "enum" in node:
        for choice in node["enum"]:
            yield f"enum {choice!r}", choice, False
        yield "not in enum", "not-one-of-them", True
    elif kind == "string":
        most = node.get("maxLength")
        yield ("maxLength", text(node, most), False) if most is not None else ("no maxLength", text(node, HUGE), False)
        if most is not None:
            yield "maxLength + 1", text(node, most + 1), True
        if node.get("minLength"):
            yield "minLength - 1", "a" * (node["minLength"] - 1), True
        if "pattern" in node:
            for bad in ("a\x00b", " ", "!"):
                if not re.fullmatch(node["pattern"], bad):
                    yield f"not the pattern: {bad!r}", bad, True
                    break
        else:
            yield "no pattern", "a\x00b", False
    elif kind == "integer":
        for bound, step in (("minimum", -1), ("maximum", 1)):
            if bound in node:
                yield bound, node[bound], False
                yield f"{bound} {step:+d}", node[bound] + step, True
            else:
                yield f"no {bound}", step * 10**9, False


def refused_at(schema: type[Schema], data: Any, path: tuple[str | int, ...]) -> list[str]:
    """The messages at ``path``, or at a field above it that reads the value whole (a card field)."""
    try:
        schema().load(data)
    except ValidationError as err:
        errors = flatten_errors(err.messages, limit=None)
        return [m for i in range(len(path), 0, -1) for m in errors.get(".".join(map(str, path[:i])), [])]
    return []


def body_cases(doc: dict[str, Any]) -> Iterator[tuple[str, type[Schema], tuple[str | int, ...], str, Any, bool]]:
    for name, schema in BODY_SCHEMAS.items():
        for path, node in nodes(doc, doc["components"]["schemas"][name]):
            if path:
                for what, value, refused in probes(doc, node):
                    yield name, schema, path, what, value, refused


def test_every_limit_a_request_body_states_is_the_limit_enforced(doc):
    wrong = []
    for name, schema, path, what, value, refused in body_cases(doc):
        messages = refused_at(schema, embed(path, value), path)
        if bool(messages) != refused:
            wrong.append(f"{name} {'.'.join(map(str, path))} ({what}): {'refused: ' + '; '.join(messages) if messages else 'taken'}")
    assert wrong == []


def test_the_body_probes_cover_every_kind_of_limit(doc):
    seen = {(name, ".".join(map(str, path)), what) for name, _, path, what, _, _ in body_cases(doc)}
    for expected in [
        ("RoundRequest", "players", "maxItems + 1"), ("RoundRequest", "players.0.words", "maxItems + 1"), ("RoundRequest", "challenges", "maxItems + 1"),
        ("RoundRequest", "players.0.unused", "maxItems + 1"), ("RoundRequest", "players.0.unused.0", "maxLength + 1"),
        ("RoundRequest", "players.0.name", "not the pattern: 'a\\x00b'"), ("RoundRequest", "round", "maximum +1"), ("RoundRequest", "bonus_choice", "not in enum"),
        ("GameRequest", "rounds", "maxItems + 1"), ("GameRequest", "rounds.0.players.0.words.0", "maxItems + 1"), ("ValidateBody", "words.0", "maxLength + 1"),
        ("BestMeldRequest", "hand", "maxItems + 1"), ("BestMeldRequest", "top", "maximum +1"),
    ]:  # fmt: skip
        assert expected in seen, expected


def test_every_limit_a_query_parameter_states_is_the_limit_enforced(doc):
    from wordsvc.web.openapi import query_schemas

    wrong = []
    for path, schema in query_schemas().items():
        for param in (p for p in doc["paths"][path]["get"]["parameters"] if p["in"] == "query"):
            node = param["schema"]
            for what, value, refused in probes(doc, node):
                sent = str(value).lower() if isinstance(value, bool) else str(value)
                messages = refused_at(schema, {param["name"]: sent}, (param["name"],))
                if bool(messages) != refused:
                    wrong.append(f"{path} {param['name']} ({what}): {'refused: ' + '; '.join(messages) if messages else 'taken'}")
    assert wrong == []


def test_the_query_parameters_are_the_ones_each_schema_reads(doc):
    from wordsvc.web.openapi import query_schemas

    for path, schema in query_schemas().items():
        documented = {p["name"]: p for p in doc["paths"][path]["get"]["parameters"] if p["in"] == "query"}
        read = {field.data_key or name: field for name, field in schema().fields.items()}
        assert set(documented) == set(read), path
        assert {n for n, p in documented.items() if p["required"]} == {n for n, f in read.items() if f.required}, path


def test_the_document_states_the_named_limits(doc):
    schemas = doc["components"]["schemas"]
    player = schemas["Player"]["properties"]
    assert schemas["RoundRequest"]["properties"]["players"]["maxItems"] == MAX_PLAYERS == schemas["GameRequest"]["properties"]["players"]["maxItems"]
    assert schemas["GameRequest"]["properties"]["rounds"]["maxItems"] == MAX_ROUNDS
    assert schemas["RoundRequest"]["properties"]["challenges"]["maxItems"] == MAX_WORDS == player["words"]["maxItems"]
    assert schemas["ValidateBody"]["properties"]["words"]["maxItems"] == MAX_VERDICTS
    hand_list, hand_text = schemas["BestMeldRequest"]["properties"]["hand"]["oneOf"]
    assert (hand_list["type"], hand_list["maxItems"], hand_list["items"]["maxLength"]) == ("array", MAX_HAND_CARDS, MAX_FACE)
    assert (hand_text["type"], hand_text["maxLength"]) == ("string", MAX_TEXT)
    query = {(path, p["name"]): p["schema"] for path, ops in doc["paths"].items() for p in ops.get("get", {}).get("parameters", [])}
    assert all(query[(path, "budget_ms")] == {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET_MS} for path in ("/words", "/anagrams", "/suggest"))
    assert all(query[(path, "budget")] == {"type": "integer", "minimum": 1, "maximum": MAX_BUDGET} for path in ("/words", "/anagrams", "/suggest"))
    assert query[("/words", "limit")]["maximum"] == MAX_LIMIT and query[("/suggest", "limit")]["maximum"] == MAX_SUGGESTIONS
    assert (query[("/words", "min_len")]["minimum"], query[("/words", "min_len")]["maximum"]) == (1, 64)
    assert query[("/validate", "word")] == {"type": "string", "maxLength": MAX_TEXT, "pattern": "^[^\\x00-\\x1f\\x7f-\\x9f]*$"}

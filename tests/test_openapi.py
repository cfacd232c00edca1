"""The OpenAPI document says what client generators need: names for operations, nullable fields as they are, no shapeless objects.

api_tests/test_clients.py generates the clients from it and runs them; these
check the document itself, so a schema added later cannot quietly bring back
what made the generators guess (an anonymous "any object" type beside a
nullable nested schema, a method named after its URL).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from wordsvc.web.openapi import declared, spec

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return spec()


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in doc["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def schema_nodes(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object in ``node``, with where it is."""
    if isinstance(node, dict):
        yield where, node
        for key, value in node.items():
            yield from schema_nodes(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schema_nodes(value, f"{where}/{i}")


def test_every_operation_has_a_unique_camel_case_operation_id_and_a_tag(doc: dict[str, Any]) -> None:
    ids = [op["operationId"] for _, _, op in operations(doc)]
    assert len(ids) == len(set(ids)) == len([e for e in declared() if e.documented])
    assert [i for i in ids if not re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)*", i)] == []
    assert all(len(op["tags"]) == 1 for _, _, op in operations(doc))
    assert {(method, path) for method, path, _ in operations(doc)} == {(e.method, e.path) for e in declared() if e.documented}  # no name left for an operation that is gone


def test_the_names_clients_are_told_to_call(doc: dict[str, Any]) -> None:
    names = {(method, path): op["operationId"] for method, path, op in operations(doc)}
    assert names[("get", "/validate")] == "validateWord"
    assert names[("post", "/score-round")] == "scoreRound"
    assert names[("post", "/best-meld")] == "bestMeld"
    assert names[("get", "/words")] == "findWords"
    assert names[("post", "/events")] == "createEvent"


def test_a_nullable_nested_schema_is_that_schema_or_null_and_nothing_else(doc: dict[str, Any]) -> None:
    loose = []
    for where, node in schema_nodes(doc["components"]):
        for branch in [*node.get("anyOf", []), *node.get("oneOf", [])]:
            if isinstance(branch, dict) and branch.get("nullable") and "$ref" not in branch and branch.get("enum") != [None]:
                loose.append(where)
    assert loose == []
    head = doc["components"]["schemas"]["Audit"]["properties"]["head"]
    assert head["anyOf"] == [{"type": "object", "nullable": True, "enum": [None]}, {"$ref": "#/components/schemas/AuditHeadOut"}]


def test_a_nullable_choice_is_named_so_a_generator_makes_one_enum_of_it(doc: dict[str, Any]) -> None:
    choices = [(where, node) for where, node in schema_nodes(doc["components"]) if None in node.get("enum", []) and node["enum"] != [None]]
    assert choices  # bonus_choice, at least
    assert [where for where, node in choices if not node.get("nullable") or not node.get("title")] == []


def test_no_object_is_shapeless(doc: dict[str, Any]) -> None:
    """An object with neither properties nor additionalProperties reads as an empty object to openapi-typescript."""
    shapeless = [
        where
        for where, node in schema_nodes({"components": doc["components"], "paths": doc["paths"]})
        if node.get("type") == "object" and not {"properties", "additionalProperties", "allOf", "oneOf", "anyOf"} & set(node) and node.get("enum") != [None]
    ]
    assert shapeless == []


def test_every_error_answer_is_a_typed_problem(doc: dict[str, Any]) -> None:
    for method, path, op in operations(doc):
        for status, answer in op["responses"].items():
            if status[0] in "45":
                assert answer["content"] == {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}, (method, path, status)


# ---------------------------------------------------------------- what the document must state


def test_a_solitaire_rebuild_states_both_of_its_piles_as_required(doc):
    assert sorted(doc["components"]["schemas"]["Rebuild"]["required"]) == ["from", "to"]


def test_the_words_pattern_parameter_states_its_grammar_and_shape(doc):
    from wordsvc.schemas.words import PATTERN_SHAPE

    param = next(p for p in doc["paths"]["/words"]["get"]["parameters"] if p["name"] == "pattern")
    assert param["required"] and param["schema"]["pattern"] == PATTERN_SHAPE and param["schema"]["maxLength"] == 32
    assert "1*item" in param["description"] and "[^aeiou]" in param["description"]


@pytest.mark.parametrize("text", ["qu?z*", "[aeiou]??", "c[^aeiou]*", "c[!ae]t", " don't ", "þ*ó", "a-b", "*"])
def test_a_pattern_the_server_reads_has_the_documented_shape(text):
    from wordsvc.core.wordsearch.queries import compile_pattern
    from wordsvc.schemas.words import PATTERN_SHAPE

    compile_pattern(text)
    assert re.match(PATTERN_SHAPE, text)


@pytest.mark.parametrize("text", ["a b", "[]", "[^]", "a]", "[ab", "q1", "*?*%"])
def test_a_pattern_outside_the_grammar_is_refused_by_the_server_naming_where(text):
    from wordsvc.core.wordsearch.queries import PatternError, compile_pattern

    with pytest.raises(PatternError) as refused:
        compile_pattern(text)
    assert all("character" in problem or "set" in problem or "']'" in problem for problem in refused.value.problems)


def test_an_import_states_the_event_fields_it_needs_and_names_a_missing_one(doc, tmp_path):
    import os

    from wordsvc.config import Settings
    from wordsvc.web.app import create_app

    event = doc["components"]["schemas"]["ImportedEvent"]
    assert {"id", "name", "private", "ruleset_id", "ruleset", "ruleset_sha256", "lexicon", "created_at"} <= set(event["required"])
    client = create_app(Settings.from_env({**os.environ, "WORDSVC_DATABASE_URL": f"sqlite:///{tmp_path / 'l.db'}", "WORDSVC_LANGUAGES": "en-US"})).test_client()
    from wordsvc.web.views.ledger_access import ledger

    with client.application.app_context():
        token = ledger().tokens.create_admin_token("tests")[1]
    body = {"format": "wordsvc-event/1", "event": {"name": "x"}, "games": [], "revisions": [], "tokens": [], "audit": [{}]}
    answer = client.post("/events/import", json=body, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert "event.id" in errors and not any("KeyError" in m for messages in errors.values() for m in messages)

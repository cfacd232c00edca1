"""GET /openapi.json: an OpenAPI 3 document that lists every path and matches what the endpoints really return."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests

from .contract import assert_problem, media_type, resolve, schema_errors

# Every path the service serves (issue 3), with the methods each accepts.
SERVED = {
    "/validate": {"get", "post"},
    "/score-round": {"post"},
    "/score-game": {"post"},
    "/best-meld": {"post"},
    "/words": {"get"},
    "/anagrams": {"get"},
    "/suggest": {"get"},
    "/rulesets": {"get"},
    "/rulesets/{ruleset_id}": {"get"},
    "/languages": {"get"},
    "/health": {"get"},
    "/ready": {"get"},
    "/metrics": {"get"},
    "/lexicons/diff": {"get"},
    "/openapi.json": {"get"},
    "/docs": {"get"},
    "/console": {"get"},
    "/judge": {"get"},
    "/play": {"get"},
    "/play/{event}/{game}": {"get"},
    "/events/{event}/games/{game}/play/replay": {"get"},
    "/assets/{name}": {"get"},
    "/qr": {"post"},
    "/deal": {"get"},
    "/solitaire/deal": {"get"},
    "/solitaire/move": {"post"},
    "/solitaire/solve": {"post"},
    "/analyse-round": {"post"},
    "/events/{event}/games/{game}/rounds/{round}/analysis": {"get"},
    "/events": {"post"},
    "/events/import": {"post"},
    "/events/{event}": {"get"},
    "/events/{event}/games/{game}": {"get", "put"},
    "/events/{event}/games/{game}/rounds/{round}": {"get", "put"},
    "/events/{event}/games/{game}/rounds/{round}/deal": {"get"},
    "/events/{event}/games/{game}/rounds/{round}/preview": {"post"},
    "/whoami": {"get"},
    "/events/{event}/close": {"post"},
    "/events/{event}/standings": {"get"},
    "/events/{event}/export": {"get"},
    "/events/{event}/judge": {"post"},
    "/events/{event}/audit": {"get"},
    "/events/{event}/checkpoint": {"get"},
    "/events/{event}/proof": {"get"},
    "/events/{event}/consistency": {"get"},
    "/events/{event}/lexicon": {"post"},
    "/events/{event}/tokens": {"get", "post"},
    "/events/{event}/tokens/{token_id}": {"delete"},
    "/events/{event}/players": {"get", "post"},
    "/events/{event}/players/{player}": {"put", "delete"},
    "/events/{event}/check-in": {"post"},
    "/events/{event}/players/{player}/check-in": {"post"},
    "/events/{event}/players/{player}/withdraw": {"post"},
    "/events/{event}/sessions": {"get", "post"},
    "/events/{event}/sessions/{session}": {"get"},
    "/events/{event}/sessions/{session}/swap": {"post"},
    "/events/{event}/sessions/{session}/redraw": {"post"},
    "/events/{event}/schedule": {"get", "post"},
    "/events/{event}/rated": {"post"},
    "/events/{event}/crosstable": {"get"},
    "/events/{event}/documents/{kind}": {"get"},
    "/events/{event}/stream": {"get"},
    "/tables": {"get", "post"},
    "/events/{event}/games/{game}/play": {"get"},
    "/events/{event}/games/{game}/play/seats": {"post"},
    "/events/{event}/games/{game}/play/moves": {"post"},
    "/events/{event}/games/{game}/play/stream": {"get"},
    "/events/{event}/games/{game}/play/log": {"get"},
    "/events/{event}/games/{game}/play/resign": {"post"},
    "/events/{event}/games/{game}/play/abort": {"post"},
    "/events/{event}/games/{game}/play/rematch": {"post"},
    "/events/{event}/games/{game}/play/host": {"post"},
    "/events/{event}/games/{game}/play/seats/{seat}/bot": {"post"},
    "/events/{event}/games/{game}/play/seats/{seat}/token": {"post"},
    "/ratings": {"get"},
    "/ratings/{rating_id}": {"get"},
}

ROUND = {"round": 2, "players": [{"name": "ann", "words": [["CL", "O", "W", "N"]]}, {"name": "bob", "words": [["T", "O", "P"]], "unused": ["QU"]}]}
GAME = {
    "players": ["ann", "bob"],
    "rounds": [{"players": [{"name": "ann", "words": ["cat"]}, {"name": "bob", "words": ["(qu)iz"]}]}, {k: v for k, v in ROUND.items() if k != "round"}],
}
CHALLENGED = {
    "ruleset": "challenge",
    "round": 1,
    "players": [{"name": "ann", "words": [["D", "O", "G"]]}, {"name": "bob", "words": [["X", "Q", "Z"]]}],
    "challenges": [{"by": "ann", "player": "bob", "word": 0}],
}

# (name, method, documented path, URL path, keyword arguments for requests, expected status)
EXCHANGES: list[tuple[str, str, str, str, dict[str, Any], int]] = [
    ("verdict-valid", "get", "/validate", "/validate?word=quiz", {}, 200),
    ("verdict-banned", "get", "/validate", "/validate?word=steve", {}, 200),
    ("verdict-refused", "get", "/validate", "/validate?word=qu1z", {}, 200),
    ("verdicts", "post", "/validate", "/validate", {"json": {"words": ["top", "xqzt", ["QU", "I", "Z"]]}}, 200),
    ("judge", "post", "/validate", "/validate", {"json": {"words": ["top", "xqzt"], "judge": True}}, 200),
    ("round", "post", "/score-round", "/score-round", {"json": ROUND}, 200),
    ("round-challenged", "post", "/score-round", "/score-round", {"json": CHALLENGED}, 200),
    (
        "round-invalid-word",
        "post",
        "/score-round",
        "/score-round",
        {"json": {"players": [{"name": "a", "words": ["xqz"]}, {"name": "b", "words": ["top"]}]}},
        200,
    ),
    ("game", "post", "/score-game", "/score-game", {"json": GAME}, 200),
    ("rulesets", "get", "/rulesets", "/rulesets", {}, 200),
    ("ruleset", "get", "/rulesets/{ruleset_id}", "/rulesets/standard", {}, 200),
    ("ruleset-derived", "get", "/rulesets/{ruleset_id}", "/rulesets/two-player-one-bonus", {}, 200),
    ("languages", "get", "/languages", "/languages", {}, 200),
    ("health", "get", "/health", "/health", {}, 200),
    ("ready", "get", "/ready", "/ready", {}, 200),
    ("openapi", "get", "/openapi.json", "/openapi.json", {}, 200),
    ("docs", "get", "/docs", "/docs", {}, 200),
    ("validate-400", "get", "/validate", "/validate?word=%FF", {}, 400),
    ("validate-404", "get", "/validate", "/validate?word=top&lang=xx", {}, 404),
    ("validate-422", "get", "/validate", "/validate", {}, 422),
    ("post-validate-400", "post", "/validate", "/validate", {"data": b"{", "headers": {"Content-Type": "application/json"}}, 400),
    ("post-validate-404", "post", "/validate", "/validate", {"json": {"words": ["top"], "ruleset": "x"}}, 404),
    ("post-validate-413", "post", "/validate", "/validate", {"data": b" " * 70_000, "headers": {"Content-Type": "application/json"}}, 413),
    ("post-validate-415", "post", "/validate", "/validate", {"data": b"top", "headers": {"Content-Type": "text/plain"}}, 415),
    ("post-validate-422", "post", "/validate", "/validate", {"json": {"words": [1]}}, 422),
    ("round-422", "post", "/score-round", "/score-round", {"json": {"players": [{"name": 1}]}}, 422),
    ("round-422-integrity", "post", "/score-round", "/score-round", {"json": {"round": 1, "players": [{"name": "a"}, {"name": "a"}]}}, 422),
    ("round-404", "post", "/score-round", "/score-round", {"json": {**ROUND, "lang": "xx"}}, 404),
    ("game-422", "post", "/score-game", "/score-game", {"json": {"players": [], "rounds": []}}, 422),
    ("game-404", "post", "/score-game", "/score-game", {"json": {**GAME, "ruleset": "x"}}, 404),
    ("ruleset-404", "get", "/rulesets/{ruleset_id}", "/rulesets/nope", {}, 404),
]


@pytest.fixture(scope="module")
def doc(base_url: str) -> dict[str, Any]:
    response = requests.get(f"{base_url}/openapi.json", timeout=30)
    assert response.status_code == 200
    assert media_type(response) == "application/json"
    return response.json()


def test_openapi_document_is_openapi_3(doc: dict[str, Any]) -> None:
    assert doc["openapi"].startswith("3.")
    assert doc["info"]["title"] and doc["info"]["version"]
    assert isinstance(doc["paths"], dict) and doc["paths"]
    assert "Problem" in doc["components"]["schemas"]


def test_openapi_lists_every_path_the_service_serves(doc: dict[str, Any]) -> None:
    documented = {path: {m for m in ops if m in ("get", "post", "put", "patch", "delete")} for path, ops in doc["paths"].items()}
    assert documented == SERVED


def test_every_documented_path_is_really_served(base_url: str, doc: dict[str, Any]) -> None:
    for path, operations in doc["paths"].items():
        url = base_url + path.replace("{ruleset_id}", "standard").replace("{round}", "1").replace("{session}", "1").replace("{seat}", "0").replace("{kind}", "standings")
        url = re.sub(r"\{[a-z_]+\}", "x", url)  # an event, table or token that does not exist: the ledger's own 404, not the router's
        for method in operations:
            response = requests.request(
                method,
                url,
                params={"word": "top"} if method == "get" and path == "/validate" else None,
                json={} if method in ("post", "put") else None,
                timeout=10,
            )
            unrouted = response.status_code == 405 or (response.status_code == 404 and response.json()["detail"].startswith("No endpoint"))
            assert not unrouted, f"{method.upper()} {path} is documented but answered {response.status_code}: {response.text[:200]}"


def test_every_reference_in_the_document_resolves(doc: dict[str, Any]) -> None:
    refs: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                refs.append(node["$ref"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    assert refs
    for ref in refs:
        assert isinstance(resolve(doc, ref), dict), ref


def test_every_operation_documents_its_parameters_and_bodies(doc: dict[str, Any]) -> None:
    get_validate = doc["paths"]["/validate"]["get"]
    params = {p["name"]: p for p in get_validate["parameters"]}
    assert params["word"]["required"] is True and params["word"]["in"] == "query"
    assert {"ruleset", "lang"} <= set(params)
    assert doc["paths"]["/rulesets/{ruleset_id}"]["get"]["parameters"][0]["in"] == "path"
    for path in ("/validate", "/score-round", "/score-game"):
        body = doc["paths"][path]["post"]["requestBody"]
        assert "application/json" in body["content"], path
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            assert {"200", "201"} & set(operation["responses"]), (method, path)  # 201: the ledger's creations
            for status, response in operation["responses"].items():
                if status.startswith(("4", "5")):
                    assert "application/problem+json" in response["content"], (method, path, status)


def test_the_requests_these_tests_send_match_the_documented_request_schemas(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    assert schema_errors(doc, schemas["RoundRequest"], ROUND) == []
    assert schema_errors(doc, schemas["RoundRequest"], CHALLENGED) == []
    assert schema_errors(doc, schemas["GameRequest"], GAME) == []
    assert schema_errors(doc, schemas["ValidateBody"], {"words": ["top", ["QU", "I", "Z"]], "judge": True}) == []
    # and the checker does catch a bad request
    assert schema_errors(doc, schemas["RoundRequest"], {"players": "ann", "colour": 1})


def _documented_schema(doc: dict[str, Any], method: str, path: str, status: int, content_type: str) -> dict[str, Any]:
    responses = doc["paths"][path][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {path} answered {status}, which the document does not list (it lists {sorted(responses)})"
    content = responses[str(status)]["content"]
    assert content_type in content, f"{method.upper()} {path} {status} answered {content_type}; documented: {sorted(content)}"
    return content[content_type]["schema"]


@pytest.mark.parametrize(("method", "path", "url", "kwargs", "status"), [pytest.param(*e[1:], id=e[0]) for e in EXCHANGES])
def test_real_responses_match_the_documented_schema(
    base_url: str, doc: dict[str, Any], method: str, path: str, url: str, kwargs: dict[str, Any], status: int
) -> None:
    response = requests.request(method, f"{base_url}{url}", timeout=30, **kwargs)
    assert response.status_code == status, response.text[:500]
    content_type = media_type(response)
    schema = _documented_schema(doc, method, path, status, content_type)
    if content_type == "text/html":
        assert schema.get("type") == "string"
        return
    body = response.json()
    errors = schema_errors(doc, schema, body)
    assert errors == [], json.dumps(errors, indent=1)


def test_the_schema_checker_catches_drift(doc: dict[str, Any]) -> None:
    verdict = doc["components"]["schemas"]["Verdict"]
    assert any("missing required property 'valid'" in e for e in schema_errors(doc, verdict, {"word": "x"}))
    assert any("expected string" in e for e in schema_errors(doc, {"$ref": "#/components/schemas/Health"}, {"status": True}))
    assert schema_errors(doc, {"$ref": "#/components/schemas/Health"}, {"status": "down"})  # enum
    judge_or_verdicts = doc["paths"]["/validate"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema_errors(doc, judge_or_verdicts, {"valid": True})  # neither oneOf branch: verdicts missing


# ---- every field a client sends has a type and a limit (issue: cards, words and word fields had neither)


def _request_nodes(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(where, schema node) for every node of every request body, $refs followed once, oneOf branches and items included."""
    found: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()

    def walk(node: dict[str, Any], where: str) -> None:
        found.append((where, node))
        if "$ref" in node:
            if node["$ref"] not in seen:
                seen.add(node["$ref"])
                walk(resolve(doc, node["$ref"]), node["$ref"].rsplit("/", 1)[1])
            return
        for key in ("oneOf", "anyOf", "allOf"):
            for i, branch in enumerate(node.get(key, [])):
                walk(branch, f"{where}/{key}/{i}")
        for name, sub in node.get("properties", {}).items():
            walk(sub, f"{where}.{name}")
        if "items" in node:
            walk(node["items"], f"{where}[]")

    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if "requestBody" in operation:
                walk(operation["requestBody"]["content"]["application/json"]["schema"], f"{method.upper()} {path}")
    return found


def test_every_request_body_field_has_a_type(doc: dict[str, Any]) -> None:
    nodes = _request_nodes(doc)
    assert len(nodes) > 40
    untyped = [where for where, node in nodes if not {"type", "oneOf", "anyOf", "allOf", "$ref"} & set(node)]
    assert untyped == []


def test_every_list_string_and_number_a_body_sends_has_its_limits_documented(doc: dict[str, Any]) -> None:
    unbounded = []
    for where, node in _request_nodes(doc):
        kind = node.get("type")
        if kind == "array" and "maxItems" not in node:
            unbounded.append(f"{where}: no maxItems")
        elif kind == "string" and "maxLength" not in node and "enum" not in node:
            unbounded.append(f"{where}: no maxLength")
        elif kind == "integer" and not {"minimum", "maximum"} <= set(node):
            unbounded.append(f"{where}: no minimum or maximum")
    assert unbounded == []


def test_every_query_parameter_has_a_type_and_every_number_its_range(doc: dict[str, Any]) -> None:
    wrong = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for param in operation.get("parameters", []):
                schema = param["schema"]
                if "type" not in schema:
                    wrong.append(f"{method} {path} {param['name']}: no type")
                elif schema["type"] == "integer" and not {"minimum", "maximum"} <= set(schema):
                    wrong.append(f"{method} {path} {param['name']}: no minimum or maximum")
    assert wrong == []


def _most(doc: dict[str, Any], schema: str, prop: str) -> int:
    return int(doc["components"]["schemas"][schema]["properties"][prop]["maxItems"])


@pytest.mark.parametrize(
    ("path", "schema", "prop", "body"),
    [
        ("/score-round", "RoundRequest", "players", lambda n: {"players": [{"name": f"p{i}"} for i in range(n)]}),
        ("/score-round", "RoundRequest", "challenges", lambda n: {"players": [{"name": "a"}], "challenges": [{"by": "a", "player": "a", "word": 0}] * n}),
        ("/score-game", "GameRequest", "rounds", lambda n: {"players": ["a"], "rounds": [{"players": [{"name": "a"}]}] * n}),
        ("/validate", "ValidateBody", "words", lambda n: {"words": ["top"] * n}),
    ],
)
def test_a_body_one_item_past_a_documented_maxitems_is_refused_naming_the_list(
    base_url: str, doc: dict[str, Any], path: str, schema: str, prop: str, body: Any
) -> None:
    most = _most(doc, schema, prop)
    response = requests.post(f"{base_url}{path}", json=body(most + 1), timeout=30)
    problem = assert_problem(response, 422)
    assert list(problem["errors"]) == [prop]
    at_limit = requests.post(f"{base_url}{path}", json=body(most), timeout=30)  # may break the ruleset's rules, not the list's limit
    assert at_limit.json().get("errors", {}).get(prop) != problem["errors"][prop], at_limit.text[:300]


def test_a_query_past_a_documented_maximum_is_refused_naming_the_parameter(base_url: str, doc: dict[str, Any]) -> None:
    params = {p["name"]: p["schema"] for p in doc["paths"]["/words"]["get"]["parameters"]}
    for name in ("limit", "budget", "budget_ms", "min_len"):
        response = requests.get(f"{base_url}/words", params={"pattern": "qu*", name: params[name]["maximum"] + 1}, timeout=10)
        assert list(assert_problem(response, 422)["errors"]) == [name]


def test_a_request_with_thousands_of_problems_gets_a_small_answer_in_the_documented_shape(base_url: str, doc: dict[str, Any]) -> None:
    for body in (
        {"players": [{"name": "a"}], "challenges": [{}] * 20_000},  # past the list's limit: one problem
        {"players": [{"name": "a", "words": [[""] * 250] * 10}]},  # within every limit: 2,500 problems
    ):
        raw = json.dumps(body, separators=(",", ":"))  # 60 KB: under the body limit
        response = requests.post(f"{base_url}/score-round", data=raw, headers={"Content-Type": "application/json"}, timeout=30)
        problem = assert_problem(response, 422)
        assert len(response.content) < 64 * 1024
        assert sum(len(messages) for messages in problem["errors"].values()) <= 51
        assert schema_errors(doc, {"$ref": "#/components/schemas/Problem"}, problem) == []

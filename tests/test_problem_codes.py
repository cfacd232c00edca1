"""The registry of problem codes holds every code an answer carries, and nothing else.

Codes are a public contract (docs/problems.md): a code raised that is not
registered would reach clients undocumented, a registered one nothing raises
is documentation of nothing. The package names codes as constants of
:mod:`wordsvc.core.problem_codes`, so reading its source finds every code it
can raise; the server, which imports nothing of wordsvc, writes its own and
is held to the registry here. ``python tests/test_problem_codes.py`` writes
docs/problems.md from the registry.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest
from marshmallow import ValidationError
from problem_shape import codes, messages

from wordsvc.core import problem_codes
from wordsvc.core.errors import Problems
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.problem_codes import REGISTRY, CodedMessage
from wordsvc.schemas.common import flatten_errors
from wordsvc.schemas.rounds import RoundRequest
from wordsvc.server.problems import CODES as SERVER_CODES
from wordsvc.server.problems import INTERNAL_ERROR, problem_body

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "wordsvc"
DOC = ROOT / "docs" / "problems.md"
CONSTANTS = {name: value for name, value in vars(problem_codes).items() if name.isupper() and isinstance(value, str)}


def _named_constants() -> set[str]:
    """Every ``codes.NAME`` (and ``NAME`` imported from the registry) the package's modules use, outside the registry."""
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "problem_codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "codes" and node.attr in CONSTANTS:
                used.add(node.attr)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("problem_codes"):
                used.update(alias.name for alias in node.names if alias.name in CONSTANTS)
    return used


def _refusals_raised() -> set[str]:
    """Every code the game engine refuses a move with: the first argument of each ``IllegalMove("...")`` of the package."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "IllegalMove" and node.args:
                found.update(c.value for c in ast.walk(node.args[0]) if isinstance(c, ast.Constant) and isinstance(c.value, str))
    return found


def test_the_engine_refuses_with_every_refusal_code_and_no_other():
    assert _refusals_raised() == set(problem_codes.REFUSALS)
    assert all(code in REGISTRY and 422 in REGISTRY[code].statuses for code in problem_codes.REFUSALS)


def test_every_registered_code_is_raised_somewhere_and_every_raised_one_is_registered():
    raised = {CONSTANTS[name] for name in _named_constants()} | set(SERVER_CODES.values()) | {INTERNAL_ERROR} | _refusals_raised()
    assert sorted(set(REGISTRY) - raised) == [], "registered, never raised"
    assert sorted(raised - set(REGISTRY)) == [], "raised, not registered"


def test_the_server_writes_only_registered_codes_with_their_statuses():
    assert set(SERVER_CODES.values()) | {INTERNAL_ERROR} <= set(REGISTRY)
    body = problem_body(431, "too large", "id", SERVER_CODES["headers_too_large"])
    import json

    answer = json.loads(body)
    assert answer["code"] == "header_too_large" and answer["errors"] == {"request": [{"code": "header_too_large", "message": "too large"}]}
    assert 431 in REGISTRY[answer["code"]].statuses


def test_codes_are_lowercase_words_and_every_one_has_a_meaning_and_a_status():
    for code in REGISTRY.values():
        assert re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", code.code), code
        assert code.meaning.endswith(".") and code.statuses, code
        assert all(400 <= status < 600 for status in code.statuses), code


def _calls_without_code(names: set[str]) -> list[str]:
    """``name(...)`` calls of the package that give neither ``code=`` nor problems made with codes (a variable)."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
                if any(k.arg == "code" for k in node.keywords) or len(node.args) < 2 or not isinstance(node.args[1], ast.Dict):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_a_raise_that_lists_its_own_problems_names_their_code():
    # NotFound(detail, {"event": ["no event 'x'"]}) without code= would answer the class's generic code for a specific problem.
    assert _calls_without_code({"NotFound", "Conflict", "InvalidRequest", "Unauthorized"}) == []


def test_every_answer_the_web_layer_writes_names_its_code():
    # problem() takes its code as a keyword only: a call without one fails when the answer is made, a 500 in place of the problem.
    missing = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "problem" and not any(k.arg == "code" for k in node.keywords):
                missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert missing == []


def test_every_problem_added_carries_a_code():
    assert Problems(code="invalid_export").items == {}
    problems = Problems()
    with pytest.raises(TypeError):
        problems.add("x", "no code")
    problems.add("x", "a message", problem_codes.UNKNOWN_CARD)
    assert problems.items == {"x": ["a message"]} and problems.items["x"][0].code == "unknown_card"


def test_marshmallow_field_errors_carry_the_code_of_their_kind():
    with pytest.raises(ValidationError) as refused:
        RoundRequest().load({"round": "x", "players": [{"name": "", "words": "(qu"}, {"name": "B", "colour": 1}], "unused_key": None})
    errors = flatten_errors(refused.value.messages)
    got = {path: [m.code for m in listed] for path, listed in errors.items()}
    assert got == {
        "round": ["invalid_type"],
        "players.0.name": ["length_out_of_range"],
        "players.0.words": ["invalid_type"],
        "players.1.colour": ["unknown_field"],
        "unused_key": ["unknown_field"],
    }, got
    with pytest.raises(ValidationError) as refused:
        RoundRequest().load({"round": 0, "players": [{"name": "A\u0000", "words": [["Q", ""]]}, {"words": ["(qu"]}]})
    got = {path: [m.code for m in listed] for path, listed in flatten_errors(refused.value.messages).items()}
    assert got == {
        "round": ["value_out_of_range"],
        "players.0.name": ["control_characters"],
        "players.0.words.0.1": ["invalid_cards"],
        "players.1.name": ["required"],
        "players.1.words.0": ["unbalanced_parenthesis"],
    }, got


def test_a_coded_message_keeps_its_code_when_filled_in_copied_and_compared():
    import copy
    import pickle

    template = CodedMessage("at most {max}", "length_out_of_range")
    filled = template.format(max=3)
    assert filled == "at most 3" and filled.code == "length_out_of_range"
    assert copy.deepcopy(filled).code == pickle.loads(pickle.dumps(filled)).code == "length_out_of_range"


@pytest.fixture(scope="module")
def client(rulesets):
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    memory = MemoryLexicon({w: [()] for w in ("quiz", "top", "cat")}, LexiconInfo(id="mem", lang="en-US", version="1", sha256="3" * 64, fold_diacritics=True))
    return create_app(service=Service(rulesets, Languages({"en-US": memory}))).test_client()


def test_every_answer_of_the_app_carries_registered_codes(client):
    answers = [
        client.post("/score-round", json={"round": 1, "players": [{"name": "Ann", "words": ["zzz9"]}, {"name": "Ann"}]}),
        client.post("/score-round", data=b"{", content_type="application/json"),
        client.post("/score-round", data=b"x", content_type="text/plain"),
        client.get("/no-such-endpoint"),
        client.delete("/validate"),
        client.get("/rulesets/no-such-ruleset"),
        client.get("/validate?word=a&word=b"),
    ]
    for answer in answers:
        problem = answer.get_json()
        assert 400 <= answer.status_code < 600 and problem["code"] in REGISTRY, problem
        assert answer.status_code in REGISTRY[problem["code"]].statuses, problem
        for entries in codes(problem["errors"]).values():
            assert set(entries) <= set(REGISTRY), problem
    assert [a.get_json()["code"] for a in answers[1:]] == [
        "malformed_json", "unsupported_media_type", "endpoint_not_found", "method_not_allowed", "unknown_ruleset", "invalid_fields",
    ]  # fmt: skip
    rules = answers[0].get_json()
    assert rules["code"] == "invalid_fields" and codes(rules["errors"])["players.1.name"] == ["duplicate_name"]
    assert messages(rules["errors"])["players.1.name"] == ["duplicate player name 'Ann' (also player 0)"]


#: What the pages once read out of the service's English (docs/pages.md): each would mean a page choosing its words by text again.
ENGLISH_PATTERNS = (
    "no card '",
    "|bracket/",
    "holds (\\d",
    "cards in play",
    "the deck holds",
    "only one player can go out",
    "Missing data for required field",
    "Length must be between",
    "Must be greater than",
    "errors?.body",
    "errors.game",
    "errors.event",
    "errors.round",
    "errors.correction",
    'fields.includes("table")',
)


def test_the_pages_choose_their_words_by_code_never_by_the_services_text():
    static = PACKAGE / "web" / "static"
    found = [f"{path.name}: {pattern}" for path in sorted(static.glob("*.js")) for pattern in ENGLISH_PATTERNS if pattern in path.read_text(encoding="utf-8")]
    assert found == []
    assert "entries()" in (static / "common.js").read_text(encoding="utf-8")  # the one reader of a problem's entries


def render() -> str:
    """docs/problems.md, from the registry."""
    lines = [
        "# Problem codes",
        "",
        "Every error answer (`application/problem+json`, [api.md](api.md#errors)) carries a `code`, and so does each entry of its",
        "`errors`. This page is the registry (`wordsvc/core/problem_codes.py`; a test holds this page to it and fails on a code",
        "raised that is not listed or listed that nothing raises). The OpenAPI document lists them as the enum `ProblemCode`,",
        "which the generated clients type, and each operation's error answers list under `x-problem-codes` the codes of their",
        "status that this endpoint can answer: the transport's (a malformed request, a timeout, a method not allowed, the 503s),",
        "its body's (malformed JSON, too large, not JSON), those its query and body schemas give (derived from the schemas'",
        "fields and validators), and its domain codes, named on its declaration (`Endpoint(problems=...)` in `wordsvc/web/views/`).",
        "Every documented endpoint names its domain codes (a test checks it). The black-box tests hold",
        "every error answer, and every answer of the schemathesis run, to the list of its operation and status.",
        "",
        "- `type` is a URI per HTTP status (`/docs#problem-not-found`): the kind of problem, as RFC 9457 means it, stable",
        "  for as long as the status is. `/docs` lists under each type the codes that come with it.",
        "- `code` names the problem itself: switch on it. An answer made of field entries has the code `invalid_fields`,",
        "  and each entry its own. `detail`, `title` and each entry's `message` are for people, in English (titles in the",
        "  request's language) and may be reworded in any release.",
        "",
        "## Changing a code",
        "",
        "Codes are part of the API, and changing one is a breaking change. A new code may be added in any release: a client",
        "treats a code it does not know as the generic problem of the answer's status (its `type`). Renaming or removing a",
        "code, or answering a problem with another code than before, happens only in a new major version, with a changelog",
        "entry announced ahead (the release before it names the code and what replaces it).",
        "",
        "## The codes",
        "",
        "| code | status | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{c.code}` | {', '.join(map(str, c.statuses))} | {c.meaning} |" for c in REGISTRY.values()]
    return "\n".join(lines) + "\n"


def test_the_docs_list_every_code_with_its_status_and_meaning():
    assert DOC.read_text(encoding="utf-8") == render(), "run: python tests/test_problem_codes.py"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    DOC.write_text(render(), encoding="utf-8")

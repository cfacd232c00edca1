"""Every error status of the API, each in the one RFC 9457 problem shape."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import requests

from .contract import assert_problem

JSON = {"Content-Type": "application/json"}
MAX_BODY = 64 * 1024


@pytest.mark.parametrize("path", ["/validate", "/score-round", "/score-game"])
def test_malformed_json_is_400(base_url: str, path: str) -> None:
    body = assert_problem(requests.post(f"{base_url}{path}", data=b'{"words": ["top",', headers=JSON, timeout=30), 400)
    assert "JSON" in body["detail"]


def test_an_empty_body_is_400(base_url: str) -> None:
    assert_problem(requests.post(f"{base_url}/score-round", data=b"", headers=JSON, timeout=30), 400)


def test_a_schema_violation_is_422_listing_every_bad_field(base_url: str) -> None:
    body = {
        "round": "two",
        "players": [
            {"words": [["T", "O", "P"]]},
            {"name": "bob", "words": [5, ["Q", "U"], "(qu"], "unused": [7], "went_out": "maybe"},
            {"name": "", "colour": "red"},
        ],
        "challenges": [{"by": "bob", "player": "ann", "word": -1}],
        "bonus_choice": "biggest_word",
        "ruleset": 12,
        "extra": True,
    }
    problem = assert_problem(requests.post(f"{base_url}/score-round", json=body, timeout=30), 422)
    assert set(problem["errors"]) == {
        "round",
        "players.0.name",
        "players.1.words.0",
        "players.1.words.2",
        "players.1.unused.0",
        "players.1.went_out",
        "players.2.name",
        "players.2.colour",
        "challenges.0.word",
        "bonus_choice",
        "ruleset",
        "extra",
    }


def test_a_game_schema_violation_lists_paths_inside_its_rounds(base_url: str) -> None:
    body = {"players": ["ann", None], "rounds": [{"players": [{"name": "ann", "words": [["T", "O", "P"]]}]}, {"players": [{"name": "ann", "words": [[1]]}]}, 3]}
    problem = assert_problem(requests.post(f"{base_url}/score-game", json=body, timeout=30), 422)
    assert set(problem["errors"]) == {"players.1", "rounds.1.players.0.words.0.0", "rounds.2"}  # down to the card


def test_validate_schema_violation_lists_each_bad_word(base_url: str) -> None:
    body = {"words": ["top", 7, None, {"w": 1}, "ok"], "judge": "sometimes", "lang": ""}
    problem = assert_problem(requests.post(f"{base_url}/validate", json=body, timeout=30), 422)
    assert set(problem["errors"]) == {"words.1", "words.2", "words.3", "judge", "lang"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/validate?word=cat&ruleset=nope", None),
        ("post", "/validate", {"words": ["cat"], "ruleset": "nope"}),
        ("post", "/score-round", {"ruleset": "nope", "players": [{"name": "ann"}, {"name": "bob"}]}),
        ("post", "/score-game", {"ruleset": "nope", "players": ["ann"], "rounds": [{"players": [{"name": "ann"}]}]}),
        ("get", "/rulesets/nope", None),
    ],
)
def test_unknown_ruleset_is_404_listing_what_exists(base_url: str, method: str, path: str, body: object) -> None:
    problem = assert_problem(requests.request(method, f"{base_url}{path}", json=body, timeout=30), 404)
    for known in ("standard", "challenge", "letters-minimum", "no-floor", "two-player-one-bonus"):
        assert known in problem["detail"], problem["detail"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/validate?word=cat&lang=tlh", None),
        ("post", "/validate", {"words": ["cat"], "lang": "tlh"}),
        ("post", "/score-round", {"lang": "tlh", "players": [{"name": "ann"}, {"name": "bob"}]}),
        ("post", "/score-game", {"lang": "tlh", "players": ["ann"], "rounds": [{"players": [{"name": "ann"}]}]}),
    ],
)
def test_unknown_language_is_404_listing_what_exists_never_english_instead(base_url: str, method: str, path: str, body: object) -> None:
    problem = assert_problem(requests.request(method, f"{base_url}{path}", json=body, timeout=30), 404)
    assert "en-US" in problem["detail"] and "en-GB" in problem["detail"]


@pytest.mark.parametrize("path", ["/validate", "/score-round", "/score-game"])
def test_a_body_over_64_kib_is_413(base_url: str, path: str) -> None:
    padding = "a" * (MAX_BODY + 1)
    problem = assert_problem(requests.post(f"{base_url}{path}", data=f'{{"words": ["{padding}"]}}'.encode(), headers=JSON, timeout=30), 413)
    assert "65536" in problem["detail"]


def test_a_body_of_just_under_64_kib_is_read(base_url: str) -> None:
    body = json.dumps({"words": ["top"] * 100}).encode()
    body += b" " * (MAX_BODY - len(body))  # exactly 64 KiB: trailing whitespace is valid JSON
    assert len(body) == MAX_BODY
    response = requests.post(f"{base_url}/validate", data=body, headers=JSON, timeout=30)
    assert response.status_code == 200, response.text[:300]


def test_a_chunked_body_over_64_kib_is_413(base_url: str) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit must hold while streaming
        yield b'{"words": ["'
        for _ in range(70):
            yield b"a" * 1024
        yield b'"]}'

    response = requests.post(f"{base_url}/validate", data=chunks(), headers=JSON, timeout=30)
    assert_problem(response, 413)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", "/validate"),
        ("put", "/score-round"),
        ("get", "/score-round"),
        ("get", "/score-game"),
        ("post", "/rulesets"),
        ("patch", "/health"),
        ("post", "/languages"),
    ],
)
def test_wrong_method_is_405_with_allow(base_url: str, method: str, path: str) -> None:
    response = requests.request(method, f"{base_url}{path}", timeout=30)
    problem = assert_problem(response, 405)
    assert method.upper() in problem["detail"]
    assert "Allow" in response.headers


@pytest.mark.parametrize("path", ["/nope", "/validate/extra", "/rulesets/standard/deck", "/%C3%A9", "/" + "x" * 2000])
def test_unknown_path_is_404(base_url: str, path: str) -> None:
    assert_problem(requests.get(f"{base_url}{path}", timeout=30), 404)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "text/json"],
)
@pytest.mark.parametrize("path", ["/validate", "/score-round", "/score-game"])
def test_a_non_json_content_type_is_415(base_url: str, path: str, content_type: str) -> None:
    response = requests.post(f"{base_url}{path}", data=b'{"words": ["top"]}', headers={"Content-Type": content_type}, timeout=30)
    problem = assert_problem(response, 415)
    assert "application/json" in problem["detail"]


def test_json_with_a_charset_parameter_is_accepted(base_url: str) -> None:
    response = requests.post(
        f"{base_url}/validate", data='{"words": ["café"]}'.encode(), headers={"Content-Type": "application/json; charset=utf-8"}, timeout=10
    )
    assert response.status_code == 200 and response.json()["valid"] is True

"""A catalogue of hostile input: every one must be a 4xx in the one problem shape, never a 5xx.

Most cases go through ``requests``; the few that ``requests`` would refuse to
send (raw bytes in the request line) are written to a socket by hand.
"""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests

from .contract import PROBLEM_KEYS, PROBLEM_TYPE, assert_client_error

JSON = {"Content-Type": "application/json"}
LONG_WORD = "q" * 10_000


def _nest(depth: int, open_: str, close: str, inner: str = "1") -> bytes:
    return (open_ * depth + inner + close * depth).encode()


# (id, path, raw body): bodies posted as application/json, byte for byte.
RAW_BODIES: list[tuple[str, str, bytes]] = [
    ("deep-arrays", "/validate", b'{"words": ' + _nest(5_000, "[", "]") + b"}"),
    ("deep-objects", "/score-round", _nest(5_000, '{"a": ', "}")),
    ("deep-mixed", "/score-game", _nest(3_000, '[{"x": ', "}]")),
    ("deep-at-top", "/validate", _nest(20_000, "[", "]")),
    ("huge-integer", "/score-round", b'{"round": ' + b"9" * 5_000 + b', "players": [{"name": "a"}, {"name": "b"}]}'),
    ("huge-integer-in-a-word-list", "/validate", b'{"words": [' + b"1" * 4_000 + b"]}"),
    ("huge-float", "/score-round", b'{"round": 1e999, "players": [{"name": "a"}, {"name": "b"}]}'),
    ("huge-negative", "/score-round", b'{"round": -99999999999999999999999999999999, "players": [{"name": "a"}]}'),
    (
        "huge-challenge-index",
        "/score-round",
        b'{"ruleset": "challenge", "players": [{"name": "a", "words": ["top"]}, {"name": "b"}], "challenges": [{"by": "b", "player": "a", "word": 1e308}]}',
    ),
    ("NaN", "/score-round", b'{"round": NaN, "players": []}'),
    ("Infinity", "/validate", b'{"words": ["top"], "judge": Infinity}'),
    ("invalid-utf8", "/validate", b'{"words": ["caf\xe9"]}'),
    ("invalid-utf8-overlong", "/validate", b'{"words": ["\xc0\xaf"]}'),
    ("invalid-utf8-truncated", "/score-round", b'{"players": [{"name": "\xe2\x82"}]}'),
    ("utf16-body", "/validate", '{"words": ["top"]}'.encode("utf-16")),
    ("bom", "/validate", b'\xef\xbb\xbf{"words": ["top"]}'),
    ("nul-raw", "/validate", b'{"words": ["to\x00p"]}'),
    ("nul-escaped-word", "/validate", b'{"words": ["to\\u0000p"]}'),
    ("nul-escaped-name", "/score-round", b'{"players": [{"name": "a\\u0000"}, {"name": "b"}]}'),
    ("nul-escaped-card", "/score-round", b'{"players": [{"name": "a", "words": [["T", "\\u0000"]]}, {"name": "b"}]}'),
    ("nul-escaped-ruleset", "/validate", b'{"words": ["top"], "ruleset": "stan\\u0000dard"}'),
    ("nul-only-body", "/validate", b"\x00"),
    ("unpaired-high-surrogate", "/validate", b'{"words": ["\\ud800"]}'),
    ("unpaired-low-surrogate", "/score-round", b'{"players": [{"name": "\\udfff"}, {"name": "b"}]}'),
    ("surrogate-in-a-key", "/validate", b'{"\\ud83d": ["top"]}'),
    ("surrogate-in-a-card", "/score-game", b'{"players": ["a"], "rounds": [{"players": [{"name": "a", "words": [["\\udc00"]]}]}]}'),
    ("duplicate-keys", "/validate", b'{"words": ["top"], "words": 5}'),
    ("trailing-garbage", "/validate", b'{"words": ["top"]} {"words": []}'),
    ("single-quotes", "/validate", b"{'words': ['top']}"),
    ("comment", "/validate", b'{"words": ["top"] /* hi */}'),
    ("bare-string", "/score-game", b'"hello"'),
    ("bare-null", "/score-round", b"null"),
    ("bare-number", "/validate", b"42"),
    ("array-body", "/validate", b'["top"]'),
    ("whitespace-only", "/score-round", b"   \n\t "),
]


@pytest.mark.parametrize(("path", "body"), [pytest.param(path, body, id=name) for name, path, body in RAW_BODIES])
def test_hostile_body_is_a_4xx_problem(base_url: str, path: str, body: bytes) -> None:
    assert_client_error(requests.post(f"{base_url}{path}", data=body, headers=JSON, timeout=30))


def test_deep_nesting_within_the_size_limit_is_400(base_url: str) -> None:
    problem = assert_client_error(requests.post(f"{base_url}/validate", data=_nest(30_000, "[", "]"), headers=JSON, timeout=30))
    assert problem["status"] == 400


def test_an_unpaired_surrogate_is_400_not_unicode_text(base_url: str) -> None:
    problem = assert_client_error(requests.post(f"{base_url}/validate", data=b'{"words": ["a\\udbffb"]}', headers=JSON, timeout=30))
    assert problem["status"] == 400


def test_a_paired_surrogate_escape_is_ordinary_text(base_url: str) -> None:
    response = requests.post(f"{base_url}/validate", data=b'{"words": ["\\ud83d\\ude00"]}', headers=JSON, timeout=30)
    assert response.status_code == 200
    verdict = response.json()["verdicts"][0]
    assert verdict["word"] == "😀" and verdict["valid"] is False


WRONG_TYPES: list[tuple[str, str, Any]] = [
    ("validate-words-string", "/validate", {"words": "top"}),
    ("validate-words-object", "/validate", {"words": {"0": "top"}}),
    ("validate-words-null", "/validate", {"words": None}),
    ("validate-word-items", "/validate", {"words": [1, 2.5, True, None, {}, [], [1], [""], ["QU", 7]]}),
    ("validate-judge-object", "/validate", {"words": ["top"], "judge": {}}),
    ("validate-judge-list", "/validate", {"words": ["top"], "judge": [True]}),
    ("validate-judge-text", "/validate", {"words": ["top"], "judge": "maybe"}),
    ("validate-ruleset-number", "/validate", {"words": ["top"], "ruleset": 1}),
    ("validate-lang-list", "/validate", {"words": ["top"], "lang": ["en"]}),
    ("round-everything", "/score-round", {"round": "1", "players": "ann", "challenges": {}, "bonus_choice": 3, "ruleset": [], "lang": {}}),
    ("round-player-items", "/score-round", {"players": [1, "ann", None, [], True]}),
    ("round-player-fields", "/score-round", {"players": [{"name": 1, "words": "top", "unused": "A", "went_out": []}]}),
    ("round-words-items", "/score-round", {"players": [{"name": "a", "words": [1, None, {}, [None], [["T"]]]}, {"name": "b"}]}),
    ("round-round-float", "/score-round", {"round": 1.5, "players": [{"name": "a"}, {"name": "b"}]}),
    ("round-round-bool", "/score-round", {"round": True, "players": [{"name": "a"}, {"name": "b"}]}),
    (
        "round-challenge-fields",
        "/score-round",
        {"ruleset": "challenge", "players": [{"name": "a"}, {"name": "b"}], "challenges": [{"by": 1, "player": [], "word": "0"}]},
    ),
    ("round-challenge-items", "/score-round", {"ruleset": "challenge", "players": [{"name": "a"}, {"name": "b"}], "challenges": [1, None, "x"]}),
    ("game-players-object", "/score-game", {"players": {"ann": 1}, "rounds": []}),
    ("game-rounds-string", "/score-game", {"players": ["ann"], "rounds": "eight"}),
    ("game-rounds-items", "/score-game", {"players": ["ann"], "rounds": [None, 1, [], "r"]}),
    ("game-round-ruleset", "/score-game", {"players": ["ann"], "rounds": [{"players": [{"name": "ann"}], "ruleset": "standard"}]}),
    ("long-word-post", "/validate", {"words": [LONG_WORD]}),
    ("long-word-judge", "/validate", {"words": ["top", LONG_WORD], "judge": True}),
    ("long-card-list", "/validate", {"words": [["A"] * 10_000]}),
    ("long-face", "/validate", {"words": [[LONG_WORD]]}),
    ("long-word-in-a-round", "/score-round", {"players": [{"name": "a", "words": [LONG_WORD]}, {"name": "b"}]}),
    ("long-card-in-a-round", "/score-round", {"players": [{"name": "a", "words": [[LONG_WORD]], "unused": [LONG_WORD]}, {"name": "b"}]}),
    ("long-name", "/score-round", {"players": [{"name": LONG_WORD}, {"name": "b"}]}),
    ("long-ruleset", "/score-round", {"ruleset": LONG_WORD, "players": [{"name": "a"}, {"name": "b"}]}),
    ("long-lang", "/validate", {"words": ["top"], "lang": LONG_WORD}),
    ("many-players", "/score-round", {"players": [{"name": f"p{i}"} for i in range(1_000)]}),
    ("many-words-in-a-hand", "/score-round", {"players": [{"name": "a", "words": [["A", "T"]] * 1_000}, {"name": "b"}]}),
    ("many-rounds", "/score-game", {"players": ["a"], "rounds": [{"players": [{"name": "a"}]}] * 500}),
    ("control-characters", "/score-round", {"players": [{"name": "a\nb"}, {"name": "b\x7f", "words": ["to\tp"]}]}),
    ("unknown-fields-everywhere", "/score-round", {"players": [{"name": "a", "score": 99}], "cheat": True}),
]


@pytest.mark.parametrize(("path", "body"), [pytest.param(path, body, id=name) for name, path, body in WRONG_TYPES])
def test_wrong_types_and_sizes_are_a_4xx_problem(base_url: str, path: str, body: Any) -> None:
    problem = assert_client_error(requests.post(f"{base_url}{path}", data=json.dumps(body).encode(), headers=JSON, timeout=30))
    assert problem["errors"], "a schema violation names its fields"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"words": ["top"], "judge": "yes"}, "judge", id="judge-string"),
        pytest.param({"words": ["top"], "judge": 1}, "judge", id="judge-number"),
        pytest.param(
            {"round": 1, "players": [{"name": "a", "words": ["top"], "went_out": "true"}, {"name": "b", "words": ["cat"]}]},
            "players.0.went_out",
            id="went_out-string",
        ),
    ],
)
def test_a_boolean_field_refuses_strings_and_numbers(base_url: str, body: dict[str, Any], field: str) -> None:
    """The document says these are booleans; a string or a number is a wrong type, as anywhere else in the API."""
    path = "/validate" if "words" in body else "/score-round"
    problem = assert_client_error(requests.post(f"{base_url}{path}", json=body, timeout=30))
    assert field in problem["errors"]


QUERIES: list[tuple[str, str]] = [
    ("invalid-utf8-percent", "word=caf%E9"),
    ("invalid-utf8-lone-continuation", "word=%80%80"),
    ("invalid-utf8-in-ruleset", "word=top&ruleset=%FF"),
    ("invalid-utf8-in-a-key", "w%FFrd=top"),
    ("nul-percent", "word=to%00p"),
    ("nul-in-lang", "word=top&lang=en%00"),
    ("surrogate-as-cesu8", "word=%ED%A0%80"),
    ("long-word", "word=" + "q" * 5_000),
    ("long-lang", "word=top&lang=" + "x" * 3_000),
    ("unknown-parameter", "word=top&judge=true"),
    ("missing-word", "ruleset=standard"),
    ("bad-percent-in-ruleset", "word=top&ruleset=%zz"),
    ("empty-ruleset", "word=top&ruleset="),
    ("empty-lang", "word=top&lang="),
]


@pytest.mark.parametrize("query", [pytest.param(query, id=name) for name, query in QUERIES])
def test_hostile_query_string_is_a_4xx_problem(base_url: str, query: str) -> None:
    assert_client_error(requests.get(f"{base_url}/validate?{query}", timeout=30))


def test_a_10000_character_word_in_the_query_string_is_a_4xx_problem(base_url: str) -> None:
    assert_client_error(requests.get(f"{base_url}/validate", params={"word": LONG_WORD}, timeout=30))


def _raw_request(base_url: str, request_line: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send one GET with a request line ``requests`` would not send; return status, headers, body."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=30) as sock:
        sock.sendall(request_line + b"\r\nHost: " + parts.netloc.encode() + b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(b"/validate?word=caf\xe9", id="latin-1-byte-in-query"),
        pytest.param(b"/validate?word=\xff\xfe", id="invalid-utf8-bytes-in-query"),
        pytest.param(b"/validate?word=to\x00p", id="nul-byte-in-query"),
    ],
)
def test_raw_invalid_bytes_in_the_query_string_are_a_4xx_problem(base_url: str, target: bytes) -> None:
    status, headers, body = _raw_request(base_url, b"GET " + target + b" HTTP/1.1")
    assert 400 <= status < 500
    assert headers.get("content-type", "").split(";")[0] == PROBLEM_TYPE, (status, headers, body[:300])
    assert set(json.loads(body)) == PROBLEM_KEYS
    assert headers.get("x-request-id")


def test_hostile_headers_do_not_break_the_service(base_url: str) -> None:
    headers = {"Accept-Language": "zz;q=abc, *;q=-1, et;q=1e999, " + "x" * 500, "X-Request-ID": "<script>" + "y" * 100, "Origin": "null"}
    response = requests.get(f"{base_url}/validate", params={"word": "top"}, headers=headers, timeout=30)
    assert response.status_code == 200
    assert response.json()["valid"] is True
    assert response.headers["X-Request-ID"] and "<" not in response.headers["X-Request-ID"]


def test_a_bad_locale_is_a_4xx_problem(base_url: str) -> None:
    assert_client_error(requests.get(f"{base_url}/validate", params={"word": "top", "locale": "x" * 100}, timeout=30))


def test_the_service_survives_the_catalogue(base_url: str) -> None:
    """After everything above, the workers still answer (no worker was killed by a request)."""
    for _ in range(4):
        assert requests.get(f"{base_url}/ready", timeout=30).status_code == 200

"""Headers on every response: X-Request-ID, and CORS for browser clients."""

from __future__ import annotations

import re

import pytest
import requests

ORIGIN = "https://referee.example"

# One request per kind of answer: success, every error status, HTML, preflight.
REQUESTS = [
    ("get", "/health", {}),
    ("get", "/ready", {}),
    ("get", "/validate?word=quiz", {}),
    ("post", "/validate", {"json": {"words": ["top"], "judge": True}}),
    ("post", "/score-round", {"json": {"players": [{"name": "a", "words": ["top"]}, {"name": "b", "words": ["cat"]}]}}),
    ("get", "/rulesets", {}),
    ("get", "/rulesets/standard", {}),
    ("get", "/languages", {}),
    ("get", "/openapi.json", {}),
    ("get", "/docs", {}),
    ("options", "/validate", {}),
    ("post", "/validate", {"data": b"{", "headers": {"Content-Type": "application/json"}}),  # 400
    ("get", "/nope", {}),  # 404
    ("delete", "/validate", {}),  # 405
    ("post", "/validate", {"data": b"x" * 70_000, "headers": {"Content-Type": "application/json"}}),  # 413
    ("post", "/validate", {"data": b"words=top", "headers": {"Content-Type": "text/plain"}}),  # 415
    ("post", "/validate", {"json": {"words": []}}),  # 422
]
IDS = [f"{method}-{path.split('?')[0]}-{i}" for i, (method, path, _) in enumerate(REQUESTS)]


@pytest.mark.parametrize(("method", "path", "kwargs"), REQUESTS, ids=IDS)
def test_every_response_carries_a_request_id(base_url: str, method: str, path: str, kwargs: dict) -> None:
    response = requests.request(method, f"{base_url}{path}", timeout=30, **kwargs)
    assert response.status_code < 500
    assert re.fullmatch(r"[A-Za-z0-9._-]{8,64}", response.headers.get("X-Request-ID", "")), response.headers


@pytest.mark.parametrize(("method", "path", "kwargs"), REQUESTS, ids=IDS)
def test_a_sane_client_request_id_is_echoed(base_url: str, method: str, path: str, kwargs: dict) -> None:
    headers = {**kwargs.pop("headers", {}), "X-Request-ID": "ref-table-7.round-3_ABC"}
    response = requests.request(method, f"{base_url}{path}", headers=headers, timeout=30, **kwargs)
    assert response.headers.get("X-Request-ID") == "ref-table-7.round-3_ABC"
    if response.headers.get("Content-Type", "").startswith("application/problem+json"):
        assert response.json()["request_id"] == "ref-table-7.round-3_ABC"


@pytest.mark.parametrize("sent", ["has spaces", "x" * 65, "semi;colon", "<script>", "ünïcode"])
def test_an_unsafe_client_request_id_is_replaced(base_url: str, sent: str) -> None:
    response = requests.get(f"{base_url}/health", headers={"X-Request-ID": sent.encode("utf-8")}, timeout=30)
    assert response.status_code == 200
    own = response.headers.get("X-Request-ID", "")
    assert own and own != sent and re.fullmatch(r"[A-Za-z0-9._-]{1,64}", own)


def test_request_ids_differ_between_requests(base_url: str) -> None:
    ids = {requests.get(f"{base_url}/health", timeout=30).headers["X-Request-ID"] for _ in range(5)}
    assert len(ids) == 5


def _allowed(response: requests.Response) -> bool:
    return response.headers.get("Access-Control-Allow-Origin") in ("*", ORIGIN)


@pytest.mark.parametrize(
    ("method", "path", "kwargs"), [r for r in REQUESTS if r[0] != "options"], ids=[i for i, r in zip(IDS, REQUESTS, strict=True) if r[0] != "options"]
)
def test_cors_headers_are_sent_for_an_origin(base_url: str, method: str, path: str, kwargs: dict) -> None:
    headers = {**kwargs.pop("headers", {}), "Origin": ORIGIN}
    response = requests.request(method, f"{base_url}{path}", headers=headers, timeout=30, **kwargs)
    assert _allowed(response), response.headers
    assert "x-request-id" in response.headers.get("Access-Control-Expose-Headers", "").lower()
    if response.headers["Access-Control-Allow-Origin"] == ORIGIN:
        assert "origin" in response.headers.get("Vary", "").lower()


@pytest.mark.parametrize("path", ["/validate", "/score-round", "/score-game"])
def test_a_cors_preflight_allows_posting_json(base_url: str, path: str) -> None:
    response = requests.options(
        f"{base_url}{path}",
        headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type, x-request-id"},
        timeout=30,
    )
    assert response.status_code in (200, 204)
    assert _allowed(response)
    assert "POST" in response.headers.get("Access-Control-Allow-Methods", "")
    allowed_headers = response.headers.get("Access-Control-Allow-Headers", "").lower()
    assert "content-type" in allowed_headers and "x-request-id" in allowed_headers
    assert response.headers.get("X-Request-ID")


def test_no_cors_headers_without_an_origin(base_url: str) -> None:
    response = requests.get(f"{base_url}/health", timeout=30)
    assert "Access-Control-Allow-Origin" not in response.headers


def test_json_responses_are_utf8_without_escapes(base_url: str) -> None:
    response = requests.get(f"{base_url}/validate", params={"word": "café"}, timeout=30)
    assert "café".encode() in response.content
    assert response.json()["word"] == "café"

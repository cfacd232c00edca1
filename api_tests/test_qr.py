"""``POST /qr``: a QR code as SVG for the console's sign-in links (docs/pages.md, "Sign-in links")."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import requests

from .contract import assert_problem, media_type

LINK = "http://127.0.0.1:8000/console#event=club-night&table=t1&token=wsv_0123abcd_" + "x" * 43
SVG = "{http://www.w3.org/2000/svg}"


def test_a_link_is_answered_as_an_svg_qr_code_that_no_cache_keeps(base_url: str) -> None:
    response = requests.post(f"{base_url}/qr", json={"text": LINK}, timeout=30)
    assert response.status_code == 200, response.text
    assert media_type(response) == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store"
    root = ET.fromstring(response.text)
    assert root.tag == f"{SVG}svg" and root.get("viewBox") and root.get("width") is None  # the page sizes it
    assert root.find(f"{SVG}title") is not None and root.findall(f"{SVG}path")
    assert "token" not in response.text and "wsv_" not in response.text  # the text is in the modules only


def test_the_same_text_makes_the_same_code(base_url: str) -> None:
    first, second = (requests.post(f"{base_url}/qr", json={"text": LINK}, timeout=30).text for _ in range(2))
    assert first == second


def test_empty_too_long_or_non_string_text_is_refused_naming_the_field(base_url: str) -> None:
    for text in ("", "x" * 513, 42, None, ["a"], "line\nbreak"):
        body = assert_problem(requests.post(f"{base_url}/qr", json={"text": text}, timeout=30), 422)
        assert set(body["errors"]) == {"text"}, (text, body)
    assert requests.post(f"{base_url}/qr", json={"text": "x" * 512}, timeout=30).status_code == 200
    assert set(assert_problem(requests.post(f"{base_url}/qr", json={}, timeout=30), 422)["errors"]) == {"text"}
    assert set(assert_problem(requests.post(f"{base_url}/qr", json={"text": "a", "size": 3}, timeout=30), 422)["errors"]) == {"size"}


def test_a_body_that_is_not_json_is_refused(base_url: str) -> None:
    assert_problem(requests.post(f"{base_url}/qr", data=LINK, headers={"Content-Type": "text/plain"}, timeout=30), 415)
    assert_problem(requests.post(f"{base_url}/qr", data=b"{", headers={"Content-Type": "application/json"}, timeout=30), 400)

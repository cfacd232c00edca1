"""The README shows, and its examples run: every curl example is sent to the app in-process."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from wordsvc.config import SETTINGS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def curl_examples() -> list[list[str]]:
    """Every `curl` command in a sh block, with backslash continuations joined."""
    blocks = re.findall(r"```sh\n(.*?)```", README, flags=re.S)
    commands: list[list[str]] = []
    for block in blocks:
        current: list[str] | None = None
        for token in shlex.split(block.replace("\\\n", " "), comments=True):
            if token == "curl":
                current = [token]
                commands.append(current)
            elif current is not None:
                current.append(token)
    return commands


def request_of(argv: list[str]) -> tuple[str, str, bytes | None]:
    method, body, url = "GET", None, None
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "-X":
            method, i = argv[i + 1], i + 1
        elif arg == "-d":
            body, i = argv[i + 1].encode(), i + 1
            method = "POST" if method == "GET" else method
        elif arg == "-H":
            i += 1
        elif arg.startswith("http"):
            url = arg
        i += 1
    assert url, argv
    return method, url.split("8000", 1)[1], body


def test_the_readme_has_curl_examples():
    assert len(curl_examples()) >= 8


@pytest.mark.parametrize("argv", curl_examples(), ids=lambda a: " ".join(a[1:4])[:60])
def test_every_curl_example_in_the_readme_succeeds(client, argv):
    method, path, body = request_of(argv)
    response = client.open(path, method=method, data=body, content_type="application/json" if body else None)
    assert response.status_code == 200, response.get_data(as_text=True)


def test_the_readme_round_example_scores_as_shown(client):
    _, path, body = next(request_of(a) for a in curl_examples() if "score-round" in " ".join(a))
    result = client.post(path, data=body, content_type="application/json").get_json()
    assert [(p["name"], p["total"]) for p in result["players"]] == [("Ann", 35), ("Bob", 11)]


def test_the_readme_lists_every_setting():
    for name in SETTINGS:
        assert f"`{name}`" in README, name


@pytest.fixture(scope="module")
def client():
    from wordsvc.web.app import create_app

    try:
        app = create_app()
    except Exception as err:  # pragma: no cover - only without built lexicons
        pytest.skip(f"no service: {err}")
    if not app.extensions["wordsvc"].languages.lexicons:
        pytest.skip("no lexicon built; run `wordsvc build`")
    return app.test_client()

"""examples/curl.md is what examples/curl_md.py writes against the running server: every answer on the page is the server's."""

from __future__ import annotations

import difflib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
import requests

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "examples" / "curl.md"
_REQUEST_ID = re.compile(r'(X-Request-ID: |"request_id": ")[0-9a-f]{32}')


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("curl_md", REPO / "examples" / "curl_md.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _steady(text: str) -> str:
    """The page without what differs from one request to the next: the random request ids."""
    return _REQUEST_ID.sub(r"\1<request id>", text)


def test_the_curl_walkthrough_shows_the_servers_own_answers(base_url: str) -> None:
    committed = _steady(PAGE.read_text(encoding="utf-8"))
    languages = _generator().compact(requests.get(f"{base_url}/ready", timeout=30).json().get("languages"))  # as the page shows the list
    if f'"languages": {languages}' not in committed:  # set-up without root builds fewer (README: the two commands)
        pytest.skip(f"the page shows a server with every language built; this one has {languages}")
    written = _steady(_generator().page(base_url))
    if written != committed:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), written.splitlines(True), "examples/curl.md", "the server's answers", n=1))
        pytest.fail(
            f"examples/curl.md differs from what the server answers; rebuild it against `make serve` with "
            f"`python3 examples/curl_md.py > examples/curl.md`:\n{diff[:4000]}"
        )


def test_the_page_shows_every_request_it_makes() -> None:
    """Each step is shown as the curl command that sends it, and the page starts each answer with a status line."""
    page = PAGE.read_text(encoding="utf-8")
    steps = [step for _heading, _intro, steps in _generator().SECTIONS for step in steps]
    assert page.count("```sh\n") == page.count("```http\nHTTP/1.1 ") == len(steps)

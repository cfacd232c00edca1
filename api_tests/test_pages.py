"""/console, /judge, /events/{event}/display and /assets over HTTP: served from the package, in every language, shut to other origins, every word in the catalogue."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import requests

from .contract import assert_problem

PAGE_PATHS = ("/console", "/judge", "/events/any-event/display")  # the display is served for any event: the page reads the event
ASSETS = {
    "common.js": "text/javascript",
    "connection.js": "text/javascript",
    "console.js": "text/javascript",
    "console_drawing.js": "text/javascript",
    "console_network.js": "text/javascript",
    "console_state.js": "text/javascript",
    "dashboard.js": "text/javascript",
    "display.js": "text/javascript",
    "drafts.js": "text/javascript",
    "entry_form.js": "text/javascript",
    "entry_keys.js": "text/javascript",
    "event_feed.js": "text/javascript",
    "judge.js": "text/javascript",
    "next_table.js": "text/javascript",
    "paging.js": "text/javascript",
    "pages.css": "text/css",
    "results.js": "text/javascript",
    "round_diff.js": "text/javascript",
    "slip_messages.js": "text/javascript",
    "standings.js": "text/javascript",
    "stream.js": "text/javascript",
    "tournament.js": "text/javascript",
    "verdicts.js": "text/javascript",
}
LOCALES = {"en", "et", "is", "de", "es", "fr", "nl", "pl", "it", "pt", "da"}


class _Config(HTMLParser):
    """The page's JSON block, and every file it loads."""

    def __init__(self) -> None:
        super().__init__()
        self.config: dict[str, object] | None = None
        self.loads: list[str] = []
        self._in_config = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        self._in_config = tag == "script" and named.get("id") == "page-config"
        for attr in ("src", "href"):
            if named.get(attr):
                self.loads.append(str(named[attr]))

    def handle_data(self, data: str) -> None:
        if self._in_config:
            self.config = json.loads(data)
            self._in_config = False


def _parse(html: str) -> _Config:
    parser = _Config()
    parser.feed(html)
    return parser


def test_each_page_is_html_in_the_browsers_language_with_its_words_in_every_locale(base_url: str) -> None:
    for path in PAGE_PATHS:
        for header, locale in (("is-IS,is;q=0.9,en;q=0.5", "is"), ("et", "et"), ("de-DE", "de"), ("es-ES,es;q=0.9", "es"), ("fr-FR", "fr"), ("pt-BR", "pt"), ("sv-SE", "en"), ("", "en")):
            response = requests.get(base_url + path, headers={"Accept-Language": header}, timeout=30)
            assert response.status_code == 200 and response.headers["Content-Type"].startswith("text/html")
            assert f'<html lang="{locale}">' in response.text and response.headers["Content-Language"] == locale
            config = _parse(response.text).config
            assert config is not None and config["locale"] == locale
            strings = config["strings"]
            assert set(strings) == set(LOCALES) and len({frozenset(texts) for texts in strings.values()}) == 1  # every locale, the same keys
        assert requests.get(base_url + path, params={"locale": "et"}, headers={"Accept-Language": "is"}, timeout=30).headers["Content-Language"] == "et"


def test_the_kiosks_timings_come_from_the_settings(base_url: str) -> None:
    config = _parse(requests.get(base_url + "/judge", timeout=30).text).config
    assert config is not None and config["judge"] == {"result_seconds": 10.0, "key_delay": 0.5, "idle_seconds": 15.0}


def test_nothing_a_page_loads_or_calls_is_on_another_origin(base_url: str) -> None:
    for path in PAGE_PATHS:
        response = requests.get(base_url + path, timeout=30)
        policy = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        for loaded in _parse(response.text).loads:
            assert loaded.startswith("/assets/") or loaded.startswith("data:"), loaded
            if loaded.startswith("/assets/"):
                assert requests.get(base_url + loaded, timeout=30).status_code == 200, loaded
    for name in ASSETS:  # no address of anywhere else in any asset
        text = requests.get(f"{base_url}/assets/{name}", timeout=30).text
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.IGNORECASE), name


def test_assets_are_served_with_their_types_and_validators_and_nothing_else_is(base_url: str) -> None:
    for name, media in ASSETS.items():
        response = requests.get(f"{base_url}/assets/{name}", timeout=30)
        assert response.status_code == 200 and response.headers["Content-Type"].startswith(media) and response.content
        assert response.headers.get("ETag") and "max-age" in response.headers["Cache-Control"]
        assert requests.get(f"{base_url}/assets/{name}", headers={"If-None-Match": response.headers["ETag"]}, timeout=30).status_code == 304
    for name in ("console.html", "..%2Fpages.py", "nope.js"):
        assert_problem(requests.get(f"{base_url}/assets/{name}", timeout=30), 404)

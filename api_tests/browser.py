"""Driving the console and the kiosk in a real browser: Debian's Chromium through Playwright (docs/pages.md).

``browser`` (session) launches ``chromium`` (``WORDSVC_CHROMIUM`` names another
executable) headless with Playwright's ``executable_path``: Playwright's own
browser downloads are never used. ``pages_server`` (module, ids ``sqlite`` and
``postgresql``) is a ``wordsvc serve`` with short kiosk timings, an event, its
tables and tokens; ``steady_server`` the same with kiosk timings of an hour. Without a browser, Playwright or axe-core the tests are
skipped (failed under CI) through the root conftest's :func:`unavailable`.

:func:`accessibility_violations` runs axe-core (``make setup`` installs it from
npm into node_modules/) in the page; :func:`screenshot` writes <name>.png into
:func:`screenshot_folder`: the folder ``--screenshots DIR`` names (``make screenshots``
names docs/screenshots/, whose pictures the README and docs show), else a temporary
folder removed when the run ends, so that ``make test`` leaves the checkout as it found
it while every picture is still taken and checked.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import requests

from conftest import unavailable

from .conftest import REPO, admin_token_for, running_server

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}  # the screenshots' two sizes, by the name their files carry
#: The kiosk's timings in these tests: short, so that the clock rules are checked in seconds.
#: Its tests run them on the page's fake clock (open_page's ``paused_clock``), never on the machine's.
TIMINGS = {"WORDSVC_JUDGE_RESULT_SECONDS": "2.5", "WORDSVC_JUDGE_KEY_DELAY": "0.5", "WORDSVC_JUDGE_IDLE_SECONDS": "2.5", "WORDSVC_STANDINGS_POLL_SECONDS": "1"}
#: For axe-core and the screenshots, which need the page's real timers: nothing the kiosk times runs out while they work.
STEADY_TIMINGS = {"WORDSVC_JUDGE_RESULT_SECONDS": "3600", "WORDSVC_JUDGE_IDLE_SECONDS": "3600"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
#: axe-core's rule tags for WCAG 2.1 A and AA, and its best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


_screenshots: dict[str, Path] = {}  # "folder": where this run writes its pictures, once chosen


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--screenshots",
        metavar="DIR",
        default=None,
        help="write the pages' and documents' pictures into DIR (make screenshots: docs/screenshots); by default a temporary folder, removed at the end",
    )


def pytest_configure(config: pytest.Config) -> None:
    chosen = config.getoption("screenshots")
    if chosen:
        _screenshots["folder"] = Path(chosen).resolve()


def pytest_unconfigure(config: pytest.Config) -> None:
    temporary = _screenshots.pop("temporary", None)
    if temporary is not None:
        shutil.rmtree(temporary, ignore_errors=True)
    _screenshots.pop("folder", None)


def screenshot_folder() -> Path:
    """The folder this run writes its pictures into: ``--screenshots DIR``, else a temporary one made on first use (removed at the end)."""
    if "folder" not in _screenshots:
        _screenshots["temporary"] = _screenshots["folder"] = Path(tempfile.mkdtemp(prefix="wordsvc-screenshots-"))
    folder = _screenshots["folder"]
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def chromium_executable() -> str | None:
    named = os.environ.get("WORDSVC_CHROMIUM", "").strip()
    return named or shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    executable = chromium_executable()
    reason = ""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        reason = "the playwright package is not installed"
    if not reason and not executable:
        reason = "no chromium executable on PATH (or WORDSVC_CHROMIUM)"
    if not reason and not AXE.is_file():
        reason = f"axe-core is not installed ({AXE.relative_to(REPO)} is missing)"
    if reason:
        unavailable(request.config, "Browser", reason)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Tokens:
    admin: str
    director: str
    referee_t1: str  # limited to table t1
    referee_t2: str  # limited to table t2
    referee_any: str  # every table


@dataclass
class PagesServer:
    url: str
    database: str
    event: str
    tokens: Tokens
    players: dict[str, list[str]] = field(default_factory=dict)

    def api(self, method: str, path: str, token: str | None = None, headers: dict[str, str] | None = None, **kwargs: Any) -> requests.Response:
        sent = {**(headers or {}), **({"Authorization": f"Bearer {token}"} if token else {})}
        return requests.request(method, self.url + path, headers=sent, timeout=30, **kwargs)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def pages_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server with the short TIMINGS, on SQLite and then on PostgreSQL; see :func:`serve_event`."""
    if request.param == "sqlite":
        database = f"sqlite:///{tmp_path_factory.mktemp('pages')}/ledger.sqlite3"
    else:
        from .postgres import create_database

        database = create_database(request.getfixturevalue("postgres_server_url"), f"wordsvc_pages_{request.module.__name__.rsplit('.', 1)[-1][5:]}")
    with serve_event(database, TIMINGS) as server:
        yield server


@pytest.fixture(scope="module")
def steady_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PagesServer]:
    """A server with :data:`STEADY_TIMINGS` (a ruling stays up an hour: axe-core and a screenshot never race it), on SQLite."""
    with serve_event(f"sqlite:///{tmp_path_factory.mktemp('steady')}/ledger.sqlite3", STEADY_TIMINGS) as server:
        yield server


@contextmanager
def serve_event(database: str, env: dict[str, str]) -> Iterator[PagesServer]:
    """``wordsvc serve`` on ``database`` with event ``club-night`` (standard rules, English), tables t1 (ana, bo, cy) and t2 (dan, eve), and a token of every kind."""
    with running_server("wordsvc-pages-", env={"WORDSVC_DATABASE_URL": database, **env}) as (url, _log):
        admin = admin_token_for(database)
        created = requests.post(
            f"{url}/events",
            json={"name": "Club night", "id": "club-night", "ruleset": "standard", "lang": "en-US"},
            headers={"Authorization": f"Bearer {admin}"},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        director = created.json()["director_token"]["token"]
        server = PagesServer(url, database, "club-night", Tokens(admin, director, "", "", ""), {"t1": ["ana", "bo", "cy"], "t2": ["dan", "eve"]})
        for table, players in server.players.items():
            assert server.api("PUT", f"/events/club-night/games/{table}", director, json={"players": players}).status_code == 201
        issue = lambda table: server.api("POST", "/events/club-night/tokens", director, json={"role": "referee", "table": table}).json()["token"]  # noqa: E731
        server.tokens = Tokens(admin, director, issue("t1"), issue("t2"), issue(None))
        yield server


#: Run in the page before its own scripts: every fetch it makes is noted as it is made (method, URL), so what
#: the page sent is read exactly, at once, after any action (Traffic.sent).
NOTE_FETCHES = """
(() => {
  const sent = (window.__sent = []);
  const fetch = window.fetch.bind(window);
  window.fetch = (resource, init = {}) => {
    const request = resource instanceof Request ? resource : null;
    sent.push([(init.method || (request ? request.method : "GET")).toUpperCase(), request ? request.url : new URL(resource, location.href).href]);
    return fetch(resource, init);
  };
})();
"""


def _path_is(url: str, path_end: str) -> bool:
    return url.split("?")[0].endswith(path_end)


@dataclass
class Traffic:
    """Every request a page sent and every answer it got, for leak and origin checks.

    The answers come as Playwright's response events, which reach the test some time after the page
    has moved on: :meth:`answered` waits for one. What the page sent is counted in the page itself
    (:meth:`sent`), exactly, the moment an action returns.
    """

    seen: list[tuple[dict[str, Any], Any]] = field(default_factory=list)

    def record(self, response: Any) -> None:
        """The response event's handler: no round trip to the browser here, so the call is listed as soon as the event comes."""
        req = response.request
        self.seen.append(({"method": req.method, "url": req.url, "sent": req.post_data or "", "status": response.status}, response))

    @property
    def requests(self) -> list[dict[str, Any]]:
        """Every call answered so far, with its answer's text (``answer``; none for the event stream, which does not end)."""
        for call, response in self.seen:
            if "answer" not in call and response.headers.get("content-type", "").startswith("text/event-stream"):
                call["answer"] = ""  # the event stream: its body ends only when the page is gone
            elif "answer" not in call:
                try:
                    call["answer"] = response.text()
                except Exception:  # a redirect or an aborted answer has no body
                    call["answer"] = ""
        return [call for call, _ in self.seen]

    def calls(self, method: str, path_end: str) -> list[dict[str, Any]]:
        return [r for r in self.requests if r["method"] == method and _path_is(r["url"], path_end)]

    def answered(self, page: Any, method: str, path_end: str) -> list[dict[str, Any]]:
        """:meth:`calls`, once at least one has come (the events before it with it): a wait on the events, for at most 30 s."""
        for _ in range(1500):
            found = self.calls(method, path_end)
            if found:
                return found
            page.wait_for_timeout(20)  # the events are let in while the test waits on the page
        raise AssertionError(f"no answer to {method} {path_end} came")

    @staticmethod
    def sent(page: Any, method: str, path_end: str) -> list[str]:
        """The URLs of the ``method`` fetches to ``path_end`` the page has made since it loaded (:data:`NOTE_FETCHES`)."""
        return [url for verb, url in page.evaluate("window.__sent") if verb == method and _path_is(url, path_end)]


#: Where a paused clock stands when a page opens: any fixed moment does.
CLOCK_START = datetime(2026, 1, 1, tzinfo=UTC)


def open_page(browser: Any, url: str, viewport: dict[str, int] = DESKTOP, locale: str = "en-US", paused_clock: bool = False) -> tuple[Any, Any, Traffic]:
    """A new context and page at ``url`` with its traffic recorded (``page.errors``: its script errors).

    ``paused_clock``: the page runs on Playwright's fake clock, paused (``Date``, ``performance.now``
    and every timer): its timers fire only when the test moves the clock with ``page.clock.run_for``,
    so what the page does after N seconds is checked to the millisecond on any machine under any load.
    """
    context = browser.new_context(viewport=viewport, locale=locale, is_mobile=viewport is PHONE, has_touch=viewport is PHONE)
    if paused_clock:
        context.clock.install(time=CLOCK_START)
        context.clock.pause_at(CLOCK_START + timedelta(hours=1))  # well ahead of wherever the clock has run meanwhile
    context.add_init_script(NOTE_FETCHES)
    page = context.new_page()
    traffic = Traffic()
    errors: list[str] = []
    page.on("response", traffic.record)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("requestfailed", lambda req: _failed(errors, req))
    page.errors = errors
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return context, page, traffic


#: Every impact axe-core gives: the console's entry tests fail on any of them.
EVERY_IMPACT = ("minor", "moderate", "serious", "critical")


def _failed(errors: list[str], request: Any) -> None:
    """Note a request that failed, unless it was aborted: a reload or a sign-out cancels what is in flight, and the page
    cancels a preview it no longer needs; whether one was still in flight then depends on the machine's speed, not the page."""
    if request.failure != "net::ERR_ABORTED":
        errors.append(f"request failed: {request.method} {request.url} ({request.failure})")


def accessibility_violations(page: Any, impacts: tuple[str, ...] = EVERY_IMPACT) -> list[dict[str, Any]]:
    """axe-core's violations of WCAG 2.1 A/AA and best practice in the page as it is now, of the given impacts (every impact unless told)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # evaluated by the driver, so the page's CSP (script-src 'self') still holds for the page itself
    result = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})", AXE_TAGS)
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in impacts
    ]


def assert_accessible(page: Any, state: str, impacts: tuple[str, ...] = EVERY_IMPACT) -> None:
    violations = accessibility_violations(page, impacts)
    assert not violations, f"{state}: axe-core reports\n" + json.dumps(violations, indent=1)


def screenshot(page: Any, name: str) -> Path:
    """The whole page as <name>.png in :func:`screenshot_folder`; a picture that came out empty fails the test."""
    path = screenshot_folder() / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    assert path.stat().st_size > 1_000, f"{path.name}: {path.stat().st_size} bytes, no picture"
    return path


def same_origin(traffic: Traffic, base_url: str) -> list[str]:
    """Every URL the page asked for that is not on the service that served it."""
    return [r["url"] for r in traffic.requests if not r["url"].startswith(base_url + "/")]

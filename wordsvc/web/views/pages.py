"""The referee console (``/console``, with the director's dashboard and tournament view), the judge kiosk (``/judge``) and the event display (``/events/<event>/display``): pages and assets shipped in the package (docs/pages.md).

A page is the shared head (its language, title, style sheet, script and one
JSON block: its strings in every locale from the message catalogue, the locale
the browser asked for, the timings the settings give) and its body, a static
HTML file from ``static/``. The assets are served as they are committed; the
Content-Security-Policy keeps the browser from loading or sending anything to
another origin.
"""

from __future__ import annotations

import html
import json
from functools import cache
from pathlib import Path
from typing import Any

from flask import Response, current_app, g, send_from_directory

from ...core import problem_codes as codes
from ...core.ids import ID_PATTERN, is_id
from ...data.languages import LANGUAGES
from ...i18n import CATALOG, LANGUAGE_TAGS, LOCALE_NAMES, LOCALES, PAGE_PLURALS
from ..endpoints import ASSET, HTML, Endpoint, Resource
from ..parameters import EVENT, GAME
from ..problems import problem

__all__ = ["ASSETS", "PAGES", "STATIC", "bp", "page_strings", "render_page"]

STATIC = Path(__file__).resolve().parent.parent / "static"
#: Each page: its HTML file and the prefixes of the catalogue keys it uses.
PAGES = {
    "console": ("console.html", ("page.", "console.", "tournament.", "players.", "dashboard.", "print.", "links.", "newevent.")),
    "judge": ("judge.html", ("page.", "judge.")),
    "display": ("display.html", ("page.", "display.", "tournament.measure.")),
    "lobby": ("lobby.html", ("page.", "play.", "lobby.", "links.")),
    "table": ("table.html", ("page.", "play.", "table.", "links.", "refusal.")),
}
ASSETS = (
    "common.js",
    "connection.js",
    "console.js",
    "console_drawing.js",
    "console_network.js",
    "console_state.js",
    "crosstable.js",
    "dashboard.js",
    "display.js",
    "drafts.js",
    "entry_form.js",
    "entry_keys.js",
    "event_feed.js",
    "judge.js",
    "lobby.js",
    "lobby_invite.js",
    "lobby_problems.js",
    "lobby_tables.js",
    "new_event.js",
    "next_table.js",
    "paging.js",
    "pages.css",
    "parts.js",
    "player_lines.js",
    "play_store.js",
    "players.js",
    "print.js",
    "results.js",
    "round_diff.js",
    "seat_links.js",
    "signin_links.js",
    "slip_messages.js",
    "standings.js",
    "stream.js",
    "table.js",
    "table_hand.js",
    "table_moves.js",
    "table_replay.js",
    "table_view.js",
    "tournament.js",
    "venue_links.js",
    "verdicts.js",
)
#: The kiosk's examples of double cards (``(ch)ico``), by every tag a language answers to: its manifest's ``double_examples``.
DOUBLE_EXAMPLES = {tag: list(lang.double_examples) for lang in LANGUAGES for tag in (lang.id, *lang.aliases) if lang.double_examples}
#: How long the display shows a page of a list too long for its screen before the next; long enough to find one's name.
DISPLAY_PAGE_SECONDS = 10
POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

bp = Resource("pages", __name__)


def page_strings(page: str) -> dict[str, dict[str, str | dict[str, str]]]:
    """The catalogue's strings a page uses, per locale: a text, or for one that holds a count its form of each CLDR category."""
    prefixes = PAGES[page][1]
    return {
        locale: {key: text for catalogue in (CATALOG[locale], PAGE_PLURALS[locale]) for key, text in catalogue.items() if key.startswith(prefixes)}
        for locale in LOCALES
    }


@cache
def _template(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


def _config(page: str) -> dict[str, Any]:
    settings = current_app.extensions["wordsvc.settings"]
    return {
        "locale": g.locale,
        "locales": {locale: LOCALE_NAMES[locale] for locale in LOCALES},
        "plural_rules": {locale: LANGUAGE_TAGS[locale] for locale in LOCALES},
        "strings": page_strings(page),
        "judge": {"result_seconds": settings.judge_result_seconds, "key_delay": settings.judge_key_delay, "idle_seconds": settings.judge_idle_seconds},
        "standings_poll_seconds": settings.standings_poll_seconds,
        "display": {"page_seconds": DISPLAY_PAGE_SECONDS},
        "public_url": settings.public_url,  # every link and QR code a page makes starts with it; null: the address the browser used (docs/venue.md)
        "event_creation": settings.event_creation,
        **({"double_examples": DOUBLE_EXAMPLES} if page == "judge" else {}),
    }


def _script_json(value: Any) -> str:
    """JSON that cannot end the ``<script>`` element it sits in."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


#: Every page's head: its title, the style sheet, its configuration and its script; the page's file holds its body.
HEAD = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title data-t="{page}.title">{title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/pages.css">
<script type="application/json" id="page-config">{config}</script>
<script type="module" src="/assets/{page}.js"></script>
</head>
"""


def render_page(page: str, locale: str, config: dict[str, Any]) -> str:
    """The whole HTML of ``page`` in ``locale``: the shared head, then the page's own body."""
    title = CATALOG[locale][f"{page}.title"]
    head = HEAD.format(lang=locale, page=page, title=html.escape(title), config=_script_json(config))
    return head + _template(PAGES[page][0])


def _page(page: str) -> Response:
    body = render_page(page, g.locale, _config(page))
    response = Response(body, mimetype="text/html")
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Content-Language"] = g.locale
    response.headers["Vary"] = "Accept-Language"
    return response


@bp.declare(
    Endpoint(
        method="get",
        path="/console",
        operation_id="getConsolePage",
        tag="pages",
        summary="The referee console",
        description="An HTML page (docs/pages.md): sign in with a token, enter rounds from the slip, corrections, standings.",
        answers={200: HTML},
        problems=(),
    )
)
def console() -> Response:
    return _page("console")


@bp.declare(
    Endpoint(
        method="get",
        path="/judge",
        operation_id="getJudgePage",
        tag="pages",
        summary="The judge kiosk",
        description="An HTML page (docs/pages.md): a challenge's words judged acceptable or not, never which word; recorded in the event's audit.",
        answers={200: HTML},
        problems=(),
    )
)
def judge() -> Response:
    return _page("judge")


@bp.declare(
    Endpoint(
        method="get",
        path="/events/{event}/display",
        operation_id="getDisplayPage",
        tag="pages",
        summary="The event display",
        description="An HTML page (docs/pages.md): the event's tables, standings and changes for a projector; a private event's token in the link's fragment.",
        parameters=[EVENT],
        answers={200: HTML},
        documented=False,  # a page, not part of the API: it was never in the document, and the document stays as it was
    )
)
def display(event: str) -> Response:
    """The event's projector view: the page reads the event itself (a private one with the token of its link's fragment)."""
    return _page("display")


@bp.declare(
    Endpoint(
        method="get",
        path="/play",
        operation_id="getPlayLobby",
        tag="pages",
        summary="The players' lobby",
        description="An HTML page (docs/pages.md): make a table to play in the browser, invite with a link and a QR code, join an open public table.",
        answers={200: HTML},
        problems=(),
    )
)
def lobby() -> Response:
    return _page("lobby")


@bp.declare(
    Endpoint(
        method="get",
        path="/play/{event}/{game}",
        operation_id="getTablePage",
        tag="pages",
        summary="A hosted table's page",
        description="An HTML page (docs/pages.md): play a seat of a hosted table (its token kept on the device), or watch it as a spectator; a finished game replayed.",
        parameters=[EVENT, GAME],
        answers={200: HTML},
        errors=(422,),
        problems=(codes.INVALID_ID,),
    )
)
def table(event: str, game: str) -> Response:
    """The table page reads the table itself, with the seat token this device keeps (or a seat link's fragment); an address
    that names no table of any event (ids are the ledger's) is refused at once, as the API refuses it."""
    bad = {name: ["must match " + ID_PATTERN] for name, value in (("event", event), ("game", game)) if not is_id(value)}
    if bad:
        return problem(422, "An event's and a table's ids are 1 to 64 lowercase letters, digits, - or _.", bad, g.locale, code=codes.INVALID_ID)
    return _page("table")


@bp.declare(
    Endpoint(
        method="get",
        path="/assets/{name}",
        operation_id="getAsset",
        tag="pages",
        summary="The pages' assets",
        description="common.js, console.js, dashboard.js, judge.js, pages.css: served as committed, with ETag.",
        parameters=[
            {"name": "name", "in": "path", "required": True, "description": "The asset's file name.", "schema": {"type": "string", "enum": list(ASSETS)}}
        ],
        answers={200: ASSET},
        errors=(404,),
        problems=(codes.ASSET_NOT_FOUND,),
    )
)
def asset(name: str) -> Response:
    if name not in ASSETS:
        return problem(
            404, f"No asset {name!r}; the pages' assets are {', '.join(ASSETS)}.", {"name": ["not an asset of the pages"]}, g.locale, code=codes.ASSET_NOT_FOUND
        )
    response = send_from_directory(STATIC, name, max_age=300)
    response.headers["Content-Security-Policy"] = POLICY
    return response

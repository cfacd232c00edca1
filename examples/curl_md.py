"""Writes examples/curl.md: a walkthrough of the HTTP API with the answers of a running server.

Each step is a request written as the curl command a reader would type and
sent to the server as that command would send it; the page shows the
command and the answer (status line, a few headers, the body pretty-printed
with long lists cut short). Rebuild the page against ``make serve`` (every
language built) with::

    python3 examples/curl_md.py > examples/curl.md                    # http://127.0.0.1:8000
    python3 examples/curl_md.py --url http://127.0.0.1:8123 > examples/curl.md

The page always names http://127.0.0.1:8000. ``api_tests/test_curl_walkthrough.py``
builds it against the test server and fails when the committed page differs
(request ids aside): the page is the server's real answers or the test says so.
Standard library only, like any client.
"""

from __future__ import annotations

import argparse
import http.client
import json
import shlex
import sys
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

SHOWN_URL = "http://127.0.0.1:8000"
LIST_LONG, LIST_SHOWN = 10, 5  # a list of more than LIST_LONG items shows LIST_SHOWN of them, then "… N more"
SHOWN_HEADERS = (
    "Content-Type",
    "X-Request-ID",
    "Allow",
    "Retry-After",
    "ETag",
    "Access-Control-Allow-Origin",
    "Access-Control-Allow-Methods",
    "Access-Control-Allow-Headers",
    "Access-Control-Expose-Headers",
    "Connection",
)
ZERO_SEED = "0" * 64
LAYOUT = {"piles": [{"cards": ["X", "T"], "face_down": 1}, {"cards": ["E"], "face_down": 0}, {"cards": ["A"], "face_down": 0}]}


@dataclass
class Step:
    title: str
    prose: str
    method: str
    path: str
    body: Any = None  # JSON, or bytes sent as they are
    headers: dict[str, str] = field(default_factory=dict)
    command: str | None = None  # how the page writes the request, when curl's own spelling of it is not the plain one
    outline: Any = None  # a function of the parsed body: what the page shows of a long answer


def _openapi_outline(doc: dict[str, Any]) -> dict[str, Any]:
    operations = [f"{method.upper()} {path}" for path, item in doc["paths"].items() for method in item if method != "parameters"]
    return {
        "openapi": doc["openapi"],
        "info": {"title": doc["info"]["title"], "version": doc["info"]["version"]},
        "operations": operations,
        "schemas": sorted(doc["components"]["schemas"]),
    }


ROUND_2 = [{"name": "Ann", "words": ["rain"], "unused": [], "went_out": True}, {"name": "Bob", "words": ["tea"], "unused": ["s"]}]
ROUND = {
    "ruleset": "standard",
    "round": 1,
    "players": [{"name": "Ann", "words": [["QU", "I", "Z"]], "unused": [], "went_out": True}, {"name": "Bob", "words": ["top"], "unused": []}],
}

SECTIONS: list[tuple[str, str, list[Step]]] = [
    (
        "Probes",
        "",
        [
            Step("GET /health: the process is up", "", "GET", "/health"),
            Step("GET /ready: the lexicons are loaded", "503 in the problem shape until one is; `building` lists those still being built.", "GET", "/ready"),
        ],
    ),
    (
        "Words",
        "",
        [
            Step(
                "GET /validate: one word",
                "Every way to lay the word on the deck, best points first. QUIZ is 35 with single cards, 25 with the QU card.",
                "GET",
                "/validate?word=quiz",
            ),
            Step(
                "GET /validate: compact notation", "Parentheses mark one multi-letter card; the verdict is on that one laying.", "GET", "/validate?word=(cl)own"
            ),
            Step(
                "GET /validate: a word that cannot be played",
                "Reasons have stable codes (docs/api.md); messages follow `?locale=` or `Accept-Language`; a refused word gets `suggestions`.",
                "GET",
                "/validate?word=steve",
            ),
            Step("GET /validate: another language for the messages", "", "GET", "/validate?word=xqzt", headers={"Accept-Language": "et"}),
            Step("GET /validate: another lexicon", "", "GET", "/validate?word=colour&lang=en-GB"),
            Step(
                "GET /validate: another ruleset",
                '`letters-minimum` counts letters, not cards: a lone IN card plays as "in".',
                "GET",
                "/validate?word=(in)&ruleset=letters-minimum",
            ),
            Step("POST /validate: many words", "", "POST", "/validate", {"words": ["quiz", "xyzzy"]}),
            Step(
                "POST /validate with judge: true",
                "The ruling on the whole play, never which word.",
                "POST",
                "/validate",
                {"words": ["quiz", "xyzzy"], "judge": True},
            ),
            Step("GET /words: a pattern", "`?` one letter, `*` any run, `[aeiou]` one of a set.", "GET", "/words?pattern=qu?z*&limit=5"),
            Step("GET /anagrams", "", "GET", "/anagrams?cards=(qu)izt&all=true"),
            Step("GET /suggest", "", "GET", "/suggest?word=qiuz"),
        ],
    ),
    (
        "Scoring and play",
        "",
        [
            Step("POST /score-round", "Ann 35, Bob 11.", "POST", "/score-round", ROUND),
            Step(
                "POST /score-game",
                "The rounds played so far, with running totals; `complete` once every round of the ruleset is in.",
                "POST",
                "/score-game",
                {"players": ["Ann", "Bob"], "rounds": [{"players": ROUND["players"]}, {"players": ROUND_2}]},
            ),
            Step("POST /best-meld: the exact best play", "", "POST", "/best-meld", {"hand": "a(cl)g(in)(th)mpouyn", "discard": True, "top": 1, "face_up": "E"}),
            Step(
                "POST /analyse-round",
                "What each player could have made of the cards they ended with.",
                "POST",
                "/analyse-round",
                {"round": 1, "players": [{"name": "Ann", "words": ["at"], "unused": ["c"]}, {"name": "Bob", "words": ["cat"]}]},
            ),
            Step("GET /deal", "A round dealt from a seed (docs/deals.md).", "GET", f"/deal?ruleset=standard&players=2&round=1&seed={ZERO_SEED}"),
            Step("GET /solitaire/deal", "", "GET", f"/solitaire/deal?seed={ZERO_SEED}"),
            Step("POST /solitaire/move", "", "POST", "/solitaire/move", {"layout": LAYOUT, "word": [0, 1, 2]}),
            Step("POST /solitaire/solve", "", "POST", "/solitaire/solve", {"layout": LAYOUT, "budget": 1_000_000}),
        ],
    ),
    (
        "Rules and lexicons",
        "",
        [
            Step("GET /rulesets", "", "GET", "/rulesets"),
            Step("GET /rulesets/{id}", "Fully resolved, deck included.", "GET", "/rulesets/challenge"),
            Step("GET /languages", "", "GET", "/languages"),
            Step(
                "GET /lexicons/diff",
                "Forms one lexicon has and the other lacks, under a ruleset.",
                "GET",
                "/lexicons/diff?from=en-US&to=en-US-large&ruleset=standard&limit=5",
            ),
        ],
    ),
    (
        "The API description",
        "",
        [
            Step(
                "GET /openapi.json",
                "OpenAPI 3, generated from the service's schemas; shown in outline (its operations and schema names).",
                "GET",
                "/openapi.json",
                outline=_openapi_outline,
            ),
            Step("GET /docs", "The same as a page (its first few hundred characters shown).", "GET", "/docs"),
        ],
    ),
    (
        "Errors",
        "Every error is `application/problem+json` (RFC 9457) with the same fields: `type`, `title`, `status`, `detail`, "
        "`errors` (field path -> messages) and `request_id` (also in the `X-Request-ID` header).",
        [
            Step("400: malformed JSON", "", "POST", "/validate", b'{"words": ["quiz"'),
            Step("422: schema violations, every bad field at once", "", "POST", "/score-round", {"round": 0, "players": [{"name": "", "words": 3}]}),
            Step(
                "422: a round that does not add up",
                "",
                "POST",
                "/score-round",
                {"round": 1, "players": [{"name": "Ann", "words": ["quiz", "top"]}, {"name": "Bob", "words": ["to"]}]},
            ),
            Step("404: unknown language", "", "GET", "/validate?word=quiz&lang=xx"),
            Step("404: unknown ruleset", "", "GET", "/validate?word=quiz&ruleset=nope"),
            Step("404: unknown path", "", "GET", "/nope"),
            Step("405: wrong method", "", "DELETE", "/validate"),
            Step(
                "413: body over 64 KiB",
                "Refused by the server as soon as `Content-Length` says so, unread.",
                "POST",
                "/validate",
                b'{"words": ["' + b"a" * 70000 + b'"]}',
                command="python3 -c \"print('{\\\"words\\\": [\\\"' + 'a' * 70000 + '\\\"]}')\" | "
                f"curl -si -X POST {SHOWN_URL}/validate -H 'Content-Type: application/json' --data-binary @-",
            ),
            Step(
                "415: not JSON",
                "`curl -d` alone sends a form.",
                "POST",
                "/validate",
                b"words=quiz",
                headers={"Content-Type": "application/x-www-form-urlencoded"},
                command=f"curl -si -X POST {SHOWN_URL}/validate -d 'words=quiz'",
            ),
        ],
    ),
    (
        "Headers",
        "",
        [
            Step("X-Request-ID is echoed", "", "GET", "/health", headers={"X-Request-ID": "table-7-round-3"}),
            Step("CORS preflight", "", "OPTIONS", "/score-round", headers={"Origin": "https://club.example", "Access-Control-Request-Method": "POST"}),
        ],
    ),
]


def command_of(step: Step) -> str:
    if step.command is not None:
        return step.command
    words = ["curl", "-si"]
    if step.method != "GET":
        words += ["-X", step.method]
    words.append(SHOWN_URL + step.path)
    for name, value in step.headers.items():
        words += ["-H", f"{name}: {value}"]
    if step.body is not None:
        words += [
            "-H",
            "Content-Type: application/json",
            "-d",
            step.body.decode() if isinstance(step.body, bytes) else json.dumps(step.body, ensure_ascii=False),
        ]
    return " ".join(w if w in ("curl", "-si", "-X", "-H", "-d") or w == step.method else shlex.quote(w) for w in words)


def send(url: str, step: Step) -> tuple[int, str, list[tuple[str, str]], bytes]:
    parsed = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parsed.hostname, parsed.port or 80, timeout=60)
    body = step.body if isinstance(step.body, bytes) or step.body is None else json.dumps(step.body, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json", **step.headers} if body is not None else dict(step.headers)
    try:
        conn.request(step.method, step.path, body=body, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.reason, answer.getheaders(), answer.read()
    finally:
        conn.close()


def compact(value: Any) -> str:
    """JSON on one line, lists of more than :data:`LIST_LONG` items cut short."""
    if isinstance(value, list):
        return "[" + ", ".join(_items(value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {compact(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


def pretty(value: Any) -> str:
    """An object a key a line, each value on one line, but a list of objects an object a line."""
    if not (isinstance(value, dict) and value):
        return compact(value)
    return "{\n" + ",\n".join(f"  {json.dumps(k, ensure_ascii=False)}: {_member(v)}" for k, v in value.items()) + "\n}"


def _member(value: Any) -> str:
    if not (isinstance(value, list) and len(value) > 1 and all(isinstance(v, dict) for v in value)):
        return compact(value)
    return "[\n    " + ",\n    ".join(_items(value)) + "\n  ]"


def _items(value: list[Any]) -> list[str]:
    """Each item of a list on one line, a long list's first :data:`LIST_SHOWN` and how many more."""
    if len(value) <= LIST_LONG:
        return [compact(v) for v in value]
    return [compact(v) for v in value[:LIST_SHOWN]] + [json.dumps(f"… {len(value) - LIST_SHOWN} more", ensure_ascii=False)]


def answer_of(url: str, step: Step) -> str:
    status, reason, headers, raw = send(url, step)
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for wanted in SHOWN_HEADERS for name, value in headers if name.lower() == wanted.lower()]
    kind = next((value for name, value in headers if name.lower() == "content-type"), "")
    if raw and "json" in kind:
        document = json.loads(raw)
        lines += ["", pretty(step.outline(document) if step.outline else document)]
    elif raw:
        text = raw.decode("utf-8", "replace")
        lines += ["", text[:400] + (" …" if len(text) > 400 else "")]
    return "\n".join(lines)


def page(url: str) -> str:
    out = [
        "# wordsvc with curl: a walkthrough",
        "",
        f"Requests to a running server (`make serve`, which listens on {SHOWN_URL}) and its answers, written by",
        "`examples/curl_md.py` (`python3 examples/curl_md.py > examples/curl.md`); a test holds the page to the server's",
        'real answers. Bodies are pretty-printed, one key a line; lists longer than ten are cut short with `"… N more"`;',
        "of the headers only a few are shown. Request ids are random unless the client sends one. The ledger's",
        "endpoints, with tokens: the whole event in the README; `/metrics`: docs/operations.md.",
        "",
        "Always send `Content-Type: application/json` with a body: `curl -d` alone sends a form, which the service refuses with 415.",
    ]
    for heading, intro, steps in SECTIONS:
        out += ["", f"## {heading}"]
        if intro:
            out += ["", intro]
        for step in steps:
            out += ["", f"### {step.title}"]
            if step.prose:
                out += ["", step.prose]
            out += ["", "```sh", command_of(step), "```", "", "```http", answer_of(url, step), "```"]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=SHOWN_URL, help="the server to ask (default: %(default)s)")
    args = parser.parse_args()
    sys.stdout.write(page(args.url.rstrip("/")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``make fuzz``: schemathesis against a live wordsvc, with every check, from the service's own OpenAPI document.

Starts ``wordsvc serve`` on a free port the way the API tests do
(:mod:`api_tests.conftest`), or fuzzes ``WORDSVC_URL`` when it is set; runs
``schemathesis run --checks all`` with :func:`config_toml` and exits with its
status (0: no failure). Beside schemathesis's own checks, every 4xx must carry a
problem code documented in docs/problems.md (:mod:`api_tests.problem_check`)::

    python -m api_tests.fuzz                      # 300 cases per operation and phase, more than 13,000 in all
    python -m api_tests.fuzz --max-examples 1000  # any other `schemathesis run` option goes through

:mod:`api_tests.test_fuzz` runs a few hundred of the same cases inside the
test suite. One worker sends the requests, one at a time: the service
answers 503 to more expensive requests at once than it admits, which is
its design, not a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: schemathesis's configuration (``schemathesis.toml``). The document states every limit of every field
#: (a test holds it to the validators), so schema-valid data must be answered 2xx, or 404 for a ruleset or
#: language that does not exist, or be refused for its size as a whole: except on the operations below,
#: which also check what a schema cannot say, and so may refuse schema-valid data with a 422 naming the field.
CONFIG = """
[generation]
mode = "all"

[checks.positive_data_acceptance]
# 2xx; 404 for a ruleset or language that does not exist; and the limits on a whole request, which no schema
# keyword states: the body limit (413) and the server's on the request line and headers (431)
expected-statuses = ["2xx", "404", "413", "431"]

[checks.negative_data_rejection]
# schemathesis's list, and the same limits on a whole request
expected-statuses = ["400", "401", "403", "404", "405", "406", "409", "412", "413", "415", "422", "428", "429", "431", "5xx"]

[[operations]]
# the ruleset's player count and deal, cards of its deck, names given once, challenges naming laid words; a deal's round
# and player count within the ruleset's; a solitaire move the layout allows (face-up tops of distinct piles, a rebuild onto an
# empty pile), a layout the deck holds
include-name = ["POST /score-round", "POST /score-game", "POST /analyse-round", "GET /deal", "POST /solitaire/move", "POST /solitaire/solve", "GET /solitaire/deal"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "413", "431", "422"]

[[operations]]
# cards of the ruleset's deck; a hand no larger than the largest deal plus one
include-name = "POST /best-meld"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "413", "431", "422"]

[[operations]]
# the pattern's grammar (letters, ? * [..]), min_len no more than max_len, a cursor of this very query
include-name = "GET /words"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "413", "431", "422"]

[[operations]]
# compact card notation such as (qu)iz or QU,I,Z; at most 20 cards
include-name = "GET /anagrams"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "413", "431", "422"]

[[operations]]
# a work budget given once: budget, or the deprecated budget_ms, not both (also on /words and /anagrams)
include-name = "GET /suggest"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "413", "431", "422"]

[[operations]]
# the ledger (sent with an admin token): events and tables that do not exist (404), a stored round or seating that
# differs, an id taken (409), corrections without or with a stale If-Match (428, 412), and what the ledger checks
# beyond the schema: seats, hand sizes, an import's audit chain (422)
include-path-regex = "^/events(?!.*/stream$)(?!/[^/]+/games/[^/]+/play/(moves|resign|rematch)$)"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "409", "412", "413", "422", "428", "431"]
[[operations]]
# the event streams are left to their own tests (api_tests/test_stream.py: every message held to its schema, the
# document's x-itemSchema; Last-Event-ID and ?after= refused as documented): in an Open API 3.0 document schemathesis
# reads each event against the body's schema, which is the stream as one string, for the client generators
include-path-regex = "^/events/.*/stream$"
enabled = false
[[operations]]
# a hosted table's seat moves, resigns and accepts a rematch with its own token: the admin token sent is no seat (403)
include-path-regex = "^/events/[^/]+/games/[^/]+/play/(moves|resign|rematch)$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "403", "404", "409", "413", "422", "431"]
[[operations]]
# a hosted table: as many seats as its ruleset seats, bots on seats it has (422); an id taken (409)
include-name = "POST /tables"
checks.positive_data_acceptance.expected-statuses = ["2xx", "404", "409", "413", "422", "431"]
[[operations]]
# ruleset ids are data (rulesets/*.yaml): ask for one that exists
include-name = "GET /rulesets/{ruleset_id}"
parameters = { ruleset_id = "standard" }
"""

#: Values that reach past the first checks, mixed into what schemathesis makes up: (dictionary, values, where).
SEEDS: list[tuple[str, list[str], list[str]]] = [
    ("words", ["quiz", "(qu)iz", "Þóra", "qiuz", "steve", "don't", "clown"], ["query.word", "body.words[*]"]),
    ("patterns", ["qu?z", "*ing", "[aeiou]??", "c[^aeiou]*"], ["query.pattern"]),
    ("hands", ["(qu)izt", "QU,I,Z,T", "a(cl)gnite", "(th)(in)g"], ["query.cards", "body.hand"]),
]
SEED_PROBABILITY = 0.7  # of a seeded parameter taking one of its seeds


def config_toml(base_url: str, admin_token: str | None = None) -> str:
    """:data:`CONFIG`, with the live server's ruleset ids and language tags among the values tried (and :data:`SEEDS`);
    the ledger's operations are sent with ``admin_token`` (else they are refused 401, which the positive checks count as failures)."""
    import requests

    rulesets = [r["id"] for r in requests.get(f"{base_url}/rulesets", timeout=30).json()["rulesets"]]
    languages = sorted({tag for lang in requests.get(f"{base_url}/languages", timeout=30).json()["languages"] for tag in lang["tags"]})
    seeds = [("rulesets", rulesets, ["query.ruleset", "body.ruleset"]), ("languages", languages, ["query.lang", "body.lang"]), *SEEDS]
    lines = [CONFIG]
    for name, values, _ in seeds:
        lines.append(f"[dictionaries.{name}]\nvalues = {json.dumps(values, ensure_ascii=False)}\n")
    lines.append("[parameters]")
    lines.extend(f'"{where}" = {{ dictionary = "{name}", probability = {SEED_PROBABILITY} }}' for name, _, places in seeds for where in places)
    if admin_token:
        lines.append(f"[auth.openapi.bearer]\nbearer = {json.dumps(admin_token)}")
    return "\n".join(lines) + "\n"


def config(base_url: str, admin_token: str | None = None) -> Any:
    """:func:`config_toml` as a ``schemathesis.config.SchemathesisConfig``, for the pytest integration."""
    from schemathesis.config import SchemathesisConfig

    return SchemathesisConfig.from_str(config_toml(base_url, admin_token))


MAX_EXAMPLES = 300  # per operation and phase: 44 operations came to 13,698 cases


def run(base_url: str, options: list[str], admin_token: str | None = None) -> int:
    """``schemathesis run`` against ``base_url`` with every check and :func:`config_toml`; its exit status."""
    with tempfile.TemporaryDirectory(prefix="wordsvc-fuzz-") as tmp:
        config_file = Path(tmp) / "schemathesis.toml"
        config_file.write_text(config_toml(base_url, admin_token), encoding="utf-8")
        command = [
            sys.executable, "-m", "schemathesis.cli", "--config-file", str(config_file), "run", f"{base_url}/openapi.json",
            "--checks", "all", "--workers", "1", "--max-examples", str(MAX_EXAMPLES), "--generation-database", "none",
            "--report-dir", str(Path(tmp) / "report"), *options,
        ]  # fmt: skip
        print("$", " ".join(command), flush=True)
        # every 4xx carries a documented problem code (api_tests/problem_check.py, loaded as schemathesis's hooks)
        path = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
        return subprocess.call(command, cwd=tmp, env={**os.environ, "SCHEMATHESIS_HOOKS": "api_tests.problem_check", "PYTHONPATH": path})


def main(argv: list[str]) -> int:
    from .conftest import admin_token_for, running_server

    given = os.environ.get("WORDSVC_URL", "").strip()
    if given:
        return run(given.rstrip("/"), argv, os.environ.get("WORDSVC_ADMIN_TOKEN") or None)
    with tempfile.TemporaryDirectory(prefix="wordsvc-fuzz-ledger-") as ledger, running_server(
        "wordsvc-fuzz-server-", env={"WORDSVC_DATABASE_URL": f"sqlite:///{ledger}/ledger.sqlite3"}
    ) as (url, log):
        status = run(url, argv, admin_token_for(f"sqlite:///{ledger}/ledger.sqlite3"))
        if status != 0:
            print(f"the server's log: {log.read_text(errors='replace')[-4000:]}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

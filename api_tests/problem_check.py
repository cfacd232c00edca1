"""A schemathesis check: every 4xx carries a problem code documented in docs/problems.md, with its status, and listed for its operation.

The response schema already holds ``code`` to the ``ProblemCode`` enum of the
OpenAPI document; this check holds the answer to the documentation a client
reads instead, entries included, and to the status each code is documented
for. Registered on import: :mod:`api_tests.test_fuzz` imports it, and
``make fuzz`` loads it into schemathesis's command line as its hooks module
(``SCHEMATHESIS_HOOKS``).
"""

from __future__ import annotations

from typing import Any

import schemathesis

from .contract import PROBLEM_TYPE, assert_documented_code, assert_listed_code, listed_codes


@schemathesis.check
def problem_codes_are_documented(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx answer's ``code`` and each of its entries' is a documented code of that status, and one the operation lists for it."""
    status = response.status_code
    if not 400 <= status < 500:
        return None
    where = f"{case.operation.label}: {status}"
    content_type = response.headers.get("Content-Type", response.headers.get("content-type", ""))
    content_type = content_type[0] if isinstance(content_type, list) else content_type
    assert content_type.split(";")[0].strip() == PROBLEM_TYPE, f"{where}: a 4xx must be {PROBLEM_TYPE}, not {content_type!r}"
    body = response.json()
    listed = listed_codes(case.operation.definition.raw.get("responses", {}), status)
    assert_documented_code(body.get("code"), status, where)
    assert_listed_code(body.get("code"), listed, where)
    for path, entries in body.get("errors", {}).items():
        for entry in entries:
            code = entry.get("code") if isinstance(entry, dict) else None
            assert_documented_code(code, status, f"{where} errors.{path}")
            assert_listed_code(code, listed, f"{where} errors.{path}")
    return True

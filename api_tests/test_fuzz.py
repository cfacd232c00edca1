"""schemathesis inside the suite: a few hundred generated requests against the session's server, with every check.

The same configuration as ``make fuzz`` (:mod:`api_tests.fuzz`), fewer cases:
every documented operation is tried with valid and with invalid data, and
every answer must be documented, match its schema, refuse what is invalid,
take what is valid, be no 5xx, and carry a documented problem code if it is
a 4xx (:mod:`api_tests.problem_check`). (schemathesis's own pytest loader,
``schemathesis.pytest.from_fixture``, reads ``request.node._nodeid``, which
pytest 9 no longer has; so the cases are drawn here with hypothesis.)
"""

from __future__ import annotations

from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed: pip install -e '.[test]'")

from hypothesis import HealthCheck, given, settings  # noqa: E402  (after the skip: the rest of the suite runs without schemathesis)
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis.generation import GenerationMode  # noqa: E402

from . import problem_check  # noqa: E402, F401  (registers the check that every 4xx carries a documented problem code)
from .fuzz import config  # noqa: E402

CASES = 15  # per operation and mode: 29 operations, two modes, about 800 requests in some 20 s


@pytest.fixture(scope="module")
def api_schema(base_url: str, admin_token: str | None) -> Any:
    return schemathesis.openapi.from_url(f"{base_url}/openapi.json", config=config(base_url, admin_token))


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda mode: mode.value)
def test_the_service_answers_generated_requests_as_documented(api_schema: Any, mode: GenerationMode) -> None:
    failures: dict[str, str] = {}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 14
    for operation in operations:

        @settings(max_examples=CASES, deadline=None, database=None, suppress_health_check=list(HealthCheck), print_blob=False)
        @given(case=operation.as_strategy(generation_mode=mode))
        def answers_as_documented(case: Any) -> None:
            case.call_and_validate()

        try:
            answers_as_documented()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE, operation.label  # an operation without parameters has no invalid request
        except (Exception, BaseExceptionGroup) as err:  # every operation is tried (schemathesis's FailureGroup is a BaseExceptionGroup)
            failures[operation.label] = f"{type(err).__name__}: {str(err)[:2000]}"
    assert failures == {}, "\n\n".join(f"{label}\n{text}" for label, text in failures.items())

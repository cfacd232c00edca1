"""Each endpoint's problem codes: derived from its schemas, named by hand for its domain, and listed per operation in the document."""

from __future__ import annotations

import pytest
from marshmallow import RAISE, Schema, fields, validate

from wordsvc.core import problem_codes as codes
from wordsvc.core.problem_codes import REGISTRY
from wordsvc.schemas.common import check_text
from wordsvc.web.endpoint_codes import BODY_CODES, TRANSPORT_CODES, endpoint_codes, schema_codes
from wordsvc.web.openapi import ANY_OPERATION, declared, spec


@pytest.mark.parametrize("endpoint", [e for e in declared() if e.problems is not None], ids=lambda e: f"{e.method} {e.path}")
def test_every_declared_domain_code_is_registered_with_a_status_the_endpoint_answers(endpoint):
    answered = {*endpoint.errors, *ANY_OPERATION}
    for code in endpoint.problems:
        assert code in REGISTRY, f"{endpoint.operation_id}: {code!r} is not a registered code"
        assert answered & set(REGISTRY[code].statuses), (
            f"{endpoint.operation_id}: {code!r} comes with {REGISTRY[code].statuses}, the endpoint answers {sorted(answered)}"
        )


def test_a_schema_gives_the_codes_of_its_fields_validators_and_own_checks():
    class Inner(Schema):
        name = fields.String(validate=check_text, allow_none=True)

    class Body(Schema):
        class Meta:
            unknown = RAISE

        count = fields.Integer(required=True, validate=validate.Range(min=1))
        kind = fields.String(validate=validate.OneOf(["a", "b"]))
        inner = fields.List(fields.Nested(Inner))

    assert schema_codes(Body) == {
        codes.INVALID_TYPE, codes.REQUIRED, codes.NULL, codes.UNKNOWN_FIELD, codes.VALUE_OUT_OF_RANGE, codes.NOT_ONE_OF, codes.CONTROL_CHARACTERS,
    }  # fmt: skip
    assert codes.NULL not in schema_codes(Inner) and codes.REQUIRED not in schema_codes(Inner)


def test_an_endpoint_lists_its_transport_schema_and_domain_codes():
    post = next(e for e in declared() if (e.method, e.path) == ("post", "/validate"))
    own = endpoint_codes(post)
    assert own is not None
    assert {*TRANSPORT_CODES, *BODY_CODES, *post.problems} <= own
    assert codes.INVALID_CARDS in own and codes.EVENT_NOT_FOUND not in own


def test_the_document_lists_per_operation_only_the_codes_it_can_answer():
    responses = spec()["paths"]["/validate"]["get"]["responses"]
    assert "unknown_language" in responses["404"]["x-problem-codes"]
    assert "event_not_found" not in responses["404"]["x-problem-codes"]
    assert "body_too_large" not in responses.get("413", {}).get("x-problem-codes", [])
    for status, answer in responses.items():
        for code in answer.get("x-problem-codes", ()):
            assert int(status) in REGISTRY[code].statuses


def test_every_documented_endpoint_names_its_domain_codes():
    """A new endpoint names what it can answer (``problems=()`` if nothing beyond transport and schema): else it would list every code."""
    assert [e.operation_id for e in declared() if e.documented and e.problems is None] == []

"""Integers in query parameters are written with the digits 0-9: every query schema refuses what only ``int()`` would read.

marshmallow reads an integer field with ``int()``, which takes Arabic-Indic
or full-width digits, white space, ``+`` and ``_`` as well: ``?after=١٢``
was 12. Every query the API documents is loaded here with such text in each
of its integer fields, and must be refused naming that field.
"""

from __future__ import annotations

import pytest
from marshmallow import Schema, ValidationError, fields

from wordsvc.web.openapi import query_schemas

QUERIES = query_schemas()
INTEGER_FIELDS = [
    (path, schema, field.data_key or name)
    for path, schema in QUERIES.items()
    for name, field in schema().load_fields.items()
    if isinstance(field, fields.Integer)
]
#: 12 as int() reads it, and as no client should write it.
NOT_ASCII = ["١٢", "１２", "१२", " 12", "12 ", "+12", "1_2"]


def test_the_api_has_integer_query_parameters_to_check() -> None:
    assert {key for _, _, key in INTEGER_FIELDS} >= {"after", "budget", "seq", "session"}


@pytest.mark.parametrize(("path", "schema", "key"), INTEGER_FIELDS, ids=[f"{path} {key}" for path, _, key in INTEGER_FIELDS])
def test_an_integer_query_parameter_takes_only_ascii_digits(path: str, schema: type[Schema], key: str) -> None:
    for text in NOT_ASCII:
        with pytest.raises(ValidationError) as refused:
            schema().load({key: text})
        assert refused.value.messages[key] == ["must be a whole number written with the digits 0-9"], (path, text)
    with pytest.raises(ValidationError) as refused:
        schema().load({key: "twelve"})
    assert refused.value.messages[key] == ["Not a valid integer."]  # no number at all: the field's own message, as before

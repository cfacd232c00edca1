"""What an import over HTTP takes, said where a client reads it: an event the API can build fits, and a larger one has a documented way.

The outside probe built an event of 1,250 tables and 10,000 rounds through
the API and could not import its export: the schema refused more than 1,000
tables, a limit written nowhere. Every table and revision has an audit entry,
so the tables share the rows' limit; the body's limit, the rows' limit and
the command-line way for a larger event are in the OpenAPI document and in
docs/ledger.md.
"""

from __future__ import annotations

from pathlib import Path

from wordsvc.core.ids import EXPORT_FORMAT
from wordsvc.schemas.events import MAX_IMPORT_ROWS, ImportBody
from wordsvc.web.openapi import spec

DOCS = Path(__file__).resolve().parents[1] / "docs" / "ledger.md"


def test_an_export_of_1250_tables_passes_the_import_schema() -> None:
    event = {"id": "big", "name": "Big", "private": False, "ruleset_id": "standard", "ruleset": {}, "ruleset_sha256": "0" * 64, "lexicon": {}, "created_at": "x"}
    games = [{"id": f"t{n:04d}", "players": ["ann", "bob", "cy"], "created_at": "x"} for n in range(1250)]
    loaded = ImportBody().load({"format": EXPORT_FORMAT, "event": event, "games": games, "revisions": [], "tokens": [], "audit": [{}]})
    assert len(loaded["games"]) == 1250


def test_the_import_s_limits_and_the_way_to_move_a_larger_event_are_in_the_openapi_document_and_the_docs() -> None:
    document = spec()
    described = document["paths"]["/events/import"]["post"]["description"]
    for said in ("WORDSVC_MAX_IMPORT_BODY", "16 MiB", "100,000 rows", "wordsvc event export", "wordsvc event import"):
        assert said in described, said
    properties = document["components"]["schemas"]["ImportBody"]["properties"]
    assert {properties[name]["maxItems"] for name in ("games", "revisions", "tokens", "audit")} == {MAX_IMPORT_ROWS}
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Moving an event") :]
    for said in ("WORDSVC_MAX_IMPORT_BODY", "100,000", "wordsvc event export", "wordsvc event import"):
        assert said in section, said

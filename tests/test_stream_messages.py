"""The stream's message types (wordsvc/ledger/records/feed.py) and their data schemas (wordsvc/schemas/stream.py) are the same set."""

from __future__ import annotations

from wordsvc.ledger.records.feed import MESSAGE_TYPES
from wordsvc.schemas.stream import MESSAGE_DATA


def test_every_message_type_an_entry_gives_has_its_data_schema_and_no_schema_is_left_over() -> None:
    assert set(MESSAGE_DATA) == {"ready", *MESSAGE_TYPES}

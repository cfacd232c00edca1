"""The event stream's query (docs/streams.md): where a client resumes."""

from __future__ import annotations

from marshmallow import fields, validate

from .common import Strict
from .events import MAX_SEQ

__all__ = ["StreamQuery"]


class StreamQuery(Strict):
    after = fields.Integer(
        load_default=None,
        validate=validate.Range(min=0, max=MAX_SEQ),
        metadata={"description": "Resume after this audit sequence number, for a client that cannot send Last-Event-ID (the header wins); default: from now."},
    )

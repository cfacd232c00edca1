"""``POST /qr``: the text a QR code is made of."""

from __future__ import annotations

from marshmallow import fields, validate

from .common import Strict, check_text

__all__ = ["MAX_QR_TEXT", "QrBody"]

#: The most characters a QR code is made of. A console sign-in link is under 250 (the address, an event id and a
#: table id of at most 64 each, a 56-character token); 512 bytes fit a version 17 code at the lowest error
#: correction (548 bytes), 85 modules a side, which a phone still reads across a table.
MAX_QR_TEXT = 512


class QrBody(Strict):
    text = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=MAX_QR_TEXT), check_text],
        metadata={"description": "What the code holds, such as a console sign-in link made absolute. Never stored or logged."},
    )

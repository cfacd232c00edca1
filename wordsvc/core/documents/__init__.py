"""Printed documents as data: what each page holds, built from the ledger's views, rendered elsewhere (docs/documents.md).

Pure, like the rest of :mod:`wordsvc.core`: the builders in :mod:`.build`
turn the JSON the ledger answers (an event, a session, standings, the
crosstable, audit entries) into a :class:`.layout.Document` of headings,
text, grids and QR codes in the event's language, every word of it
(:mod:`.words`, :mod:`.audit_lines`); a renderer
(:mod:`wordsvc.service.pdf`) draws that with a PDF library. So the words and
numbers on paper are tested without drawing, and the library could change
without touching them.
"""

from __future__ import annotations

from .build import (
    DOCUMENT_KINDS,
    audit_document,
    document_locale,
    results_document,
    scorecards_document,
    seating_document,
    standing_heading,
    standings_document,
)
from .crosstable import crosstable_document
from .layout import Cut, Document, Grid, Heading, PageBreak, Qr, Text

__all__ = [
    "DOCUMENT_KINDS",
    "Cut",
    "Document",
    "Grid",
    "Heading",
    "PageBreak",
    "Qr",
    "Text",
    "audit_document",
    "crosstable_document",
    "document_locale",
    "results_document",
    "scorecards_document",
    "seating_document",
    "standing_heading",
    "standings_document",
]

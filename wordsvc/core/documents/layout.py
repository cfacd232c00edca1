"""The blocks a printed document is made of: a renderer draws them top to bottom, page after page.

Deliberately few: headings, a line of text, a grid (a table with an optional
row of spanning group headings above its header), a QR code beside a few
lines, a cut line and a page break. Every text is already in the document's
language; a renderer adds nothing but the page footer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Block", "Cut", "Document", "Grid", "Heading", "PageBreak", "Qr", "Text"]


@dataclass(frozen=True)
class Heading:
    """A heading: level 1 is a page's title, 2 a section's."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Text:
    """A paragraph; ``small`` for notes and help lines."""

    text: str
    small: bool = False


@dataclass(frozen=True)
class Grid:
    """A table: ``header`` then ``rows``, every row as long as the header.

    ``groups``: (label, columns spanned) above the header, covering it whole
    when given (a scorecard's player names over their four boxes).
    ``widths``: each column's share of the width (equal when empty).
    ``row_height``: points, for rows meant to be written in by hand (None: fit the text).
    ``bold_rows``: indexes of rows to set in bold (a totals row).
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    groups: tuple[tuple[str, int], ...] = ()
    widths: tuple[float, ...] = ()
    row_height: float | None = None
    bold_rows: tuple[int, ...] = ()
    font_size: float = 9

    def __post_init__(self) -> None:
        if any(len(row) != len(self.header) for row in self.rows):
            raise ValueError("every row of a grid is as long as its header")
        if self.groups and sum(span for _, span in self.groups) != len(self.header):
            raise ValueError("a grid's groups span its header exactly")
        if self.widths and len(self.widths) != len(self.header):
            raise ValueError("a grid has one width per column")


@dataclass(frozen=True)
class Qr:
    """A QR code of ``url`` with ``lines`` beside it, the first in large type (a table's id)."""

    url: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Cut:
    """A dashed line across the page with ``label``: where to cut slips apart."""

    label: str


@dataclass(frozen=True)
class PageBreak:
    """The next block starts a new page."""


Block = Heading | Text | Grid | Qr | Cut | PageBreak


@dataclass(frozen=True)
class Document:
    """What to print: ``kind`` (seating, scorecards, ...), the ``title`` for the PDF's metadata, ``footer`` on every page."""

    kind: str
    title: str
    locale: str
    footer: str
    blocks: tuple[Block, ...] = field(default_factory=tuple)
    landscape: bool = False
    page_label: str = "Page {page}"

    def pages(self) -> int:
        """How many pages the blocks ask for at least (one, plus one per page break): a renderer may need more for long grids."""
        return 1 + sum(isinstance(block, PageBreak) for block in self.blocks)

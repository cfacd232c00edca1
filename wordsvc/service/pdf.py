"""Drawing a :class:`~wordsvc.core.documents.Document` as a PDF with ReportLab, QR codes from segno (docs/documents.md).

The one module that knows the PDF library: the documents' words and numbers
are built in :mod:`wordsvc.core.documents`, and swapping ReportLab for another
library would touch only this file. ReportLab was chosen over WeasyPrint for
its pure-Python wheels (no system libraries in the image) and its speed
(docs/performance.md, "Printed documents").

Fonts: DejaVu Sans when the system has it (Debian's fonts-dejavu-core, wide
coverage of the names players have), else the Bitstream Vera that ReportLab
ships (Latin-1 and more: Icelandic and Estonian letters included). Either is
embedded, so the PDF prints the same anywhere and its text extracts.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
import segno
from reportlab.graphics.shapes import Drawing
from reportlab.graphics.shapes import Path as ShapePath
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus import PageBreak as BreakPage
from reportlab.platypus.flowables import HRFlowable

from ..core.documents import Cut, Document, Grid, Heading, PageBreak, Qr, Text

__all__ = ["render_pdf"]

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_VERA = Path(reportlab.__file__).parent / "fonts"
#: The QR code's side on paper: 32 mm scans from a phone held over the table.
QR_SIDE = 32 * mm
MARGIN = 12 * mm
#: The inner padding of ReportLab's page frame at each side (its default): what a grid may be wide is the frame less this.
FRAME_PADDING = 6.0


@cache
def _fonts() -> tuple[str, str]:
    """Register the regular and bold fonts once; their names."""
    if (_DEJAVU / "DejaVuSans.ttf").exists() and (_DEJAVU / "DejaVuSans-Bold.ttf").exists():
        regular, bold = _DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf"
    else:
        regular, bold = _VERA / "Vera.ttf", _VERA / "VeraBd.ttf"
    pdfmetrics.registerFont(TTFont("DocSans", str(regular)))
    pdfmetrics.registerFont(TTFont("DocSans-Bold", str(bold)))
    return "DocSans", "DocSans-Bold"


def _style(size: float, bold: bool = False, center: bool = False, space: float = 0) -> ParagraphStyle:
    regular, heavy = _fonts()
    return ParagraphStyle("doc", fontName=heavy if bold else regular, fontSize=size, leading=size * 1.2, spaceAfter=space, alignment=TA_CENTER if center else 0)


def _paragraph(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(escape(text).replace("\n", "<br/>"), style)


def _qr(url: str) -> Drawing:
    """The QR code as vector squares in one path: sharp at any printer's resolution."""
    matrix = [list(row) for row in segno.make(url, error="m").matrix_iter(border=2)]
    side = len(matrix)
    cell = QR_SIDE / side
    path = ShapePath(fillColor=colors.black, strokeColor=None, strokeWidth=0)
    for y, row in enumerate(matrix):
        top, x = (side - y) * cell, 0
        while x < side:  # each run of dark modules in a row as one rectangle
            if not row[x]:
                x += 1
                continue
            end = x
            while end < side and row[end]:
                end += 1
            path.moveTo(x * cell, top - cell)
            path.lineTo(end * cell, top - cell)
            path.lineTo(end * cell, top)
            path.lineTo(x * cell, top)
            path.closePath()
            x = end
    drawing = Drawing(QR_SIDE, QR_SIDE)
    drawing.add(path)
    return drawing


#: A cell's padding above and below its text, in points (ReportLab's default): with the text's leading, the least height of a row.
ROW_PADDING = 3.0
#: A cell's padding at each side, in points, and the least share of a column's width the text keeps: a column of any width
#: leaves its text room (ReportLab refuses a cell whose padding is wider than the cell: "negative availWidth").
PADDING = 3.0
TEXT_SHARE = 0.5
#: The least part of a row too tall for any page that is left at the foot of a page when the row is cut across pages.
MIN_ROW_PART = 24


def _grid(grid: Grid, width: float, height: float) -> Flowable:
    """A grid as a table of ``width`` on frames ``height`` high: cells that fit one line as plain strings (fast), others as
    paragraphs that wrap; laid out a window of rows at a time (:class:`_Rows`)."""
    size = grid.font_size
    regular, _ = _fonts()
    head, bold = _style(size, bold=True, center=True), _style(size, bold=True)
    shares = grid.widths or tuple(1.0 for _ in grid.header)
    widths = [width * share / sum(shares) for share in shares]
    pads = [min(PADDING, column * (1 - TEXT_SHARE) / 2) for column in widths]
    commands: list[tuple[object, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 1 if grid.groups else 0), colors.HexColor("#e8e8e8")),
        ("FONTNAME", (0, 0), (-1, -1), regular),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size * 1.2),
    ]
    commands += [("LEFTPADDING", (0, 0), (-1, -1), PADDING), ("RIGHTPADDING", (0, 0), (-1, -1), PADDING)]
    for column, pad in enumerate(pads):
        if pad < PADDING:  # a narrow column's own padding (a command for every column would cost a pass over every cell)
            commands += [("LEFTPADDING", (column, 0), (column, -1), pad), ("RIGHTPADDING", (column, 0), (column, -1), pad)]
    top: list[list[object]] = []
    if grid.groups:
        row: list[object] = []
        column = 0
        for label, span in grid.groups:
            row += [_paragraph(label, head)] + [""] * (span - 1)
            if span > 1:
                commands.append(("SPAN", (column, 0), (column + span - 1, 0)))
            column += span
        top.append(row)
    top.append([_paragraph(text, head) for text in grid.header])
    room = [column - 2 * pad for column, pad in zip(widths, pads, strict=True)]

    def value(text: str, index: int, column: int) -> object:
        if not text:
            return ""  # an empty box needs no paragraph
        if index in grid.bold_rows:
            return _paragraph(text, bold)
        return _lines(text, regular, size, room[column])  # plain lines: a table draws them several times faster than paragraphs

    rows = [[value(text, index, column) for column, text in enumerate(values)] for index, values in enumerate(grid.rows)]
    lowest = grid.row_height or size * 1.2 + 2 * ROW_PADDING
    return _Rows(top, rows, [grid.row_height] * len(rows), widths, commands, height, int(height // lowest) + 2, _style(size))


def _lines(text: str, font: str, size: float, room: float) -> str:
    """``text`` broken into lines at most ``room`` points wide: at spaces, and inside a word longer than a line (a name with no space)."""
    out: list[str] = []
    for line in simpleSplit(text, font, size, room):
        while len(line) > 1 and pdfmetrics.stringWidth(line, font, size) > room:
            low, high = 1, len(line) - 1  # the longest start of the line that fits, at least one character
            while low < high:
                middle = (low + high + 1) // 2
                low, high = (middle, high) if pdfmetrics.stringWidth(line[:middle], font, size) <= room else (low, middle - 1)
            out.append(line[:low])
            line = line[low:]
        out.append(line)
    return "\n".join(out)


class _Rows(Flowable):
    """A grid's rows from ``start`` on (after ``carry``, the rest of a row cut at the foot of the last page), its header on every page.

    Each page is cut from a table of the next ``window`` rows only, more than a
    page holds (a page's height over the least height of a row), so drawing a
    grid takes time in proportion to its rows: ReportLab's own table copies
    every row left at every page, the square of the rows. A row
    that fits a page is never cut; a row taller than any page (which no
    document builds, but nothing here assumes) is cut across pages rather than
    refused, so a grid of any size and any content lays out.
    """

    def __init__(self, head: list[list[object]], rows: list[list[object]], heights: list[float | None], widths: list[float],
                 commands: list[tuple[object, ...]], frame: float, window: int, style: ParagraphStyle, start: int = 0, carry: list[object] | None = None) -> None:
        super().__init__()
        self.style = style
        self.head, self.rows, self.heights, self.widths, self.commands, self.frame = head, rows, heights, widths, commands, frame
        self.window = window
        self.start, self.carry = start, carry
        self._wrapped: tuple[Table, int] | None = None  # the window as last wrapped, and its rows: split cuts the page from it

    def _table(self, size: int, cut: bool = False) -> tuple[Table, int]:
        body = ([self.carry] if self.carry is not None else []) + self.rows[self.start : self.start + size]
        if cut:  # a row is cut across pages only in paragraphs (ReportLab moves a middle-aligned string whole)
            body = [[_paragraph(value, self.style) if isinstance(value, str) and value else value for value in row] for row in body]
        heights = ([None] if self.carry is not None else []) + self.heights[self.start : self.start + size]
        table = Table(self.head + body, colWidths=self.widths, rowHeights=[None] * len(self.head) + heights, style=TableStyle(self.commands),
                      repeatRows=len(self.head), splitInRow=MIN_ROW_PART if cut else 0)
        return table, len(body)

    def _left(self) -> int:
        return len(self.rows) - self.start + (self.carry is not None)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        self._wrapped = self._table(self.window)
        table, shown = self._wrapped
        width, height = table.wrap(availWidth, availHeight)
        if shown < self._left():
            height = max(height, availHeight + 1)  # more rows than the window: it never fits whole, it is split
        self.width, self.height = width, height
        return width, height

    def draw(self) -> None:
        assert self._wrapped is not None
        self._wrapped[0].drawOn(self.canv, 0, 0)

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        size = self.window
        while True:
            table, shown = self._wrapped if self._wrapped is not None and size == self.window else self._table(size)
            parts = table.split(availWidth, availHeight)
            if len(parts) == 1 and shown < self._left():
                size *= 2  # rows lower than a window's worth of a page: take more
                continue
            break
        if not parts and (availHeight >= self.frame - 1 or self._too_tall(availWidth)):  # at a page's top, or a row no page holds: cut it
            table, shown = self._table(size, cut=True)
            parts = table.split(availWidth, availHeight)
        if len(parts) < 2:
            return parts  # nothing fits here (the next page), or the rest fits whole
        first, rest = parts
        header = len(self.head)
        placed = len(first._cellvalues) - header
        cut = placed + len(rest._cellvalues) - header > shown  # the last row placed was cut in two: its rest comes first next
        last = placed - 1  # the index in the window of the last row placed
        source = self.start + last - (self.carry is not None)  # its index in the rows (-1: the carry)
        start = self.start if self.carry is not None and last == 0 and cut else source + 1
        carry = list(rest._cellvalues[header]) if cut else None
        return [first, _Rows(self.head, self.rows, self.heights, self.widths, self.commands, self.frame, self.window, self.style, start, carry)]

    def _too_tall(self, availWidth: float) -> bool:
        """Whether the next row with the header is taller than a whole page: only then is a row cut."""
        table, _ = self._table(1)
        return table.wrap(availWidth, self.frame)[1] > self.frame


class _CutLine(HRFlowable):
    """A dashed rule with its label, where slips are cut apart."""

    def __init__(self, label: str) -> None:
        super().__init__(width="100%", thickness=0.6, dash=(4, 3), spaceBefore=4 * mm, spaceAfter=1 * mm, color=colors.grey)
        self.label = label


def _flowables(document: Document, width: float, height: float) -> list[Flowable]:
    """The blocks as ReportLab flowables for frames ``width`` by ``height`` points; a slip after a cut kept on one page."""
    sizes = {1: 18.0, 2: 13.0}
    out: list[Flowable] = []
    slip: list[Flowable] = []  # after a cut, a slip is kept on one page
    for block in document.blocks:
        if isinstance(block, Heading):
            item: Flowable = _paragraph(block.text, _style(sizes.get(block.level, 11.0), bold=True, space=2 * mm))
        elif isinstance(block, Text):
            item = _paragraph(block.text, _style(8 if block.small else 10, space=1.5 * mm))
        elif isinstance(block, Grid):
            item = _grid(block, width, height)
        elif isinstance(block, Qr):
            lines = [_paragraph(block.lines[0], _style(24, bold=True, space=2 * mm))] + [_paragraph(line, _style(9, space=1 * mm)) for line in block.lines[1:]]
            item = Table([[lines, _qr(block.url)]], colWidths=[width - QR_SIDE - 4 * mm, QR_SIDE + 4 * mm], style=TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
        elif isinstance(block, Cut):
            if slip:
                out.append(KeepTogether(slip))
                slip = []
            out += [CondPageBreak(60 * mm), _CutLine(block.label), _paragraph(block.label, _style(6, center=True))]
            continue
        elif isinstance(block, PageBreak):
            if slip:
                out.append(KeepTogether(slip))
                slip = []
            out.append(BreakPage())
            continue
        else:  # pragma: no cover - the layout's blocks are all above
            raise TypeError(f"no drawing for {block!r}")
        slip.append(item)
        slip.append(Spacer(1, 1.5 * mm))
    if slip:
        out.append(KeepTogether(slip) if len(slip) < 12 else slip)  # type: ignore[arg-type]
    flat: list[Flowable] = []
    for item in out:
        flat.extend(item if isinstance(item, list) else [item])
    return flat


def render_pdf(document: Document) -> bytes:
    """The document as PDF bytes: A4 (landscape when the document asks), its footer and page number on every page."""
    regular, _ = _fonts()
    size = landscape(A4) if document.landscape else A4
    bottom = MARGIN + 4 * mm
    out = io.BytesIO()

    def footer(canvas, template) -> None:  # type: ignore[no-untyped-def]
        label = document.page_label.format(page=template.page)
        room = size[0] - 2 * MARGIN - pdfmetrics.stringWidth(label, regular, 7) - 6 * mm
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.drawString(MARGIN, 7 * mm, _fit(document.footer, regular, 7, room))
        canvas.drawRightString(size[0] - MARGIN, 7 * mm, label)
        canvas.restoreState()

    template = SimpleDocTemplate(
        out, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=bottom,
        title=document.title, author="wordsvc", subject=document.kind, lang=document.locale, invariant=1,
    )
    frame = (size[0] - 2 * MARGIN - 2 * FRAME_PADDING, size[1] - MARGIN - bottom - 2 * FRAME_PADDING)
    template.build(_flowables(document, *frame), onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()


def _fit(text: str, font: str, size: float, room: float) -> str:
    """``text`` cut short with an ellipsis to ``room`` points: a 200-character event name stays clear of the page number."""
    if pdfmetrics.stringWidth(text, font, size) <= room:
        return text
    while text and pdfmetrics.stringWidth(text + "…", font, size) > room:
        text = text[: max(0, min(len(text) - 1, int(len(text) * room / pdfmetrics.stringWidth(text + "…", font, size))))]
    return text + "…"

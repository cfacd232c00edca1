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


def _grid(grid: Grid, width: float) -> Table:
    size = grid.font_size
    head, cell, bold = _style(size, bold=True, center=True), _style(size), _style(size, bold=True)
    shares = grid.widths or tuple(1.0 for _ in grid.header)
    widths = [width * share / sum(shares) for share in shares]
    data: list[list[object]] = []
    style = [
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("BACKGROUND", (0, 0), (-1, 1 if grid.groups else 0), colors.HexColor("#e8e8e8")),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    if grid.groups:
        row: list[object] = []
        column = 0
        for label, span in grid.groups:
            row += [_paragraph(label, head)] + [""] * (span - 1)
            if span > 1:
                style.append(("SPAN", (column, 0), (column + span - 1, 0)))
            column += span
        data.append(row)
    data.append([_paragraph(text, head) for text in grid.header])
    first = len(data)
    for index, values in enumerate(grid.rows):
        data.append([_paragraph(text, bold if index in grid.bold_rows else cell) if text else "" for text in values])  # an empty box needs no paragraph
    heights = [None] * first + [grid.row_height] * len(grid.rows)
    return Table(data, colWidths=widths, rowHeights=heights, style=TableStyle(style), repeatRows=first)


class _CutLine(HRFlowable):
    """A dashed rule with its label, where slips are cut apart."""

    def __init__(self, label: str) -> None:
        super().__init__(width="100%", thickness=0.6, dash=(4, 3), spaceBefore=4 * mm, spaceAfter=1 * mm, color=colors.grey)
        self.label = label


def _flowables(document: Document, width: float) -> list[Flowable]:
    sizes = {1: 18.0, 2: 13.0}
    out: list[Flowable] = []
    slip: list[Flowable] = []  # after a cut, a slip is kept on one page
    for block in document.blocks:
        if isinstance(block, Heading):
            item: Flowable = _paragraph(block.text, _style(sizes.get(block.level, 11.0), bold=True, space=2 * mm))
        elif isinstance(block, Text):
            item = _paragraph(block.text, _style(8 if block.small else 10, space=1.5 * mm))
        elif isinstance(block, Grid):
            item = _grid(block, width)
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
    out = io.BytesIO()

    def footer(canvas, template) -> None:  # type: ignore[no-untyped-def]
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.drawString(MARGIN, 7 * mm, document.footer)
        canvas.drawRightString(size[0] - MARGIN, 7 * mm, document.page_label.format(page=template.page))
        canvas.restoreState()

    template = SimpleDocTemplate(
        out, pagesize=size, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN + 4 * mm,
        title=document.title, author="wordsvc", subject=document.kind, lang=document.locale, invariant=1,
    )
    template.build(_flowables(document, size[0] - 2 * MARGIN), onFirstPage=footer, onLaterPages=footer)
    return out.getvalue()

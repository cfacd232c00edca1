"""How drawing a long grid grows with its rows: the service's renderer against ReportLab's own long table, in the same run.

A crosstable of a large field is a list of rows (docs/documents.md, "Any
size"): 2,000 players in two sessions at tables of four are 12,000 rows.
Timed for a list of N rows (player, opponent, table, score, result), as the
crosstable document prints it: as the baseline, the rows as one ReportLab
``Table`` of paragraphs, the way the renderer drew a grid before, whose every
page split copies the rows left (the square of the rows); then the same
document drawn by the service's renderer (:mod:`wordsvc.service.pdf`), which
cuts each page from a window of rows. CPU seconds of one run each, between two
machine-loop lines; the baseline stops growing at ``--baseline-max`` rows.

Run: ``.venv/bin/python bench/documents_size.py``; docs/performance.md ("Printed documents") gives the figures.
"""

from __future__ import annotations

import argparse
import io
import time
from xml.sax.saxutils import escape

from common import machine_line
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Table

from wordsvc.core import documents as docs
from wordsvc.service.pdf import render_pdf

RESULTS = ("win", "loss", "tie")


def rows(n: int) -> tuple[tuple[str, ...], ...]:
    return tuple((f"Player {i // 6:04} Þórðardóttir", f"Player {i * 7 % 2000:04} Jónsson", f"s{i % 2 + 1}-t{i % 500 + 1}", f"{i % 400} : {i * 3 % 400}", RESULTS[i % 3]) for i in range(n))


def baseline(data: tuple[tuple[str, ...], ...]) -> int:
    """The rows as one ReportLab table of paragraphs, its header repeated: the renderer's way before."""
    style = ParagraphStyle("cell", fontSize=8, leading=9.6)
    table = Table([[Paragraph(escape(text), style) for text in row] for row in (("player", "opponent", "table", "score", "result"), *data)], repeatRows=1)
    out = io.BytesIO()
    SimpleDocTemplate(out, pagesize=landscape(A4)).build([table])
    return len(out.getvalue())


def service(data: tuple[tuple[str, ...], ...]) -> int:
    grid = docs.Grid(("player", "opponent", "table", "score", "result"), data, widths=(3.0, 3.0, 1.2, 1.2, 1.2), font_size=8)
    return len(render_pdf(docs.Document("crosstable", "bench", "en", "bench", (docs.Heading("Crosstable"), grid), landscape=True)))


def cpu(run, data) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    start = time.process_time()
    size = run(data)
    return time.process_time() - start, size


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1000, 2000, 4000, 12000])
    parser.add_argument("--baseline-max", type=int, default=4000)
    args = parser.parse_args(argv)
    print(machine_line())
    print(f"{'rows':>7} {'baseline s':>11} {'service s':>10} {'service KiB':>12}")
    for n in args.rows:
        data = rows(n)
        before = f"{cpu(baseline, data)[0]:.1f}" if n <= args.baseline_max else "-"
        seconds, size = cpu(service, data)
        print(f"{n:>7} {before:>11} {seconds:>10.1f} {size // 1024:>12}")
    print(machine_line())


if __name__ == "__main__":
    main()

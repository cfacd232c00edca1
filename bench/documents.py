"""How long printed documents take to draw: a 30-table scorecard document, with ReportLab and (when installed) WeasyPrint.

The document: 30 tables of four (120 players), the standard rules' 8 rounds,
a QR code per table, one landscape A4 page each: what a large club night
prints at once. Timed, in the same run: as baselines, building the layout
data alone (:mod:`wordsvc.core.documents`, no drawing) and a one-page PDF
with a single line (the library's fixed cost); then the scorecards drawn
by the service's renderer (ReportLab, :mod:`wordsvc.service.pdf`), the
30-table seating sheet and slips, and an audit summary of 2,000 entries.
When WeasyPrint can be imported (it is not a dependency: install it beside
to compare), the same scorecards as HTML and CSS drawn by WeasyPrint.
Each figure is the median and p99 of repeated runs, between two
machine-loop lines.

Run: ``.venv/bin/python bench/documents.py [--repeat 5]``; docs/performance.md ("Printed documents") gives the figures.
"""

from __future__ import annotations

import argparse
import html
from collections.abc import Callable
from typing import Any

import segno
from common import machine_line, summary, time_each

from wordsvc.core import documents as docs
from wordsvc.service.pdf import render_pdf

TABLES, SEATS, HANDS = 30, 4, [3, 4, 5, 6, 7, 8, 9, 10]
PRINTED = "2026-12-05 12:00"
EVENT: dict[str, Any] = {"id": "club-night", "name": "Club night", "lexicon": {"id": "en-US"}, "ruleset": {"rounds": HANDS}}
SESSION: dict[str, Any] = {
    "number": 1,
    "tables": [{"game": f"s1-t{t}", "seats": [{"seat": s, "player": f"p{t}-{s}", "name": f"Player {t * SEATS + s} Þórðardóttir"} for s in range(SEATS)]} for t in range(1, TABLES + 1)],
}
AUDIT = [
    {"seq": i, "at": "2026-12-05T12:00:00.000000Z", "actor": {"role": "referee", "token": "0badc0de"}, "action": "round.submitted",
     "payload": {"game": f"s1-t{i % TABLES + 1}", "round": i % 8 + 1, "revision": 1, "body": {"players": [{"name": f"Player {s}", "words": [["c", "a", "t"]]} for s in range(SEATS)]}}}
    for i in range(1, 2001)
]


def link(table: str) -> str:
    return f"https://venue.example/console#event=club-night&table={table}"


def scorecards() -> docs.Document:
    return docs.scorecards_document(EVENT, SESSION["tables"], link, PRINTED, 1)


def one_line() -> docs.Document:
    return docs.Document(kind="baseline", title="baseline", locale="en", footer="", blocks=(docs.Text("One line."),))


def as_html(document: docs.Document) -> str:
    """The layout as HTML and CSS, for WeasyPrint: the same blocks, drawn by the browser-like engine."""
    parts = [
        "<!doctype html><html><head><meta charset=utf-8><style>@page{size:A4 landscape;margin:12mm}body{font:9pt 'DejaVu Sans',sans-serif}"
        "table{border-collapse:collapse;width:100%}td,th{border:.5pt solid #000;padding:2pt;font-size:7pt}td{height:26pt}"
        ".qr{float:right;width:32mm}.big{font-size:24pt;font-weight:bold}.break{page-break-after:always}</style></head><body>"
    ]
    for block in document.blocks:
        if isinstance(block, docs.Heading):
            parts.append(f"<h{block.level}>{html.escape(block.text)}</h{block.level}>")
        elif isinstance(block, docs.Text):
            parts.append(f"<p>{html.escape(block.text)}</p>")
        elif isinstance(block, docs.Qr):
            svg = segno.make(block.url, error="m").svg_data_uri(border=2)
            parts.append(f"<img class=qr src='{svg}'><p class=big>{html.escape(block.lines[0])}</p>" + "".join(f"<p>{html.escape(x)}</p>" for x in block.lines[1:]))
        elif isinstance(block, docs.Grid):
            groups = "".join(f"<th colspan={span}>{html.escape(label)}</th>" for label, span in block.groups)
            header = "".join(f"<th>{html.escape(x)}</th>" for x in block.header)
            rows = "".join("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>" for row in block.rows)
            parts.append(f"<table><tr>{groups}</tr><tr>{header}</tr>{rows}</table>")
        elif isinstance(block, docs.PageBreak):
            parts.append("<div class=break></div>")
    return "".join(parts) + "</body></html>"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(machine_line())
    runs: dict[str, Callable[[Any], object]] = {
        "baseline: layout data only, 30 scorecards": lambda _: scorecards(),
        "baseline: one-line PDF, ReportLab": lambda _: render_pdf(one_line()),
        "scorecards, 30 tables, ReportLab": lambda _: render_pdf(scorecards()),
        "seating, 30 tables + slips, ReportLab": lambda _: render_pdf(docs.seating_document(EVENT, SESSION, PRINTED)),
        "audit summary, 2,000 entries, ReportLab": lambda _: render_pdf(docs.audit_document(EVENT, AUDIT, PRINTED)),
    }
    try:
        from weasyprint import HTML
    except ImportError:
        print("WeasyPrint: not installed (pip install weasyprint beside, to compare)")
    else:
        markup = as_html(scorecards())
        runs["scorecards, 30 tables, WeasyPrint"] = lambda _: HTML(string=markup).write_pdf()
    print(f"{'what':<44} {'p50 ms':>8} {'p99 ms':>8} {'KiB':>6}")
    for name, run in runs.items():
        run(None)  # warm: fonts registered, modules imported
        size = len(out) // 1024 if isinstance(out := run(None), bytes) else 0
        figures = summary(time_each(run, range(args.repeat)))
        print(f"{name:<44} {figures['p50']:>8.1f} {figures['p99']:>8.1f} {size:>6}")
    print(machine_line())


if __name__ == "__main__":
    main()

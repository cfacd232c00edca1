"""Each printed document's content, built from the JSON views the ledger answers (docs/documents.md).

Every builder takes the views as the HTTP API gives them (``GET /events/{e}``,
``/sessions/{k}``, ``/standings``, ``/crosstable``, ``/players``,
``/audit``) and the time of printing, and returns a :class:`.layout.Document`
in the event's language: no I/O, no clock, so the same views give the same
document. The caller (the web layer) reads the views with the reader's
token, so a document shows exactly what the JSON would.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..document_messages import DOCUMENT_CATALOG, document_text
from .audit_lines import audit_line
from .layout import Block, Cut, Document, Grid, Heading, PageBreak, Qr, Text

__all__ = [
    "DOCUMENT_KINDS",
    "audit_document",
    "crosstable_document",
    "document_locale",
    "results_document",
    "scorecards_document",
    "seating_document",
    "standings_document",
]

#: The documents there are, in the order the API lists them.
DOCUMENT_KINDS = ("seating", "scorecards", "standings", "crosstable", "results", "audit")

#: Seating slips on one page: three of a table of eight fit an A4 page with their cut lines.
SLIPS_PER_PAGE = 3
#: A scorecard's writing rows, in points: 9 mm, a comfortable height for a pen.
WRITING_ROW = 26.0

View = Mapping[str, Any]


def document_locale(event: View) -> str:
    """The event's language: its lexicon's (``en-US`` is ``en``), English when it is none we print in."""
    primary = str(event.get("lexicon", {}).get("id", "en")).split("-")[0].lower()
    return primary if primary in DOCUMENT_CATALOG else "en"


def _document(kind: str, event: View, printed_at: str, blocks: Iterable[Block], landscape: bool = False) -> Document:
    locale = document_locale(event)
    t = _texts(locale)
    title = f"{t(_TITLES[kind])} · {t('event', name=event['name'], event=event['id'])}"
    footer = f"{t('event', name=event['name'], event=event['id'])} · {t('printed', at=printed_at)}"
    return Document(kind=kind, title=title, locale=locale, footer=footer, blocks=tuple(blocks), landscape=landscape, page_label=DOCUMENT_CATALOG[locale]["page"])


_TITLES = {
    "seating": "seating.title",
    "scorecards": "scorecard.title",
    "standings": "standings.title",
    "crosstable": "crosstable.title",
    "results": "results.title",
    "audit": "audit.title",
}


def _texts(locale: str) -> Callable[..., str]:
    def t(key: str, **fields: object) -> str:
        return document_text(locale, key, **fields)

    return t


def _seated(table: View) -> list[tuple[int, str]]:
    """A table's (seat, name) in seat order: a session's table has ``seats``, a table seated by name its ``players`` list."""
    if "seats" in table:
        return [(seat["seat"], seat["name"]) for seat in sorted(table["seats"], key=lambda seat: seat["seat"])]
    return list(enumerate(table["players"]))


def _table_id(table: View) -> str:
    return str(table.get("game", table.get("id")))


# --- seating ------------------------------------------------------------------------------------------


def seating_document(event: View, session: View, printed_at: str) -> Document:
    """The wall sheet (every table, its players in seat order, seat 0 marked as dealing first), then one slip per table."""
    t = _texts(document_locale(event))
    heading = f"{t('seating.title')} · {t('session', n=session['number'])}"
    rows = []
    for table in session["tables"]:
        for seat, name in _seated(table):
            rows.append((_table_id(table) if seat == 0 else "", str(seat), name, t("deals_first") if seat == 0 else ""))
    blocks: list[Block] = [
        Heading(heading),
        Text(t("event", name=event["name"], event=event["id"])),
        Grid((t("table"), t("seat"), t("player"), ""), tuple(rows), widths=(1.2, 0.7, 3.5, 1.6), font_size=13),
    ]
    for index, table in enumerate(session["tables"]):
        if index % SLIPS_PER_PAGE == 0:
            blocks.append(PageBreak())
        else:
            blocks.append(Cut(t("cut")))
        slip = tuple((str(seat), name, t("deals_first") if seat == 0 else "") for seat, name in _seated(table))
        blocks += [
            Heading(f"{t('seating.slip')} · {t('table_named', table=_table_id(table))}", level=2),
            Text(f"{t('event', name=event['name'], event=event['id'])} · {t('session', n=session['number'])}", small=True),
            Grid((t("seat"), t("player"), ""), slip, widths=(0.7, 3.5, 1.6), font_size=12),
            Text(t("seating.slip_help"), small=True),
        ]
    return _document("seating", event, printed_at, blocks)


# --- scorecards ---------------------------------------------------------------------------------------


def scorecards_document(event: View, tables: Sequence[View], console_url: Callable[[str], str], printed_at: str, session: int | None = None) -> Document:
    """One page per table: its players in seat order, a row per round with its hand size, four boxes per player and round.

    ``tables``: a session's tables (with ``seats``) or an event's tables
    seated by name (with ``players``). ``console_url(table)``: the link the
    QR code holds, the console opened at that table, with no token in it: a
    scorecard lies on a table for anyone to read.
    """
    t = _texts(document_locale(event))
    hands = list(event["ruleset"]["rounds"])
    boxes = (t("scorecard.words"), t("scorecard.unused"), t("scorecard.bonuses"), t("scorecard.total"))
    blocks: list[Block] = []
    for index, table in enumerate(tables):
        if index:
            blocks.append(PageBreak())
        seated = _seated(table)
        table_id = _table_id(table)
        lines = [t("table_named", table=table_id), t("event", name=event["name"], event=event["id"])]
        if session is not None:
            lines.append(t("session", n=session))
        lines.append(t("scorecard.scan"))
        header = (t("scorecard.round"), t("scorecard.cards"), *(box for _ in seated for box in boxes))
        groups = (("", 2), *((f"{seat} · {name}", len(boxes)) for seat, name in seated))
        rows = [(str(number), str(hand), *("" for _ in range(len(seated) * len(boxes)))) for number, hand in enumerate(hands, start=1)]
        rows.append((t("scorecard.game_total"), "", *("" for _ in range(len(seated) * len(boxes)))))
        blocks += [
            Heading(t("scorecard.title")),
            Qr(console_url(table_id), tuple(lines)),
            Grid(header, tuple(rows), groups=groups, widths=(0.9, 0.8, *(1.0 for _ in range(len(seated) * len(boxes)))),
                 row_height=WRITING_ROW, bold_rows=(len(rows) - 1,), font_size=7 if len(seated) <= 4 else 5.5),
            Text(f"{t('scorecard.signature')}: ______________________________"),
        ]
    return _document("scorecards", event, printed_at, blocks, landscape=True)


# --- standings, crosstable, results -------------------------------------------------------------------


def _overall_grid(t: Callable[..., str], overall: View) -> Grid:
    rows = tuple(
        (
            str(line["rank"]),
            line["name"] + (f" ({t('withdrawn')})" if line.get("withdrawn") else ""),
            str(line["games"]),
            str(line["total"]),
            str(line["wins"]),
            _number(line["table_points"]),
            _number(line["average"]),
        )
        for line in overall["lines"]
    )
    header = (t("rank"), t("player"), t("games"), t("total"), t("wins"), t("table_points"), t("average"))
    return Grid(header, rows, widths=(0.7, 3.5, 0.9, 1, 0.9, 1.2, 1.1))


def _number(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value)


def standings_document(event: View, standings: View, printed_at: str) -> Document:
    """A tournament's standings across sessions (when it is one), then every table's lines."""
    t = _texts(document_locale(event))
    blocks: list[Block] = [Heading(t("standings.title")), Text(t("event", name=event["name"], event=event["id"]))]
    overall = standings.get("overall")
    if overall:
        blocks += [Heading(t("standings.overall", n=overall["through"]), level=2), Text(t("format", name=overall["format"]["name"]), small=True)]
        blocks.append(_overall_grid(t, overall))
    blocks.append(Heading(t("standings.tables"), level=2))
    lines = standings["standings"]
    if lines:
        rows = tuple((str(line["rank"]), line["player"], line["table"], str(line["rounds"]), str(line["total"])) for line in lines)
        blocks.append(Grid((t("rank"), t("player"), t("table"), t("rounds"), t("total")), rows, widths=(0.7, 3.5, 1.2, 1, 1)))
    else:
        blocks.append(Text(t("standings.none")))
    return _document("standings", event, printed_at, blocks)


def _names(players: View | None) -> dict[str, str]:
    return {player["id"]: player["name"] for player in (players or {}).get("players", [])}


def crosstable_document(event: View, crosstable: View, players: View | None, printed_at: str) -> Document:
    """Who met whom: a row per player, a column per opponent (by number), each cell the meetings with their scores."""
    t = _texts(document_locale(event))
    names = _names(players)
    ids = list(crosstable["players"])
    marks = {"win": t("crosstable.win"), "loss": t("crosstable.loss"), "tie": t("crosstable.tie")}
    rows = []
    for number, player in enumerate(ids, start=1):
        cells = []
        for opponent in ids:
            meetings = crosstable["meetings"].get(player, {}).get(opponent, []) if opponent != player else []
            cell = "\n".join(f"{m['table']} {m['score']}:{m['opponent_score']} {marks[m['result']]}" for m in meetings)
            cells.append("—" if opponent == player else cell)
        rows.append((str(number), names.get(player, player), *cells))
    header = ("#", t("player"), *(str(number) for number in range(1, len(ids) + 1)))
    size = 8 if len(ids) <= 10 else 6 if len(ids) <= 16 else 5
    blocks: list[Block] = [
        Heading(t("crosstable.title")),
        Text(t("event", name=event["name"], event=event["id"])),
        Text(t("crosstable.help"), small=True),
        Grid(header, tuple(rows), widths=(0.4, 2.4, *(1.0 for _ in ids)), font_size=size),
    ]
    return _document("crosstable", event, printed_at, blocks, landscape=True)


def results_document(event: View, standings: View, crosstable: View | None, printed_at: str) -> Document:
    """The final ranking (the overall standings after the last session) with each player's games: table, score, opponents and theirs.

    An event without sessions has no overall standings: its results are its tables' lines.
    """
    t = _texts(document_locale(event))
    blocks: list[Block] = [Heading(t("results.title")), Text(t("event", name=event["name"], event=event["id"]))]
    overall = standings.get("overall")
    if not overall or crosstable is None:
        lines = standings["standings"]
        rows = tuple((str(line["rank"]), line["player"], line["table"], str(line["total"])) for line in lines)
        blocks.append(Grid((t("rank"), t("player"), t("table"), t("total")), rows, widths=(0.7, 3.5, 1.2, 1)) if rows else Text(t("standings.none")))
        return _document("results", event, printed_at, blocks)
    names = {line["player"]: line["name"] for line in overall["lines"]}
    blocks += [Text(f"{t('session', n=overall['through'])} · {t('format', name=overall['format']['name'])}", small=True)]
    rows = []
    for line in overall["lines"]:
        games: dict[tuple[int, str], list[str]] = {}
        own: dict[tuple[int, str], int] = {}
        for opponent, meetings in crosstable["meetings"].get(line["player"], {}).items():
            for meeting in meetings:
                key = (meeting["session"], meeting["table"])
                own[key] = meeting["score"]
                games.setdefault(key, []).append(f"{names.get(opponent, opponent)} {meeting['opponent_score']}")
        played = "\n".join(f"{table}: {own[(session, table)]} — {', '.join(games[(session, table)])}" for session, table in sorted(games))
        name = line["name"] + (f" ({t('withdrawn')})" if line.get("withdrawn") else "")
        rows.append((str(line["rank"]), name, str(line["total"]), str(line["wins"]), played))
    header = (t("rank"), t("player"), t("total"), t("wins"), f"{t('results.games')} ({t('results.opponents')})")
    blocks.append(Grid(header, tuple(rows), widths=(0.9, 2.4, 0.9, 0.8, 6)))
    return _document("results", event, printed_at, blocks)


# --- audit --------------------------------------------------------------------------------------------


def audit_document(event: View, entries: Sequence[View], printed_at: str) -> Document:
    """Who changed what: each entry's sequence number, time, role and token id, action and a one-line summary of its payload."""
    t = _texts(document_locale(event))
    rows = tuple(
        (str(entry["seq"]), _time(entry["at"]), f"{entry['actor']['role']} {entry['actor']['token']}", entry["action"], audit_line(entry["action"], entry["payload"]))
        for entry in entries
    )
    blocks: list[Block] = [
        Heading(t("audit.title")),
        Text(t("event", name=event["name"], event=event["id"])),
        Text(t("audit.help", event=event["id"]), small=True),
        Grid((t("audit.seq"), t("audit.time"), t("audit.actor"), t("audit.action"), t("audit.summary")), rows, widths=(0.5, 1.9, 1.6, 1.6, 6.4), font_size=7),
    ]
    return _document("audit", event, printed_at, blocks, landscape=True)


def _time(at: str) -> str:
    """``2026-12-05T07:27:07.585871Z`` as ``2026-12-05 07:27:07``: to the second is enough on paper."""
    return at.replace("T", " ")[:19]

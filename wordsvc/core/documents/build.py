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

from ...i18n import DOCUMENT_CATALOG
from ..standings import DECIMALS
from .audit_lines import actor_label, audit_kind, audit_line
from .layout import Block, Cut, Document, Grid, Heading, PageBreak, Qr, Text
from .words import Words

__all__ = [
    "DOCUMENT_KINDS",
    "audit_document",
    "compose",
    "document_locale",
    "format_lines",
    "results_document",
    "scorecards_document",
    "seating_document",
    "standing_heading",
    "standings_document",
    "words",
]

#: The documents there are, in the order the API lists them.
DOCUMENT_KINDS = ("seating", "scorecards", "standings", "crosstable", "results", "audit")

#: Seating slips on one page: three of a table of eight fit an A4 page with their cut lines.
SLIPS_PER_PAGE = 3
#: A scorecard's writing rows, in points: 9 mm, a comfortable height for a pen.
WRITING_ROW = 26.0
#: Players on one scorecard grid: 8 players' four boxes (34 columns) leave each box 8 mm on a landscape A4 page; a larger
#: table (the API seats up to 16) gets a second grid below the first rather than boxes too narrow to write in.
PLAYERS_PER_GRID = 8

View = Mapping[str, Any]


def document_locale(event: View) -> str:
    """The event's language: its lexicon's (``en-US`` is ``en``), English when it is none we print in."""
    primary = str(event.get("lexicon", {}).get("id", "en")).split("-")[0].lower()
    return primary if primary in DOCUMENT_CATALOG else "en"


def compose(kind: str, event: View, printed_at: str, blocks: Iterable[Block], landscape: bool = False, heading: str | None = None) -> Document:
    """The document of ``kind`` for ``event``: ``blocks`` with its title (``heading``, else the kind's own), and a footer naming the event and the time of printing."""
    locale = document_locale(event)
    t = Words(locale)
    title = f"{heading or t(_TITLES[kind])} · {t('event', name=event['name'], event=event['id'])}"
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


def words(event: View) -> Words:
    """The words of the event's documents: in its language (:func:`document_locale`)."""
    return Words(document_locale(event))


def _seated(table: View) -> list[tuple[int, str]]:
    """A table's (seat, name) in seat order: a session's table has ``seats``, a table seated by name its ``players`` list.

    ``seat`` is the API's, counted from 0 (the dealer of round 1); a document shows it counted from 1 (:func:`_seat`), as
    every page does.
    """
    if "seats" in table:
        return [(seat["seat"], seat["name"]) for seat in sorted(table["seats"], key=lambda seat: seat["seat"])]
    return list(enumerate(table["players"]))


def _seat(seat: int) -> str:
    """A seat as people read it, on paper as on every screen: the API's seat 0 is seat 1."""
    return str(seat + 1)


def _table_id(table: View) -> str:
    return str(table.get("game", table.get("id")))


# --- seating ------------------------------------------------------------------------------------------


def seating_document(event: View, session: View, printed_at: str) -> Document:
    """The wall sheet (every table, its players in seat order from seat 1, the first marked as dealing first), then one slip per table."""
    t = words(event)
    heading = f"{t('seating.title')} · {t('session', n=session['number'])}"
    rows = []
    for table in session["tables"]:
        for seat, name in _seated(table):
            rows.append((_table_id(table) if seat == 0 else "", _seat(seat), name, t("deals_first") if seat == 0 else ""))
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
        slip = tuple((_seat(seat), name, t("deals_first") if seat == 0 else "") for seat, name in _seated(table))
        blocks += [
            Heading(f"{t('seating.slip')} · {t('table_named', table=_table_id(table))}", level=2),
            Text(f"{t('event', name=event['name'], event=event['id'])} · {t('session', n=session['number'])}", small=True),
            Grid((t("seat"), t("player"), ""), slip, widths=(0.7, 3.5, 1.6), font_size=12),
            Text(t("seating.slip_help"), small=True),
        ]
    return compose("seating", event, printed_at, blocks)


# --- scorecards ---------------------------------------------------------------------------------------


def scorecards_document(event: View, tables: Sequence[View], console_url: Callable[[str], str], printed_at: str, session: int | None = None) -> Document:
    """One page per table: its players in seat order, a row per round with its hand size, four boxes per player and round.

    ``tables``: a session's tables (with ``seats``) or an event's tables
    seated by name (with ``players``). ``console_url(table)``: the link the
    QR code holds, the console opened at that table, with no token in it: a
    scorecard lies on a table for anyone to read.
    """
    t = words(event)
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
        blocks += [Heading(t("scorecard.title")), Qr(console_url(table_id), tuple(lines))]
        for first in range(0, len(seated), PLAYERS_PER_GRID):
            blocks.append(_scorecard_grid(t, hands, seated[first : first + PLAYERS_PER_GRID], boxes))
        blocks.append(Text(f"{t('scorecard.signature')}: ______________________________"))
    return compose("scorecards", event, printed_at, blocks, landscape=True)


def _scorecard_grid(t: Words, hands: Sequence[int], seated: Sequence[tuple[int, str]], boxes: tuple[str, ...]) -> Grid:
    """A row per round (its number and hand size) and a game-total row; four boxes per player under the player's seat and name."""
    blank = ("",) * (len(seated) * len(boxes))
    rows = [(str(number), str(hand), *blank) for number, hand in enumerate(hands, start=1)]
    rows.append((t("scorecard.game_total"), "", *blank))
    return Grid(
        (t("scorecard.round"), t("scorecard.cards"), *(box for _ in seated for box in boxes)),
        tuple(rows),
        groups=(("", 2), *((f"{_seat(seat)} · {name}", len(boxes)) for seat, name in seated)),
        widths=(0.9, 0.8, *(1.0 for _ in blank)),
        row_height=WRITING_ROW,
        bold_rows=(len(rows) - 1,),
        font_size=7 if len(seated) <= 4 else 5.5,
    )


# --- standings, results -------------------------------------------------------------------------------


def _overall_grid(t: Words, overall: View) -> Grid:
    decimals = _decimals(overall)
    rows = tuple(
        (
            str(line["rank"]),
            line["name"] + (f" ({t('withdrawn')})" if line.get("withdrawn") else ""),
            str(line["games"]),
            t.number(line["total"], decimals),
            t.number(line["wins"], decimals),
            t.number(line["table_points"], decimals),
            t.number(line["average"], decimals),
        )
        for line in overall["lines"]
    )
    header = (t("rank"), t("player"), t("games"), t("total"), t("wins"), t("table_points"), t("average"))
    return Grid(header, rows, widths=(0.7, 3.5, 0.9, 1, 0.9, 1.2, 1.1))


def _decimals(overall: View) -> int:
    """The decimals the tournament's format shows its numbers with (a snapshot from before formats had them: two)."""
    return int(overall["format"].get("decimals", DECIMALS))


def standing_heading(t: Words, overall: View, kind: str) -> str:
    """What a standings or results document calls itself: final only once the tournament's last session is complete.

    ``kind`` is ``standings`` or ``results``. Until then the document is provisional and says the session it is
    after (``completed``: every game of it and of those before it complete), or, before any session is complete, the
    session under way.
    """
    if not overall.get("provisional", False):
        return t("standings.final" if kind == "standings" else "results.title")
    if overall.get("completed"):
        return t(f"{kind}.after", n=overall["completed"])
    return t(f"{kind}.during", n=max(1, int(overall.get("through") or 1)))


def format_lines(t: Words, fmt: View) -> list[str]:
    """How a format ranks, in the document's language, from its ranking and tie-breaks (its name is the club's, in any language).

    >>> format_lines(Words("en"), {"ranking": "total", "tie_breaks": ["head_to_head", "spread"], "min_games": 3})
    ['Ranked by total score; ties broken by games against each other, spread.', 'A player with fewer than 3 games ranks below the others.']
    """
    def by(value: object) -> str:
        return t(f"by.{value}") if t.has(f"by.{value}") else str(value)

    ties = [by(value) for value in fmt.get("tie_breaks", [])]
    ranking = by(fmt.get("ranking", "total"))
    lines = [t("format", ranking=ranking, tie_breaks=", ".join(ties)) if ties else t("format.plain", ranking=ranking)]
    if fmt.get("min_games"):
        lines.append(t.count("format.min_games", int(fmt["min_games"])))
    return lines


def standings_document(event: View, standings: View, printed_at: str) -> Document:
    """A tournament's standings across sessions (when it is one), then the tables' lines, a tournament's session by session.

    A tournament's tables are ranked within their session (``session`` in a line), and only the sessions its
    standings count are printed, so a session seated but not played yet is not beside the games of the last.
    """
    t = words(event)
    overall = standings.get("overall")
    title = standing_heading(t, overall, "standings") if overall else t("standings.title")
    blocks: list[Block] = [Heading(title), Text(t("event", name=event["name"], event=event["id"]))]
    if overall:
        blocks += [Text(line, small=True) for line in format_lines(t, overall["format"])]
        blocks.append(_overall_grid(t, overall))
    lines = [line for line in standings["standings"] if not overall or line.get("session") is None or line["session"] <= (overall["through"] or 0)]
    groups: dict[Any, list[View]] = {}
    for line in lines:
        groups.setdefault(line.get("session"), []).append(line)
    header = (t("rank"), t("player"), t("table"), t("rounds"), t("total"))
    for session, group in groups.items():
        blocks.append(Heading(t("standings.tables_session", n=session) if session is not None else t("standings.tables"), level=2))
        rows = tuple((str(line["rank"]), line["player"], line["table"], str(line["rounds"]), t.number(line["total"])) for line in group)
        blocks.append(Grid(header, rows, widths=(0.7, 3.5, 1.2, 1, 1)))
    if not groups:
        blocks += [Heading(t("standings.tables"), level=2), Text(t("standings.none"))]
    return compose("standings", event, printed_at, blocks, heading=title)


def results_document(event: View, standings: View, crosstable: View | None, printed_at: str) -> Document:
    """The ranking (the overall standings after the last session counted) with each player's games, a row each: table, score, the opponents and theirs.

    Called final only once the tournament's last session is complete (:func:`standing_heading`); before, it says the
    session it is after. An event without sessions has no overall standings: its results are its tables' lines,
    final once the event is closed and provisional before.
    A row a game keeps every row a line or two high, however many sessions a player sat.
    """
    t = words(event)
    overall = standings.get("overall")
    if not overall or crosstable is None:
        title = t("results.title") if event.get("status") == "closed" else t("results.provisional")  # an event of tables: final once closed
        blocks: list[Block] = [Heading(title), Text(t("event", name=event["name"], event=event["id"]))]
        lines = standings["standings"]
        rows = tuple((str(line["rank"]), line["player"], line["table"], t.number(line["total"])) for line in lines)
        blocks.append(Grid((t("rank"), t("player"), t("table"), t("total")), rows, widths=(0.7, 3.5, 1.2, 1)) if rows else Text(t("standings.none")))
        return compose("results", event, printed_at, blocks, heading=title)
    title = standing_heading(t, overall, "results")
    decimals = _decimals(overall)
    blocks = [Heading(title), Text(t("event", name=event["name"], event=event["id"]))]
    names = {line["player"]: line["name"] for line in overall["lines"]}
    through = overall["through"] or 0
    blocks += [Text(line, small=True) for line in format_lines(t, overall["format"])]
    rows: list[tuple[str, ...]] = []
    for line in overall["lines"]:
        games: dict[tuple[int, str], list[str]] = {}
        own: dict[tuple[int, str], Any] = {}
        for opponent, meetings in crosstable["meetings"].get(line["player"], {}).items():
            for meeting in meetings:
                if meeting["session"] > through:
                    continue  # a game after the session these standings are after
                key = (meeting["session"], meeting["table"])
                own[key] = meeting["score"]
                games.setdefault(key, []).append(f"{names.get(opponent, opponent)} {t.number(meeting['opponent_score'])}")
        name = line["name"] + (f" ({t('withdrawn')})" if line.get("withdrawn") else "")
        first = (str(line["rank"]), name, t.number(line["total"], decimals), t.number(line["wins"], decimals))
        played = [(table, t.number(own[(session, table)]), ", ".join(games[(session, table)])) for session, table in sorted(games)] or [("", "", "")]
        rows += [(*(first if index == 0 else ("",) * len(first)), *game) for index, game in enumerate(played)]
    header = (t("rank"), t("player"), t("total"), t("wins"), t("table"), t("score"), t("results.opponents"))
    blocks.append(Grid(header, tuple(rows), widths=(0.7, 2.4, 0.8, 0.7, 1.0, 0.9, 4.0)))
    return compose("results", event, printed_at, blocks, heading=title)


# --- audit --------------------------------------------------------------------------------------------


def audit_document(event: View, entries: Sequence[View], printed_at: str) -> Document:
    """Who changed what: each entry's sequence number, time, role and token id, kind and a one-line summary, all in the event's language."""
    t = words(event)
    rows = tuple(
        (
            str(entry["seq"]),
            _time(entry["at"]),
            actor_label(entry["actor"], t.locale),
            audit_kind(entry["action"], t.locale),
            audit_line(entry["action"], entry["payload"], t.locale),
        )
        for entry in entries
    )
    blocks: list[Block] = [
        Heading(t("audit.title")),
        Text(t("event", name=event["name"], event=event["id"])),
        Text(t("audit.help", event=event["id"]), small=True),
        Grid((t("audit.seq"), t("audit.time"), t("audit.actor"), t("audit.action"), t("audit.summary")), rows, widths=(0.5, 1.9, 1.6, 1.6, 6.4), font_size=7),
    ]
    return compose("audit", event, printed_at, blocks, landscape=True)


def _time(at: str) -> str:
    """``2026-12-05T07:27:07.585871Z`` as ``2026-12-05 07:27:07``: ISO 8601, read alike in every language, to the second."""
    return at.replace("T", " ")[:19]

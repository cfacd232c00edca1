"""The crosstable on paper: a grid of who met whom while the field fits a page's width, a line per game beyond it (docs/documents.md).

A grid of a column per opponent grows with the square of the field: at 60
players its columns are thinner than their own padding, and a field of
hundreds would need thousands of mostly empty pages. So the grid is drawn
only for a field that fits one landscape page across (at most
:data:`MATRIX_PLAYERS` players, each cell at most :data:`MATRIX_LINES`
meetings); any larger field is printed as a list, a row for each game a
player played against each opponent, whose length grows with the games
played and which any number of pages holds. Both show the same meetings.
"""

from __future__ import annotations

from typing import Any

from .build import View, compose, words
from .layout import Block, Document, Grid, Heading, Text
from .words import Words

__all__ = ["MATRIX_LINES", "MATRIX_PLAYERS", "crosstable_document"]

#: Players a crosstable grid holds across a landscape A4 page: a column each of about 4 cm, enough for ``s12-t34 123:456 W``.
MATRIX_PLAYERS = 16
#: Meetings one cell of the grid holds (two players who met in more sessions than this are listed instead).
MATRIX_LINES = 8


def crosstable_document(event: View, crosstable: View, players: View | None, printed_at: str) -> Document:
    """Who met whom: a grid (a row per player, a column per opponent by number) for a field that fits a page, else a row per game."""
    t = words(event)
    names = {player["id"]: player["name"] for player in (players or {}).get("players", [])}
    ids = list(crosstable["players"])
    meetings: dict[str, dict[str, list[dict[str, Any]]]] = crosstable["meetings"]
    most = max((len(games) for row in meetings.values() for games in row.values()), default=0)
    blocks: list[Block] = [Heading(t("crosstable.title")), Text(t("event", name=event["name"], event=event["id"]))]
    if len(ids) <= MATRIX_PLAYERS and most <= MATRIX_LINES:
        blocks += [Text(t("crosstable.help"), small=True), _matrix(t, ids, names, meetings)]
    else:
        blocks += [Text(t("crosstable.help_list"), small=True), _list(t, ids, names, meetings)]
    return compose("crosstable", event, printed_at, blocks, landscape=True)


def _matrix(t: Words, ids: list[str], names: dict[str, str], meetings: dict[str, dict[str, list[dict[str, Any]]]]) -> Grid:
    marks = {"win": t("crosstable.win"), "loss": t("crosstable.loss"), "tie": t("crosstable.tie")}
    rows = []
    for number, player in enumerate(ids, start=1):
        cells = []
        for opponent in ids:
            games = meetings.get(player, {}).get(opponent, []) if opponent != player else []
            cell = "\n".join(f"{m['table']} {t.number(m['score'])}:{t.number(m['opponent_score'])} {marks[m['result']]}" for m in games)
            cells.append("—" if opponent == player else cell)
        rows.append((str(number), names.get(player, player), *cells))
    header = ("#", t("player"), *(str(number) for number in range(1, len(ids) + 1)))
    size = 8 if len(ids) <= 10 else 6
    return Grid(header, tuple(rows), widths=(0.6, 2.4, *(1.0 for _ in ids)), font_size=size)


def _list(t: Words, ids: list[str], names: dict[str, str], meetings: dict[str, dict[str, list[dict[str, Any]]]]) -> Grid:
    """A row per game of each player against each opponent, players in the crosstable's order, then opponents in it, then sessions."""
    order = {player: index for index, player in enumerate(ids)}
    results = {"win": t("result.win"), "loss": t("result.loss"), "tie": t("result.tie")}
    rows: list[tuple[str, ...]] = []
    for player in ids:
        mine = meetings.get(player, {})
        games = sorted(
            ((order.get(opponent, len(order)), opponent, game) for opponent, met in mine.items() for game in met),
            key=lambda item: (item[0], item[1], item[2]["session"], item[2]["table"]),
        )
        name = names.get(player, player)
        if not games:
            rows.append((name, "—", "", "", ""))
        for _, opponent, game in games:
            score = f"{t.number(game['score'])} : {t.number(game['opponent_score'])}"
            rows.append((name, names.get(opponent, opponent), str(game["table"]), score, results[game["result"]]))
    header = (t("player"), t("crosstable.opponent"), t("table"), t("score"), t("crosstable.result"))
    return Grid(header, tuple(rows), widths=(3.0, 3.0, 1.2, 1.2, 1.2), font_size=8)

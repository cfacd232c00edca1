"""Standings: each entrant's figures over their games, ranked by a format and its tie-breaks.

The order, in full (docs/standings.md):

1. players with at least ``min_games`` counted games before the others;
2. the format's ranking value, highest first;
3. each tie-break in the format's order, highest first, applied only
   inside a group still tied on everything before it (head-to-head is
   computed over that group);
4. players still equal on all of these share a rank (1, 2, 2, 4) and are
   listed by player id.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .formats import Format
from .games import Entrant, Game, Result, check_games, in_sessions, results

__all__ = ["standings"]

Number = int | float


@dataclass
class _Line:
    entrant: Entrant
    played: list[Result] = field(default_factory=list)
    missed: int = 0
    games: int = 0
    total: Fraction = Fraction(0)
    table_points: Fraction = Fraction(0)
    wins: Fraction = Fraction(0)
    spread: Fraction = Fraction(0)
    best_game: int | None = None

    @property
    def average(self) -> Fraction:
        return self.total / self.games if self.games else Fraction(0)


def standings(fmt: Format, entrants: Sequence[Entrant], games: Sequence[Game], through: int | None = None) -> list[dict[str, Any]]:
    """One line per entrant, ranked (module docstring); ``through=k`` counts only sessions up to k.

    Only complete games are passed in. A game's other players count at its
    table even if they are not entrants (their lines are simply not listed).
    Withdrawn players keep their lines and their games.
    """
    check_games(games)
    counted = in_sessions(games, through)
    sessions = {game.session for game in counted}
    lines = {entrant.id: _Line(entrant) for entrant in entrants}
    for game in counted:
        for result in results(game):
            line = lines.get(result.player)
            if line is not None:
                line.played.append(result)
    for line in lines.values():
        _add_up(line, fmt.missed, sum(1 for s in sessions if s < line.entrant.joined))
    return _ranked(fmt, list(lines.values()), through)


def _add_up(line: _Line, missed_rule: str, missed: int) -> None:
    """The line's figures from its played games, and the missed sessions as ``missed_rule`` counts them."""
    played = line.played
    line.missed = missed
    line.games = len(played)
    line.total = Fraction(sum(r.score for r in played))
    line.table_points = sum((r.table_points for r in played), Fraction(0))
    line.wins = sum((r.win for r in played), Fraction(0))
    line.spread = sum((r.spread for r in played), Fraction(0))
    line.best_game = max((r.score for r in played), default=None)
    if missed_rule == "zero":
        line.games += missed
    elif missed_rule == "average" and played:
        n = len(played)
        line.games += missed
        line.total += line.total * missed / n
        line.table_points += line.table_points * missed / n
        line.wins += line.wins * missed / n


_VALUES: dict[str, Callable[[_Line], Fraction | int | None]] = {
    "total": lambda line: line.total,
    "table_points": lambda line: line.table_points,
    "wins": lambda line: line.wins,
    "average": lambda line: line.average,
    "best_game": lambda line: line.best_game,
    "spread": lambda line: line.spread,
}


def _head_to_head(group: list[_Line]) -> dict[str, Fraction]:
    """Per player of a tied group: the table points earned against the group's other players, over the games where they met.

    Each such game counts as if only the tied players present had sat at it:
    with m other group players there, a player gets (those beaten + those
    tied / 2) / m, so each game where they met weighs one, whatever the
    table's size and whoever else sat at it.
    """
    members = {line.entrant.id for line in group}
    out = {}
    for line in group:
        points = Fraction(0)
        for result in line.played:
            rivals = [score for player, score in result.game.scores if player in members and player != line.entrant.id]
            if rivals:
                beaten = sum(1 for s in rivals if s < result.score)
                tied = sum(1 for s in rivals if s == result.score)
                points += Fraction(2 * beaten + tied, 2 * len(rivals))
        out[line.entrant.id] = points
    return out


def _sort_key(value: Fraction | int | None) -> tuple[int, Fraction | int]:
    """Highest first, a missing value (no game played) last."""
    return (0, 0) if value is None else (1, value)


def _split(group: list[_Line], value: Callable[[_Line], Any]) -> list[list[_Line]]:
    ordered = sorted(group, key=lambda line: _sort_key(value(line)), reverse=True)
    out: list[list[_Line]] = []
    for line in ordered:
        if out and _sort_key(value(out[-1][0])) == _sort_key(value(line)):
            out[-1].append(line)
        else:
            out.append([line])
    return out


def _ranked(fmt: Format, lines: list[_Line], through: int | None) -> list[dict[str, Any]]:
    primary = _VALUES[fmt.ranking]
    groups = _split(lines, lambda line: (line.games >= fmt.min_games, primary(line)))
    shown: dict[str, list[Any]] = {line.entrant.id: [] for line in lines}
    for tie_break in fmt.tie_breaks:
        next_groups: list[list[_Line]] = []
        for group in groups:
            if tie_break == "head_to_head":
                if len(group) == 1:
                    shown[group[0].entrant.id].append(None)  # not tied: nothing to compare
                    next_groups.append(group)
                    continue
                points = _head_to_head(group)
                value: Callable[[_Line], Any] = lambda line, points=points: points[line.entrant.id]  # noqa: E731
            else:
                value = _VALUES[tie_break]
            for line in group:
                shown[line.entrant.id].append(_number(value(line)))
            next_groups.extend(_split(group, value) if len(group) > 1 else [group])
        groups = next_groups
    out = []
    for group in groups:
        rank = len(out) + 1
        for line in sorted(group, key=lambda line: line.entrant.id):
            out.append(_document(line, rank, fmt, shown[line.entrant.id], through))
    return out


def _document(line: _Line, rank: int, fmt: Format, tie_break: list[Any], through: int | None) -> dict[str, Any]:
    withdrawn = line.entrant.withdrawn
    return {
        "rank": rank,
        "player": line.entrant.id,
        "name": line.entrant.name,
        "games": line.games,
        "played": len(line.played),
        "total": _number(line.total),
        "average": _number(line.average),
        "table_points": _number(line.table_points),
        "wins": _number(line.wins),
        "best_game": line.best_game,
        "spread": _number(line.spread),
        "missed": line.missed,
        "qualified": line.games >= fmt.min_games,
        "withdrawn": withdrawn is not None and (through is None or withdrawn <= through),
        "tie_break": tie_break,
    }


def _number(value: Fraction | int | None) -> Number | None:
    """A whole number as an int, any other fraction as the nearest float; None stays None."""
    if value is None or isinstance(value, int):
        return value
    return value.numerator if value.denominator == 1 else float(value)

"""Who met whom, at which table, with what result: as one JSON mapping, or as flat rows for CSV."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .games import Entrant, Game, check_games, in_sessions

__all__ = ["CROSSTABLE_COLUMNS", "crosstable", "crosstable_rows"]

#: The columns of :func:`crosstable_rows`, in order.
CROSSTABLE_COLUMNS = ("player", "opponent", "session", "table", "score", "opponent_score", "result")


def crosstable(entrants: Sequence[Entrant], games: Sequence[Game], through: int | None = None) -> dict[str, Any]:
    """``{"players": [ids], "meetings": {player: {opponent: [meeting, ...]}}}``.

    ``players``: the entrants' ids in the order given, then anyone else
    seated in a counted game, by id. A meeting is ``{"session", "table",
    "score", "opponent_score", "result"}`` with result ``win``, ``loss`` or
    ``tie`` from the player's side, meetings in (session, table) order. Every
    meeting appears twice, once from each side; players who never met have
    no entry for each other.
    """
    check_games(games)
    counted = in_sessions(games, through)
    players = [entrant.id for entrant in entrants]
    known = set(players)
    players += sorted({player for game in counted for player, _ in game.scores} - known)
    meetings: dict[str, dict[str, list[dict[str, Any]]]] = {player: {} for player in players}
    for game in counted:
        for player, score in game.scores:
            for opponent, opponent_score in game.scores:
                if opponent == player:
                    continue
                result = "win" if score > opponent_score else "loss" if score < opponent_score else "tie"
                meetings[player].setdefault(opponent, []).append(
                    {"session": game.session, "table": game.table, "score": score, "opponent_score": opponent_score, "result": result}
                )
    for player in players:
        meetings[player] = {opponent: meetings[player][opponent] for opponent in sorted(meetings[player])}
    return {"players": players, "meetings": meetings}


def crosstable_rows(table: dict[str, Any]) -> list[dict[str, Any]]:
    """A :func:`crosstable` as flat rows with :data:`CROSSTABLE_COLUMNS`, one per meeting and side: ready for ``csv.DictWriter``."""
    return [
        {"player": player, "opponent": opponent, **meeting}
        for player in table["players"]
        for opponent, meetings in table["meetings"][player].items()
        for meeting in meetings
    ]

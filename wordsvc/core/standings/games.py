"""The inputs (:class:`Entrant`, :class:`Game`) and what one game gives each player at its table.

Every share is an exact :class:`~fractions.Fraction`, so that two players
whose table points are equal compare equal however the thirds and fifths
were added up (floats would split a tie by rounding noise).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .. import problem_codes as codes
from ..errors import Problems

__all__ = ["Entrant", "Game", "Result", "check_games", "results"]


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament.

    ``joined``: the first session they could be seated in (1 for a player
    registered before the first session; a later one is a late entry).
    ``withdrawn``: the first session they are no longer seated in (None: still in).
    """

    id: str
    name: str
    joined: int = 1
    withdrawn: int | None = None


@dataclass(frozen=True)
class Game:
    """One complete game: its session, its table (the game id, e.g. ``s2-t3``), and (player id, final total) in seat order."""

    session: int
    table: str
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Result:
    """What one game gives one player.

    ``beaten``/``tied``: how many of the table's other players scored less / the same.
    ``table_points`` = (beaten + tied / 2) / (table size - 1). ``win``: 1/k when
    k players share the top score, else 0. ``spread`` = score - the table's average.
    """

    game: Game
    player: str
    score: int
    beaten: int
    tied: int
    table_points: Fraction
    win: Fraction
    spread: Fraction


def check_games(games: Iterable[Game]) -> None:
    """Raise :class:`~wordsvc.core.errors.InvalidRequest` naming every malformed game: fewer than 2 players, a player twice, a session below 1."""
    problems = Problems()
    for i, game in enumerate(games):
        players = [player for player, _ in game.scores]
        if len(players) < 2:
            problems.add(("games", i, "scores"), f"game {game.table} has {len(players)} player(s); a table seats 2 or more", code=codes.PLAYER_COUNT)
        if len(set(players)) != len(players):
            problems.add(("games", i, "scores"), f"game {game.table} seats a player twice", code=codes.DUPLICATE_NAME)
        if game.session < 1:
            problems.add(("games", i, "session"), "sessions are numbered from 1", code=codes.VALUE_OUT_OF_RANGE)
    problems.raise_if_any("Some games cannot be counted.")


def results(game: Game) -> list[Result]:
    """One :class:`Result` per seat of ``game``, in seat order."""
    scores = [score for _, score in game.scores]
    others = len(scores) - 1
    top = max(scores)
    top_count = scores.count(top)
    average = Fraction(sum(scores), len(scores))
    out = []
    for player, score in game.scores:
        beaten = sum(1 for s in scores if s < score)
        tied = scores.count(score) - 1
        out.append(
            Result(
                game=game,
                player=player,
                score=score,
                beaten=beaten,
                tied=tied,
                table_points=Fraction(2 * beaten + tied, 2 * others),
                win=Fraction(1, top_count) if score == top else Fraction(0),
                spread=score - average,
            )
        )
    return out


def in_sessions(games: Sequence[Game], through: int | None) -> list[Game]:
    """The games of sessions up to ``through`` (all when None), in (session, table) order."""
    return sorted((g for g in games if through is None or g.session <= through), key=lambda g: (g.session, g.table))

"""A game: rounds in order, running totals, and the winner(s).

No source gives a tie-break, so a tie for the highest total is reported as a
tie. A game may be scored part-way (fewer rounds than the ruleset deals);
``complete`` says whether every round is in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..i18n import DEFAULT_LOCALE
from . import problem_codes as codes
from .errors import Problems
from .lexicon import Lexicon
from .ruleset import Ruleset
from .scoring import RoundPlay, RoundResult, check_round, score_round

__all__ = ["GameResult", "score_game"]


@dataclass(frozen=True)
class GameResult:
    ruleset: str
    players: tuple[str, ...]
    rounds: tuple[RoundResult, ...]
    complete: bool
    lexicon: dict[str, str]

    def running(self, name: str) -> list[int]:
        out, total = [], 0
        for result in self.rounds:
            total += result.totals()[name]
            out.append(total)
        return out

    @property
    def totals(self) -> dict[str, int]:
        return {name: sum(r.totals()[name] for r in self.rounds) for name in self.players}

    @property
    def winners(self) -> list[str]:
        totals = self.totals
        best = max(totals.values(), default=0)
        return [name for name, total in totals.items() if total == best] if self.rounds else []

    def to_dict(self, locale: str = DEFAULT_LOCALE) -> dict[str, object]:
        winners = self.winners
        return {
            "ruleset": self.ruleset,
            "rounds": [result.to_dict(locale) for result in self.rounds],
            "players": [
                {
                    "name": name,
                    "round_totals": [r.totals()[name] for r in self.rounds],
                    "running_totals": self.running(name),
                    "total": self.totals[name],
                }
                for name in self.players
            ],
            "winners": winners,
            "tie": len(winners) > 1,
            "complete": self.complete,
            "lexicon": self.lexicon,
        }


def score_game(players: Sequence[str], rounds: Sequence[RoundPlay], ruleset: Ruleset, lexicon: Lexicon) -> GameResult:
    """Score every round; raises :class:`InvalidRequest` with every problem of every round."""
    problems = Problems()
    names = tuple(players)
    if len(set(names)) != len(names):
        problems.add("players", "player names must be distinct", code=codes.DUPLICATE_NAME)
    if not rounds:
        problems.add("rounds", "a game needs at least one round", code=codes.GAME_MISMATCH)
    if len(rounds) > len(ruleset.rounds):
        problems.add("rounds", f"ruleset {ruleset.id} has {len(ruleset.rounds)} rounds; got {len(rounds)}", code=codes.GAME_MISMATCH)
    numbered = []
    for i, play in enumerate(rounds):
        if play.round is not None and play.round != i + 1:
            problems.add(f"rounds.{i}.round", f"round {i + 1} of the game cannot be round {play.round}", code=codes.GAME_MISMATCH)
        play = replace(play, round=i + 1)
        seated = [p.name for p in play.players]
        if sorted(seated) != sorted(names):
            problems.add(f"rounds.{i}.players", f"players must be the game's players {list(names)}; got {seated}", code=codes.GAME_MISMATCH)
        if i < len(ruleset.rounds):
            check_round(play, ruleset, problems, prefix=f"rounds.{i}.")
        numbered.append(play)
    problems.raise_if_any("The game does not add up; see errors.")
    results = tuple(score_round(play, ruleset, lexicon) for play in numbered)
    return GameResult(ruleset.id, names, results, len(results) == len(ruleset.rounds), lexicon.info.stamp())

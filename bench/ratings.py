"""Which rating system predicts Quiddler tables best: OpenSkill's Weng-Lin models against Glicko-2 applied pairwise.

A simulation, not a timing: a pool of players with hidden true skills plays
a series of events; each event is several sessions, each session seats the
players present at random tables of 3 to 6, and a player's game score is
drawn around their skill (``BASE + SKILL_POINTS * skill + noise``, the
noise a game's luck). Every system rates the events in order; before each
event, from the second on, its ratings predict the order of every table of
that event, and the bench prints, for each system:

- pairwise accuracy: of every two players at a table whose scores differ,
  how often the one rated higher scored more (equal ratings: half);
- Kendall's tau-b between ratings and scores, averaged over tables;

beside the same figures for the hidden skills themselves (the ceiling; luck
keeps it well below 1) and for no ratings at all (0.5 and 0).

The systems:

- ``openskill``'s Plackett-Luce, Bradley-Terry (full pairing) and
  Thurstone-Mosteller (full pairing), default parameters, one game a match,
  ranked by score (equal scores, equal ranks), predicting by mu;
- Glicko-2 (Glickman, "Example of the Glicko-2 system", Boston University,
  2022 revision; ``wordsvc.core.ratings.glicko2_update``, tau = 0.5, epsilon =
  1e-6), each game split into the pairs of its table (win 1, tie 1/2,
  loss 0), with a rating period of one event, and of one game; predicting
  by the rating r. The paper's own example is checked when the bench starts.

Run: ``.venv/bin/python bench/ratings.py [--seeds 5]``; docs/ratings.md gives the figures.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

from wordsvc.core.ratings import glicko2_update

POOL = 80  # players in the club
PRESENT = 0.6  # chance a player comes to an event
EVENTS = 10
SESSIONS = 6
BASE, SKILL_POINTS, LUCK = 150.0, 25.0, 40.0  # a game total: 150 on average, a skill step of 1 sd worth 25 points, luck 40 points sd

Game = list[tuple[str, int]]

# --- Glicko-2: the service's own (wordsvc/core/ratings.py), so the bench measures what is shipped ---------


def check_glicko2() -> None:
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 -> 1464.06, 151.52, 0.05999.

    The paper rounds its intermediate values (mu' = -0.2069); unrounded, r' is 1464.0507.
    """
    r, rd, vol = glicko2_update(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert abs(r - 1464.06) < 0.02 and abs(rd - 151.52) < 0.005 and abs(vol - 0.05999) < 0.00001, (r, rd, vol)


class PairwiseGlicko2:
    """Glicko-2 over the pairs of each table; ``per_game``: a rating period per game, else per event."""

    def __init__(self, per_game: bool):
        self.per_game = per_game
        self.players: dict[str, tuple[float, float, float]] = {}
        self.pending: dict[str, list[tuple[float, float, float]]] = {}

    def _get(self, player: str) -> tuple[float, float, float]:
        return self.players.get(player, (1500.0, 350.0, 0.06))

    def _close(self) -> None:
        snapshot = dict(self.players)
        for player, results in self.pending.items():
            r, rd, vol = snapshot.get(player, (1500.0, 350.0, 0.06))
            self.players[player] = glicko2_update(r, rd, vol, results)
        self.pending = {}

    def rate_event(self, games: Sequence[Game]) -> None:
        for game in games:
            for (p, sp), (q, sq) in combinations(game, 2):
                rp, rdp, _ = self._get(p)
                rq, rdq, _ = self._get(q)
                s = 1.0 if sp > sq else 0.0 if sp < sq else 0.5
                self.pending.setdefault(p, []).append((rq, rdq, s))
                self.pending.setdefault(q, []).append((rp, rdp, 1 - s))
            if self.per_game:
                self._close()
        self._close()

    def strength(self, player: str) -> float:
        return self._get(player)[0]


class WengLin:
    """An openskill model, one game a match, ranked by score."""

    def __init__(self, model: object):
        self.model = model
        self.players: dict[str, object] = {}

    def rate_event(self, games: Sequence[Game]) -> None:
        for game in games:
            teams = [[self.players.get(p) or self.model.rating()] for p, _ in game]  # type: ignore[attr-defined]
            rated = self.model.rate(teams, scores=[float(s) for _, s in game])  # type: ignore[attr-defined]
            for (p, _), [rating] in zip(game, rated, strict=True):
                self.players[p] = rating

    def strength(self, player: str) -> float:
        rating = self.players.get(player)
        return rating.mu if rating is not None else self.model.mu  # type: ignore[attr-defined]


# --- the simulation ------------------------------------------------------------------------------------


def tables_of(players: list[str], rng: random.Random) -> list[list[str]]:
    """Random tables of 3 to 6: as few tables of at most 6 as can seat everyone, sizes as even as possible."""
    rng.shuffle(players)
    count = max(1, math.ceil(len(players) / 6))
    return [players[i::count] for i in range(count)]


def simulate(seed: int) -> tuple[dict[str, float], list[list[Game]]]:
    rng = random.Random(seed)
    skills = {f"p{i:02d}": rng.gauss(0, 1) for i in range(POOL)}
    events = []
    for _ in range(EVENTS):
        present = [p for p in skills if rng.random() < PRESENT]
        games = []
        for _ in range(SESSIONS):
            for table in tables_of(list(present), rng):
                games.append([(p, round(BASE + SKILL_POINTS * skills[p] + rng.gauss(0, LUCK))) for p in table])
        events.append(games)
    return skills, events


def kendall_tau_b(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    concordant = discordant = ties_x = ties_y = 0
    for i, j in combinations(range(len(xs)), 2):
        dx, dy = xs[i] - xs[j], ys[i] - ys[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    denominator = math.sqrt((concordant + discordant + ties_x) * (concordant + discordant + ties_y))
    if not denominator:
        return 0.0 if concordant + discordant + ties_x + ties_y else None  # one side constant: no association
    return (concordant - discordant) / denominator


def predict(strength: Callable[[str], float], games: Sequence[Game]) -> tuple[float, float]:
    right = pairs = 0.0
    taus = []
    for game in games:
        for (p, sp), (q, sq) in combinations(game, 2):
            if sp == sq:
                continue
            pairs += 1
            diff = (strength(p) - strength(q)) * (sp - sq)
            right += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        tau = kendall_tau_b([strength(p) for p, _ in game], [s for _, s in game])
        if tau is not None:
            taus.append(tau)
    return right / pairs, statistics.fmean(taus)


SYSTEMS: dict[str, Callable[[], object]] = {
    "openskill Plackett-Luce": lambda: WengLin(PlackettLuce()),
    "openskill Bradley-Terry full": lambda: WengLin(BradleyTerryFull()),
    "openskill Thurstone-Mosteller full": lambda: WengLin(ThurstoneMostellerFull()),
    "Glicko-2 pairwise, period = event": lambda: PairwiseGlicko2(per_game=False),
    "Glicko-2 pairwise, period = game": lambda: PairwiseGlicko2(per_game=True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    check_glicko2()
    print(
        f"{POOL} players, each at an event with chance {PRESENT}, {EVENTS} events of {SESSIONS} sessions, tables of 3 to 6; "
        f"game score = {BASE:g} + {SKILL_POINTS:g} x skill + luck (sd {LUCK:g}); {args.seeds} seeds; predicting events 2 to {EVENTS}"
    )
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in ["hidden skill (ceiling)", "no rating", *SYSTEMS]}
    early: dict[str, list[float]] = {name: [] for name in SYSTEMS}
    for seed in range(args.seeds):
        skills, events = simulate(seed)
        systems = {name: make() for name, make in SYSTEMS.items()}
        for k, games in enumerate(events):
            if k:
                figures["hidden skill (ceiling)"].append(predict(skills.__getitem__, games))
                figures["no rating"].append(predict(lambda _p: 0.0, games))
                for name, system in systems.items():
                    accuracy, tau = predict(system.strength, games)  # type: ignore[attr-defined]
                    figures[name].append((accuracy, tau))
                    if k <= 2:
                        early[name].append(accuracy)
            for system in systems.values():
                system.rate_event(games)  # type: ignore[attr-defined]
    print(f"{'system':<38} {'pairwise accuracy':>18} {'± s.e.':>7} {'Kendall tau-b':>14} {'accuracy, events 2-3':>21}")
    for name, rows in figures.items():
        accuracies = [a for a, _ in rows]
        accuracy = statistics.fmean(accuracies)
        error = statistics.stdev(accuracies) / math.sqrt(len(accuracies))
        tau = statistics.fmean(t for _, t in rows)
        first = f"{statistics.fmean(early[name]):.4f}" if name in early else ""
        print(f"{name:<38} {accuracy:>18.4f} {error:>7.4f} {tau:>14.4f} {first:>21}")
    reference = [a for a, _ in figures["openskill Plackett-Luce"]]
    for name in SYSTEMS:
        if name != "openskill Plackett-Luce":
            differences = [a - b for (a, _), b in zip(figures[name], reference, strict=True)]
            error = statistics.stdev(differences) / math.sqrt(len(differences))
            print(f"paired, event by event: {name} - Plackett-Luce = {statistics.fmean(differences):+.4f} ± {error:.4f} (s.e.)")


if __name__ == "__main__":
    main()

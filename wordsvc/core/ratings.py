"""Player ratings across events: Glicko-2 over the pairs of each table, one rating period per event.

A pure function of stored games, recomputable at any time: :func:`ratings`
replays every rated event in (closed_at, id) order from nothing, so no
rating is ever stored that cannot be recomputed. Standard library only.

The model is Glickman's Glicko-2 ("Example of the Glicko-2 system", Boston
University, revised 2022), steps 1 to 8 as published, in
:func:`glicko2_update`. A Quiddler game of n players is read as the
n(n-1)/2 games between each two of them (the higher final score wins: 1;
equal scores: 1/2 each; 0 for the lower), and one event is one rating
period: every result of the event is rated against the ratings from before
it. A rated player absent from an event has their deviation grown by the
paper's step 6. Why this model and not OpenSkill's Plackett-Luce, and the
figures that decided it: docs/ratings.md and ``bench/ratings.py``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from . import problem_codes as codes
from .errors import Problems

__all__ = ["PROVISIONAL_GAMES", "RATING_SYSTEM", "RatedEvent", "display_rating", "glicko2_update", "ratings"]

#: Glicko-2's scale factor between the rating scale (1500-based) and its internal one (the paper's step 2).
SCALE = 173.7178
START_RATING, START_DEVIATION, START_VOLATILITY = 1500.0, 350.0, 0.06  # the paper's values for an unrated player
TAU = 0.5  # the system constant; the paper suggests 0.3 to 1.2
EPSILON = 0.000001  # the paper's convergence tolerance for the volatility
#: A rating stays provisional until its player has this many rated games.
PROVISIONAL_GAMES = 10

RATING_SYSTEM: dict[str, Any] = {
    "model": "Glicko-2",
    "reference": 'Mark E. Glickman, "Example of the Glicko-2 system", Boston University, revised 2022',
    "games": "each game is split into the games between each two of its players: the higher final score wins (1), equal scores draw (1/2 each)",
    "rating_period": "one event; events in (closed_at, id) order; a rated player absent from an event has their deviation grown (step 6)",
    "parameters": {
        "initial_rating": START_RATING,
        "initial_deviation": START_DEVIATION,
        "initial_volatility": START_VOLATILITY,
        "tau": TAU,
        "epsilon": EPSILON,
        "scale": SCALE,
    },
    "mu": "the Glicko-2 rating r (1500-based scale)",
    "sigma": "the rating deviation RD (same scale)",
    "display": "rating = round(mu - 2 * sigma), half to even: the lower end of a 95 % interval, 800 for a new player",
    "provisional": f"fewer than {PROVISIONAL_GAMES} rated games",
}


@dataclass(frozen=True)
class RatedEvent:
    """A closed event's complete games: each game is (rating id, final score) pairs; players without a rating id are left out by the caller."""

    id: str
    closed_at: str  # ISO 8601
    games: tuple[tuple[tuple[str, int], ...], ...]


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def glicko2_update(rating: float, deviation: float, volatility: float, results: Sequence[tuple[float, float, float]]) -> tuple[float, float, float]:
    """One rating period of one player (the paper's steps 2 to 8).

    ``results``: (opponent's rating, opponent's deviation, score 1, 1/2 or 0),
    the opponents' values from before the period. Returns the new (rating,
    deviation, volatility); with no results only the deviation grows (step 6).
    """
    mu, phi = (rating - START_RATING) / SCALE, deviation / SCALE
    if not results:
        return rating, math.sqrt(phi * phi + volatility * volatility) * SCALE, volatility
    opponents = [((r_j - START_RATING) / SCALE, rd_j / SCALE, s) for r_j, rd_j, s in results]
    v = 1 / sum(_g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents)  # step 3
    improvement = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    delta = v * improvement  # step 4
    a = math.log(volatility * volatility)  # step 5: the Illinois algorithm

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    new_volatility = math.exp(big_a / 2)
    phi_star = math.sqrt(phi * phi + new_volatility * new_volatility)  # step 6
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)  # step 7
    new_mu = mu + new_phi * new_phi * improvement
    return new_mu * SCALE + START_RATING, new_phi * SCALE, new_volatility  # step 8


def display_rating(mu: float, sigma: float) -> int:
    """The number shown: ``round(mu - 2 * sigma)`` (Python's round, half to even)."""
    return round(mu - 2 * sigma)


def ratings(events: Sequence[RatedEvent]) -> dict[str, dict[str, Any]]:
    """Every rating id's rating after ``events``, replayed from nothing in (closed_at, id) order.

    Per id: ``{"id", "rating", "mu", "sigma", "volatility", "games", "events",
    "provisional", "history"}``; history has one entry per event the player
    played, ``{"event", "closed_at", "rating", "mu", "sigma", "games"}``, as
    they stood after it. Same input, same output: each player's results are
    summed in a fixed order, whatever the order of the games in an event.
    Raises :class:`~wordsvc.core.errors.InvalidRequest` if a game names a rating id twice.
    """
    _check(events)
    state: dict[str, tuple[float, float, float]] = {}
    games: dict[str, int] = {}
    played: dict[str, list[dict[str, Any]]] = {}
    for event in sorted(events, key=lambda e: (e.closed_at, e.id)):
        results: dict[str, list[tuple[float, float, float]]] = {}
        before = dict(state)
        for game in event.games:
            for player, _ in game:
                games[player] = games.get(player, 0) + 1
            for (p, score_p), (q, score_q) in combinations(game, 2):
                r_p, rd_p, _ = before.get(p, (START_RATING, START_DEVIATION, START_VOLATILITY))
                r_q, rd_q, _ = before.get(q, (START_RATING, START_DEVIATION, START_VOLATILITY))
                s = 1.0 if score_p > score_q else 0.0 if score_p < score_q else 0.5
                results.setdefault(p, []).append((r_q, rd_q, s))
                results.setdefault(q, []).append((r_p, rd_p, 1.0 - s))
        for player in sorted(set(before) | set(results)):
            current = before.get(player, (START_RATING, START_DEVIATION, START_VOLATILITY))
            state[player] = glicko2_update(*current, sorted(results.get(player, ())))
            if player in results:
                mu, sigma, _ = state[player]
                played.setdefault(player, []).append(
                    {"event": event.id, "closed_at": event.closed_at, "rating": display_rating(mu, sigma), "mu": mu, "sigma": sigma, "games": games[player]}
                )
    out = {}
    for player in sorted(state):
        mu, sigma, volatility = state[player]
        out[player] = {
            "id": player,
            "rating": display_rating(mu, sigma),
            "mu": mu,
            "sigma": sigma,
            "volatility": volatility,
            "games": games.get(player, 0),
            "events": len(played.get(player, ())),
            "provisional": games.get(player, 0) < PROVISIONAL_GAMES,
            "history": played.get(player, []),
        }
    return out


def _check(events: Sequence[RatedEvent]) -> None:
    problems = Problems()
    for i, event in enumerate(events):
        for j, game in enumerate(event.games):
            ids = [player for player, _ in game]
            if len(set(ids)) != len(ids):
                problems.add(("events", i, "games", j), f"event {event.id}: a game names a rating id twice", code=codes.DUPLICATE_NAME)
    problems.raise_if_any("Some rated games cannot be counted.")

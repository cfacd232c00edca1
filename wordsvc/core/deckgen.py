"""Deriving a deck for a language from the letter frequencies of its lexicon.

Quiddler's English deck follows letter rarity: common letters come in many
copies and are cheap, rare ones come in two and are dear. This module makes
that rule explicit and applies it to any language, reproducibly:

* **Double-letter cards**: the ``doubles`` most frequent letter pairs, two
  copies each (English has five: QU IN ER CL TH).
* **Counts**: every letter gets ``min_count`` copies; the rest of the single
  cards are shared in proportion to letter frequency (largest remainders).
* **Values**: ``value = a + b * ln(1 / share)``, clamped to ``[2, 15]``, with
  ``a`` and ``b`` fitted by least squares to the English deck against English
  letter shares, so a letter as rare as English K costs what K costs. A double
  card is worth the sum of its letters' values, at most ``double_cap`` (10;
  English: IN 7, ER 7, TH 9, CL 10, QU 9).

A language whose published deck (or whose alphabet) fixes its double cards
names them instead, each with its count (``named_doubles``: the German
edition has CH x2, ER x2, QU x1; Spanish lays CH, LL and RR as units), and a
published value range other than English's 2 to 15 (German: 2 to 9) is
given as ``value_range``: the fitted value is then mapped linearly from 2..15
onto that range before rounding, so the order of the letters' values is
the English fit's and only the scale changes. With neither, the plan is
exactly the one above (the existing decks stay byte-identical).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["DeckPlan", "LetterStats", "fit_values", "letter_stats", "plan_deck"]

MIN_VALUE, MAX_VALUE = 2, 15


@dataclass(frozen=True)
class LetterStats:
    letters: Counter[str]
    pairs: Counter[str]
    words: int


def letter_stats(forms: Iterable[str], alphabet: Iterable[str]) -> LetterStats:
    """Letter and adjacent-pair counts over ``forms`` written wholly in ``alphabet``."""
    allowed = frozenset(alphabet)
    letters: Counter[str] = Counter()
    pairs: Counter[str] = Counter()
    words = 0
    for form in forms:
        if not form or not set(form) <= allowed:
            continue
        words += 1
        letters.update(form)
        pairs.update(form[i : i + 2] for i in range(len(form) - 1))
    return LetterStats(letters, pairs, words)


def fit_values(shares: Mapping[str, float], values: Mapping[str, int]) -> tuple[float, float]:
    """Least-squares ``(a, b)`` of ``value ~ a + b * ln(1/share)`` over the letters in both."""
    xs = [math.log(1 / shares[k]) for k in values if shares.get(k)]
    ys = [values[k] for k in values if shares.get(k)]
    n = len(xs)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    b = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
    return mean_y - b * mean_x, b


@dataclass(frozen=True)
class DeckPlan:
    cards: dict[str, tuple[int, int]]  # face -> (count, value)
    shares: dict[str, float]
    fit: tuple[float, float]


def plan_deck(
    stats: LetterStats,
    alphabet: Iterable[str],
    fit: tuple[float, float],
    size: int = 118,
    doubles: int = 5,
    double_copies: int = 2,
    min_count: int = 2,
    double_cap: int = 10,
    named_doubles: Mapping[str, int] | None = None,
    value_range: tuple[int, int] = (MIN_VALUE, MAX_VALUE),
) -> DeckPlan:
    """A deck of ``size`` cards for ``alphabet`` from ``stats`` and the value ``fit``.

    ``named_doubles`` (face -> count, lowercase) replaces the ``doubles`` most
    frequent pairs; ``value_range`` rescales the values (module docstring).
    A named double must be two letters of ``alphabet`` (``ValueError``).
    """
    alphabet = list(alphabet)
    total = sum(stats.letters[ch] for ch in alphabet)
    shares = {ch: stats.letters[ch] / total if total else 0.0 for ch in alphabet}
    double_counts = _double_counts(stats, shares, doubles, double_copies, named_doubles)
    singles = size - sum(double_counts.values())
    spare = singles - min_count * len(alphabet)
    if spare < 0:
        raise ValueError(f"{size} cards cannot hold {min_count} of each of {len(alphabet)} letters")
    raw = {ch: spare * shares[ch] for ch in alphabet}
    counts = {ch: min_count + int(raw[ch]) for ch in alphabet}
    left = singles - sum(counts.values())
    for ch in sorted(alphabet, key=lambda c: (-(raw[c] - int(raw[c])), c))[:left]:
        counts[ch] += 1
    a, b = fit
    low, high = value_range
    values = {ch: _scaled(a + b * math.log(1 / shares[ch]), low, high) if shares[ch] else high for ch in alphabet}
    cards = {ch: (counts[ch], values[ch]) for ch in alphabet}
    for pair, copies in double_counts.items():
        cards[pair] = (copies, min(values[pair[0]] + values[pair[1]], double_cap))
    return DeckPlan(cards, shares, fit)


def _double_counts(stats: LetterStats, shares: Mapping[str, float], doubles: int, double_copies: int, named: Mapping[str, int] | None) -> dict[str, int]:
    """Double card -> copies: the ``named`` ones as given, else the ``doubles`` most frequent pairs of the alphabet's letters."""
    if named is not None:
        bad = [face for face in named if len(face) != 2 or face[0] not in shares or face[1] not in shares]
        if bad:
            raise ValueError(f"named doubles {bad} are not two letters of the alphabet")
        return dict(named)
    ranked = [p for p, _ in sorted(stats.pairs.items(), key=lambda kv: (-kv[1], kv[0])) if p[0] in shares and p[1] in shares]
    return {pair: double_copies for pair in ranked[:doubles]}


def _scaled(x: float, low: int, high: int) -> int:
    """The fitted value ``x`` (on English's 2..15 scale) as a card value in ``low..high``: mapped linearly, rounded, clamped."""
    if (low, high) != (MIN_VALUE, MAX_VALUE):
        x = low + (x - MIN_VALUE) * (high - low) / (MAX_VALUE - MIN_VALUE)
    return max(low, min(high, round(x)))

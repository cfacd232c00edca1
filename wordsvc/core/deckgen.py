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
) -> DeckPlan:
    """A deck of ``size`` cards for ``alphabet`` from ``stats`` and the value ``fit``."""
    alphabet = list(alphabet)
    total = sum(stats.letters[ch] for ch in alphabet)
    shares = {ch: stats.letters[ch] / total if total else 0.0 for ch in alphabet}
    pairs = [p for p, _ in sorted(stats.pairs.items(), key=lambda kv: (-kv[1], kv[0])) if p[0] in shares and p[1] in shares][:doubles]
    singles = size - double_copies * len(pairs)
    spare = singles - min_count * len(alphabet)
    if spare < 0:
        raise ValueError(f"{size} cards cannot hold {min_count} of each of {len(alphabet)} letters")
    raw = {ch: spare * shares[ch] for ch in alphabet}
    counts = {ch: min_count + int(raw[ch]) for ch in alphabet}
    left = singles - sum(counts.values())
    for ch in sorted(alphabet, key=lambda c: (-(raw[c] - int(raw[c])), c))[:left]:
        counts[ch] += 1
    a, b = fit
    values = {ch: _clamp(a + b * math.log(1 / shares[ch])) if shares[ch] else MAX_VALUE for ch in alphabet}
    cards = {ch: (counts[ch], values[ch]) for ch in alphabet}
    for pair in pairs:
        cards[pair] = (double_copies, min(values[pair[0]] + values[pair[1]], double_cap))
    return DeckPlan(cards, shares, fit)


def _clamp(x: float) -> int:
    return max(MIN_VALUE, min(MAX_VALUE, round(x)))

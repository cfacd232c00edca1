"""Estonian solver coverage: how often the best play misses a word Vabamorf accepts but no candidate list proposes.

Vabamorf cannot list its words, so the Estonian solver plays the best of what
its anagram index proposes (:mod:`wordsvc.data.estonian_candidates`): the
forms of myspell-et, and every word of up to ``SHORT_LETTERS`` letters; a
hand of at most ``EXHAUSTIVE_CARDS`` cards also gets every ordering of its
cards proposed (:mod:`wordsvc.core.solver.solver`). This script deals random hands from the ``eesti`` deck (the round's cards plus the
drawn one, so one card is discarded) and finds each hand's true best score by
brute force over Vabamorf's own verdicts: every ordering of every
sub-multiset of the hand's cards is judged by ``judge_cards`` (what
``/validate`` answers), then the best arrangement of the accepted words is
found over subsets of card positions. It prints how many hands' best score
the solver misses, and in the same run how many each smaller candidate set
would miss (the best score over the accepted words it proposes): myspell-et
alone (where this project started), and the index without the exhaustive
small hands. It also checks that the solver scores exactly the best over
the words it proposes, and exits 1 if not. The first and the last line time a
fixed Python loop (:func:`common.machine_loop_ms`): how loaded the machine
was while the times were taken.

Hands of 4 to 8 cards (rounds 3 to 7): an 11-card hand has 110 million
orderings, beyond brute force. Needs the Estonian index built and, for the
baseline, ``unmunch`` and myspell-et (``make setup`` installs them as root).

Run: ``.venv/bin/python bench/estonian_coverage.py [--hands 200] [--sizes 4,5,6,7,8] [--seed 11]``
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from functools import cache

from common import machine_line, summary

from wordsvc.config import Settings
from wordsvc.core.solver.candidates import letter_key
from wordsvc.core.solver.solver import EXHAUSTIVE_CARDS
from wordsvc.core.verdict import judge_cards
from wordsvc.data.estonian_candidates import SHORT_LETTERS, unmunch_forms
from wordsvc.service import Service
from wordsvc.service.solvers import Solvers


def accepted_words(hand: list[str], judge) -> dict[int, list[str]]:  # type: ignore[no-untyped-def]
    """Every word Vabamorf accepts from the hand, by the mask of card positions it uses."""
    words: dict[int, list[str]] = {}
    for mask in range(1, 1 << len(hand)):
        cards = [hand[i] for i in range(len(hand)) if mask >> i & 1]
        found = ["".join(order) for order in set(itertools.permutations(cards)) if judge(order)]
        if found:
            words[mask] = found
    return words


def best_score(hand: list[str], points: dict[int, int], value) -> int:  # type: ignore[no-untyped-def]
    """The best round score with exactly one card discarded, over words laid by the masks in ``points``."""

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        found = best(mask ^ low) - value(hand[low.bit_length() - 1])  # the lowest card left unused
        sub = mask
        while sub:
            if sub & low and sub in points:
                found = max(found, points[sub] + best(mask ^ sub))
            sub = (sub - 1) & mask
        return found

    everything = (1 << len(hand)) - 1
    return max(best(everything ^ (1 << d)) for d in range(len(hand)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--sizes", default="4,5,6,7,8", help="cards per hand, the drawn card included")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(machine_line())

    settings = Settings.from_env()
    service = Service.from_settings(settings)
    solver = Solvers.from_data_dir(service, settings.data_dir).get("eesti", "et")
    ruleset, lexicon, index = solver.ruleset, solver.lexicon, solver.candidates
    deck = ruleset.deck
    started = time.perf_counter()
    hunspell_short = {form for form in unmunch_forms() if len(form) <= SHORT_LETTERS}
    print(f"myspell-et forms of at most {SHORT_LETTERS} letters: {len(hunspell_short):,} (read in {time.perf_counter() - started:.0f} s)")

    def proposed(word: str) -> bool:
        return word in index.candidates(letter_key(word))

    def hunspell(word: str) -> bool:  # the index holds myspell's longer forms and nothing else that long
        return word in hunspell_short if len(word) <= SHORT_LETTERS else proposed(word)

    verdicts: dict[tuple[str, ...], bool] = {}

    def judge(cards: tuple[str, ...]) -> bool:
        known = verdicts.get(cards)
        if known is None:
            known = verdicts[cards] = judge_cards(cards, ruleset, lexicon).valid
        return known

    cards = [face for face, card in deck.cards.items() for _ in range(card.count)]
    rng = random.Random(args.seed)
    missed = Counter[str]()
    dealt = Counter[int]()
    examples: list[str] = []
    disagreements = 0
    solve_times: dict[int, list[float]] = {}
    started = time.perf_counter()
    for number in range(args.hands):
        hand = rng.sample(cards, sizes[number % len(sizes)])
        dealt[len(hand)] += 1
        began = time.perf_counter()  # before the reference warms Vabamorf's cache
        solved = solver.solve(hand, discard=True).best
        solve_times.setdefault(len(hand), []).append(time.perf_counter() - began)
        words = accepted_words(hand, judge)

        def best_with(keep, words=words, hand=hand) -> int:  # type: ignore[no-untyped-def]
            points = {mask: deck.points([hand[i] for i in range(len(hand)) if mask >> i & 1]) for mask, found in words.items() if any(map(keep, found))}
            return best_score(hand, points, deck.value)

        optimum = best_with(lambda word: True)
        indexed = best_with(proposed)
        if solved.score != (optimum if len(hand) <= EXHAUSTIVE_CARDS else indexed):
            disagreements += 1
            print(f"SOLVER DISAGREES with the best over its own candidates: {hand}")
        if best_with(hunspell) < optimum:
            missed["baseline"] += 1
        if indexed < optimum:
            missed["index"] += 1
        if solved.score < optimum:
            missed["solver"] += 1
            missed[f"solver {len(hand)}"] += 1
            lacking = sorted({word for found in words.values() for word in found if not proposed(word)}, key=lambda w: (-len(w), w))
            examples.append(f"  {' '.join(hand)}: solver {solved.score} ({' '.join(w.word for w in solved.words) or 'no word'}), best {optimum}; unproposed words: {' '.join(lacking[:6])}")
    seconds = time.perf_counter() - started

    print(f"{args.hands} hands from the eesti deck, {'/'.join(map(str, sizes))} cards (one discarded), seed {args.seed}")
    print(f"reference: every ordering of every sub-multiset, {len(verdicts):,} layings judged by Vabamorf, {seconds:.0f} s")
    print(f"{'candidates':66} hands whose best score is missed")
    for label, key in (
        ("myspell-et's forms alone (baseline)", "baseline"),
        (f"+ every word of <= {SHORT_LETTERS} letters (the index)", "index"),
        (f"+ every ordering of a hand of <= {EXHAUSTIVE_CARDS} cards (the solver)", "solver"),
    ):
        print(f"{label:66} {missed[key]:4} ({missed[key] / args.hands:.1%})")
    print("the solver by hand size: " + ", ".join(f"{size} cards {missed[f'solver {size}']}/{dealt[size]}" for size in sorted(dealt)))
    print("its median time a hand:  " + ", ".join(f"{size} cards {summary(solve_times[size])['p50']:.1f} ms" for size in sorted(dealt)))
    if examples:
        print("missed:")
        print("\n".join(examples[:10]))
    print(machine_line())
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

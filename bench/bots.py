"""Bots benchmark: the ladder of levels, the top level against the optimum of its hands, and a bot's move time.

1. **The ladder.** Each level against the one below (and the top against the
   bottom) in ``--games`` two-seat games of the ``standard`` ruleset with the
   built English lexicon, seeded: game ``i`` deals from a seed drawn from
   ``random.Random(--seed)`` and seats the stronger level first in even games,
   second in odd ones. Prints the stronger level's win share (a tie counts
   half) and its average game total beside the weaker one's.
2. **The top level against the optimum.** In the same games, every round the
   top level played: its round score before bonuses (word points minus unused
   points, as ``POST /score-round`` reports them) beside the exact solver's
   best score of the very hand it ended the round with (its words' cards and
   its unused cards). The share is what the top level got of the optimum; the
   optimum knows the final hand, which the bot did not when it chose its draws,
   so the share differs from 100 % only where the bot went out within its
   level's slack of the best play. A second figure compares the round score
   with the best play of the best hand the bot held at any point of the round
   (after each of its draws): what it gave up by drawing on.
3. **Move time.** Per language with a deck: a bot of the top and of the bottom
   level play ``--timing-games`` two-seat games of the language's ruleset with
   every round dealt 10 cards (its last round's size, eight times: a round of
   10 cards often ends on its first turns, so the games of the ruleset as it
   is give few); every move made with a 10-card hand is timed,
   projection in, public move out. The baseline, measured in the same run on
   the same hands, is the exact solver's best play of the hand with the card
   drawn (``discard: true``), what ``POST /best-meld`` computes. A language
   whose lexicon or index is not built is skipped with a note.

Run: ``.venv/bin/python bench/bots.py [--games 40] [--timing-games 10] [--seed 52] [--no-ladder] [--no-timing]``.
The first and last lines time a fixed Python loop (:func:`common.machine_line`);
the timed figures move with it on a shared machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable

from common import machine_line, summary

from wordsvc.config import Settings
from wordsvc.core.play import Knobs, apply, new_game
from wordsvc.core.play.bot_levels import LEVELS
from wordsvc.core.play.bots import Bot
from wordsvc.core.play.views import project, resolve
from wordsvc.core.scoring import score_round
from wordsvc.core.solver.solver import Solver
from wordsvc.service import Service
from wordsvc.service.solvers import Solvers

#: (language, ruleset) for every language with a deck: the rulesets naming a language and a deck of its own.
DECKS = (
    ("en-US", "standard"), ("da", "dansk"), ("de", "deutsch"), ("es", "espanol"), ("et", "eesti"), ("fr", "francais"),
    ("is", "islenska"), ("it", "italiano"), ("nl", "nederlands"), ("pl", "polski"), ("pt", "portugues"),
)  # fmt: skip

Watch = Callable[[int, dict, float], None]


def play(  # type: ignore[no-untyped-def]
    service: Service, solvers: Solvers, ruleset_id: str, levels: tuple[int, int], seed: str, rng: random.Random, watch: Watch | None = None, tens: bool = False
):
    """One game of two bots (seat 0 at ``levels[0]``); ``watch(seat, view, seconds)`` sees every move timed. The final state.

    ``tens``: every round deals 10 cards (the ruleset's last round, eight times), so each game times many 10-card moves.
    """
    ruleset, lexicon = service.resolve(ruleset_id, None)
    if tens:
        ruleset = dataclasses.replace(ruleset, rounds=(ruleset.rounds[-1],) * len(ruleset.rounds))
    solver = solvers.get(ruleset_id)
    bots = [Bot(level, ruleset, lexicon, solver, random.Random(rng.getrandbits(64))) for level in levels]
    state = new_game(ruleset, seed, [f"L{level}" for level in levels], lexicon, Knobs())
    while not state.over:
        r = state.current
        seat = r.turn if r.phase.value != "challenges" else r.passed.index(False)
        view = project(state, seat)
        started = time.perf_counter()
        move = bots[seat].move(view)
        elapsed = time.perf_counter() - started
        if watch is not None:
            watch(seat, view, elapsed)
        state = apply(state, resolve(state, seat, move), ruleset, lexicon)
    return state


def peak_watch(mine: int, solver: Solver, peaks: dict[int, int]) -> Watch:
    """A watch keeping in ``peaks`` (round -> score) the best play of seat ``mine``'s best hand after a draw."""

    def watch(seat: int, view: dict, seconds: float) -> None:
        r = view["round"]
        if seat == mine and r["phase"] == "discard":
            peak = solver.solve(r["hand"], discard=True).best.score
            peaks[r["number"]] = max(peak, peaks.get(r["number"], peak))

    return watch


def time_watch(levels: tuple[int, int], moves: dict[int, list[float]], hands: list[list[str]]) -> Watch:
    """A watch keeping the times of the moves made with a 10-card hand, by level, and the hands with the card drawn."""

    def watch(seat: int, view: dict, seconds: float) -> None:
        r = view["round"]
        if r["hand_size"] == 10:
            moves[levels[seat]].append(seconds)
            if len(r["hand"]) == 11:
                hands.append(r["hand"])

    return watch


def ladder(service: Service, solvers: Solvers, games: int, seed: int) -> None:
    top, bottom = max(LEVELS), min(LEVELS)
    pairs = [(level, level - 1) for level in sorted(LEVELS) if level > bottom] + [(top, bottom)]
    ruleset = service.ruleset("standard")
    _, lexicon = service.resolve("standard", None)
    solver = solvers.get("standard")
    got: list[int] = []
    best: list[int] = []
    peak: list[int] = []
    print(f"the ladder: {games} two-seat games of standard (en-US) a pair, seed {seed}")
    for strong, weak in pairs:
        rng = random.Random(f"{seed}-{strong}-{weak}")
        wins, totals = 0.0, {strong: [], weak: []}
        for i in range(games):
            levels = (strong, weak) if i % 2 == 0 else (weak, strong)
            s = levels.index(strong)
            peaks: dict[int, int] = {}
            watch = peak_watch(s, solver, peaks) if strong == top else None
            state = play(service, solvers, "standard", levels, f"{rng.getrandbits(256):064x}", rng, watch)
            mine, theirs = state.totals[s], state.totals[1 - s]
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            totals[strong].append(mine)
            totals[weak].append(theirs)
            if strong == top:
                for finished in state.finished:
                    round_play = finished.play(state.players, None)
                    scored = score_round(round_play, ruleset, lexicon).players[s]
                    got.append(scored.word_points - scored.unused_points)
                    mine = round_play.players[s]
                    best.append(solver.solve([card for word in mine.words for card in word] + list(mine.unused)).best.score)
                    peak.append(peaks[finished.number])
        print(
            f"  level {strong} ({LEVELS[strong].name}) vs level {weak} ({LEVELS[weak].name}): wins {wins / games:6.1%}"
            f"   mean total {statistics.fmean(totals[strong]):6.1f} vs {statistics.fmean(totals[weak]):6.1f}"
        )
    print(
        f"level {top} ({LEVELS[top].name}) against the optimum of its final hands, {len(got)} rounds: "
        f"mean round score {statistics.fmean(got):.2f}, optimum {statistics.fmean(best):.2f}, share {sum(got) / sum(best):.1%}"
    )
    print(
        f"  and against the best hand it held in the round (the optimum of its best hand after a draw): "
        f"mean {statistics.fmean(peak):.2f}, share {sum(got) / sum(peak):.1%}"
    )


def timing(service: Service, solvers: Solvers, games: int, seed: int) -> None:
    top, bottom = max(LEVELS), min(LEVELS)
    print(f"move time with a 10-card hand: levels {top} and {bottom}, {games} two-seat games of 10-card rounds a language, seed {seed}")
    for lang, ruleset_id in DECKS:
        try:
            solver = solvers.get(ruleset_id)
        except Exception as err:  # an unbuilt lexicon (UnknownLanguage) or index (AnagramIndexError): skip, say why
            print(f"  {lang:6} skipped ({type(err).__name__}: {err})")
            continue
        moves: dict[int, list[float]] = {top: [], bottom: []}
        hands: list[list[str]] = []
        rng = random.Random(f"{seed}-{lang}")
        for _ in range(games):
            play(service, solvers, ruleset_id, (top, bottom), f"{rng.getrandbits(256):064x}", rng, time_watch((top, bottom), moves, hands), tens=True)
        baseline = []
        for hand in hands:
            started = time.perf_counter()
            solver.solve(hand, discard=True)
            baseline.append(time.perf_counter() - started)
        line = f"  {lang:6} {ruleset_id:11}"
        for level in (top, bottom):
            s = summary(moves[level])
            line += f"  level {level}: p50 {s['p50']:6.2f} ms p99 {s['p99']:7.2f} ms ({s['n']} moves)"
        b = summary(baseline)
        print(f"{line}  | baseline solve of the 11-card hand: p50 {b['p50']:6.2f} ms p99 {b['p99']:7.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games a pair of levels in the ladder")
    parser.add_argument("--timing-games", type=int, default=10, help="games a language for the move times")
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--no-ladder", action="store_true")
    parser.add_argument("--no-timing", action="store_true")
    args = parser.parse_args()
    settings = Settings.from_env()
    service = Service.from_settings(settings)
    solvers = Solvers.from_data_dir(service, settings.data_dir)
    print(machine_line())
    if not args.no_ladder:
        ladder(service, solvers, args.games, args.seed)
    if not args.no_timing:
        timing(service, solvers, args.timing_games, args.seed)
    print(machine_line())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

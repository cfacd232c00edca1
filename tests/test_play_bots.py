"""Bots (wordsvc.core.play.bots): whole games of legal moves from the projection alone, at every level, and the ladder.

A bot is driven here exactly as the server drives it: ``project(state, seat)``
in, a public move out, ``resolve`` and ``apply``. Any refused move raises
``IllegalMove`` and fails the test. The games use the suite's English
lexicon (tests/conftest.py) with the exact solver, the German deck with
:class:`HashLexicon`, and, when built, the Icelandic lexicon whose ranks give
the low levels their common words.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from play_lexicon import HASH

from conftest import BUILD
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.core.play import DrawPileOut, GameState, Knobs, Pass, apply, new_game
from wordsvc.core.play.bot_levels import Vocabulary
from wordsvc.core.play.bots import LEVELS, Bot, NotBotsTurn
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.play.views import project, resolve
from wordsvc.core.ruleset import Ruleset
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver
from wordsvc.core.verdict import judge_cards
from wordsvc.data.rulesets import load_rulesets
from wordsvc.service.solvers import Solvers

BOOK = load_rulesets()

#: Every language with a deck, and its ruleset.
DECKS = {
    "en-US": "standard", "da": "dansk", "de": "deutsch", "es": "espanol", "et": "eesti", "fr": "francais",
    "is": "islenska", "it": "italiano", "nl": "nederlands", "pl": "polski", "pt": "portugues",
}  # fmt: skip

#: The built lexicons of the ``service`` fixture (tests/conftest.py): without them the games with them skip, and fail under CI.
LEXICONS = tuple(DECKS)


class Seat:
    """A bot at a seat that checks what it is given: the seat's projection, JSON and nothing else."""

    def __init__(self, bot: Bot, seat: int):
        self.bot, self.seat, self.moves = bot, seat, 0

    def move(self, state: GameState) -> dict[str, Any]:
        view = project(state, self.seat)
        given = json.loads(json.dumps(view))
        assert given == view  # JSON-ready: no card id, no object of the engine's can ride along
        move = self.bot.move(given)
        assert json.loads(json.dumps(move)) == move
        self.moves += 1
        return move


def to_move(state: GameState) -> int:
    """The seat the game waits for: the turn, or in a challenge window the first seat that has not passed."""
    r = state.current
    assert r is not None
    return r.passed.index(False) if r.phase.value == "challenges" else r.turn


def play(ruleset: Ruleset, lexicon: Any, solver: Solver, levels: tuple[int, ...], seed: int, knobs: Knobs | None = None) -> tuple[GameState, list[Seat]]:
    """A whole game of bots at ``levels`` (seat order), every bot's rng from ``seed``; the final state and the seats."""
    knobs = knobs or Knobs()
    rng = random.Random(seed)
    seats = [Seat(Bot(level, ruleset, lexicon, solver, random.Random(rng.getrandbits(64)), knobs), i) for i, level in enumerate(levels)]
    state = new_game(ruleset, f"{rng.getrandbits(256):064x}", [f"L{level}-{i}" for i, level in enumerate(levels)], lexicon, knobs)
    while not state.over:
        assert state.moves < 20_000, "a game that does not end"
        seat = to_move(state)
        state = apply(state, resolve(state, seat, seats[seat].move(state)), ruleset, lexicon)
    return state, seats


@pytest.fixture(scope="module")
def solvers(lexicon: MemoryLexicon) -> dict[str, Solver]:
    candidates = MemoryCandidates.from_lexicon(lexicon)
    return {rid: Solver(BOOK.get(rid), lexicon, candidates) for rid in ("standard", "junior-rules", "challenge")}


KNOBS = (
    Knobs(),
    Knobs(draw_pile_out=DrawPileOut.END_ROUND, no_going_out_first_turn=True, discard_taken_card=False),
)


@pytest.mark.parametrize("knobs", KNOBS, ids=["default-knobs", "house-knobs"])
@pytest.mark.parametrize("ruleset_id", ["standard", "junior-rules", "challenge"])
def test_every_level_plays_whole_games_with_only_legal_moves_from_its_projection(ruleset_id, knobs, lexicon, solvers):
    ruleset = BOOK.get(ruleset_id)
    state, seats = play(ruleset, lexicon, solvers[ruleset_id], tuple(sorted(LEVELS)), 7, knobs)
    assert len(state.finished) == len(ruleset.rounds) and all(seat.moves for seat in seats)


def test_bots_play_the_german_deck(lexicon):
    """The Deutsch ruleset's deck (CH, ER, Ä ...) with the hash lexicon, which has no ranks: the low levels know words by length."""
    ruleset = BOOK.get("deutsch")
    solver = Solver(ruleset, HASH, MemoryCandidates(()))
    knobs = Knobs(draw_pile_out=DrawPileOut.END_ROUND)
    state, _ = play(ruleset, HASH, solver, (1, 4, 2), 3, knobs)
    assert state.over and any(words for r in state.finished for words in r.words)


@pytest.mark.parametrize("lang", list(DECKS))
def test_bots_play_every_language_with_a_deck_with_its_built_lexicon(lang, service):
    """The top and the bottom level, one game of the language's ruleset with its lexicon and solver (Estonian: the analyser)."""
    ruleset, lexicon = service.resolve(DECKS[lang], None)
    solver = Solvers.from_data_dir(service, BUILD).get(DECKS[lang])
    state, _ = play(ruleset, lexicon, solver, (1, 4), 11)
    assert state.over and any(words for r in state.finished for words in r.words)


def test_the_ranks_of_the_built_lexicons_are_the_low_levels_common_words(service):
    """SCOWL's sizes in English; BÍN's two ranks (core, the rest) in Icelandic; a list with no ranks: every word common."""
    tiers = {lang: Vocabulary(LEVELS[1], service.languages.get(lang), random.Random(1)).tier for lang in ("en-US", "is", "fr")}
    assert (tiers["en-US"]("cat"), tiers["en-US"]("jo"), tiers["en-US"]("quipu")) == (0, 1, 2)
    assert tiers["is"]("hestur") == 0
    assert tiers["fr"]("chat") == 0


def test_the_same_seeds_play_the_same_game_byte_for_byte(lexicon, solvers):
    ruleset = BOOK.get("standard")
    first, _ = play(ruleset, lexicon, solvers["standard"], (1, 2, 3, 4), 21)
    again, _ = play(ruleset, lexicon, solvers["standard"], (1, 2, 3, 4), 21)
    assert first.canonical() == again.canonical()


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_bot_made_afresh_for_every_move_plays_as_one_kept_for_the_game(level, lexicon, solvers):
    """A move is a function of the bot's seed and the projection: a server may remake a bot after a restart."""
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    kept, _ = play(ruleset, lexicon, solver, (level, level), 31)
    seeds = random.Random(31)
    bot_seeds = [seeds.getrandbits(64) for _ in range(2)]
    state = new_game(ruleset, f"{seeds.getrandbits(256):064x}", [f"L{level}-{i}" for i in range(2)], lexicon, Knobs())
    while not state.over:
        seat = to_move(state)
        fresh = Bot(level, ruleset, lexicon, solver, random.Random(bot_seeds[seat]))
        state = apply(state, resolve(state, seat, fresh.move(project(state, seat))), ruleset, lexicon)
    assert state.canonical() == kept.canonical()


def test_the_top_level_beats_the_bottom_level_in_a_clear_majority_of_seeded_games(lexicon, solvers):
    """Two seats; the suite's 40 words rarely lay a long hand whole, so the draw pile's end closes a round."""
    ruleset, top, bottom = BOOK.get("standard"), max(LEVELS), min(LEVELS)
    wins = 0.0
    for game in range(12):
        levels = (top, bottom) if game % 2 == 0 else (bottom, top)
        state, _ = play(ruleset, lexicon, solvers["standard"], levels, 100 + game, Knobs(draw_pile_out=DrawPileOut.END_ROUND))
        mine, theirs = state.totals[levels.index(top)], state.totals[levels.index(bottom)]
        wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert wins >= 10  # 11 of 12 as it stands; two bottom-level bots split the same 12 deals 8 to 4


def test_bots_challenge_only_invalid_words_and_the_top_level_challenges_every_one(lexicon, solvers):
    """A person (random groupings, laid unjudged under the challenge ruleset) at seat 0; bots at 1 and 2."""
    ruleset, solver = BOOK.get("challenge"), solvers["challenge"]
    rng = random.Random(5)
    person = RandomPlayer(ruleset, lexicon, rng)
    bots = {1: Seat(Bot(4, ruleset, lexicon, solver, random.Random(1)), 1), 2: Seat(Bot(1, ruleset, lexicon, solver, random.Random(2)), 2)}
    state = new_game(ruleset, "5" * 64, ["Ann", "Top", "Low"], lexicon, Knobs(draw_pile_out=DrawPileOut.END_ROUND))
    challenged = 0
    while not state.over:
        seat = to_move(state)
        if seat == 0:
            move = Pass(0) if state.current.phase.value == "challenges" else person.move(state)
        else:
            r = state.current
            move = resolve(state, seat, bots[seat].move(state))
            if move.kind == "challenge":
                faces = [card.split(".")[0] for card in r.words[move.player][move.word]]
                assert not judge_cards(tuple(faces), ruleset, lexicon).valid
                challenged += seat == 1
            elif move.kind == "pass" and seat == 1:
                open_words = [(p, w) for p in (0, 2) for w in range(len(r.words[p])) if all((p, w) != (cp, cw) for _, cp, cw in r.challenges)]
                invalid = [1 for p, w in open_words if not judge_cards(tuple(c.split(".")[0] for c in r.words[p][w]), ruleset, lexicon).valid]
                assert not invalid, "the top level passed with an invalid word open"
        state = apply(state, move, ruleset, lexicon)
    assert challenged > 0


def view(hand: list[str], phase: str, *, top: str | None = "e", taken: str | None = None, out: int | None = None, turns: int = 1) -> dict[str, Any]:
    """A seat's projection (seat 0 of two) as :func:`project` shapes it, for one decision."""
    return {
        "seq": 9,
        "ruleset": "standard",
        "players": ["Bot", "Ann"],
        "viewer": 0,
        "over": False,
        "rounds": [],
        "totals": [0, 0],
        "round": {
            "number": len(hand) - 2 if phase == "draw" else len(hand) - 3,
            "dealer": 1,
            "hand_size": len(hand) if phase == "draw" else len(hand) - 1,
            "turn": 0,
            "phase": phase,
            "out": out,
            "hand_counts": [len(hand), 3],
            "draw_pile": 30,
            "discard_pile": 4,
            "discard_top": top,
            "taken": taken,
            "turns": [turns, turns],
            "words": [[], [["t", "o", "p"]] if out == 1 else []],
            "challenges": [],
            "passed": [False, False],
            "hand": hand,
        },
    }


def test_the_top_level_takes_the_discard_when_it_beats_a_draw_the_club_when_it_gains_and_the_novice_never(lexicon, solvers):
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    hand = ["t", "a", "z"]  # with the E: TEA (or EAT), Z discarded
    assert Bot(4, ruleset, lexicon, solver, random.Random(0)).move(view(hand, "draw", top="e")) == {"kind": "take"}
    # X in place of Z gains 2 points: the club player takes it; the expert draws, as a card from the pile gains more on average
    assert Bot(3, ruleset, lexicon, solver, random.Random(0)).move(view(hand, "draw", top="x")) == {"kind": "take"}
    assert Bot(4, ruleset, lexicon, solver, random.Random(0)).move(view(hand, "draw", top="x")) == {"kind": "draw"}
    assert Bot(4, ruleset, lexicon, solver, random.Random(0)).move(view(hand, "draw", top="q")) == {"kind": "draw"}  # Q gains nothing
    assert Bot(1, ruleset, lexicon, solver, random.Random(0)).move(view(hand, "draw", top="e")) == {"kind": "draw"}


def test_a_bot_goes_out_when_it_sees_a_going_out_and_discards_the_card_it_cannot_lay(lexicon, solvers):
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    bot = Bot(4, ruleset, lexicon, solver, random.Random(0))
    move = bot.move(view(["t", "e", "a", "z"], "discard"))
    assert move["kind"] == "go_out" and move["discard"] == "z" and sorted(move["words"][0]) == ["a", "e", "t"]
    assert bot.move(view(["t", "e", "x", "z"], "discard")) == {"kind": "discard", "card": "z"}


def test_the_house_rules_bar_going_out_on_the_first_turn_and_discarding_the_card_taken(lexicon, solvers):
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    first = Bot(4, ruleset, lexicon, solver, random.Random(0), Knobs(no_going_out_first_turn=True))
    assert first.move(view(["t", "e", "a", "z"], "discard", turns=0)) == {"kind": "discard", "card": "z"}
    barred = Bot(4, ruleset, lexicon, solver, random.Random(0), Knobs(discard_taken_card=False))
    move = barred.move(view(["t", "e", "a", "z"], "discard", taken="z"))
    assert move["kind"] == "discard" and move["card"] != "z"


def test_a_last_turn_lays_the_best_words_and_discards(lexicon, solvers):
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    move = Bot(4, ruleset, lexicon, solver, random.Random(0)).move(view(["t", "e", "a", "z", "x"], "discard", out=1))
    assert move["kind"] == "lay_down" and [sorted(w) for w in move["words"]] == [["a", "e", "t"]] and move["discard"] in ("z", "x")


def test_a_bot_answers_only_its_seats_turn(lexicon, solvers):
    ruleset, solver = BOOK.get("standard"), solvers["standard"]
    bot = Bot(2, ruleset, lexicon, solver, random.Random(0))
    other = view(["t", "e", "a"], "draw")
    other["round"]["turn"] = 1
    with pytest.raises(NotBotsTurn):
        bot.move(other)
    spectator = view(["t", "e", "a"], "draw") | {"viewer": None}
    with pytest.raises(NotBotsTurn):
        bot.move(spectator)
    with pytest.raises(ValueError, match="no bot level 9"):
        Bot(9, ruleset, lexicon, solver, random.Random(0))


class Ranked(MemoryLexicon):
    """The suite's words with SCOWL-like ranks: a list that knows which words are common."""

    def __init__(self, ranks: dict[str, int]):
        super().__init__(list(ranks), LexiconInfo(id="ranked", lang="en-US", version="1", sha256="4" * 64))
        self.ranks = ranks

    def rank(self, form: str) -> int | None:
        return self.ranks.get(form)


def words(n: int, length: int, rng: random.Random) -> Iterator[str]:
    for _ in range(n):
        yield "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))


def test_a_vocabulary_misses_rare_and_long_words_more_the_lower_the_level():
    rng = random.Random(3)
    short, long_, rare = list(words(2000, 3, rng)), list(words(2000, 8, rng)), list(words(2000, 4, rng))
    lexicon = Ranked({w: 10 for w in short + long_} | {w: 80 for w in rare})
    known = {}
    for number, level in LEVELS.items():
        vocabulary = Vocabulary(level, lexicon, random.Random(number))
        known[number] = [sum(map(vocabulary.knows, group)) / len(group) for group in (short, long_, rare)]
        assert vocabulary.tier(rare[0]) == 2 and vocabulary.tier(short[0]) == 0
    assert known[4] == [1.0, 1.0, 1.0]
    assert known[1][2] == 0.0  # the novice knows no rare word
    for number in (1, 2, 3):
        assert known[number][0] > known[number][1]  # long words missed more than short ones
        assert all(low <= high for low, high in zip(known[number], known[number + 1], strict=True))


def test_a_vocabulary_is_drawn_once_from_the_rng():
    lexicon = Ranked({w: 10 for w in words(500, 6, random.Random(4))})
    forms = list(lexicon.ranks)
    one, same, other = (Vocabulary(LEVELS[2], lexicon, random.Random(seed)) for seed in (1, 1, 2))
    assert [one.knows(f) for f in forms] == [same.knows(f) for f in forms] == [one.knows(f) for f in forms]
    assert [one.knows(f) for f in forms] != [other.knows(f) for f in forms]

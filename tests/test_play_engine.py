"""Property tests of the game engine (wordsvc/core/play/): random legal games, every rule held after every move.

Each example plays a whole game with :class:`RandomPlayer` seats under a
ruleset drawn from several (standard, Junior's 6 rounds, the 16-round full
game, challenge, a German and an Icelandic deck), a random seed, seat count and
knobs, and checks after every move that every card of the deck is in exactly
one place, that hands keep the size the round dealt; at the end, that the
totals are ``score_game``'s of the words laid and that replaying the log, read
back from its JSON, gives the same bytes. Now and then an illegal move is
tried: it is refused with a registered code and changes nothing.

Word lists: the fast games use :class:`HashLexicon`, where a word of letters
is valid unless its CRC-32 is a multiple of 5, so any deck's hands go out
and fail to go out at random; a few games play the suite's small English
lexicon (tests/conftest.py) with the solver finding the words, as a bot
would. The ``slow`` test plays five hundred more games (about a minute).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play_lexicon import HASH

from wordsvc.core.game import score_game
from wordsvc.core.lexicon import MemoryLexicon
from wordsvc.core.play import (
    REFUSALS,
    Challenge,
    Discard,
    Draw,
    DrawPileOut,
    GameState,
    GoOut,
    IllegalMove,
    Knobs,
    LayDown,
    Move,
    Phase,
    Take,
    apply,
    deal_round,
    move_from_dict,
    move_to_dict,
    new_game,
    replay,
    sort_cards,
)
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.ruleset import Ruleset, TwoPlayers
from wordsvc.core.solver.candidates import MemoryCandidates
from wordsvc.core.solver.solver import Solver
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
RULESETS = ["standard", "junior-rules", "full-game", "challenge", "two-player-one-bonus", "deutsch", "islenska"]


def deck_cards(ruleset: Ruleset, seats: int, number: int, seed: str) -> list[str]:
    """Every card id of round ``number``, sorted: what the round must hold wherever its cards are."""
    dealt = deal_round(ruleset, seats, number, seed)
    return sorted([*(c for hand in dealt.hands for c in hand), dealt.face_up, *dealt.draw_pile])


def check_round_invariants(state: GameState, ruleset: Ruleset, cards: list[str]) -> None:
    r = state.current
    assert r is not None
    held = r.cards()
    assert sorted(held) == cards, "a card is in two places, or in none"
    assert len(held) == ruleset.deck.size
    for seat, hand in enumerate(r.hands):
        laid = sum(map(len, r.words[seat]))
        drawing = r.phase is Phase.DISCARD and seat == r.turn
        assert len(hand) + laid == r.hand_size + drawing, (seat, r.phase)
        assert hand == sort_cards(hand)
    assert r.dealer == (r.number - 1) % len(state.players)


def illegal_moves(state: GameState, rng: random.Random) -> list[Move]:
    """Moves the rules refuse in ``state``: another seat's turn, a card not held, the wrong half of a turn, ..."""
    r = state.current
    assert r is not None
    seats = len(state.players)
    moves: list[Move] = []
    if r.phase in (Phase.DRAW, Phase.DISCARD):
        if seats > 1:
            moves.append(Draw((r.turn + rng.randrange(1, seats)) % seats))
        moves.append(Challenge(r.turn, (r.turn + 1) % seats, 0))
        stranger = next((c for c in (*r.draw_pile, *r.discard_pile[1:]) if c not in r.hands[r.turn]), None)
        hand = r.hands[r.turn]
        if r.phase is Phase.DRAW:
            moves.append(Discard(r.turn, hand[0]))
        else:
            moves += [Draw(r.turn), Take(r.turn), GoOut(r.turn, (tuple(hand),), None), GoOut(r.turn, ((hand[0], hand[0]),), hand[-1])]
            if stranger is not None:
                moves.append(Discard(r.turn, stranger))
            if r.out is None:
                moves.append(LayDown(r.turn, (), hand[0]))
            if len(hand) > 2:
                moves.append(GoOut(r.turn, (tuple(hand[:-2]),), hand[-1]))  # a card left over, or a word refused first
    elif r.phase is Phase.CHALLENGES:
        moves.append(Draw(r.turn))
        seat = rng.randrange(seats)
        moves.append(Challenge(seat, seat, 0))
    else:
        moves.append(Discard(r.turn, r.hands[r.turn][0]) if r.hands[r.turn] else Draw(r.turn))
    return moves


def play_game(ruleset: Ruleset, lexicon, seed: str, seats: int, knobs: Knobs, rng: random.Random, solver: Solver | None = None, eagerness: float = 1.0) -> None:
    """One whole game of random legal moves, every invariant checked on the way and at the end."""
    names = [f"P{i}" for i in range(seats)]
    state = new_game(ruleset, seed, names, lexicon, knobs)
    player = RandomPlayer(ruleset, lexicon, rng, solver, eagerness=eagerness)
    moves: list[Move] = []
    cards = deck_cards(ruleset, seats, 1, seed)
    while not state.over:
        assert len(moves) < 20_000, "a game that does not end"
        if rng.random() < 0.05:
            before = state.canonical()
            for move in illegal_moves(state, rng):
                with pytest.raises(IllegalMove) as refused:
                    apply(state, move, ruleset, lexicon)
                assert refused.value.code in REFUSALS
            assert state.canonical() == before
        move = player.move(state)
        number = state.current.number
        state = apply(state, move, ruleset, lexicon)
        moves.append(move)
        if not state.over:
            if state.current.number != number:  # a new round: dealt by q1, the first turn at the dealer's left
                cards = deck_cards(ruleset, seats, state.current.number, seed)
                r = state.current
                assert (r.turn, r.phase, r.turns) == ((r.dealer + 1) % seats, Phase.DRAW, (0,) * seats)
            check_round_invariants(state, ruleset, cards)
    assert len(state.finished) == len(ruleset.rounds)
    assert [r.number for r in state.finished] == list(range(1, len(ruleset.rounds) + 1))
    game = score_game(names, state.round_plays(), ruleset, lexicon)
    assert game.complete and tuple(game.totals.values()) == state.totals
    assert [tuple(r.totals().values()) for r in game.rounds] == [r.totals for r in state.finished]
    logged = [move_from_dict(json.loads(json.dumps(move_to_dict(m)))) for m in moves]
    assert logged == moves
    assert replay(ruleset, seed, names, logged, lexicon, knobs).canonical() == state.canonical()
    with pytest.raises(IllegalMove) as over:
        apply(state, Draw(0), ruleset, lexicon)
    assert over.value.code == "game_over"


@st.composite
def setups(draw):
    """``(ruleset, seed, seats, knobs, rng seed, eagerness)`` for one game."""
    ruleset = BOOK.get(draw(st.sampled_from(RULESETS)))
    seats = draw(st.integers(ruleset.players_min, ruleset.players_max))
    choice = draw(st.sampled_from(["longest_word", "most_words"])) if ruleset.two_players is TwoPlayers.CHOICE and seats == 2 else None
    knobs = Knobs(
        draw_pile_out=draw(st.sampled_from(list(DrawPileOut))),
        no_going_out_first_turn=draw(st.booleans()),
        discard_taken_card=draw(st.booleans()),
        bonus_choice=choice,
    )
    seed = draw(st.binary(min_size=32, max_size=32)).hex()
    return ruleset, seed, seats, knobs, draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from([1.0, 0.2, 0.01]))


@settings(deadline=None, database=None)  # the profile's count: 100 in the suite, 20 in `make check`
@given(setups())
def test_random_legal_games_keep_every_card_in_one_place_and_score_as_score_game(setup):
    ruleset, seed, seats, knobs, rng_seed, eagerness = setup
    play_game(ruleset, HASH, seed, seats, knobs, random.Random(rng_seed), eagerness=eagerness)


@pytest.mark.parametrize("ruleset_id", ["standard", "junior-rules", "challenge"])
def test_games_with_the_english_lexicon_and_the_solver_score_as_score_game(ruleset_id, lexicon: MemoryLexicon):
    ruleset = BOOK.get(ruleset_id)
    solver = Solver(ruleset, lexicon, MemoryCandidates.from_lexicon(lexicon))
    rng = random.Random(ruleset_id)
    knobs = Knobs(draw_pile_out=DrawPileOut.END_ROUND if ruleset_id == "challenge" else DrawPileOut.RESHUFFLE)
    play_game(ruleset, lexicon, f"{rng.getrandbits(256):064x}", 3, knobs, rng, solver)


@pytest.mark.slow
def test_five_hundred_more_random_games():
    rng = random.Random(52)
    for _ in range(500):
        ruleset = BOOK.get(rng.choice(RULESETS))
        seats = rng.randint(ruleset.players_min, ruleset.players_max)
        choice = rng.choice(["longest_word", "most_words"]) if ruleset.two_players is TwoPlayers.CHOICE and seats == 2 else None
        knobs = Knobs(rng.choice(list(DrawPileOut)), rng.random() < 0.5, rng.random() < 0.5, choice)
        play_game(ruleset, HASH, f"{rng.getrandbits(256):064x}", seats, knobs, random.Random(rng.getrandbits(32)), eagerness=rng.choice([1.0, 0.2, 0.01]))

"""Clocks of a hosted game, the pure part (wordsvc/core/play/clocks.py): settings, deadlines, the timeout move, the hand-over rule.

Times are milliseconds since the epoch, given: nothing reads a clock. The
timeout move is checked on hand-made states for each phase, and over random
whole games (Hypothesis draws the ruleset, seats, knobs and seed; seats are
``RandomPlayer`` or, at random turns, timed out): a timeout's moves are always
legal and end exactly the seat's turn, and a game of timeouts still ends.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from play_lexicon import HASH

from wordsvc.core.play import (
    TIMEOUTS_TO_BOT,
    Challenge,
    Clock,
    ClockError,
    ClockKind,
    Discard,
    Draw,
    DrawPileOut,
    GameState,
    GoOut,
    Knobs,
    LayDown,
    Pass,
    Phase,
    Take,
    apply,
    face_of,
    handed_to_bot,
    new_game,
    timeout_move,
    timeout_moves,
)
from wordsvc.core.play.clocks import bank_used, deadline, on_clock, timed_out, turns_started
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.ruleset import TwoPlayers
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
STANDARD = BOOK.get("standard")
SEED = "ab" * 32
T0 = 1_800_000_000_000  # a moment, in ms since the epoch
LIVE = Clock(ClockKind.LIVE, turn_seconds=30, bank_seconds=60)
CORRESPONDENCE = Clock(ClockKind.CORRESPONDENCE, turn_hours=48)


# --- settings -----------------------------------------------------------------------------------------------------


def test_a_casual_table_has_no_clock():
    clock = Clock()
    assert clock.kind is ClockKind.NONE
    assert (clock.turn_ms, clock.bank_ms, clock.to_dict()) == (None, 0, {"kind": "none"})


def test_live_and_correspondence_clocks_in_milliseconds_and_json():
    assert (LIVE.turn_ms, LIVE.bank_ms) == (30_000, 60_000)
    assert (CORRESPONDENCE.turn_ms, CORRESPONDENCE.bank_ms) == (48 * 3_600_000, 0)
    assert LIVE.to_dict() == {"kind": "live", "turn_seconds": 30, "bank_seconds": 60}
    assert CORRESPONDENCE.to_dict() == {"kind": "correspondence", "turn_hours": 48}
    for clock in (Clock(), LIVE, CORRESPONDENCE):
        assert Clock.from_dict(clock.to_dict()) == clock


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "blitz"}, "kind"),
        ({}, "kind"),
        ({"kind": "live", "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": 30}, "bank_seconds"),
        ({"kind": "live", "turn_seconds": 4, "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": 601, "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": 30, "bank_seconds": -1}, "bank_seconds"),
        ({"kind": "live", "turn_seconds": 30, "bank_seconds": 3601}, "bank_seconds"),
        ({"kind": "live", "turn_seconds": 30.5, "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": True, "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": "30", "bank_seconds": 60}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": 30, "bank_seconds": 60, "turn_hours": 1}, "turn_hours"),
        ({"kind": "correspondence"}, "turn_hours"),
        ({"kind": "correspondence", "turn_hours": 0}, "turn_hours"),
        ({"kind": "correspondence", "turn_hours": 337}, "turn_hours"),
        ({"kind": "correspondence", "turn_hours": 24, "bank_seconds": 0}, "bank_seconds"),
        ({"kind": "none", "turn_seconds": 30}, "turn_seconds"),
        ({"kind": "live", "turn_seconds": 30, "bank_seconds": 60, "increment": 2}, "increment"),
    ],
)
def test_a_clock_that_is_not_one_is_refused_naming_the_field(data, field):
    with pytest.raises(ClockError) as refused:
        Clock.from_dict(data)
    assert refused.value.field == field
    assert isinstance(refused.value, ValueError)


def test_a_clock_document_must_be_an_object():
    with pytest.raises(ClockError):
        Clock.from_dict(["live"])  # type: ignore[arg-type]


# --- deadlines ----------------------------------------------------------------------------------------------------


def test_no_deadline_without_a_clock():
    assert deadline(Clock(), T0, 0) is None
    assert not timed_out(Clock(), T0, 0, T0 + 10**12)
    assert bank_used(Clock(), T0, T0 + 10**9) == 0


def test_a_live_turn_runs_its_limit_then_the_bank():
    assert deadline(LIVE, T0, 60_000) == T0 + 90_000
    assert deadline(LIVE, T0, 0) == T0 + 30_000
    assert not timed_out(LIVE, T0, 60_000, T0 + 89_999)
    assert timed_out(LIVE, T0, 60_000, T0 + 90_000)


def test_only_the_time_beyond_the_turns_limit_comes_out_of_the_bank():
    assert bank_used(LIVE, T0, T0 + 29_999) == 0
    assert bank_used(LIVE, T0, T0 + 30_000) == 0
    assert bank_used(LIVE, T0, T0 + 45_500) == 15_500
    # A seat's bank over three turns: 60 s, then 45 s left after a 45-second turn, then a 10-second turn costs nothing.
    bank = LIVE.bank_ms
    for started, moved in ((T0, T0 + 45_000), (T0 + 100_000, T0 + 110_000)):
        assert not timed_out(LIVE, started, bank, moved)
        bank -= bank_used(LIVE, started, moved)
    assert bank == 45_000
    assert deadline(LIVE, T0 + 200_000, bank) == T0 + 200_000 + 30_000 + 45_000


def test_a_correspondence_turn_has_its_hours_and_no_bank():
    assert deadline(CORRESPONDENCE, T0, 0) == T0 + 48 * 3_600_000
    assert bank_used(CORRESPONDENCE, T0, T0 + 50 * 3_600_000) == 0
    assert timed_out(CORRESPONDENCE, T0, 0, T0 + 48 * 3_600_000)


# --- who is on the clock ------------------------------------------------------------------------------------------


def game(ruleset_id: str = "standard", seats: int = 3, knobs: Knobs | None = None) -> GameState:
    return new_game(BOOK.get(ruleset_id), SEED, [f"P{i}" for i in range(seats)], HASH, knobs)


def test_a_draw_and_its_discard_are_one_turn_and_the_next_seats_starts_with_the_discard():
    state = game()
    first = state.current.turn
    assert on_clock(state) == (first,)
    drawn = apply(state, Draw(first), STANDARD, HASH)
    assert on_clock(drawn) == (first,) and turns_started(state, drawn) == ()
    discarded = apply(drawn, Discard(first, drawn.current.hands[first][0]), STANDARD, HASH)
    nxt = (first + 1) % 3
    assert on_clock(discarded) == (nxt,) and turns_started(drawn, discarded) == (nxt,)


def test_in_a_challenge_window_every_seat_not_passed_is_on_the_clock_from_its_opening():
    challenge = BOOK.get("challenge")
    state = new_game(challenge, SEED, ["A", "B", "C"], HASH)
    player = RandomPlayer(challenge, HASH, random.Random(1))
    while state.current.phase is not Phase.CHALLENGES:
        before, state = state, apply(state, player.move(state), challenge, HASH)
    assert on_clock(state) == (0, 1, 2) and set(turns_started(before, state)) == {0, 1, 2}
    words = next(p for p, w in enumerate(state.current.words) if w)
    by = (words + 1) % 3
    challenged = apply(state, Challenge(by, words, 0), challenge, HASH)
    assert on_clock(challenged) == (0, 1, 2) and turns_started(state, challenged) == ()
    passed = apply(challenged, Pass(by), challenge, HASH)
    assert by not in on_clock(passed) and turns_started(challenged, passed) == ()


def test_no_one_is_on_the_clock_once_the_game_is_over():
    state = game()
    player = RandomPlayer(STANDARD, HASH, random.Random(2))
    while not state.over:
        state = apply(state, player.move(state), STANDARD, HASH)
    assert on_clock(state) == ()


# --- the timeout move ---------------------------------------------------------------------------------------------


def test_a_timeout_draws_from_the_pile_then_discards_the_highest_card():
    state = game()
    seat = state.current.turn
    assert timeout_move(state, seat, STANDARD) == Draw(seat)
    moves, after = timeout_moves(state, seat, STANDARD, HASH)
    assert moves[0] == Draw(seat) and isinstance(moves[1], Discard) and len(moves) == 2
    held = (*state.current.hands[seat], state.current.draw_pile[0])
    assert STANDARD.deck.value(face_of(moves[1].card)) == max(STANDARD.deck.value(face_of(c)) for c in held)
    assert on_clock(after) == ((seat + 1) % 3,)


def test_equal_values_discard_the_first_card_in_card_order():
    state = apply(game(), Draw(1), STANDARD, HASH)
    assert STANDARD.deck.value("b") == STANDARD.deck.value("c") > STANDARD.deck.value("a")
    r = replace(state.current, hands=(state.current.hands[0], ("a.1", "b.2", "c.1", "c.2"), state.current.hands[2]))
    assert timeout_move(replace(state, current=r), 1, STANDARD) == Discard(1, "b.2")
    r = replace(r, hands=(r.hands[0], ("a.1", "c.1", "c.2"), r.hands[2]))
    assert timeout_move(replace(state, current=r), 1, STANDARD) == Discard(1, "c.1")


def test_a_timeout_takes_the_discard_when_the_draw_pile_cannot_be_drawn():
    state = game()
    r = state.current
    lone = replace(state, current=replace(r, draw_pile=(), discard_pile=r.discard_pile[:1]))
    assert timeout_move(lone, r.turn, STANDARD) == Take(r.turn)
    rebuilt = replace(state, current=replace(r, draw_pile=(), discard_pile=(*r.discard_pile, *r.draw_pile[:3])))
    assert timeout_move(rebuilt, r.turn, STANDARD) == Draw(r.turn)  # the discard pile under its top becomes the draw pile
    ending = replace(rebuilt, knobs=Knobs(draw_pile_out=DrawPileOut.END_ROUND))
    assert timeout_move(ending, r.turn, STANDARD) == Take(r.turn)


def test_a_timeout_never_discards_the_card_just_taken_when_the_knobs_forbid_it():
    state = game(knobs=Knobs(discard_taken_card=False))
    seat = state.current.turn
    top = state.current.discard_pile[0]
    taken = apply(state, Take(seat), STANDARD, HASH)
    move = timeout_move(taken, seat, STANDARD)
    assert isinstance(move, Discard) and move.card != top
    r = replace(taken.current, hands=_set(taken.current.hands, seat, tuple(sorted([top, "a.9"]))))
    assert timeout_move(replace(taken, current=r), seat, STANDARD) == Discard(seat, "a.9")


def _set(items: tuple, index: int, value: object) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def test_in_a_last_turn_a_timeout_lays_down_nothing_and_discards():
    state = game()
    seat = state.current.turn
    drawn = apply(state, Draw(seat), STANDARD, HASH)
    hand = drawn.current.hands[seat]
    out = apply(drawn, GoOut(seat, (hand[:-1],), hand[-1]), STANDARD, HASH) if _valid(hand[:-1]) else None
    if out is None:  # the HASH lexicon refused the word: make the going out by hand instead
        r = replace(drawn.current, out=seat, stop=seat)
        out = apply(replace(drawn, current=r), Discard(seat, hand[0]), STANDARD, HASH)
    nxt = out.current.turn
    moves, after = timeout_moves(out, nxt, STANDARD, HASH)
    assert [type(m) for m in moves] == [Draw, Discard]
    assert after.current.words[nxt] == ()


def _valid(word: tuple[str, ...]) -> bool:
    from wordsvc.core.verdict import judge_cards

    return judge_cards(tuple(face_of(c) for c in word), STANDARD, HASH).valid


def test_when_the_draw_pile_ends_the_round_a_timeout_lays_down_nothing():
    state = game(knobs=Knobs(draw_pile_out=DrawPileOut.END_ROUND))
    seat = state.current.turn
    r = replace(state.current, draw_pile=state.current.draw_pile[:1])
    state = apply(replace(state, current=r), Draw(seat), STANDARD, HASH)
    state = apply(state, Discard(seat, state.current.hands[seat][0]), STANDARD, HASH)
    assert state.current.phase is Phase.LAY
    assert timeout_move(state, state.current.turn, STANDARD) == LayDown(state.current.turn, ())


def test_in_a_challenge_window_a_timeout_passes():
    challenge = BOOK.get("challenge")
    state = new_game(challenge, SEED, ["A", "B"], HASH)
    player = RandomPlayer(challenge, HASH, random.Random(3))
    while state.current.phase is not Phase.CHALLENGES:
        state = apply(state, player.move(state), challenge, HASH)
    assert timeout_move(state, 1, challenge) == Pass(1)
    moves, after = timeout_moves(state, 1, challenge, HASH)
    assert moves == (Pass(1),) and 1 not in on_clock(after)


def test_a_seat_not_on_the_clock_has_no_timeout():
    state = game()
    with pytest.raises(ValueError, match="not on the clock"):
        timeout_move(state, (state.current.turn + 1) % 3, STANDARD)


RULESETS = ["standard", "junior-rules", "challenge", "two-player-one-bonus", "islenska"]


@st.composite
def setups(draw):
    ruleset = BOOK.get(draw(st.sampled_from(RULESETS)))
    seats = draw(st.integers(ruleset.players_min, min(ruleset.players_max, 5)))
    choice = "longest_word" if ruleset.two_players is TwoPlayers.CHOICE and seats == 2 else None
    knobs = Knobs(draw(st.sampled_from(list(DrawPileOut))), draw(st.booleans()), draw(st.booleans()), choice)
    return ruleset, seats, knobs, draw(st.binary(min_size=32, max_size=32)).hex(), draw(st.integers(0, 2**32 - 1)), draw(st.sampled_from([0.05, 0.5]))


@settings(deadline=None, database=None)
@given(setups())
def test_over_random_games_a_timeout_is_always_legal_and_ends_exactly_the_seats_turn(setup):
    ruleset, seats, knobs, seed, rng_seed, timeouts = setup
    rng = random.Random(rng_seed)
    state = new_game(ruleset, seed, [f"P{i}" for i in range(seats)], HASH, knobs)
    player = RandomPlayer(ruleset, HASH, rng, eagerness=0.3)
    steps = 0
    while not state.over:
        steps += 1
        assert steps < 20_000, "a game that does not end"
        clocked = on_clock(state)
        if rng.random() < timeouts:
            seat = rng.choice(clocked)
            moves, after = timeout_moves(state, seat, ruleset, HASH)  # apply raises IllegalMove on any illegal one
            assert 1 <= len(moves) <= 2
            assert all(m.seat == seat for m in moves)
            assert after.over or seat not in on_clock(after) or seat in turns_started(state, after)
            if not after.over and after.current.number == state.current.number and after.current.phase is not Phase.CHALLENGES:
                assert after.current.turns[seat] == state.current.turns[seat] + 1, "the timeout finished the seat's turn"
            state = after
        else:
            state = apply(state, player.move(state), ruleset, HASH)
    assert len(state.finished) == len(ruleset.rounds)


def test_a_game_of_nothing_but_timeouts_ends_when_the_draw_pile_ends_rounds():
    """Nobody goes out by timeouts; with ``end_round`` each round ends when its draw pile does, every seat laying nothing."""
    state = game(knobs=Knobs(draw_pile_out=DrawPileOut.END_ROUND))
    while not state.over:
        state = timeout_moves(state, on_clock(state)[0], STANDARD, HASH)[1]
    assert len(state.finished) == 8


# --- handing a seat to a bot --------------------------------------------------------------------------------------


def test_two_timeouts_in_a_row_hand_the_seat_to_a_bot():
    assert TIMEOUTS_TO_BOT == 2
    assert [handed_to_bot(n) for n in range(5)] == [False, False, True, True, True]

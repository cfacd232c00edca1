"""The game engine's rules one at a time, on real q1 deals (wordsvc/core/play/, docs/play.md).

Each test deals round 1 from a fixed seed and builds its lexicon from the
cards dealt, so a word is valid exactly when the test says so.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from wordsvc.core.deal import deal
from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
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
    MoveFormatError,
    Pass,
    Phase,
    SetupError,
    Take,
    apply,
    deal_round,
    face_of,
    move_from_dict,
    move_to_dict,
    new_game,
    replay,
)
from wordsvc.core.play.dealing import reshuffled
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.scoring import score_round
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
STANDARD = BOOK.get("standard")
SEED = "0" * 64
INFO = LexiconInfo(id="play-test", lang="en-US", version="1", sha256="4" * 64)
DOC = Path(__file__).resolve().parents[1] / "docs" / "play.md"


def word(*cards: str) -> str:
    return "".join(face_of(c) for c in cards)


def lexicon(*words: str) -> MemoryLexicon:
    return MemoryLexicon(list(words), INFO)


def refused(state: GameState, move, code: str, ruleset=STANDARD, lex=None) -> IllegalMove:
    """Apply ``move``, expect ``code``, and check the state is untouched."""
    before = state.canonical()
    with pytest.raises(IllegalMove) as err:
        apply(state, move, ruleset, lex or LEX)
    assert err.value.code == code, err.value
    assert state.canonical() == before
    return err.value


def play(state: GameState, *moves, ruleset=STANDARD, lex=None) -> GameState:
    for move in moves:
        state = apply(state, move, ruleset, lex or LEX)
    return state


# Round 1 of the zero seed, two seats: seat 1 (the dealer's left) moves first and draws the draw pile's top card.
ROUND1 = deal_round(STANDARD, 2, 1, SEED)
DRAWN = (*ROUND1.hands[1], ROUND1.draw_pile[0])  # seat 1's four cards after its draw, in the order dealt
H = sorted(DRAWN)
LEX = lexicon(word(*H[:3]), word(*H[:2]))


def drawn(knobs: Knobs | None = None, lex=None) -> GameState:
    state = new_game(STANDARD, SEED, ["Ann", "Bob"], lex or LEX, knobs)
    return play(state, Draw(1), lex=lex)


def test_the_deal_is_q1s_with_an_id_on_every_card():
    dealt = deal_round(STANDARD, 4, 3, SEED)
    plain = deal(STANDARD, 4, 3, SEED)
    assert [sorted(map(face_of, hand)) for hand in dealt.hands] == [sorted(hand) for hand in plain.hands]
    assert face_of(dealt.face_up) == plain.face_up and [face_of(c) for c in dealt.draw_pile] == list(plain.draw_pile)
    every = [*(c for hand in dealt.hands for c in hand), dealt.face_up, *dealt.draw_pile]
    assert len(every) == len(set(every)) == STANDARD.deck.size == 118
    copies = Counter(face_of(c) for c in every)
    assert all(copies[face] == card.count for face, card in STANDARD.deck.cards.items())
    assert {c for c in every if face_of(c) == "qu"} == {"qu.1", "qu.2"}


def test_the_deal_and_the_first_turn_pass_left_each_round():
    state = new_game(STANDARD, SEED, ["Ann", "Bob", "Cy"], LEX, Knobs(draw_pile_out=DrawPileOut.END_ROUND))  # rounds end without a going out
    player = RandomPlayer(STANDARD, LEX, random.Random(3))
    seen: list[tuple[int, int, int]] = []
    for _ in range(2000):
        if state.over or len(seen) == 4:
            break
        r = state.current
        if not seen or seen[-1][0] != r.number:
            assert r.discard_pile == (deal_round(STANDARD, 3, r.number, SEED).face_up,) and r.phase is Phase.DRAW
            seen.append((r.number, r.dealer, r.turn))
        state = apply(state, player.move(state), STANDARD, LEX)
    assert seen == [(1, 0, 1), (2, 1, 2), (3, 2, 0), (4, 0, 1)]


def test_a_turn_is_a_draw_then_a_discard_and_the_hand_keeps_its_size():
    state = new_game(STANDARD, SEED, ["Ann", "Bob"], LEX)
    refused(state, Draw(0), "not_your_turn")
    refused(state, Discard(1, ROUND1.hands[1][0]), "must_draw_first")
    refused(state, Draw(5), "unknown_seat")
    state = play(state, Take(1))
    assert ROUND1.face_up in state.current.hands[1] and state.current.discard_pile == ()
    refused(state, Draw(1), "must_discard")
    refused(state, Discard(1, ROUND1.hands[0][0]), "card_not_in_hand")
    state = play(state, Discard(1, ROUND1.hands[1][0]))
    r = state.current
    assert (r.turn, r.phase, r.discard_pile, len(r.hands[1])) == (0, Phase.DRAW, (ROUND1.hands[1][0],), 3)


def test_going_out_lays_all_but_one_card_in_valid_words_and_discards_the_last():
    state = drawn()
    out = play(state, GoOut(1, (tuple(H[:3]),), H[3]))
    r = out.current
    assert (r.out, r.hands[1], r.words[1], r.discard_pile[0], r.turn) == (1, (), (tuple(H[:3]),), H[3], 0)


def test_a_failed_going_out_claim_is_refused_with_its_code_and_the_turn_goes_on():
    state = drawn()
    err = refused(state, GoOut(1, (tuple(H[1:4]),), H[0]), "word_not_valid")
    assert err.details == {"word": 0, "reason": "not_in_lexicon"}
    refused(state, GoOut(1, ((H[0],), tuple(H[1:3])), H[3]), "word_not_valid")  # one card: too_short under standard
    refused(state, GoOut(1, (tuple(H[:2]),), H[3]), "cards_left_over")
    refused(state, GoOut(1, (tuple(H[:3]),), None), "final_discard_required")
    refused(state, GoOut(1, (tuple(H),), None), "too_many_cards_laid")
    refused(state, GoOut(1, (tuple(H[:3]),), H[0]), "card_named_twice")
    refused(state, GoOut(1, ((), tuple(H[:3])), H[3]), "empty_word")
    refused(state, GoOut(1, ((H[0], H[1], ROUND1.hands[0][0]),), H[3]), "card_not_in_hand")
    refused(state, LayDown(1, (tuple(H[:2]),), H[3]), "nobody_went_out")
    assert play(state, Discard(1, H[3])).current.turn == 0  # no penalty: the turn simply goes on


def test_after_a_going_out_every_other_seat_has_exactly_one_more_turn_then_the_round_is_scored():
    r1 = deal_round(STANDARD, 3, 1, SEED)
    hand = sorted((*r1.hands[1], r1.draw_pile[0]))
    lex = lexicon(word(*hand[:3]), word(*hand[1:3]))
    state = new_game(STANDARD, SEED, ["Ann", "Bob", "Cy"], lex)
    state = play(state, Draw(1), GoOut(1, (tuple(hand[:3]),), hand[3]), lex=lex)
    refused(state, GoOut(2, (), None), "must_draw_first", lex=lex)
    state = play(state, Draw(2), lex=lex)
    refused(state, GoOut(2, (), state.current.hands[2][0]), "someone_went_out", lex=lex)
    state = play(state, Discard(2, state.current.hands[2][0]), Take(0), lex=lex)
    assert state.current.number == 1 and state.current.turn == 0
    mine = state.current.hands[0]
    state = play(state, Discard(0, mine[0]), lex=lex)
    assert state.current.number == 2 and len(state.finished) == 1  # seat 1 went out: no turn of its own again
    finished = state.finished[0]
    assert finished.out == 1 and finished.unused[1] == () and len(finished.unused[0]) == len(finished.unused[2]) == 3
    expected = score_round(finished.play(state.players, None), STANDARD, lex)
    assert finished.totals == tuple(p.total for p in expected.players)
    assert expected.players[1].went_out_valid is True


def test_a_last_turn_lays_down_valid_words_and_the_rest_count_as_unused():
    r1 = deal_round(STANDARD, 2, 1, SEED)
    out_hand = sorted((*r1.hands[1], r1.draw_pile[0]))
    last = sorted((*r1.hands[0], r1.draw_pile[1]))
    lex = lexicon(word(*out_hand[:3]), word(*last[:2]))
    state = new_game(STANDARD, SEED, ["Ann", "Bob"], lex)
    state = play(state, Draw(1), GoOut(1, (tuple(out_hand[:3]),), out_hand[3]), Draw(0), lex=lex)
    refused(state, LayDown(0, (tuple(last[1:3]),), last[3]), "word_not_valid", lex=lex)
    refused(state, LayDown(0, (tuple(last[:2]),), None), "final_discard_required", lex=lex)
    state = play(state, LayDown(0, (tuple(last[:2]),), last[3]), lex=lex)
    finished = state.finished[0]
    assert finished.words[0] == (tuple(last[:2]),) and finished.unused[0] == (last[2],)
    assert finished.totals[0] == max(0, STANDARD.deck.points(map(face_of, last[:2])) - STANDARD.deck.value(face_of(last[2])))


def test_no_going_out_on_the_first_turn_when_the_knob_says_so():
    knobs = Knobs(no_going_out_first_turn=True)
    state = drawn(knobs)
    refused(state, GoOut(1, (tuple(H[:3]),), H[3]), "no_going_out_first_turn")
    assert play(drawn(), GoOut(1, (tuple(H[:3]),), H[3])).current.out == 1


def test_discarding_the_card_just_taken_is_allowed_unless_the_knob_forbids_it():
    for allowed in (True, False):
        state = new_game(STANDARD, SEED, ["Ann", "Bob"], LEX, Knobs(discard_taken_card=allowed))
        state = play(state, Take(1))
        if allowed:
            assert play(state, Discard(1, ROUND1.face_up)).current.discard_pile == (ROUND1.face_up,)
        else:
            refused(state, Discard(1, ROUND1.face_up), "discard_taken_card")


def emptied(state: GameState) -> GameState:
    """``state`` with its draw pile moved under the top discard: every card still in one place."""
    r = state.current
    return replace(state, current=replace(r, draw_pile=(), discard_pile=(*r.discard_pile, *r.draw_pile)))


def test_an_empty_draw_pile_is_rebuilt_from_the_discards_under_the_top_one_by_a_seeded_shuffle():
    state = emptied(new_game(STANDARD, SEED, ["Ann", "Bob"], LEX))
    top, under = state.current.discard_pile[0], state.current.discard_pile[1:]
    after = play(state, Draw(1))
    pile = reshuffled(under, SEED, 1, 0)
    assert sorted(pile) == sorted(under) and pile != tuple(sorted(under))
    r = after.current
    assert r.discard_pile == (top,) and r.reshuffles == 1 and pile[0] in r.hands[1] and r.draw_pile == pile[1:]
    assert play(state, Draw(1)).canonical() == after.canonical()
    alone = replace(state, current=replace(state.current, discard_pile=(top,), draw_pile=(), hands=((*state.current.hands[0], *under), state.current.hands[1])))
    refused(alone, Draw(1), "draw_pile_empty")


def test_with_end_round_an_emptied_draw_pile_ends_the_round_and_every_seat_lays_down_what_it_can():
    knobs = Knobs(draw_pile_out=DrawPileOut.END_ROUND)
    start = new_game(STANDARD, SEED, ["Ann", "Bob"], LEX, knobs)
    r = start.current
    state = replace(start, current=replace(r, draw_pile=r.draw_pile[:1], discard_pile=(*r.discard_pile, *r.draw_pile[1:])))
    refused(emptied(state), Draw(1), "draw_pile_empty")
    state = play(state, Draw(1), Discard(1, H[3]))
    assert (state.current.phase, state.current.turn) == (Phase.LAY, 0)
    refused(state, Draw(0), "laying_down")
    refused(state, Discard(0, state.current.hands[0][0]), "no_discard_now")
    refused(state, LayDown(0, (), state.current.hands[0][0]), "no_discard_now")
    refused(state, LayDown(1, ()), "not_your_turn")
    state = play(state, LayDown(0, ()), LayDown(1, (tuple(H[:2]),)))
    finished = state.finished[0]
    assert finished.out is None and finished.words == ((), (tuple(H[:2]),)) and finished.unused[1] == (H[2],)


def test_under_a_challenge_ruleset_words_stand_until_challenged_then_score_as_score_round_says():
    ruleset = BOOK.get("challenge")
    lex = lexicon(word(*H[:2]))  # H[1:4] is no word: under challenge it stands unless challenged
    state = new_game(ruleset, SEED, ["Ann", "Bob", "Cy"], lex)
    r1 = deal_round(ruleset, 3, 1, SEED)
    hand = sorted((*r1.hands[1], r1.draw_pile[0]))
    state = play(state, Draw(1), GoOut(1, (tuple(hand[:3]),), hand[3]), ruleset=ruleset, lex=lex)
    refused(state, Challenge(0, 1, 0), "not_challenge_time", ruleset, lex)
    state = play(state, Draw(2), lex=lex, ruleset=ruleset)
    c = state.current.hands[2]
    state = play(state, LayDown(2, (tuple(c[:2]),), c[2]), Draw(0), ruleset=ruleset, lex=lex)
    state = play(state, Discard(0, state.current.hands[0][0]), ruleset=ruleset, lex=lex)
    assert state.current.phase is Phase.CHALLENGES and state.current.number == 1
    refused(state, Draw(0), "challenge_window", ruleset, lex)
    refused(state, Challenge(1, 1, 0), "challenge_own_word", ruleset, lex)
    refused(state, Challenge(0, 1, 3), "no_such_word", ruleset, lex)
    refused(state, Challenge(0, 7, 0), "unknown_seat", ruleset, lex)
    state = play(state, Challenge(0, 1, 0), Challenge(1, 2, 0), Pass(1), ruleset=ruleset, lex=lex)
    refused(state, Challenge(2, 1, 0), "already_challenged", ruleset, lex)
    refused(state, Challenge(1, 0, 0), "not_your_turn", ruleset, lex)
    state = play(state, Pass(0), ruleset=ruleset, lex=lex)
    assert state.current.number == 1
    state = play(state, Pass(2), ruleset=ruleset, lex=lex)
    finished = state.finished[0]
    assert state.current.number == 2 and finished.challenges == ((0, 1, 0), (1, 2, 0))
    result = score_round(finished.play(state.players, None), ruleset, lex)
    assert finished.totals == tuple(p.total for p in result.players)
    assert [w.challenged_by for w in result.players[1].words] == ["Ann"]


def test_a_move_has_a_stable_json_form_and_nothing_else_reads_as_one():
    move = GoOut(1, (("qu.1", "i.2", "z.1"),), "m.1")
    assert move_to_dict(move) == {"kind": "go_out", "seat": 1, "words": [["qu.1", "i.2", "z.1"]], "discard": "m.1"}
    assert move_to_dict(Draw(0)) == {"kind": "draw", "seat": 0}
    assert move_to_dict(Challenge(2, 0, 1)) == {"kind": "challenge", "seat": 2, "player": 0, "word": 1}
    for m in (move, Draw(0), Take(1), Discard(0, "a.1"), LayDown(0, ()), LayDown(1, (("t.1", "o.1"),), "p.1"), Challenge(2, 0, 1), Pass(2)):
        assert move_from_dict(move_to_dict(m)) == m
    for bad in ({"kind": "fly", "seat": 0}, {"kind": "draw"}, {"kind": "draw", "seat": -1}, {"kind": "draw", "seat": True},
                {"kind": "discard", "seat": 0, "card": 3}, {"kind": "go_out", "seat": 0, "words": "abc", "discard": None},
                {"kind": "draw", "seat": 0, "card": "a.1"}, ["draw"]):  # fmt: skip
        with pytest.raises(MoveFormatError):
            move_from_dict(bad)  # type: ignore[arg-type]


def test_the_state_is_a_function_of_its_setup_and_moves_byte_for_byte():
    moves = [Draw(1), Discard(1, H[0]), Take(0), Discard(0, ROUND1.hands[0][0])]
    one = replay(STANDARD, SEED, ["Ann", "Bob"], moves, LEX)
    assert one.canonical() == replay(STANDARD, SEED, ["Ann", "Bob"], moves, LEX).canonical()
    assert one.canonical() != replay(STANDARD, SEED, ["Ann", "Bob"], [*moves[:3], Discard(0, H[0])], LEX).canonical()
    text = one.canonical().decode()
    assert text.startswith('{"current":') and ", " not in text and one.moves == 4
    assert len(one.digest()) == 64


def test_a_game_that_cannot_start_names_what_is_wrong():
    with pytest.raises(SetupError) as err:
        new_game(STANDARD, SEED, ["Ann", "Ann"], LEX)
    assert err.value.field == "players"
    with pytest.raises(SetupError) as err:
        new_game(STANDARD, SEED, ["Ann"], LEX)
    assert err.value.field == "players"
    with pytest.raises(SetupError) as err:
        new_game(STANDARD, "0" * 63, ["Ann", "Bob"], LEX)
    assert err.value.field == "seed"
    choosing = BOOK.get("two-player-one-bonus")
    with pytest.raises(SetupError):
        new_game(choosing, SEED, ["Ann", "Bob"], LEX)
    with pytest.raises(SetupError):
        new_game(STANDARD, SEED, ["Ann", "Bob"], LEX, Knobs(bonus_choice="most_words"))
    assert new_game(choosing, SEED, ["Ann", "Bob"], LEX, Knobs(bonus_choice="most_words")).knobs.bonus_choice == "most_words"


def test_a_state_is_played_only_under_its_own_ruleset_and_lexicon():
    state = new_game(STANDARD, SEED, ["Ann", "Bob"], LEX)
    with pytest.raises(ValueError, match="ruleset"):
        apply(state, Draw(1), BOOK.get("no-floor"), LEX)
    with pytest.raises(ValueError, match="lexicon"):
        apply(state, Draw(1), STANDARD, MemoryLexicon([], LexiconInfo(id="other", lang="en-US", version="1", sha256="5" * 64)))


def test_docs_play_md_lists_every_refusal_code_and_nothing_else():
    listed = re.findall(r"^\| `([a-z_]+)` \|", DOC.read_text(encoding="utf-8").split("## Codes", 1)[1].split("\n## ", 1)[0], re.M)
    assert listed == list(REFUSALS)

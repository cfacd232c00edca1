"""The projection (wordsvc/core/play/views.py): what each viewer may know, and nothing else.

The test of "hidden is hidden" is a test of indistinguishability: for every
state of random games and every viewer, the state is altered in everything
that viewer may not know (the other hands' cards, the draw pile's order, the
copy numbers of the card ids) and the viewer's projection, and the message
of the move it sees next, must come out the same bytes. A projection that
leaked a hidden card, its id, a hash or a length built from it would differ.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace

import pytest
from play_lexicon import HASH

from wordsvc.core.play import Draw, GameState, IllegalMove, Knobs, Phase, apply, new_game
from wordsvc.core.play.dealing import face_of, sort_cards
from wordsvc.core.play.moves import GoOut, LayDown, Take
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.play.views import project, project_move, public_refusal, resolve
from wordsvc.data.rulesets import load_rulesets

BOOK = load_rulesets()
ID = re.compile(r"[^\W\d_]+\.\d")


def hidden_shuffled(state: GameState, viewer: int | None, rng: random.Random) -> GameState:
    """``state`` with everything ``viewer`` may not know changed: other hands and the draw pile dealt afresh from their cards, copies renumbered."""
    r = state.current
    assert r is not None
    others = [s for s in range(len(r.hands)) if s != viewer]
    pool = [c for s in others for c in r.hands[s]] + list(r.draw_pile)
    rng.shuffle(pool)
    hands = list(r.hands)
    for s in others:
        hands[s], pool = sort_cards(pool[: len(r.hands[s])]), pool[len(r.hands[s]) :]
    r = replace(r, hands=tuple(hands), draw_pile=tuple(pool))
    # renumber every copy: the same faces, other copy numbers
    renumber: dict[str, str] = {}
    for face in sorted({face_of(c) for c in r.cards()}):  # sorted: the same draws of the rng on any machine
        copies = [c for c in r.cards() if face_of(c) == face]
        fresh = [f"{face}.{n + 100}" for n in range(len(copies))]
        rng.shuffle(fresh)
        renumber.update(zip(copies, fresh, strict=True))

    def rn(cards):
        return tuple(renumber[c] for c in cards)

    r = replace(
        r,
        hands=tuple(sort_cards(rn(h)) for h in r.hands),
        draw_pile=rn(r.draw_pile),
        discard_pile=rn(r.discard_pile),
        words=tuple(tuple(rn(w) for w in ws) for ws in r.words),
        taken=renumber[r.taken] if r.taken else None,
    )
    return replace(state, current=r)


def dump(view) -> str:
    return json.dumps(view, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("ruleset_id,seats,seed", [("standard", 4, 1), ("challenge", 3, 2), ("deutsch", 2, 3), ("junior-rules", 5, 4)])
def test_no_viewer_can_tell_apart_states_that_differ_only_in_what_it_may_not_see(ruleset_id, seats, seed):
    ruleset = BOOK.get(ruleset_id)
    rng = random.Random(seed)
    state = new_game(ruleset, f"{seed:064x}", [f"P{i}" for i in range(seats)], HASH, Knobs())
    player = RandomPlayer(ruleset, HASH, rng, eagerness=0.2)
    viewers = [None, *range(seats)]
    checked = 0
    while not state.over:
        move = player.move(state)
        after = apply(state, move, ruleset, HASH)
        for viewer in viewers:
            view = dump(project(state, viewer))
            assert not ID.search(view), "a card id reached a viewer"
            other = hidden_shuffled(state, viewer, rng)
            assert dump(project(other, viewer)) == view
            if isinstance(move, Draw) and viewer != move.seat and state.current.phase is Phase.DRAW:
                event = dump(project_move(state, move, after, viewer))
                assert not ID.search(event)
                assert dump(project_move(other, move, apply(other, move, ruleset, HASH), viewer)) == event
                checked += 1
        state = after
    assert checked >= 20  # draws seen by another viewer: the test saw the hidden card differ
    assert all(project(state, v)["over"] for v in viewers)


def test_a_seat_sees_its_own_hand_by_face_and_every_count():
    ruleset = BOOK.get("standard")
    state = new_game(ruleset, "ab" * 32, ["Ann", "Bob", "Cy"], HASH, Knobs())
    r = state.current
    ann = project(state, 0)["round"]
    assert ann["hand"] == [face_of(c) for c in r.hands[0]]
    assert ann["hand_counts"] == [3, 3, 3]
    assert ann["draw_pile"] == len(r.draw_pile) and ann["discard_pile"] == 1
    assert ann["discard_top"] == face_of(r.discard_pile[0])
    assert "hand" not in project(state, None)["round"]
    with pytest.raises(ValueError):
        project(state, 3)


def test_a_drawn_card_is_shown_to_its_drawer_only():
    ruleset = BOOK.get("standard")
    state = new_game(ruleset, "cd" * 32, ["Ann", "Bob", "Cy"], HASH, Knobs())
    seat = state.current.turn
    top = face_of(state.current.draw_pile[0])
    after = apply(state, Draw(seat), ruleset, HASH)
    assert project_move(state, Draw(seat), after, seat)["card"] == top
    for viewer in (None, (seat + 1) % 3):
        assert "card" not in project_move(state, Draw(seat), after, viewer)


def test_moves_by_face_name_the_seats_own_copies_and_spare_the_taken_card():
    ruleset = BOOK.get("standard")
    state = new_game(ruleset, "ef" * 32, ["Ann", "Bob"], HASH, Knobs(discard_taken_card=False))
    seat = state.current.turn
    top = face_of(state.current.discard_pile[0])
    taken = apply(state, Take(seat), ruleset, HASH)
    hand = taken.current.hands[seat]
    assert resolve(taken, seat, {"kind": "draw"}) == Draw(seat)
    move = resolve(taken, seat, {"kind": "discard", "card": top})
    copies = [c for c in hand if face_of(c) == top]
    if len(copies) > 1:
        assert move.card != taken.current.taken  # the other copy, so the discard is legal
    with pytest.raises(IllegalMove) as refused:
        apply(taken, resolve(taken, seat, {"kind": "discard", "card": "zz"}), ruleset, HASH)
    assert refused.value.code == "card_not_in_hand" and public_refusal(refused.value).details["card"] == "zz"
    faces = [face_of(c) for c in hand]
    out = resolve(taken, seat, {"kind": "go_out", "words": [faces[:-1]], "discard": faces[-1]})
    assert isinstance(out, GoOut) and sorted((*out.words[0], out.discard)) == sorted(hand)
    assert isinstance(resolve(taken, seat, {"kind": "lay_down", "words": [], "discard": None}), LayDown)


@pytest.mark.parametrize(
    "move",
    [
        {"kind": "fly"},
        {"kind": "discard"},
        {"kind": "discard", "card": "e.1"},
        {"kind": "draw", "card": "e"},
        {"kind": "go_out", "words": "e", "discard": "a"},
        {"kind": "challenge", "player": True, "word": 0},
    ],
)
def test_a_malformed_move_is_refused_as_malformed(move):
    from wordsvc.core.play import MoveFormatError

    ruleset = BOOK.get("standard")
    state = new_game(ruleset, "01" * 32, ["Ann", "Bob"], HASH, Knobs())
    state = apply(state, Draw(state.current.turn), ruleset, HASH)
    with pytest.raises(MoveFormatError):
        resolve(state, state.current.turn, move)


def test_a_refusal_reaches_a_client_with_faces_not_ids():
    refusal = IllegalMove("cards_left_over", "2 card(s) left: qu.1, e.7", cards=["qu.1", "e.7"])
    public = public_refusal(refusal)
    assert public.details["cards"] == ["qu", "e"] and not ID.search(str(public))
    assert public_refusal(IllegalMove("card_not_in_hand", "card e.3 is not in the hand", card="e.3")).details["card"] == "e"
    assert public_refusal(IllegalMove("word_not_valid", "x", word=0, reason="too_short")).details == {"word": 0, "reason": "too_short"}

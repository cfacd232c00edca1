"""Admission lanes: by cost, and a last slot kept for a newcomer, so greedy clients cannot take a polite one's share."""

from __future__ import annotations

import pytest

from wordsvc.core.errors import Unavailable
from wordsvc.web.admission import RETRY_AFTER, TURN_SECONDS, Admission, heavy


def test_a_client_holding_a_slot_may_not_take_the_last_one():
    admission = Admission(2)
    admission.enter("/best-meld", "greedy")
    with pytest.raises(Unavailable):
        admission.enter("/best-meld", "greedy")  # the last slot is kept for someone else
    admission.enter("/best-meld", "polite")  # who gets it
    with pytest.raises(Unavailable):
        admission.enter("/best-meld", "third")  # now the lane is full
    admission.leave("polite")
    admission.enter("/best-meld", "third")


def test_long_operations_have_a_lane_of_their_own():
    admission = Admission(2)
    admission.enter("/solitaire/solve", "a", "long")
    with pytest.raises(Unavailable) as refused:
        admission.enter("/solitaire/solve", "b", "long")  # half the heavy slots, at least one
    assert "long" in refused.value.detail
    admission.enter("/best-meld", "a")  # the solves take nothing from the heavy lane
    admission.enter("/best-meld", "b")


class Clock:
    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


def test_a_client_turned_away_has_the_next_turn_of_a_one_slot_lane_while_it_comes_back():
    clock = Clock()
    admission = Admission(1, clock)
    admission.enter("/words", "a")
    with pytest.raises(Unavailable):
        admission.enter("/words", "b")  # turned away: owed the next turn
    admission.leave("a")
    with pytest.raises(Unavailable):
        admission.enter("/words", "a")  # the slot is free, but it is b's turn
    clock.seconds += RETRY_AFTER
    admission.enter("/words", "b")  # b comes back after Retry-After and is served
    admission.leave("b")
    admission.enter("/words", "a")  # and then a, whose refusal made it owed in turn


def test_a_turn_lapses_when_its_client_does_not_come_back():
    clock = Clock()
    admission = Admission(1, clock)
    admission.enter("/words", "a")
    with pytest.raises(Unavailable):
        admission.enter("/words", "b")
    admission.leave("a")
    clock.seconds += TURN_SECONDS
    admission.enter("/words", "c")  # b's turn has lapsed: the slot is anyone's


def test_sixteen_greedy_clients_on_a_one_slot_lane_leave_a_polite_one_its_turn():
    """Each step is a tenth of a second and each request one step; the greedy ask at every step, the polite once a second."""
    clock = Clock()
    admission = Admission(2, clock)  # the default: lanes of one slot for documents and long operations
    holder: str | None = None
    polite_refused = 0
    for step in range(600):
        clock.seconds = step / 10
        if holder is not None:
            admission.leave(holder, "documents")
            holder = None
        for greedy in (f"g{i}" for i in range(16)):
            try:
                admission.enter("/events/e/documents/crosstable", greedy, "documents")
                holder = greedy
                break
            except Unavailable:
                pass
        if step % 10 == 0:
            try:
                admission.enter("/events/e/documents/standings", "polite", "documents")
                break
            except Unavailable:
                polite_refused += 1
    else:
        raise AssertionError("the polite client was refused every time it asked")
    assert polite_refused <= 3  # its turn came after the sixteen turned away before it, a step each


def test_documents_have_a_lane_of_their_own():
    admission = Admission(2)
    admission.enter("/events/e/documents/crosstable", "printer", "documents")
    with pytest.raises(Unavailable):
        admission.enter("/events/e/documents/scorecards", "other", "documents")  # bounded: half the heavy slots, at least one
    admission.enter("/analyse-round", "other", "long")  # a flood of PDFs takes nothing from the long lane
    admission.enter("/best-meld", "other")


def test_many_greedy_clients_leave_a_polite_one_its_share():
    """Four clients each keep as many heavy requests going as they are let; the polite one asks for one at a time."""
    admission = Admission(2)
    held: list[str] = []
    polite_served = polite_asked = 0
    for step in range(400):
        for greedy in ("g1", "g2", "g3", "g4"):  # each greedy client asks again at every step
            try:
                admission.enter("/solitaire/solve", greedy, "long")
                held.append(greedy)
            except Unavailable:
                pass
        polite_asked += 1
        try:
            admission.enter("/best-meld", "polite")
            polite_served += 1
            admission.leave("polite")
        except Unavailable:
            pass
        if step % 3 == 0 and held:  # a solve finishes now and then
            admission.leave(held.pop(0), "long")
    assert polite_served == polite_asked


def test_a_lane_must_be_known():
    with pytest.raises(ValueError):
        heavy(lane="slow")

"""Admission lanes: by cost, and a last slot kept for a newcomer, so greedy clients cannot take a polite one's share."""

from __future__ import annotations

import pytest

from wordsvc.core.errors import Unavailable
from wordsvc.web.admission import Admission, heavy


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


def test_one_slot_lanes_are_first_come():
    admission = Admission(1)
    admission.enter("/words", "a")
    with pytest.raises(Unavailable):
        admission.enter("/words", "b")
    admission.leave("a")
    admission.enter("/words", "a")


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

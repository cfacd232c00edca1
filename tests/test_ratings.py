"""Ratings (wordsvc.core.ratings): Glickman's own example, the vectors of docs/ratings.md, and what must not change the result."""

from __future__ import annotations

import json

import pytest

from wordsvc.core.errors import InvalidRequest
from wordsvc.core.ratings import PROVISIONAL_GAMES, RATING_SYSTEM, RatedEvent, display_rating, glicko2_update, ratings

E1 = RatedEvent("e1", "2026-01-10T18:00:00Z", ((("ann", 120), ("bob", 90), ("cy", 90)),))
E2 = RatedEvent("e2", "2026-02-10T18:00:00Z", ((("bob", 150), ("ann", 100)), (("cy", 80), ("dee", 60))))
E3 = RatedEvent("e3", "2026-03-10T18:00:00Z", ((("bob", 70), ("cy", 90), ("dee", 90)),))

# docs/ratings.md, "Test vectors": id -> (rating, mu, sigma, volatility, games, events)
VECTORS = {
    "after e1": (
        [E1],
        {
            "ann": (1241, 1747.318072, 253.404602, 0.060000075, 1, 1),
            "bob": (870, 1376.340966, 253.404600, 0.059998832, 1, 1),
            "cy": (870, 1376.340966, 253.404600, 0.059998832, 1, 1),
        },
    ),
    "after e2": (
        [E1, E2],
        {
            "ann": (1072, 1540.545080, 234.144913, 0.060003350, 2, 2),
            "bob": (1115, 1583.113942, 234.144904, 0.060002107, 2, 2),
            "cy": (1043, 1501.040766, 229.099338, 0.059999198, 2, 2),
            "dee": (719, 1277.707470, 279.305600, 0.060000131, 1, 1),
        },
    ),
    "after e3": (
        [E1, E2, E3],
        {
            "ann": (1072, 1540.545080, 234.376818, 0.060003350, 2, 2),
            "bob": (962, 1350.742491, 194.164062, 0.060007072, 3, 3),
            "cy": (1186, 1564.903571, 189.406500, 0.059997336, 3, 3),
            "dee": (1072, 1514.893198, 221.682814, 0.060001952, 2, 2),
        },
    ),
}


def test_glickmans_example():
    """The paper's worked example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300.

    The paper prints 1464.06, 151.52, 0.05999 from rounded intermediate values; unrounded, r' is 1464.0507.
    """
    r, rd, vol = glicko2_update(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert (r, rd, vol) == pytest.approx((1464.050671, 151.516524, 0.059996), abs=1e-6)


def test_no_games_in_a_period_only_grows_the_deviation():
    assert glicko2_update(1500, 200, 0.06, []) == pytest.approx((1500, (200**2 + (0.06 * 173.7178) ** 2) ** 0.5, 0.06), abs=1e-9)


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_vectors(name):
    events, expected = VECTORS[name]
    got = ratings(events)
    assert sorted(got) == sorted(expected)
    for player, (rating, mu, sigma, volatility, games, events_played) in expected.items():
        line = got[player]
        assert (line["rating"], line["games"], line["events"]) == (rating, games, events_played)
        assert (line["mu"], line["sigma"], line["volatility"]) == pytest.approx((mu, sigma, volatility), abs=1e-6)


def test_equal_scores_give_equal_ratings():
    got = ratings([E1])
    assert (got["bob"]["mu"], got["bob"]["sigma"]) == (got["cy"]["mu"], got["cy"]["sigma"])


def test_history_has_one_entry_per_event_played():
    ann = ratings([E1, E2, E3])["ann"]
    assert [(h["event"], h["closed_at"], h["rating"], h["games"]) for h in ann["history"]] == [
        ("e1", "2026-01-10T18:00:00Z", 1241, 1),
        ("e2", "2026-02-10T18:00:00Z", 1072, 2),
    ]
    assert ann["sigma"] > ann["history"][-1]["sigma"]  # absent from e3: the deviation grew


def test_events_are_applied_in_closed_at_then_id_order_whatever_order_they_come_in():
    assert ratings([E3, E1, E2]) == ratings([E1, E2, E3])
    same_time = [RatedEvent("b", "2026-01-01T00:00:00Z", E2.games), RatedEvent("a", "2026-01-01T00:00:00Z", E1.games)]
    assert ratings(same_time) == ratings([RatedEvent("a", "2026-01-01T00:00:00Z", E1.games), RatedEvent("b", "2026-01-01T00:00:00Z", E2.games)])
    assert [h["event"] for h in ratings(same_time)["ann"]["history"]] == ["a", "b"]


def test_the_order_of_games_within_an_event_does_not_matter():
    reversed_e2 = RatedEvent(E2.id, E2.closed_at, E2.games[::-1])
    assert ratings([E1, reversed_e2]) == ratings([E1, E2])


def test_same_input_same_output():
    assert json.dumps(ratings([E1, E2, E3])) == json.dumps(ratings([E1, E2, E3]))


def test_a_rating_is_provisional_until_enough_games():
    games = tuple((("ann", 100 + i), ("bob", 90)) for i in range(PROVISIONAL_GAMES))
    assert ratings([RatedEvent("e", "2026-01-01", games[:-1])])["ann"]["provisional"] is True
    assert ratings([RatedEvent("e", "2026-01-01", games)])["ann"]["provisional"] is False


def test_the_display_rating_is_mu_less_two_sigma():
    assert display_rating(1500, 350) == 800
    assert display_rating(1747.318072, 253.404602) == 1241


def test_a_game_naming_a_player_twice_is_refused():
    with pytest.raises(InvalidRequest) as caught:
        ratings([RatedEvent("e", "2026-01-01", ((("ann", 1), ("ann", 2)),))])
    assert caught.value.problems == {"events.0.games.0": ["event e: a game names a rating id twice"]}


def test_the_rating_system_is_served_as_json():
    assert json.loads(json.dumps(RATING_SYSTEM)) == RATING_SYSTEM
    assert RATING_SYSTEM["model"] == "Glicko-2"
    assert RATING_SYSTEM["parameters"]["tau"] == 0.5

"""Seating a tournament's players at tables for each session: pure, standard library only.

Every method is specification s1, written out in docs/seating.md so that it can be reproduced from the text
alone (vectors in tests/seating_vectors.json; a second implementation from the text in
tests/test_seating_text.py). One concept a module: table sizes (:mod:`.sizes`), the random seating
(:mod:`.shuffle`), King of the Hill
(:mod:`.king_of_the_hill`), Swiss (:mod:`.swiss`), whole schedules (:mod:`.schedule`, built on the affine planes
of :mod:`.designs`) and following one when the field changes (:mod:`.follow`), the checks of a manual
seating (:mod:`.checks`), who sits in seat 0 (:mod:`.order`), and meetings and their bound (:mod:`.cost`).
Everything is deterministic: no clock, no global random state.
"""

from __future__ import annotations

from .checks import check_seating
from .cost import meetings, repeat_lower_bound, repeat_meetings
from .errors import SeatingError
from .follow import follow_schedule
from .king_of_the_hill import standings_seating
from .order import seat_order
from .schedule import round_robin_schedule
from .shuffle import random_seating
from .sizes import SizePolicy, table_sizes
from .swiss import swiss_cost, swiss_seating

__all__ = [
    "SeatingError",
    "SizePolicy",
    "check_seating",
    "follow_schedule",
    "meetings",
    "random_seating",
    "repeat_lower_bound",
    "repeat_meetings",
    "round_robin_schedule",
    "seat_order",
    "standings_seating",
    "swiss_cost",
    "swiss_seating",
    "table_sizes",
]

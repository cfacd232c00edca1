"""Admission control: the expensive operations run under a bounded concurrency per worker, and refuse at once past it.

A solver call or a broad word search can take tens of milliseconds of CPU;
queueing them behind each other would make every request wait, health
checks included. Instead each worker runs at most
``WORDSVC_HEAVY_CONCURRENCY`` of them at once, and one more is answered
503 with ``Retry-After`` straight away: a client (or a load balancer) can
retry elsewhere or later, and the cheap requests keep their speed.

Three things keep a polite client's share when others are greedy:

- **lanes by cost**: the operations that may run for seconds (``long``: a
  solitaire solve on a budget of millions of units, a lexicon diff, the
  post-round analyses) and the printed documents (``documents``: a PDF of a
  long event) each have slots of their own, half the heavy ones (at least
  one), so a flood of PDFs cannot take the slot an analysis needs, nor a
  flood of solves the slots of a best play, nor the other way round;
- **the last slot of a lane is kept for a newcomer**: a client (by its
  address) that already holds a slot of the lane may not take its last free
  one. One client alone therefore never holds every slot of a lane of two
  or more while another is turned away;
- **turns for those turned away**: a client refused while it held no slot
  of the lane is owed one for :data:`TURN_SECONDS` after its refusal (long
  enough to come back after ``Retry-After``); while clients are owed, a
  freed slot goes to the one refused first, and nobody else takes it. So
  even a lane of one slot is shared in turn: sixteen clients asking for PDFs
  as fast as they are let cannot keep a seventeenth out, it is served after
  the ones turned away before it. An owed client that does not come back
  loses its turn when :data:`TURN_SECONDS` have passed.

Behind a proxy every client has the proxy's address: the lanes still hold,
and the last-slot rule then keeps one slot free for whichever request comes
next (docs/operations.md).
"""

from __future__ import annotations

import functools
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request

from ..core import problem_codes as codes
from ..core.errors import Unavailable
from .requests import in_pool

__all__ = ["LANES", "TURN_SECONDS", "Admission", "heavy"]

F = TypeVar("F", bound=Callable[..., Any])

#: Seconds a refused client is told to wait: one heavy request takes milliseconds to a few hundred.
RETRY_AFTER = 1
#: How long a client turned away by a full lane is owed a slot: ``Retry-After`` and a second for the round trip.
TURN_SECONDS = RETRY_AFTER + 1.0
#: The lanes: ``heavy`` (milliseconds to a few hundred: best play, word search, a game's score), ``long`` (up to seconds:
#: solve, diff, analyses) and ``documents`` (the PDFs, up to seconds for a long event).
LANES = ("heavy", "long", "documents")


class Lane:
    """``limit`` slots; who holds them, by client; who was turned away, by client, oldest first."""

    def __init__(self, name: str, limit: int):
        self.name, self.limit = name, limit
        self.held: Counter[str] = Counter()
        self.owed: dict[str, float] = {}  # client -> when its turn lapses, in the order they were first turned away

    def admits(self, client: str, now: float) -> bool:
        """Whether ``client`` may take a slot now; if not, and it holds none, it is owed a turn."""
        for lapsed in [who for who, until in self.owed.items() if until <= now]:
            del self.owed[lapsed]
        free = self.limit - sum(self.held.values())
        if free > 0 and not (free == 1 and self.limit > 1 and self.held[client]):  # the last slot is a newcomer's
            first = list(self.owed)[:free]  # the free slots are theirs, in turn
            if not first or client in first:
                return True
        if not self.held[client]:
            self.owed[client] = now + TURN_SECONDS  # owed a turn; a client owed already keeps its place in line
        return False

    def take(self, client: str) -> None:
        self.held[client] += 1
        self.owed.pop(client, None)


class Admission:
    """At most ``limit`` heavy, ``max(1, limit // 2)`` long and as many document requests at once in this process;
    :meth:`enter` refuses past it instead of waiting. ``clock`` (monotonic seconds) times the turns of those refused."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        half = max(1, limit // 2)
        self.lanes = {"heavy": Lane("heavy", limit), "long": Lane("long", half), "documents": Lane("documents", half)}
        self.clock = clock
        self._lock = threading.Lock()
        self.on_refused: Callable[[str], None] = lambda endpoint: None

    def enter(self, endpoint: str, client: str = "", lane: str = "heavy") -> None:
        slots = self.lanes[lane]
        with self._lock:
            if slots.admits(client, self.clock()):
                slots.take(client)
                return
        self.on_refused(endpoint)
        raise Unavailable(
            f"The server is busy with {slots.limit} {lane} requests; try again in {RETRY_AFTER} s.",
            {"request": [f"{endpoint}: at most {slots.limit} {lane} requests at once per worker, shared in turn between clients"]},
            retry_after=RETRY_AFTER,
            code=codes.OVERLOADED,
        )

    def leave(self, client: str = "", lane: str = "heavy") -> None:
        with self._lock:
            held = self.lanes[lane].held
            held[client] -= 1
            if held[client] <= 0:
                del held[client]


def heavy(view: F | None = None, *, lane: str = "heavy") -> Any:
    """Run ``view`` only within a slot of the app's :class:`Admission` (``app.extensions["wordsvc.admission"]``), in ``lane``.

    ``@heavy`` or ``@heavy(lane="long")``.
    """
    if lane not in LANES:
        raise ValueError(f"no lane {lane!r}; lanes: {', '.join(LANES)}")

    def wrap(view: F) -> F:
        @functools.wraps(view)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            in_pool()  # heavy work never runs on the server's event loop, whatever path it is on
            admission: Admission = current_app.extensions["wordsvc.admission"]
            client = request.remote_addr or ""
            admission.enter(request.path, client, lane)
            try:
                return view(*args, **kwargs)
            finally:
                admission.leave(client, lane)

        return guarded  # type: ignore[return-value]

    return wrap(view) if view is not None else wrap

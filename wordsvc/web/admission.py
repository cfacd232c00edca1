"""Admission control: the expensive operations run under a bounded concurrency per worker, and refuse at once past it.

A solver call or a broad word search can take tens of milliseconds of CPU;
queueing them behind each other would make every request wait, health
checks included. Instead each worker runs at most
``WORDSVC_HEAVY_CONCURRENCY`` of them at once, and one more is answered
503 with ``Retry-After`` straight away: a client (or a load balancer) can
retry elsewhere or later, and the cheap requests keep their speed.

Two things keep a polite client's share when others are greedy:

- **lanes by cost**: the operations that may run for seconds (``long``: a
  solitaire solve on a budget of millions of units, a lexicon diff, the
  post-round analyses) have slots of their own, half the heavy ones (at
  least one), so a flood of solves cannot take the slots a best play or a
  word search needs, nor the other way round;
- **the last slot of a lane is kept for a newcomer**: a client (by its
  address) that already holds a slot of the lane may not take its last free
  one. One client alone therefore never holds every slot while another is
  turned away, and a client asking for its first slot finds one whenever
  the lane is not full of other clients' work.

Behind a proxy every client has the proxy's address: the lanes still hold,
and the last-slot rule then keeps one slot free for whichever request comes
next (docs/operations.md).
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request

from ..core.errors import Unavailable
from .requests import in_pool

__all__ = ["LANES", "Admission", "heavy"]

F = TypeVar("F", bound=Callable[..., Any])

#: Seconds a refused client is told to wait: one heavy request takes milliseconds to a few hundred.
RETRY_AFTER = 1
#: The lanes: ``heavy`` (milliseconds to a few hundred: best play, word search, a game's score) and ``long`` (up to seconds).
LANES = ("heavy", "long")


class Lane:
    """``limit`` slots; who holds them, by client."""

    def __init__(self, name: str, limit: int):
        self.name, self.limit = name, limit
        self.held: Counter[str] = Counter()

    def admits(self, client: str) -> bool:
        used = sum(self.held.values())
        if used >= self.limit:
            return False
        return not (used == self.limit - 1 and self.limit > 1 and self.held[client])  # the last slot is a newcomer's


class Admission:
    """At most ``limit`` heavy and ``max(1, limit // 2)`` long requests at once in this process; :meth:`enter` refuses past it instead of waiting."""

    def __init__(self, limit: int):
        self.limit = limit
        self.lanes = {"heavy": Lane("heavy", limit), "long": Lane("long", max(1, limit // 2))}
        self._lock = threading.Lock()
        self.on_refused: Callable[[str], None] = lambda endpoint: None

    def enter(self, endpoint: str, client: str = "", lane: str = "heavy") -> None:
        slots = self.lanes[lane]
        with self._lock:
            if slots.admits(client):
                slots.held[client] += 1
                return
        self.on_refused(endpoint)
        raise Unavailable(
            f"The server is busy with {slots.limit} {lane} requests; try again in {RETRY_AFTER} s.",
            {"request": [f"{endpoint}: at most {slots.limit} {lane} requests at once per worker, the last kept for another client"]},
            retry_after=RETRY_AFTER,
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

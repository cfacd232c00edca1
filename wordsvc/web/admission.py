"""Admission control: the expensive operations run under a bounded concurrency per worker, and refuse at once past it.

A solver call or a broad word search can take tens of milliseconds of CPU;
queueing them behind each other would make every request wait, health
checks included. Instead each worker runs at most
``WORDSVC_HEAVY_CONCURRENCY`` of them at once, and one more is answered
503 with ``Retry-After`` straight away: a client (or a load balancer) can
retry elsewhere or later, and the cheap requests keep their speed.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from flask import current_app, request

from ..core.errors import Unavailable
from .requests import in_pool

__all__ = ["Admission", "heavy"]

F = TypeVar("F", bound=Callable[..., Any])

#: Seconds a refused client is told to wait: one heavy request takes milliseconds to a few hundred.
RETRY_AFTER = 1


class Admission:
    """At most ``limit`` heavy requests at once in this process; :meth:`enter` refuses past it instead of waiting."""

    def __init__(self, limit: int):
        self.limit = limit
        self._slots = threading.BoundedSemaphore(limit)
        self.on_refused: Callable[[str], None] = lambda endpoint: None

    def enter(self, endpoint: str) -> None:
        if not self._slots.acquire(blocking=False):
            self.on_refused(endpoint)
            raise Unavailable(
                f"The server is busy with {self.limit} expensive requests; try again in {RETRY_AFTER} s.",
                {"request": [f"{endpoint}: at most {self.limit} at once per worker"]},
                retry_after=RETRY_AFTER,
            )

    def leave(self) -> None:
        self._slots.release()


def heavy(view: F) -> F:
    """Run ``view`` only within the app's :class:`Admission` (``app.extensions["wordsvc.admission"]``)."""

    @functools.wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        in_pool()  # heavy work never runs on the server's event loop, whatever path it is on
        admission: Admission = current_app.extensions["wordsvc.admission"]
        admission.enter(request.path)
        try:
            return view(*args, **kwargs)
        finally:
            admission.leave()

    return guarded  # type: ignore[return-value]

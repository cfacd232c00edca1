"""What the server offers the app it runs: one typed object under one environ key, the whole server-to-app contract.

The server puts a :class:`Hosting` in every request's environ under
:data:`HOSTING`; an app reads it with :func:`hosting_of`, which gives
``None`` under any other WSGI server (or a test client), where the app
answers as a plain WSGI app would. Through it the app can

- ask whether the worker is draining (:attr:`Hosting.draining`), so a
  readiness probe answers 503 while the answers already accepted finish;
- hand a request it was given on the event loop to the thread pool
  (:attr:`Hosting.to_pool`, set only on the loop: :func:`to_pool`), before
  any work that may take long and before it has changed anything;
- have its 200 answer to a GET held open as a stream on a channel
  (:meth:`Hosting.hold`, what :mod:`.streams` then feeds), and tell this
  worker's streams that a channel changed (:attr:`Hosting.changed`).

This module imports nothing but the standard library, so an app may import
it without the rest of the server; the server imports nothing of the app.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = ["HOSTING", "Fetch", "Held", "Hosting", "ToPool", "hosting_of", "to_pool"]

#: The one environ key the server writes for the app.
HOSTING = "wordsvc.server"

#: ``fetch(after, keys)`` -> (messages past ``after`` as ``(id, bytes)``, the new cursor, whether more are waiting, the keys whose streams end).
Fetch = Callable[[int, frozenset[str]], tuple[Sequence[tuple[int, bytes]], int, bool, Collection[str]]]


class Held(NamedTuple):
    """What the app asked for with :meth:`Hosting.hold`: hold the response open on ``channel``."""

    channel: str
    cursor: int
    fetch: Fetch
    #: who opened the stream, as the app names them: a fetch may end the streams of a key (``None``: never ended so)
    key: str | None = None


class ToPool(BaseException):
    """An app answering on the event loop asks for the pool instead (see :func:`to_pool`).

    A ``BaseException``, so that the app's own error handling (which takes
    ``Exception``) lets it through to the server's call of the app.
    """


def to_pool() -> None:
    """:attr:`Hosting.to_pool` of a request answered on the event loop: stop, and run it in the pool.

    The app calls it before any work that may take long or wait (a search, a
    write), and before it has changed anything: the request is run again,
    from the start, in a pool thread.
    """
    raise ToPool


def _never() -> bool:
    return False


@dataclass(eq=False)
class Hosting:
    """The server's side of one request, as the app sees it.

    ``draining()`` turns True once the worker drains. ``changed(channel)``
    tells this worker's streams of ``channel`` to fetch (``None``: every
    channel); it is ``None`` where the server holds no streams, and then
    :meth:`hold` must not be called. ``to_pool`` is set only while the app
    runs on the event loop. ``held`` is what :meth:`hold` asked for, read by
    the server once the app has answered.
    """

    draining: Callable[[], bool] = _never
    changed: Callable[[str | None], None] | None = None
    to_pool: Callable[[], None] | None = None
    held: Held | None = field(default=None, init=False)

    @property
    def holds_streams(self) -> bool:
        """Whether :meth:`hold` may be called: the server holds responses open as streams."""
        return self.changed is not None

    def hold(self, channel: str, cursor: int, fetch: Fetch, key: str | None = None) -> None:
        """Have this 200 answer to a GET held open on ``channel``.

        The body the app returns is the stream's first bytes, ``cursor`` the
        number of the last message in it, ``fetch`` how the channel's later
        messages are read, and ``key`` who opened it, for a fetch that ends a
        key's streams (:mod:`.streams`). Called on a HEAD, it makes the answer
        a stream's head: no ``Content-Length``.
        """
        self.held = Held(channel, cursor, fetch, key)


def hosting_of(environ: Mapping[str, Any]) -> Hosting | None:
    """The :class:`Hosting` of a request, or ``None`` when another server (or a test client) runs the app."""
    found = environ.get(HOSTING)
    return found if isinstance(found, Hosting) else None

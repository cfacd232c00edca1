"""An HTTP/1.1 server for WSGI apps that no slow, silent or greedy client can take down.

This room holds a generic server and imports nothing else from wordsvc: a
pre-fork master (:mod:`.master`) supervises worker processes
(:mod:`.worker`), each an asyncio event loop that reads whole requests under
deadlines and limits with h11 (:mod:`.protocol`, :mod:`.framing`) and only
then runs the app in a thread pool (:mod:`.wsgi`), or, for the GET requests
of the cheap paths of ``ServerOptions.inline_paths``, on the loop itself
(the app may hand such a request to the pool). What the server offers the app
is one typed object in each request's environ (:mod:`.hosting`), the only module
of the server an app imports. What it refuses it
answers in RFC 9457 problem+json (:mod:`.problems`), counts
(:mod:`.metrics`) and logs as one line (:mod:`.logs`). Every limit and
timeout is a field of :class:`ServerOptions`.

    from wordsvc.server import ServerOptions, run
    run("wordsvc.web.app:create_app", ServerOptions(host="0.0.0.0", port=8000))

``python -m wordsvc.server --app module:factory --port N`` does the same from a shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .options import ServerOptions

if TYPE_CHECKING:
    from .master import run

__all__ = ["ServerOptions", "run"]


def __getattr__(name: str) -> Any:
    """``run`` is imported on first use, so an app that imports :mod:`.hosting` does not load the server's machinery."""
    if name == "run":
        from .master import run

        return run
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

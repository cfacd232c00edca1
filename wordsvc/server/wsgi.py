"""The WSGI side (PEP 3333): loading the app, the environ of a buffered request, one call of the app.

Nothing here does I/O: the request arrives whole (head parsed by h11, body
buffered) and the response leaves whole, so the app runs in a pool thread
without ever touching a socket, and a slow client costs it nothing.
"""

from __future__ import annotations

import importlib
import io
import logging
import re
import sys
import traceback
import uuid
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple
from urllib.parse import unquote_to_bytes

from .hosting import HOSTING, Held, Hosting, ToPool, hosting_of
from .problems import INTERNAL_ERROR, problem_body

__all__ = ["Reply", "WSGIApp", "build_environ", "call_app", "internal_error", "load_app"]

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: Statuses whose response never has a body (RFC 9110 §6.4.1).
_NO_BODY = frozenset({204, 304})
#: Framing is the server's: it buffers the body, so it states the length itself.
_FRAMING = frozenset({b"content-length", b"transfer-encoding"})
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9A-Za-z]+")  # RFC 9110 §5.6.2
_BAD_VALUE = re.compile(rb"[\x00\r\n]")
#: Names apps send on every response, known to be tokens, so most headers skip the regex.
_GOOD_NAMES = frozenset({b"Content-Type", b"Content-Length", b"X-Request-ID", b"Vary", b"Cache-Control", b"Access-Control-Allow-Origin"})

log = logging.getLogger("wordsvc.server")


class Reply(NamedTuple):
    """A whole response but its status line, ``Date`` and ``Connection``: what the event loop adds."""

    status: int
    reason: bytes
    #: the header lines, each ending in CRLF, ``Content-Length`` among them where a body is allowed
    head: bytes
    body: bytes
    #: the app's ``X-Request-ID``, for the access log
    request_id: str
    #: the app asked to close the connection (``Connection: close``)
    close: bool
    #: the app asked to hold the response open as a stream (:mod:`.streams`): no ``Content-Length``, the body is its start
    stream: Held | None = None


def load_app(target: str | Callable[[], WSGIApp]) -> WSGIApp:
    """Call the app factory: a zero-argument callable, or ``"package.module:factory"`` naming one."""
    if callable(target):
        return target()
    module_name, sep, attr = target.partition(":")
    if not sep or not module_name or not attr:
        raise ValueError(f"An app is given as 'module:factory', not {target!r}.")
    factory = getattr(importlib.import_module(module_name), attr)
    return factory()  # type: ignore[no-any-return]


def build_environ(
    method: bytes,
    target: bytes,
    http_version: bytes,
    headers: Iterable[tuple[bytes, bytes]],
    body: bytes,
    server: tuple[str, int],
    remote: tuple[str, int],
    draining: Callable[[], bool],
    changed: Callable[[str | None], None] | None = None,
) -> dict[str, Any]:
    """The PEP 3333 environ of one request whose body has been read whole.

    ``PATH_INFO`` is the percent-decoded path as latin-1 text (PEP 3333's
    "bytes as str"); headers whose names hold ``_`` are dropped, so
    ``X-Forwarded_For`` cannot pass for ``X-Forwarded-For``. The body is
    complete, so ``wsgi.input_terminated`` is set and ``CONTENT_LENGTH`` is
    its length even when it came chunked (and ``Transfer-Encoding`` is not
    passed on: the app gets a body of known length, whatever its framing). What the server offers the app is one
    :class:`~.hosting.Hosting` under ``environ[HOSTING]``: ``draining`` returns True once the worker is draining (for
    a readiness probe to answer 503), ``changed`` tells the worker's streams of a channel (``None``: no streams held).
    """
    if target.startswith((b"http://", b"https://")):  # absolute-form (RFC 9112 §3.2.2)
        slash = target.find(b"/", target.index(b"//") + 2)
        target = target[slash:] if slash >= 0 else b"/"
    path, _, query = target.partition(b"?")
    query = query.partition(b"#")[0]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": method.decode("latin-1"),
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query.decode("latin-1"),
        "RAW_URI": target.decode("latin-1"),
        "REQUEST_URI": target.decode("latin-1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": "HTTP/" + http_version.decode("latin-1"),
        "REMOTE_ADDR": remote[0],
        "REMOTE_PORT": str(remote[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        HOSTING: Hosting(draining, changed),
    }
    for raw_name, raw_value in headers:
        if b"_" in raw_name:
            continue
        value = raw_value.decode("latin-1")
        if raw_name == b"content-type":
            environ["CONTENT_TYPE"] = value
        elif raw_name in (b"content-length", b"transfer-encoding"):
            continue  # the body is decoded whole: its length, set below, is all the app needs (with the coding too, Werkzeug reads past it)
        else:
            key = "HTTP_" + raw_name.decode("latin-1").upper().replace("-", "_")
            environ[key] = environ[key] + "," + value if key in environ else value
    if body or method not in (b"GET", b"HEAD"):
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ


def call_app(app: WSGIApp, environ: dict[str, Any]) -> Reply | None:
    """Run the app once and buffer its response; an exception it raises becomes a logged 500.

    ``None`` if the app called its :attr:`~.hosting.Hosting.to_pool` (only
    there for a request answered on the event loop): run it in the pool.

    ``Content-Length`` is always the buffered body's length (for HEAD, the
    app's own figure is kept, since the body it would send is not there), and
    ``Transfer-Encoding`` is dropped: the server frames the response. Header
    names must be tokens and values free of CR, LF and NUL (else a 500: a
    value with a newline would let the app, or whoever fed it, forge headers).
    The header block is built here, in the pool thread, to keep it off the
    event loop.
    """
    started: list[Any] = []
    chunks: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        if started and not exc_info:
            raise AssertionError("start_response called twice without exc_info")
        started[:] = [status, headers]  # nothing is sent before the app returns, so a late error may replace it
        return chunks.append

    try:
        result = app(environ, start_response)
        try:
            for chunk in result:
                if chunk:
                    chunks.append(chunk)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        if not started:
            raise AssertionError("the app returned without calling start_response")
        status_line, app_headers = started
        status = int(status_line[:3])
        reason = status_line[4:].encode("latin-1")
        headers = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in app_headers]
    except ToPool as handed:
        traceback.clear_frames(handed.__traceback__)  # the app's frames it passed hold the request and each other: free them now
        hosting = hosting_of(environ)
        if hosting is not None and hosting.to_pool is not None:
            return None
        log.error("the app raised ToPool on %s %s outside the event loop", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"))
        return internal_error()
    except Exception:
        log.exception("the app failed on %s %s", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"))
        return internal_error()
    body = b"".join(chunks)
    hosting = hosting_of(environ)
    held = hosting.held if hosting is not None and status == 200 and environ["REQUEST_METHOD"] in ("GET", "HEAD") else None
    lines, request_id, closing, given_length = [], "", False, None
    for name, value in headers:
        if (name not in _GOOD_NAMES and not _TOKEN.fullmatch(name)) or _BAD_VALUE.search(value):
            log.error("the app answered %s %s with a header HTTP cannot carry: %r", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO"), name)
            return internal_error()
        lower = name.lower()
        if lower in _FRAMING:
            if lower == b"content-length":
                given_length = value
            continue
        if lower == b"x-request-id":
            request_id = value.decode("latin-1")
        elif lower == b"connection" and b"close" in value.lower():
            closing = True
        lines.append(name + b": " + value + b"\r\n")
    if held is not None:
        if environ["REQUEST_METHOD"] == "HEAD":  # a stream's head: no length, for no body follows it (RFC 9110 §9.3.2)
            held, body = None, b""
        # else a stream: framed by the server as it goes (chunked), its body only the start
    elif status >= 200 and status not in _NO_BODY:
        if environ["REQUEST_METHOD"] == "HEAD":
            lines.append(b"Content-Length: " + (given_length or str(len(body)).encode()) + b"\r\n")
            body = b""
        else:
            lines.append(b"Content-Length: " + str(len(body)).encode() + b"\r\n")
    else:
        body = b""
    return Reply(status, reason, b"".join(lines), body, request_id, closing, held)


def internal_error() -> Reply:
    """The server's 500, for an app that raised or answered with headers HTTP cannot carry."""
    request_id = uuid.uuid4().hex
    body = problem_body(500, f"Something went wrong on our side; quote request id {request_id}.", request_id, INTERNAL_ERROR)
    head = f"Content-Type: application/problem+json\r\nX-Request-ID: {request_id}\r\nContent-Length: {len(body)}\r\n".encode()
    return Reply(500, b"Internal Server Error", head, body, request_id, False)

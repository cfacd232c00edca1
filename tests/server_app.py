"""A tiny WSGI app for the server's black-box tests (tests/test_server.py); no Flask, no wordsvc.

Each path is one behaviour to look at from outside: who answered (``/pid``),
a request held in the app (``/sleep`` in the pool, ``/block`` on the event loop
when it is an inline path: :func:`hold`), which thread ran it (``/thread``, which hands
itself from the event loop to the pool when asked), what the server handed over
(``/environ``, ``/echo``), what it counts (``/metrics``, ``/collect``), and ways to fail
(``/boom``, ``/crash``), and a channel of held streams (``/stream``, ``/publish``: a file of
lines, each line one message numbered from 1; ``/revoke`` ends the streams held with a key).

The tests order events by what happened, never by how long they waited: a held
request makes a file when it is in the app (``mark``) and lets go when the test
makes another (``until``) or when the worker drains (``drain=1``).
"""

from __future__ import annotations

import gc
import json
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from wordsvc.server.hosting import HOSTING

StartResponse = Callable[..., Any]

_held: list[bytes] = []  # what /grow allocates, kept so the worker's memory stays up
_handed_over: list[str] = []
_leaked: list[int] = []  # descriptors /leak holds  # requests /thread handed from the event loop to the pool
_released: list[str] = []  # held requests (/sleep, /block) that have let go


def create_app() -> Callable[[dict[str, Any], StartResponse], Iterable[bytes]]:
    """The factory the server loads (preloaded in the master); the app itself is the function below."""
    return app


def app(environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    path = environ["PATH_INFO"]
    received = os.environ.get("SERVER_APP_RECEIVED")
    if received and path not in ("/leak", "/unleak", "/health"):  # what the app is given, as the client wrote its target
        with open(received, "a") as noted:
            noted.write(environ["RAW_URI"] + "\n")
    query = {k: v[0] for k, v in parse_qs(environ["QUERY_STRING"]).items()}
    hosting = environ[HOSTING]
    draining = hosting.draining
    status, data = "200 OK", {"pid": os.getpid()}
    if path == "/pid":
        pass
    elif path == "/health":
        data = {"status": "ok", "pid": os.getpid()}
    elif path == "/ready":
        if draining():
            status, data = "503 Service Unavailable", {"status": "draining"}
        else:
            data = {"status": "ready"}
    elif path in ("/sleep", "/block"):
        hold(query, draining)
        data = {"pid": os.getpid(), "draining": draining()}
    elif path == "/grow":
        _held.append(b"x" * (int(query["mb"]) * 1024 * 1024))  # filled, so resident: RSS grows by that much
        data = {"pid": os.getpid(), "held_mb": sum(len(b) for b in _held) // (1024 * 1024)}
    elif path == "/big":
        start_response("200 OK", [("Content-Type", "application/octet-stream"), ("X-Request-ID", uuid.uuid4().hex)])
        return [b"x" * (int(query["mb"]) * 1024 * 1024)]
    elif path == "/thread":
        hand_over = hosting.to_pool
        if hand_over is not None and query.get("pool") == "1":
            _handed_over.append(path)
            hand_over()  # raises: nothing below runs on the event loop
        data = {
            "pid": os.getpid(),
            "thread": threading.current_thread().name,
            "handed_over": len(_handed_over),
            "method": environ["REQUEST_METHOD"],
            "released": len(_released),  # held requests (/sleep, /block) that had let go before this one ran
        }
    elif path == "/echo":
        body = environ["wsgi.input"].read()
        data = {"length": len(body), "content_length": environ.get("CONTENT_LENGTH"), "head": body[:32].decode("latin-1")}
    elif path.startswith("/environ"):
        keys = ("REQUEST_METHOD", "SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "CONTENT_TYPE", "CONTENT_LENGTH", "SERVER_NAME", "SERVER_PORT", "SERVER_PROTOCOL")
        data = {key: environ.get(key) for key in keys} | {
            "REMOTE_ADDR": environ.get("REMOTE_ADDR"),
            "headers": {k: v for k, v in environ.items() if k.startswith("HTTP_")},
            "wsgi": [environ["wsgi.url_scheme"], environ["wsgi.multithread"], environ["wsgi.multiprocess"], environ["wsgi.run_once"]],
        }
    elif path == "/metrics":
        from prometheus_client import CollectorRegistry, generate_latest, multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        start_response("200 OK", [("Content-Type", "text/plain"), ("X-Request-ID", uuid.uuid4().hex)])
        return [generate_latest(registry)]
    elif path == "/collect":  # reference cycles, held until all are made, then left to a full collection
        held: list[list[Any]] = []
        for _ in range(int(query.get("cycles", "1000"))):
            pair: list[Any] = []
            pair.append([pair])
            held.append(pair)
        del held
        data = {"pid": os.getpid(), "collected": gc.collect()}
    elif path == "/leak":  # a descriptor leak: every descriptor the process may still open, less ``keep``, held until /unleak
        keep = int(query.get("keep", "0"))
        while True:
            try:
                _leaked.append(os.open(os.devnull, os.O_RDONLY))
            except OSError:
                break
        for _ in range(min(keep, len(_leaked))):
            os.close(_leaked.pop())
        data = {"pid": os.getpid(), "leaked": len(_leaked)}
    elif path == "/unleak":
        while _leaked:
            os.close(_leaked.pop())
        data = {"pid": os.getpid()}
    elif path == "/stream":  # a held stream of channel ``channel`` from message ``after`` (default: the newest), held with ``key``
        channel = _channel(query["channel"])
        lines = channel.read_text().splitlines() if channel.exists() else []
        after = int(query.get("after", len(lines)))
        hosting.hold(query["channel"], after, lambda past, keys: _fetch(channel, past, keys), query.get("key"))
        start_response("200 OK", [("Content-Type", "text/event-stream"), ("X-Request-ID", uuid.uuid4().hex)])
        return [b": ready %d\n\n" % after]
    elif path == "/publish":  # ``n`` messages of ``size`` bytes (default 1 and a short text) on ``channel``, then tell the streams
        channel = _channel(query["channel"])
        with channel.open("a") as out:
            for _ in range(int(query.get("n", "1"))):
                out.write(("x" * int(query["size"]) if "size" in query else query.get("text", "hello")) + "\n")
        hosting.changed(query["channel"])
    elif path == "/revoke":  # the streams of ``channel`` held with ``key`` end at its next fetch
        with _channel(query["channel"]).with_suffix(".revoked").open("a") as out:
            out.write(query["key"] + "\n")
        hosting.changed(query["channel"])
    elif path == "/boom":
        raise RuntimeError("the app failed on purpose")
    elif path == "/crash":
        os._exit(3)
    else:
        status, data = "404 Not Found", {"error": "no such path"}
    body = json.dumps(data).encode()
    start_response(status, [("Content-Type", "application/json"), ("X-Request-ID", uuid.uuid4().hex)])
    return [body]


def _channel(name: str) -> Path:
    return Path(os.environ["SERVER_APP_CHANNELS"]) / name


def _fetch(channel: Path, after: int, keys: frozenset[str]) -> tuple[list[tuple[int, bytes]], int, bool, set[str]]:
    """The messages of ``channel`` past ``after``: ``(number, "id: N / data: line")``, the last number, no more to read,
    and which of ``keys`` are in ``<channel>.revoked``.

    While a file ``<channel>.hold`` exists, a fetch first makes ``<channel>.fetching`` and waits for it to go.
    """
    hold = channel.with_suffix(".hold")
    if hold.exists():
        channel.with_suffix(".fetching").touch()
        give_up = time.monotonic() + 60
        while hold.exists() and time.monotonic() < give_up:
            time.sleep(0.005)
    lines = channel.read_text().splitlines() if channel.exists() else []
    messages = [(n, b"id: %d\ndata: %s\n\n" % (n, line.encode())) for n, line in enumerate(lines, start=1) if n > after]
    revoked = channel.with_suffix(".revoked")
    return messages, max(after, len(lines)), False, keys & set(revoked.read_text().split()) if revoked.exists() else set()


def hold(query: dict[str, str], draining: Callable[[], bool]) -> None:
    """Hold the request: ``s`` seconds (0.05 if not given), or, with ``until`` or ``drain``, until that happens (``s`` is then a cap, 60 by default).

    ``mark``: a file made as the request enters, so a test knows it is in the app;
    ``until``: a file the request waits for; ``drain=1``: wait for the worker's drain.
    """
    if "mark" in query:
        Path(query["mark"]).touch()
    if "until" in query or "drain" in query:
        give_up = time.monotonic() + float(query.get("s", "60"))
        released = lambda: ("until" in query and os.path.exists(query["until"])) or ("drain" in query and draining())  # noqa: E731
        while not released() and time.monotonic() < give_up:
            time.sleep(0.005)
    else:
        time.sleep(float(query.get("s", "0.05")))
    _released.append(query.get("mark", ""))

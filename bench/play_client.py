"""The clients of ``bench/play.py``: keep-alive HTTP/1.1 connections and table streams on one asyncio loop, and a person's moves.

A bench client must cost the server's two CPUs as little as it can, so this
is the protocol's bare minimum over asyncio streams (as ``bench/stream.py``
reads its streams), not a general HTTP client:

- :class:`Pool` sends a request on an idle keep-alive connection (a new one
  when none is idle) and reads the answer by its ``Content-Length`` or its
  chunks. A connection the server closed while idle (its keep-alive timeout)
  is replaced and the request sent again once: a move carries its move id,
  so a move sent twice is answered, never applied twice (docs/play.md).
- :class:`TableStream` reads one table's stream
  (``GET /events/{e}/games/{g}/play/stream``, a spectator's view) and hands
  each message's event name and data, with the time it arrived, to a
  callback.
- :func:`person_move` is the move of a weak person from its own projection
  (draw, discard a random card, never go out), the same player
  ``api_tests/test_play.py`` plays whole games with.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

__all__ = ["HTTPError", "Pool", "TableStream", "person_move"]

HOST = "127.0.0.1"


class HTTPError(Exception):
    """The connection failed or the answer could not be read."""


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.reader, self.writer = reader, writer
        self.closed = False

    async def request(self, head: bytes, body: bytes) -> tuple[int, bytes]:
        self.writer.write(head + body)
        status_line_and_headers = await self.reader.readuntil(b"\r\n\r\n")
        lines = status_line_and_headers.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if b":" in line:
                name, value = line.split(b":", 1)
                headers[name.strip().lower()] = value.strip().lower()
        if headers.get(b"transfer-encoding") == b"chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n"))[:-2].split(b";")[0], 16)
                data = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                parts.append(data[:-2])
            answer = b"".join(parts)
        else:
            answer = await self.reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection") == b"close":
            self.close()
        return status, answer

    def close(self) -> None:
        self.closed = True
        self.writer.transport.abort()


class Pool:
    """Keep-alive connections to one server; :meth:`request` borrows one (or opens one) for a request."""

    def __init__(self, port: int):
        self.port = port
        self._idle: list[_Connection] = []
        self.opened = 0

    async def _open(self) -> _Connection:
        reader, writer = await asyncio.open_connection(HOST, self.port)
        self.opened += 1
        return _Connection(reader, writer)

    async def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        """``method path`` with ``body`` as JSON and ``token`` as the bearer: (status, the answer's JSON or ``None``)."""
        data = b"" if body is None else json.dumps(body).encode()
        auth = f"Authorization: Bearer {token}\r\n" if token else ""
        head = (f"{method} {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n{auth}\r\n").encode()
        reused = bool(self._idle)
        conn = self._idle.pop() if reused else await self._open()
        try:
            status, answer = await conn.request(head, data)
        except (OSError, asyncio.IncompleteReadError, ValueError) as err:
            conn.close()
            if not reused:
                raise HTTPError(f"{method} {path}: {err!r}") from err
            conn = await self._open()  # the server closed it while idle: once more on a new one
            try:
                status, answer = await conn.request(head, data)
            except (OSError, asyncio.IncompleteReadError, ValueError) as again:
                conn.close()
                raise HTTPError(f"{method} {path}: {again!r}") from again
        if not conn.closed:
            self._idle.append(conn)
        return status, json.loads(answer) if answer else None

    def close(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()


class TableStream:
    """One table's stream as a spectator reads it; ``on_message(event, data, arrived)`` for each message, ``arrived`` a ``perf_counter``."""

    def __init__(self, port: int, event: str, game: str, on_message: Callable[[str, Any, float], None]):
        self.port, self.path = port, f"/events/{event}/games/{game}/play/stream"
        self.on_message = on_message
        self.ready = asyncio.Event()
        self.ended = False
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        reader, self._writer = await asyncio.open_connection(HOST, self.port)
        self._writer.write(f"GET {self.path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise HTTPError(f"GET {self.path}: {head[:200]!r}")
        self._task = asyncio.get_running_loop().create_task(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffer = b""
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
                if size == 0:
                    break
                chunk = (await reader.readexactly(size + 2))[:-2]
                arrived = time.perf_counter()
                buffer += chunk
                blocks = buffer.split(b"\n\n")
                buffer = blocks.pop()
                for block in blocks:
                    self._take(block, arrived)
        self.ended = True

    def _take(self, block: bytes, arrived: float) -> None:
        event, data = "message", []
        for line in block.decode("utf-8").split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if not data:
            return  # a comment (the heartbeat)
        if event == "ready":
            self.ready.set()
        self.on_message(event, json.loads("\n".join(data)), arrived)

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.transport.abort()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)


def person_move(round_: dict[str, Any], seat: int, hand: list[str], rng: random.Random) -> dict[str, Any] | None:
    """A weak person's move at seat ``seat`` from the round as its projection shows it and its hand; ``None`` when it is not to move."""
    phase = round_["phase"]
    if phase == "challenges":
        return None if round_["passed"][seat] else {"kind": "pass"}
    if round_["turn"] != seat:
        return None
    if phase == "lay":
        return {"kind": "lay_down", "words": [], "discard": None}
    if phase == "draw":
        return {"kind": "draw"}
    card = rng.choice(hand)
    if round_["out"] is not None:
        return {"kind": "lay_down", "words": [], "discard": card}
    return {"kind": "discard", "card": card}

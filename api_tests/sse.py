"""A small Server-Sent Events client for the API tests (the standard library's HTTP client; it does the chunked framing).

``Stream(url, headers)`` opens ``GET url``; :meth:`Stream.until` reads
messages until a condition on them holds. A read waits at most
:data:`PATIENCE` seconds for bytes (a safety net: a test waits for what it
expects, never for a time).
"""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

__all__ = ["PATIENCE", "Message", "Stream"]

PATIENCE = 60.0


@dataclass(frozen=True)
class Message:
    id: int | None
    event: str
    data: Any


class Stream:
    """One open event stream: its status, its headers, and the messages read so far."""

    def __init__(self, url: str, headers: dict[str, str] | None = None):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=PATIENCE)
        self.conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = {name.lower(): value for name, value in self.response.getheaders()}
        self.messages: list[Message] = []
        self.comments = 0
        self.ended = False
        self._buffer = b""
        if self.status != 200:
            self.body = self.response.read()
            self.ended = True

    def until(self, condition: Callable[[list[Message]], bool], what: str) -> list[Message]:
        """Read until ``condition(messages)`` holds, and return the messages; fail naming ``what`` if the stream ends first."""
        while not condition(self.messages):
            assert not self.ended, f"the stream ended before {what}; it had {self.messages}"
            data = self.response.read1(65536)
            if not data:
                self.ended = True
                continue
            self._buffer += data
            while b"\n\n" in self._buffer:
                block, self._buffer = self._buffer.split(b"\n\n", 1)
                self._take(block.decode("utf-8"))
        return self.messages

    def rest(self) -> list[Message]:
        """Read until the server ends the stream; the messages."""
        return self.until(lambda _: self.ended, "its end") if not self.ended else self.messages

    def of(self, kind: str) -> list[Message]:
        return [message for message in self.messages if message.event == kind]

    def _take(self, block: str) -> None:
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(": ")
            fields[name] = value
        if "data" in fields:
            self.messages.append(Message(int(fields["id"]) if "id" in fields else None, fields.get("event", "message"), json.loads(fields["data"])))

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

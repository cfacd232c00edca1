"""Request framing that h11 lets through but this server refuses (pure: no I/O).

h11 parses the request; these checks sit beside it:

- a request carrying both ``Content-Length`` and ``Transfer-Encoding`` is
  refused (RFC 9112 §6.3 allows rejecting it; h11 silently prefers the
  chunked coding, which is how request smuggling starts behind a proxy);
- a chunked body is scanned before h11 sees its bytes, because h11 (0.16)
  waits forever on LF-only line ends in a chunked body instead of refusing
  them, accepts LF-only trailer lines, and takes any chunk size of up to 20
  hex digits, so a declared chunk far past ``max_body`` is only noticed
  after its bytes arrive. :class:`ChunkedScanner` refuses each at once.

LF-only line ends in the request *head* are accepted, as h11 does and
RFC 9112 §2.2 permits ("a recipient MAY recognize a single LF").
"""

from __future__ import annotations

from collections.abc import Sequence

from .problems import Problem

__all__ = ["ChunkedScanner", "check_framing_headers"]

#: Sixteen hex digits hold any 64-bit size; more is not a size any peer means.
_MAX_SIZE_DIGITS = 16
_HEX = frozenset(b"0123456789abcdefABCDEF")


def check_framing_headers(headers: Sequence[tuple[bytes, bytes]]) -> None:
    """Refuse a request that frames its body two ways (h11 already refuses differing Content-Lengths)."""
    names = {name for name, _ in headers}
    if b"content-length" in names and b"transfer-encoding" in names:
        raise Problem(400, "The request has both Content-Length and Transfer-Encoding; send one.", "bad_framing")


class ChunkedScanner:
    """Follows a chunked body's framing byte by byte and refuses what is malformed or too large.

    Feed it every body byte before h11 gets them. It raises :class:`Problem`
    (400 for bad framing, 413 once the declared chunks pass ``max_body``) and
    stops looking once the body's last line has passed, since what follows
    belongs to the next request.
    """

    __slots__ = ("_line", "_max_body", "_max_line", "_need", "_state", "_total")

    def __init__(self, max_body: int, max_line: int):
        self._max_body, self._max_line = max_body, max_line
        self._state = "size"  # size -> data -> crlf -> size ... -> trailer -> done
        self._line = bytearray()
        self._need = 0
        self._total = 0

    @property
    def done(self) -> bool:
        return self._state == "done"

    def feed(self, data: bytes) -> None:
        view, i, n = memoryview(data), 0, len(data)
        while i < n and self._state != "done":
            if self._state == "data":
                take = min(self._need, n - i)
                i += take
                self._need -= take
                if self._need == 0:
                    self._state, self._line = "crlf", bytearray()
            elif self._state == "crlf":
                piece = data[i : i + 2 - len(self._line)]
                self._line += piece
                i += len(piece)
                if self._line[:1] == b"\n":
                    raise Problem(400, "A chunk's data ends with a bare LF; chunked line ends are CRLF.", "bad_framing")
                if self._line[:1] != b"\r" or (len(self._line) == 2 and self._line != b"\r\n"):
                    raise Problem(400, "A chunk's data is not followed by CRLF (the chunk is longer than its size says).", "bad_framing")
                if len(self._line) == 2:
                    self._state, self._line = "size", bytearray()
            else:  # a line: a chunk size, or a trailer field
                end = data.find(b"\n", i)
                self._line += view[i : n if end < 0 else end + 1]
                i = n if end < 0 else end + 1
                if len(self._line) > self._max_line:
                    raise Problem(400, f"A chunk-size or trailer line is longer than {self._max_line} bytes.", "bad_framing")
                if end >= 0:
                    self._line_ended(bytes(self._line))
                    self._line = bytearray()

    def _line_ended(self, line: bytes) -> None:
        if not line.endswith(b"\r\n"):
            raise Problem(400, "A chunked body has a line ending in a bare LF; chunked line ends are CRLF.", "bad_framing")
        if self._state == "trailer":
            if line == b"\r\n":
                self._state = "done"
            return  # a trailer field's own syntax is h11's to check
        digits = line[:-2].split(b";", 1)[0].rstrip(b" \t")
        if not digits or not set(digits) <= _HEX or len(digits) > _MAX_SIZE_DIGITS:
            shown = digits[:24].decode("latin-1")
            raise Problem(400, f"A chunk size must be hexadecimal digits (at most {_MAX_SIZE_DIGITS}), not {shown!r}.", "bad_framing")
        size = int(digits, 16)
        if self._total + size > self._max_body:
            raise Problem(413, f"The body is larger than {self._max_body} bytes.", "too_large")
        self._total += size
        if size == 0:
            self._state = "trailer"
        else:
            self._state, self._need = "data", size

"""Request framing that this server reads itself, or refuses beyond what h11 does (pure: no I/O).

h11 parses the request line and headers, and a ``Content-Length`` body;
these sit beside it:

- a request carrying both ``Content-Length`` and ``Transfer-Encoding`` is
  refused (RFC 9112 §6.3 allows rejecting it; h11 silently prefers the
  chunked coding, which is how request smuggling starts behind a proxy);
- a **chunked body** is decoded here, not by h11: h11 (0.16) makes one event
  per chunk (a body of one-byte chunks cost seconds of the event loop), waits
  forever on LF-only line ends instead of refusing them, and takes any chunk
  size of up to 20 hex digits. :class:`ChunkedDecoder` follows RFC 9112 §7.1
  strictly (CRLF line ends, ``1*HEXDIG`` sizes with well-formed extensions and
  no white space or control bytes, well-formed trailer fields of at most
  ``max_trailer`` bytes: never more lenient than h11, which
  tests/test_framing.py checks on generated bodies), refuses a body past ``max_body`` as soon as a
  chunk size says so, and bounds the framing a body may spend on its data:
  chunk-size lines, CRLFs and trailers together at most
  :data:`FRAMING_ALLOWANCE` bytes more than the data itself (Go's net/http
  refuses "too much non-data" the same way), so a body of tiny chunks is
  refused long before it costs anything. Its work is linear in the bytes fed
  (:attr:`ChunkedDecoder.steps` counts it for the tests);
- :func:`head_prefix_problem` refuses at once bytes that can begin no request
  line (binary, a TLS record, a control character in a target), instead of
  waiting for a line end;
- :func:`check_head` reads a whole head before h11 does: a request target
  typed with accents (the UTF-8 bytes as they are, as curl sends
  ``/validate?word=niño``; nginx, Apache and Werkzeug take them too) is given
  to h11, which takes only visible ASCII, with those bytes percent-encoded,
  so the app sees what the percent-encoded URL gives, byte for byte; a target
  of malformed UTF-8 or with a control character (C0, DEL, or C1 as UTF-8) is
  refused with a 400 that says to percent-encode the URL and shows none of
  its bytes; an obs-folded field line is refused (RFC 9112 §5.2 allows it;
  h11 would unfold it, and a proxy in front that does not would read another
  ``Content-Length``).

LF-only line ends in the request *head* are accepted, as h11 does and
RFC 9112 §2.2 permits ("a recipient MAY recognize a single LF"), and empty
lines before a request line are ignored, as §2.2 says a server SHOULD.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .problems import Problem

__all__ = ["FRAMING_ALLOWANCE", "ChunkedDecoder", "check_framing_headers", "check_head", "head_end", "head_prefix_problem", "skip_empty_lines"]

#: Bytes of framing (chunk-size lines, CRLFs, trailers) a chunked body may spend beyond one byte per byte of data.
FRAMING_ALLOWANCE = 16 * 1024
#: Sixteen hex digits hold any 64-bit size; more is not a size any peer means.
_MAX_SIZE_DIGITS = 16
#: tchar of RFC 9110 §5.6.2.
_TOKEN = rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_QUOTED = rb'"(?:[\t !#-\[\]-~\x80-\xff]|\\[\t -~\x80-\xff])*"'
#: chunk = chunk-size [ chunk-ext ] CRLF; chunk-ext = *( ";" ext-name [ "=" ext-val ] ) (RFC 9112 §7.1.1, without the white space
#: it allows around ";" and "=": no client sends it, and h11 refuses it before a ";" too).
_CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]{1,%d})((?:;%s(?:=(?:%s|%s))?)*)\r\n" % (_MAX_SIZE_DIGITS, _TOKEN, _TOKEN, _QUOTED))
#: field-line = field-name ":" OWS field-value OWS (RFC 9112 §5), as a trailer.
_FIELD_LINE = re.compile(rb"%s:[ \t]*(?:[!-~\x80-\xff](?:[ \t!-~\x80-\xff]*[!-~\x80-\xff])?)?[ \t]*\r\n" % _TOKEN)
#: What a request line may start with: a method token, then a space and a target of visible ASCII or the bytes of
#: UTF-8 text (judged whole once the line ends: :func:`check_head`), then a space and a version (RFC 9112 §3).
_LINE_PREFIX = re.compile(rb"(?:%s(?: [!-~\x80-\xff]*(?: (?:H(?:T(?:T(?:P(?:/[0-9.]*)?)?)?)?)?)?)?)?\r?" % _TOKEN)
#: A method and the start of a target that holds a control character (C0 or DEL): a URL typed with one.
_CONTROL_IN_TARGET = re.compile(rb"%s [^ \r\n]*[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\t][^ \r\n]*(?: [!-~]*)?\r?" % _TOKEN)
#: The end of a request head: its first empty line, after a CRLF or a bare LF (as h11 finds it).
_HEAD_END = re.compile(rb"\n\r?\n")
#: A byte of a request line that is neither visible ASCII nor a space: what :func:`check_head` looks at closer.
_NOT_VISIBLE = re.compile(rb"[^ -~]")
#: A line of the head that begins with white space: obs-fold (RFC 9112 §5.2), or white space before the first field (§2.2).
_FOLDED = re.compile(rb"\n[ \t]")
_HIGH = re.compile(rb"[\x80-\xff]")
#: C0 controls, DEL and the C1 controls (U+0080 to U+009F), once a target is decoded.
_CONTROL_CHAR = re.compile("[\x00-\x1f\x7f-\x9f]")
_PERCENT_ENCODE = "A URL carries such characters only percent-encoded (RFC 3986): percent-encode the URL, its non-ASCII text as UTF-8"


def check_framing_headers(headers: Sequence[tuple[bytes, bytes]], http_version: bytes = b"1.1") -> None:
    """Refuse a request that frames its body two ways (h11 already refuses differing Content-Lengths), or an HTTP/1.0
    request with a Transfer-Encoding, which RFC 9112 §6.1 says to treat as faulty framing (h11 would decode it)."""
    names = {name for name, _ in headers}
    if b"transfer-encoding" in names:
        if http_version == b"1.0":
            raise Problem(400, "An HTTP/1.0 request cannot carry Transfer-Encoding (RFC 9112 §6.1); send Content-Length, or speak HTTP/1.1.", "bad_framing")
        if b"content-length" in names:
            raise Problem(400, "The request has both Content-Length and Transfer-Encoding; send one.", "bad_framing")


def head_end(data: bytes | bytearray, start: int = 0) -> int:
    """Where the request head at the start of ``data`` ends (just past its empty line), or -1 if it has not; ``start``: where to look from."""
    match = _HEAD_END.search(data, start)
    return -1 if match is None else match.end()


def check_head(head: bytes) -> bytes | None:
    """A whole request head, checked before h11 reads it: ``None`` if h11 may take it as it is, else the head to give h11.

    Raises :class:`Problem` (400) for a target of malformed UTF-8 or with a
    control character, and for an obs-folded field line. A target holding
    well-formed UTF-8 comes back with those bytes percent-encoded (upper-case
    hex, as RFC 3986 §2.1 says producers should), the rest of the head as it
    was. Everything else about the line (its method, spaces and version) is
    left to h11.
    """
    line_end = head.find(b"\n")
    line = head[: line_end - 1 if head[line_end - 1 : line_end] == b"\r" else line_end]
    if _FOLDED.search(head, line_end) is not None:
        raise Problem(400, "A header field is folded onto a line that begins with white space (obs-fold, RFC 9112 §5.2); send each field on one line.", "bad_framing")
    if _NOT_VISIBLE.search(line) is None:
        return None
    parts = line.split(b" ")
    if len(parts) != 3 or _NOT_VISIBLE.search(parts[0] + parts[2]) is not None:
        raise Problem(400, "This is not an HTTP/1.1 request line: a method, a target and a version, each of visible ASCII (a target's text as UTF-8).", "bad_request")
    target = parts[1]
    try:
        text = target.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Problem(400, f"The request target is not well-formed UTF-8 (from its byte {err.start + 1}). {_PERCENT_ENCODE}.", "bad_request") from None
    control = _CONTROL_CHAR.search(text)
    if control is not None:
        raise Problem(400, _control_detail(ord(control.group())), "bad_request")
    encoded = _HIGH.sub(lambda byte: b"%%%02X" % byte.group()[0], target)
    return b"%s %s %s%s" % (parts[0], encoded, parts[2], head[len(line) :])


def _control_detail(code: int) -> str:
    encoded = "".join(f"%{byte:02X}" for byte in chr(code).encode())
    return f"The request target holds a control character (U+{code:04X}). {_PERCENT_ENCODE} (this one as {encoded})."


def skip_empty_lines(data: bytes) -> bytes:
    """``data`` less the empty lines (CRLF or LF) before a request line, which RFC 9112 §2.2 says a server SHOULD ignore."""
    return data.lstrip(b"\r\n") if data[:1] in (b"\r", b"\n") else data


def head_prefix_problem(data: bytes) -> Problem | None:
    """A 400 when ``data``, the start of a request head whose first line has not ended, can be no request line; else ``None``.

    Once the line has ended it is h11's to judge, whole.
    """
    if b"\n" in data:
        return None
    match = _LINE_PREFIX.match(data)
    if match is not None and match.end() == len(data):
        return None
    if _CONTROL_IN_TARGET.fullmatch(data) is not None:
        control = next(byte for byte in data.partition(b" ")[2] if byte < 0x20 or byte == 0x7F)
        return Problem(400, _control_detail(control), "bad_request")
    return _bad_start(data)


def _bad_start(line: bytes) -> Problem:
    shown = line[:16].decode("latin-1").encode("unicode_escape").decode("ascii")
    return Problem(400, f"This is not an HTTP/1.1 request line: it starts '{shown}'.", "bad_request")


class ChunkedDecoder:
    """A chunked body, decoded as its bytes arrive; refuses what is malformed, too large or too much framing.

    :meth:`feed` takes the bytes after the request head (in any pieces) and
    returns ``None`` until the body's last line has passed, then the bytes
    that followed it (the start of a pipelined next request, maybe empty).
    :meth:`body` is then the data. It raises :class:`Problem`: 400 for bad
    framing or too much of it, 413 once the chunk sizes pass ``max_body``.
    """

    __slots__ = ("_buffer", "_data", "_framing", "_max_body", "_max_trailer", "_need", "_state", "_total", "_trailer", "steps")

    def __init__(self, max_body: int, max_trailer: int):
        self._max_body, self._max_trailer = max_body, max_trailer
        self._state = "size"  # size -> data -> crlf -> size ... -> trailer -> done
        self._buffer = b""  # a line (size or trailer) not yet ended, or a CRLF not yet whole
        self._data: list[bytes] = []
        self._need = 0  # data bytes of the current chunk still to come
        self._total = 0  # data bytes so far
        self._framing = 0  # framing bytes so far
        self._trailer = 0  # trailer bytes so far
        self.steps = 0  # loop passes: at most one per call plus one per line or chunk, each of which holds a byte or more

    @property
    def done(self) -> bool:
        return self._state == "done"

    def body(self) -> bytes:
        return b"".join(self._data)

    def feed(self, data: bytes) -> bytes | None:
        i, n = 0, len(data)
        while True:
            self.steps += 1
            state = self._state
            if state == "done":
                return data[i:]
            if i >= n:
                return None
            if state == "data":
                take = min(self._need, n - i)
                self._data.append(data[i : i + take])
                i += take
                self._need -= take
                if self._need == 0:
                    self._state = "crlf"
            elif state == "crlf":
                have = self._buffer + data[i : i + 2 - len(self._buffer)]
                i += len(have) - len(self._buffer)
                if have != b"\r\n"[: len(have)]:
                    raise Problem(400, "A chunk's data is not followed by CRLF (the chunk is longer than its size says, or a line ends in a bare LF).", "bad_framing")
                self._buffer = have if len(have) < 2 else b""
                if len(have) == 2:
                    self._spend_framing(2)
                    self._state = "size"
            else:  # a line: a chunk size, or a trailer field, or the empty line that ends the trailers
                end = data.find(b"\n", i)
                piece = data[i : n if end < 0 else end + 1]
                i = n if end < 0 else end + 1
                line = self._buffer + piece
                limit = self._max_trailer if state == "trailer" else 2 * _MAX_SIZE_DIGITS + 1024
                if len(line) > limit:
                    what = "The trailer fields are" if state == "trailer" else "A chunk-size line is"
                    raise Problem(400, f"{what} longer than {limit} bytes.", "bad_framing")
                if end < 0:
                    self._buffer = line
                    continue
                self._buffer = b""
                self._line_ended(line)

    def _spend_framing(self, size: int) -> None:
        self._framing += size
        if self._framing > FRAMING_ALLOWANCE + self._total:
            raise Problem(400, f"The chunked body spends more than {FRAMING_ALLOWANCE} bytes more on framing than on data; send larger chunks.", "bad_framing")

    def _line_ended(self, line: bytes) -> None:
        if not line.endswith(b"\r\n"):
            raise Problem(400, "A chunked body has a line ending in a bare LF; chunked line ends are CRLF.", "bad_framing")
        self._spend_framing(len(line))
        if self._state == "trailer":
            if line == b"\r\n":
                self._state = "done"
                return
            self._trailer += len(line)
            if self._trailer > self._max_trailer:
                raise Problem(400, f"The trailer fields are longer than {self._max_trailer} bytes.", "bad_framing")
            if _FIELD_LINE.fullmatch(line) is None:
                raise Problem(400, "A trailer field is not a well-formed field line (name: value).", "bad_framing")
            return
        match = _CHUNK_LINE.fullmatch(line)
        if match is None:
            shown = line[:24].rstrip(b"\r\n").decode("latin-1").encode("unicode_escape").decode("ascii")
            raise Problem(400, f"A chunk size must be 1 to {_MAX_SIZE_DIGITS} hex digits with well-formed extensions, not '{shown}'.", "bad_framing")
        size = int(match.group(1), 16)
        if self._total + size > self._max_body:
            raise Problem(413, f"The body is larger than {self._max_body} bytes.", "too_large")
        self._total += size
        if size == 0:
            self._state = "trailer"
        else:
            self._state, self._need = "data", size

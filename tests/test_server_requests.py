"""What the server takes in a request's line and head, and what it refuses there, from outside: a real server, raw bytes.

- A request target typed with accents (``/validate?word=niño``, as curl and
  browsers' address bars send it: the UTF-8 bytes as they are) is taken as if
  it had been percent-encoded: the app is given the very environ, so the
  answer is byte for byte the percent-encoded URL's.
- Malformed UTF-8 and control characters in a target are refused with a 400
  that says to percent-encode the URL, and that echoes none of the bytes
  sent, nor does the log line.
- RFC 9112 framing the server refuses beyond h11: a Transfer-Encoding in an
  HTTP/1.0 request (§6.1), and obs-folded header lines (§5.2).
- ``OPTIONS *`` (RFC 9110 §9.3.7) is answered by the server: 204 with the
  methods it serves.

The same cases, split into reads at every byte, are fed to a worker's
protocol in-process at the end of this file.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs

import pytest
from framing_harness import responses, serve_stream
from test_server import PATIENCE, Server, assert_problem, exchange, read_response, wait_for

from wordsvc.server.framing import head_prefix_problem


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("requests") / "server.log", workers=2, threads=2, header_timeout=5, keepalive_timeout=5)
    yield srv
    assert srv.stop() == 0


def request(target: bytes, method: bytes = b"GET", version: bytes = b"HTTP/1.1", headers: bytes = b"") -> bytes:
    """A request as curl writes it: the target's bytes as they were typed, a Host, a User-Agent, Accept, and ``headers``."""
    return method + b" " + target + b" " + version + b"\r\nHost: 127.0.0.1\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n" + headers + b"\r\n"


def environ(srv: Server, target: bytes) -> tuple[dict[str, Any], bytes]:
    status, _, body = exchange(srv.port, request(target, headers=b"Connection: close\r\n"))
    assert status == 200, body
    return json.loads(body), body


# -- 1. accented targets ---------------------------------------------------------------------------

#: A target typed with accents, and the same target percent-encoded as a browser sends it.
TYPED = {
    "query": (b"/environ?word=ni\xc3\xb1o&lang=es", b"/environ?word=ni%C3%B1o&lang=es"),
    "path": (b"/environ/sch\xc3\xb6n/ja\xc5\x9b\xc4\x87", b"/environ/sch%C3%B6n/ja%C5%9B%C4%87"),
    "four-byte characters, and a percent-encoded one beside them": (
        b"/environ/\xf0\x9f\x83\x8f?x=%C3%A9&y=\xf0\x9f\x83\x8f",
        b"/environ/%F0%9F%83%8F?x=%C3%A9&y=%F0%9F%83%8F",
    ),
}


@pytest.mark.parametrize("case", list(TYPED))
def test_a_target_typed_with_accents_reaches_the_app_as_its_percent_encoded_twin(server: Server, case: str) -> None:
    typed, encoded = TYPED[case]
    got, body = environ(server, typed)
    _, twin = environ(server, encoded)
    assert body == twin  # byte for byte: the app cannot tell them apart
    path = typed.partition(b"?")[0]
    assert got["PATH_INFO"] == path.decode("latin-1")  # PEP 3333: the decoded path's bytes as latin-1 text
    assert got["QUERY_STRING"] == encoded.partition(b"?")[2].decode("ascii")


def test_the_letters_of_every_language_pass_in_a_query_and_the_app_decodes_them(server: Server) -> None:
    word = "þæøåäöüßñçàèìòùéíóúêôãõłśźżąęćńőűčšžěřůýõ"
    got, _ = environ(server, b"/environ?w=" + word.encode())
    assert parse_qs(got["QUERY_STRING"])["w"] == [word]


def test_an_accented_target_keeps_the_connection_alive_and_is_logged_percent_encoded(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        for _ in range(3):
            sock.sendall(request(b"/environ?probe=ni\xc3\xb1o-logged"))
            status, headers, _ = read_response(sock)
            assert status == 200 and "connection" not in headers
    lines = wait_for(lambda: [e for e in server.events("request") if "probe=ni" in e["path"]], "the requests' log lines")
    assert {e["path"] for e in lines} == {"/environ?probe=ni%C3%B1o-logged"}


# -- 2. what is refused, and how --------------------------------------------------------------------

#: Targets no URL may be, each with the bytes that must not come back in the answer or the log.
REFUSED = {
    "a latin-1 byte": b"/environ?word=ni\xf1o",
    "a sequence cut short": b"/environ?word=ni\xc3",
    "an overlong slash": b"/environ/..\xc0\xafetc",
    "a surrogate": b"/environ?w=\xed\xa0\x80",
    "past U+10FFFF": b"/environ?w=\xf4\x90\x80\x80",
    "a NUL": b"/environ?w=a\x00b",
    "an escape sequence": b"/environ?w=\x1b[31mred",
    "a tab": b"/environ?w=a\tb",
    "DEL": b"/environ?w=a\x7fb",
    "a C1 control in UTF-8 (NEL)": b"/environ?w=a\xc2\x85b",
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_malformed_utf_8_or_a_control_character_in_a_target_is_a_400_that_says_to_percent_encode(server: Server, case: str) -> None:
    target = REFUSED[case]
    response = exchange(server.port, request(target))
    problem = assert_problem(response, 400, "bad-request")
    assert "percent-encode" in problem["detail"]
    raw = response[2]
    assert b"\\x" not in raw and b"\\u00" not in raw  # not even an escaped copy of the bytes
    assert not any(byte < 0x20 or byte == 0x7F for byte in raw)
    assert b"?w=" not in raw and b"word=" not in raw and b"/environ" not in raw  # nothing of the target is echoed


def test_a_refused_target_leaves_a_log_line_without_its_bytes(server: Server) -> None:
    before = len(server.events("request"))
    for target in REFUSED.values():
        exchange(server.port, request(target))
    lines = wait_for(lambda: len(found := server.events("request")[before:]) >= len(REFUSED) and found, "a log line for every refusal")
    assert [(e["status"], e["reason"], e["path"]) for e in lines] == [(400, "bad_request", "-")] * len(REFUSED)
    text = server.log_path.read_bytes()
    assert not any(byte < 0x20 and byte != 0x0A for byte in text) and b"\x7f" not in text


@pytest.mark.parametrize("field", [b"X-N\xc3\xb6te: b", b"X Note: b"])
def test_a_malformed_header_line_is_a_400_that_echoes_none_of_it(server: Server, field: bytes) -> None:
    response = exchange(server.port, b"GET /health HTTP/1.1\r\nHost: t\r\n" + field + b"\r\n\r\n")
    assert_problem(response, 400, "bad-request")
    assert b"Note" not in response[2] and b"\\x" not in response[2]


@pytest.mark.parametrize("prefix", [b"GET /a\x01", b"GET /a\x7f", b"GET /validate?word=a\x1b"])
def test_a_control_character_early_in_a_target_is_refused_at_once_with_the_same_advice(prefix: bytes) -> None:
    problem = head_prefix_problem(prefix)
    assert problem is not None and problem.status == 400
    assert "percent-encode" in problem.detail and "\\x" not in problem.detail


@pytest.mark.parametrize("prefix", [b"GET /ni\xc3", b"GET /validate?word=ni\xc3\xb1o", b"GET /\xf0\x9f\x83\x8f HTTP/1.1"])
def test_the_start_of_a_target_typed_with_accents_waits_for_the_rest(prefix: bytes) -> None:
    assert head_prefix_problem(prefix) is None


# -- 3. framing that RFC 9112 says to refuse ------------------------------------------------------


def test_transfer_encoding_in_an_http_1_0_request_is_faulty_framing(server: Server) -> None:
    """RFC 9112 §6.1: an HTTP/1.0 message with Transfer-Encoding is treated as faulty framing (here: 400 and close)."""
    raw = b"POST /echo HTTP/1.0\r\nHost: t\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
    problem = assert_problem(exchange(server.port, raw), 400, "bad-request")
    assert "HTTP/1.0" in problem["detail"] and "Transfer-Encoding" in problem["detail"]


@pytest.mark.parametrize(
    "fields",
    [
        b"Content-Length:\r\n 5\r\n",  # the value on a continuation line: a proxy that does not unfold sees no length
        b"Content-Length: 5\r\n \r\n",
        b"X-Note: a\r\n\tb\r\nContent-Length: 5\r\n",
    ],
    ids=["a folded Content-Length", "a folded empty line after Content-Length", "any other field folded"],
)
def test_an_obs_folded_field_is_refused(server: Server, fields: bytes) -> None:
    raw = b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\n" + fields + b"\r\nhello"
    problem = assert_problem(exchange(server.port, raw), 400, "bad-request")
    assert "fold" in problem["detail"]


def test_options_asterisk_answers_the_servers_methods_and_keeps_the_connection(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as sock:
        sock.sendall(b"OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\nGET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        status, headers, body = read_response(sock, head_only=True)  # a 204 has neither body nor Content-Length
        assert (status, body) == (204, b"")
        assert "content-length" not in headers
        assert [m.strip() for m in headers["allow"].split(",")] == ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]
        assert read_response(sock)[0] == 200  # the same connection goes on


# -- 4. in-process, split into reads at every byte --------------------------------------------------


def _split_everywhere(stream: bytes) -> Iterator[list[bytes]]:
    for cut in range(1, len(stream)):
        yield [stream[:cut], stream[cut:]]


def test_a_head_split_anywhere_gives_the_same_answers_as_whole() -> None:
    """A pipeline of an accented target, a percent-encoded one and a refused one, cut at every byte: the same three answers."""
    stream = b"".join(
        [
            b"GET /validate?word=ni\xc3\xb1o HTTP/1.1\r\nHost: t\r\n\r\n",
            b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nab",
            b"GET /\xc3\xa9t\xc3 HTTP/1.1\r\nHost: t\r\n\r\n",
        ]
    )
    whole = responses(serve_stream([stream]).output)
    assert [status for status, _, _ in whole] == [200, 200, 400]
    for reads in _split_everywhere(stream):
        outcome = serve_stream(reads)
        got = responses(outcome.output)
        assert [(s, b if s == 200 else b"") for s, _, b in got] == [(s, b if s == 200 else b"") for s, _, b in whole], reads
        assert outcome.closed

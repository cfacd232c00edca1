"""URLs typed with accents, as curl and a browser's address bar send them, against the real server.

``curl 'http://127.0.0.1:8000/validate?word=niño'`` writes the UTF-8 bytes of
``ñ`` into the request line as they are. The server takes them as if they had
been percent-encoded, so the answer is the percent-encoded URL's, byte for
byte; malformed UTF-8 and control characters get a 400 that says to
percent-encode the URL and shows none of what was sent. The requests are
written to a socket by hand, as curl writes them (``requests`` would
percent-encode them first).
"""

from __future__ import annotations

import json
import socket
from urllib.parse import quote, urlsplit

import pytest

from .contract import PROBLEM_KEYS, PROBLEM_TYPE


def curl(base_url: str, target: bytes) -> tuple[int, dict[str, str], bytes]:
    """``GET target`` as curl sends it (the target's bytes as typed): status, headers, body."""
    parts = urlsplit(base_url)
    with socket.create_connection((parts.hostname, parts.port or 80), timeout=30) as sock:
        sock.sendall(b"GET %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\nConnection: close\r\n\r\n" % (target, parts.netloc.encode()))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, body


TYPED = [
    ("niño", "es"),
    ("schön", "de"),
    ("häuser", "de"),
    ("jeść", "pl"),
    ("książka", "pl"),
    ("þú", "is"),
    ("ça", "fr"),
    ("quixotic", "en-US"),  # nothing to encode: the control case
]


@pytest.mark.parametrize(("word", "lang"), TYPED, ids=[word for word, _ in TYPED])
def test_a_word_typed_with_accents_gets_the_answer_of_its_percent_encoded_url(base_url: str, word: str, lang: str) -> None:
    typed = f"/validate?word={word}&lang={lang}".encode()
    encoded = f"/validate?word={quote(word)}&lang={lang}".encode()
    status, headers, body = curl(base_url, typed)
    twin_status, twin_headers, twin = curl(base_url, encoded)
    assert (status, body) == (twin_status, twin)  # byte for byte
    assert status == 200 and headers["content-type"] == twin_headers["content-type"] == "application/json"
    assert json.loads(body)["word"] == word


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(b"/validate?word=ni\xf1o&lang=es", id="latin-1"),
        pytest.param(b"/validate?word=ni\xc3&lang=es", id="cut-short"),
        pytest.param(b"/validate?word=\xed\xa0\x80", id="surrogate"),
        pytest.param(b"/validate?word=a\x1b[2Jb", id="escape"),
        pytest.param(b"/validate?word=a\x7fb", id="DEL"),
    ],
)
def test_a_url_of_malformed_utf_8_or_with_a_control_character_is_a_400_that_says_to_percent_encode(base_url: str, target: bytes) -> None:
    status, headers, body = curl(base_url, target)
    assert status == 400 and headers["content-type"] == PROBLEM_TYPE, body
    problem = json.loads(body)
    assert set(problem) == PROBLEM_KEYS and problem["request_id"] == headers["x-request-id"]
    assert "percent-encode" in problem["detail"]
    assert b"word=" not in body and b"\\x" not in body  # nothing of what was sent comes back

"""The same request gives the same bytes, on an idle server and on the same server under hard load.

Every endpoint whose work is bounded (``/words``, ``/anagrams``, ``/suggest``,
the suggestions of a refused ``/validate`` verdict, ``/solitaire/solve``) is
bounded by a count of steps, never by time (docs/search.md#work-budgets). This
test replays a fixed set of such requests, in every language the server
loads, once on an idle server and once while other threads keep the same
server's workers busy with expensive requests, and compares the answers byte
for byte. Some of the requests are cut by their budget (``truncated``): those
are the ones a time budget used to answer differently under load.

The server is its own, started here, with room for every request at once
(``WORDSVC_HEAVY_CONCURRENCY``), so the load competes for the CPUs and is
never turned away; nothing here is timed.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from itertools import cycle
from typing import Any

import pytest
import requests

from .conftest import running_server

SOLITAIRE = {"piles": [{"cards": list(pile), "face_down": len(pile) - 1} for pile in ("XTE", "SAN", "ROT", "ILE", "DAS", "MEO", "CUR", "PIN")]}

#: How a request asks for each language: its own ruleset (and deck), or English's with another lexicon.
PARAMS = {
    "en-US": {"ruleset": "standard"},
    "en-GB": {"ruleset": "standard", "lang": "en-GB"},
    "en-US-large": {"ruleset": "standard-large"},
    "en-US-common": {"ruleset": "standard-common"},
    "is": {"ruleset": "islenska"},
    "et": {"ruleset": "eesti"},
}

#: (language or None, method, path, body): the replayed requests.
REQUESTS: list[tuple[str | None, str, str, Any]] = [
    ("en-US", "GET", "/words?pattern=*a*e*&limit=200", None),
    ("en-US", "GET", "/words?pattern=*&classes=proper_noun,ordinary&limit=500&budget=20000", None),
    ("en-US", "GET", "/words?pattern=qu?z*&limit=5", None),
    ("en-US", "GET", "/anagrams?cards=aeinrstlodu&all=true", None),
    ("en-US", "GET", "/anagrams?cards=(qu)a(in)(er)(th)(cl)sto&all=true&budget=3000", None),
    ("en-US", "GET", "/suggest?word=quizzical", None),
    ("en-US", "GET", "/suggest?word=xyzzyqu&budget=200", None),
    ("en-US", "GET", "/validate?word=qwertyuiop", None),
    ("en-US", "POST", "/validate", {"words": ["quiz", "xyzzy", "steve", "zzzq"]}),
    ("en-US", "POST", "/solitaire/solve", {"layout": SOLITAIRE, "budget": 150_000}),
    ("en-US", "POST", "/solitaire/solve", {"layout": SOLITAIRE, "budget": 4_000}),
    ("en-US", "GET", "/words?pattern=?????&limit=500&budget=2000", None),
    ("en-GB", "GET", "/words?pattern=*our&limit=100", None),
    ("en-GB", "GET", "/anagrams?cards=aeinrstlodu&all=true&budget=5000", None),
    ("en-GB", "GET", "/suggest?word=colourr", None),
    ("en-US-large", "GET", "/words?pattern=*i*e*&limit=300", None),
    ("en-US-large", "GET", "/anagrams?cards=eiknorstlaug&all=true", None),
    ("en-US-common", "GET", "/suggest?word=quizzz", None),
    ("is", "GET", "/words?pattern=*a*r*&limit=300", None),
    ("is", "GET", "/words?pattern=h*&classes=proper_noun&limit=500", None),
    ("is", "GET", "/words?pattern=*u*&classes=proper_noun,ordinary&limit=500&budget=1000", None),
    ("is", "GET", "/anagrams?cards=aeinrstlóðu&all=true", None),
    ("is", "GET", "/suggest?word=hestrunum", None),
    ("is", "GET", "/validate?word=hestrinnnn", None),
    ("et", "GET", "/anagrams?cards=aeinrstlodu&all=true", None),
    ("et", "GET", "/anagrams?cards=aeiklmnorstu&all=true&budget=20000", None),
    ("et", "GET", "/suggest?word=raamatt", None),
    ("et", "GET", "/validate?word=kassikoolx", None),
]

#: What the load threads send, round and round: the expensive requests of every kind.
LOAD: list[tuple[str, str, Any]] = [
    ("GET", "/anagrams?cards=aeinrstlodumc&all=true&budget=400000", None),
    ("GET", "/words?pattern=*e*a*&lang=is&limit=500&budget=400000", None),
    ("POST", "/best-meld", {"hand": "a(cl)g(in)(th)mpouyn", "discard": True, "top": 3}),
    ("GET", "/suggest?word=hestrunumm&lang=is&budget=400000", None),
    ("POST", "/solitaire/solve", {"layout": SOLITAIRE, "budget": 400_000}),
]
LOAD_THREADS = 8


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running_server("wordsvc-determinism-", env={"WORDSVC_HEAVY_CONCURRENCY": "64", "WORDSVC_THREADS": "16"}) as (url, _log):
        yield url


def _send(session: requests.Session, url: str, method: str, path: str, body: Any) -> requests.Response:
    return session.request(method, f"{url}{path}", json=body, timeout=300)


def _replay(url: str, languages: list[str]) -> dict[str, tuple[int, bytes]]:
    answers = {}
    with requests.Session() as session:
        for lang, method, path, body in REQUESTS:
            if lang is not None and lang not in languages:
                continue
            params = PARAMS[lang] if lang is not None else {}
            if method == "GET":
                path = f"{path}{'&' if '?' in path else '?'}{'&'.join(f'{k}={v}' for k, v in params.items())}"
            else:
                body = {**body, **params}
            response = _send(session, url, method, path, body)
            answers[f"{method} {path} {json.dumps(body)[:60] if body else ''}"] = (response.status_code, response.content)
    return answers


def test_the_same_requests_give_the_same_bytes_on_an_idle_and_on_a_loaded_server(server: str) -> None:
    languages = requests.get(f"{server}/ready", timeout=30).json()["languages"]
    idle = _replay(server, languages)
    assert all(status == 200 for status, _ in idle.values()), {key: status for key, (status, _) in idle.items() if status != 200}
    cut = [key for key, (_, body) in idle.items() if json.loads(body).get("truncated")]
    assert len(cut) >= 10, f"too few requests reach their work budget to show anything: {cut}"

    stop = threading.Event()
    started = threading.Barrier(LOAD_THREADS + 1)  # the replay starts once every load thread has had an answer
    sent = [0] * LOAD_THREADS

    def load(n: int) -> None:
        with requests.Session() as session:
            for method, path, body in cycle(LOAD[n % len(LOAD) :] + LOAD[: n % len(LOAD)]):
                if stop.is_set():
                    return
                _send(session, server, method, path, body)
                sent[n] += 1
                if sent[n] == 1:
                    started.wait()

    threads = [threading.Thread(target=load, args=(n,), daemon=True) for n in range(LOAD_THREADS)]
    for thread in threads:
        thread.start()
    try:
        started.wait()
        loaded = _replay(server, languages)
        during = sum(sent)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=600)
    assert sum(sent) > during, "the load ran all through the replay"
    differ = [key for key in idle if idle[key] != loaded.get(key)]
    assert not differ, f"answers changed under load: {differ}"

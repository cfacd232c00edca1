"""Admission control (wordsvc.web.admission): past a worker's bound, a heavy request is refused before its work starts.

Counted, not timed: with every slot held, each heavy endpoint answers 503
with ``Retry-After`` having read not one field of its request (the view's
first act is to read it), and ``wordsvc_requests_shed_total`` counts the
refusal; with a slot free, the same request is read and answered. How long a
refusal takes beside the work it refuses is a figure of bench/resilience.py;
api_tests/test_admission.py does the same against the real server.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from marshmallow import fields

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.web.admission import TURN_SECONDS
from wordsvc.web.metrics import SHED

GAME = {"players": ["ann", "bob"], "rounds": [{"players": [{"name": "ann", "words": ["cat"]}, {"name": "bob", "words": ["top"]}]}]}

#: Every heavy endpoint: (method, path, JSON body or None).
HEAVY = [
    ("POST", "/best-meld", {"hand": "quizt"}),
    ("GET", "/anagrams?cards=quizt", None),
    ("GET", "/words?pattern=qu*", None),
    ("GET", "/suggest?word=quizz", None),
    ("POST", "/score-game", GAME),
    ("GET", "/lexicons/diff?a=en-US&b=en-US", None),
    ("POST", "/analyse-round", {"players": [{"name": "ann"}]}),
    ("GET", "/events/e/games/t/rounds/1/analysis", None),
    ("POST", "/solitaire/solve", {"layout": {"piles": [{"cards": ["X", "T"], "face_down": 1}, {"cards": ["E"], "face_down": 0}]}}),
]


@pytest.fixture(scope="module")
def app(rulesets: Any) -> Any:
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    memory = MemoryLexicon({w: [()] for w in ("quiz", "cat", "top")}, LexiconInfo(id="mem", lang="en-US", version="1", sha256="6" * 64, fold_diacritics=True))
    app = create_app(service=Service(rulesets, Languages({"en-US": memory})))
    app.extensions["wordsvc.admission"].clock = CLOCK.now
    return app


class Clock:
    """The admission's clock, moved by the tests: the turns of clients refused in one test lapse before the next."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def now(self) -> float:
        return self.seconds


CLOCK = Clock()


@contextmanager
def every_slot_held(app: Any) -> Iterator[None]:
    """Take every slot of the app's admission for the block, as that many heavy requests in progress would."""
    CLOCK.seconds += TURN_SECONDS  # what the test client was owed by an earlier refusal has lapsed
    admission = app.extensions["wordsvc.admission"]
    held = [(f"holder {i}", name) for name, lane in admission.lanes.items() for i in range(lane.limit)]  # one client a slot: none is kept back
    for client, lane in held:
        admission.enter("a test holding a slot", client, lane)
    try:
        yield
    finally:
        for client, lane in held:
            admission.leave(client, lane)


def field_reads(app: Any, method: str, path: str, body: Any) -> tuple[Any, int]:
    """The answer, and how many marshmallow fields were read (``Field.deserialize``) on the way."""
    count = 0
    original = fields.Field.deserialize

    def counting(field: fields.Field, *args: Any, **kwargs: Any) -> Any:
        nonlocal count
        count += 1
        return original(field, *args, **kwargs)

    with mock.patch.object(fields.Field, "deserialize", counting):
        response = app.test_client().open(path, method=method, json=body)
    return response, count


def shed(endpoint: str) -> float:
    return SHED.labels(endpoint)._value.get()


@pytest.mark.parametrize(("method", "path", "body"), HEAVY, ids=[f"{m} {p.split('?')[0]}" for m, p, _ in HEAVY])
def test_past_the_bound_a_heavy_request_is_refused_before_its_work_starts(app: Any, method: str, path: str, body: Any) -> None:
    endpoint = path.split("?")[0]
    before = shed(endpoint)
    with every_slot_held(app):
        response, reads = field_reads(app, method, path, body)
    assert response.status_code == 503 and response.mimetype == "application/problem+json"
    assert response.headers["Retry-After"] == "1"
    assert reads == 0  # not one field of the request was read: the view never began
    assert shed(endpoint) == before + 1


def test_a_freed_slot_lets_the_same_request_in(app: Any) -> None:
    with every_slot_held(app):
        refused, _ = field_reads(app, "POST", "/score-game", GAME)
    answered, reads = field_reads(app, "POST", "/score-game", GAME)
    assert refused.status_code == 503
    assert answered.status_code == 200 and reads > 0


def test_with_the_document_lane_full_of_one_clients_pdfs_another_clients_analysis_is_served(app: Any) -> None:
    """PDFs have a lane of their own: one client's documents, held in the app, leave the long lane to an analysis."""
    import threading

    from wordsvc.core.errors import InvalidRequest

    CLOCK.seconds += TURN_SECONDS
    entered, release = threading.Semaphore(0), threading.Event()

    def held_build(*_: Any) -> Any:
        entered.release()
        assert release.wait(60), "the test never let the document go"
        raise InvalidRequest("held by the test", {"kind": ["held"]})

    answers: list[int] = []
    pdfs = app.extensions["wordsvc.admission"].lanes["documents"].limit
    with mock.patch("wordsvc.web.views.documents._build", held_build):

        def pdf() -> None:
            answers.append(app.test_client().get("/events/e/documents/crosstable", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code)

        threads = [threading.Thread(target=pdf) for _ in range(pdfs)]
        for thread in threads:
            thread.start()
        for _ in threads:
            assert entered.acquire(timeout=60), "a document request did not reach the app"
        try:
            another_pdf = app.test_client().get("/events/e/documents/standings", environ_base={"REMOTE_ADDR": "10.0.0.3"})
            analysis = app.test_client().post("/analyse-round", json={}, environ_base={"REMOTE_ADDR": "10.0.0.2"})
        finally:
            release.set()
            for thread in threads:
                thread.join(60)
    assert another_pdf.status_code == 503  # the document lane is full: bounded
    assert analysis.status_code == 422, analysis.get_data(as_text=True)  # admitted, its body read: its lane is not the documents'
    assert answers == [422] * pdfs

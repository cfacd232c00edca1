"""What the app answers on the server's event loop, and what it hands to the pool.

``wordsvc serve`` calls the app on its event loop for the GET requests of a
few cheap paths (``/health``, ``/ready``, ``/validate``), with
its ``Hosting.to_pool`` set; the app calls it before any work
that may take long, and the server runs the request again in its pool. The
server's side is in tests/test_server.py; this is the app's: a verdict is
answered where it was asked, a suggestion search, an analyser's cache miss
and every heavy endpoint leave the loop before they start, and leaving
counts nothing twice.
"""

from __future__ import annotations

from typing import Any

import pytest

from wordsvc.core.lexicon import LexiconInfo, MemoryLexicon
from wordsvc.server.hosting import HOSTING, Hosting, ToPool, to_pool
from wordsvc.web.metrics import IN_FLIGHT, REQUESTS

ON_THE_LOOP = {HOSTING: Hosting(to_pool=to_pool)}


@pytest.fixture(scope="module")
def client(rulesets: Any) -> Any:
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    memory = MemoryLexicon({w: [()] for w in ("quiz", "quit", "top")}, LexiconInfo(id="mem", lang="en-US", version="1", sha256="4" * 64, fold_diacritics=True))
    return create_app(service=Service(rulesets, Languages({"en-US": memory}))).test_client()


def answered(endpoint: str) -> float:
    return sum(sample.value for metric in REQUESTS.collect() for sample in metric.samples if sample.name.endswith("_total") and sample.labels["endpoint"] == endpoint)


def test_a_verdict_is_answered_on_the_loop(client: Any) -> None:
    for query in ("word=quiz", "word=quizz&suggest=false", "word=(qu)iz"):
        response = client.get(f"/validate?{query}", environ_overrides=ON_THE_LOOP)
        assert response.status_code == 200, query


def test_a_refused_word_leaves_the_loop_before_its_suggestions_are_searched(client: Any) -> None:
    before, in_flight = answered("/validate"), IN_FLIGHT._value.get()
    with pytest.raises(ToPool):
        client.get("/validate?word=quizz", environ_overrides=ON_THE_LOOP)
    assert answered("/validate") == before  # counted once, when the pool answers it
    assert IN_FLIGHT._value.get() == in_flight  # and no longer in flight here
    in_pool = client.get("/validate?word=quizz")  # the same request in the pool: suggestions
    assert in_pool.status_code == 200 and "suggestions" in in_pool.json
    assert answered("/validate") == before + 1


def test_a_word_an_analyser_has_not_seen_leaves_the_loop_before_it_is_analysed(rulesets: Any) -> None:
    from wordsvc.data.languages import Languages
    from wordsvc.service import Service
    from wordsvc.web.app import create_app

    class Analyser(MemoryLexicon):
        """Answers only what it has analysed before from memory, as Vabamorf's cache does."""

        seen = frozenset({"quiz"})

        def at_hand(self, form: str) -> bool:
            return form in self.seen

    analyser = Analyser(["quiz", "quit"], LexiconInfo(id="an", lang="en-US", version="1", sha256="5" * 64, fold_diacritics=True))
    client = create_app(service=Service(rulesets, Languages({"en-US": analyser}))).test_client()
    assert client.get("/validate?word=quiz", environ_overrides=ON_THE_LOOP).status_code == 200
    with pytest.raises(ToPool):
        client.get("/validate?word=quit&suggest=false", environ_overrides=ON_THE_LOOP)


@pytest.mark.parametrize("path", ["/words?pattern=qu*", "/anagrams?cards=quizt", "/suggest?word=quizz", "/lexicons/diff?a=en-US&b=en-US"])
def test_heavy_work_never_starts_on_the_loop(client: Any, path: str) -> None:
    with pytest.raises(ToPool):
        client.get(path, environ_overrides=ON_THE_LOOP)

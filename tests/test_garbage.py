"""What requests leave to the cyclic garbage collector: nothing of wordsvc's making, and caches it need not walk.

A collection holds the GIL: while it runs, no thread of the worker answers,
not even ``/health`` on the event loop (docs/operations.md, "Garbage
collection"). Two things keep collections short, and these tests hold both:

- a request frees what it made by reference counting, so it leaves no
  reference cycle behind (a recursive inner function is a cycle of its own,
  and holds whatever it closes over; a marshmallow schema is one too, which is
  why each is made once; so are the frames an exception passed, which is why
  the server clears those of a request handed from its event loop to its pool);
- what the solver's and the deck's caches keep is tuples of strings and
  numbers, which a collection stops tracking, so the next ones do not walk
  them again.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from werkzeug.test import EnvironBuilder

from wordsvc.core.budget import BudgetedCache
from wordsvc.server.hosting import HOSTING, Hosting, to_pool
from wordsvc.server.wsgi import call_app
from wordsvc.web.app import create_app

#: One request of each kind that does real work (method, path, query or JSON body).
REQUESTS: list[tuple[str, str, dict[str, Any]]] = [
    ("GET", "/validate", {"query_string": {"word": "quixotic"}}),
    ("GET", "/validate", {"query_string": {"word": "quixoticz"}}),
    ("POST", "/validate", {"json": {"words": ["quiz", "xyzzy", "(qu)een"]}}),
    ("POST", "/best-meld", {"json": {"hand": "(qu)eentsalri", "discard": True, "top": 3, "face_up": "o"}}),
    ("POST", "/best-meld", {"json": {"hand": "thinkers", "lang": "is", "ruleset": "islenska"}}),
    ("GET", "/anagrams", {"query_string": {"cards": "(qu)(th)(er)(in)aeioustln", "all": "true"}}),
    ("GET", "/anagrams", {"query_string": {"cards": "r,e,t,s,a,l,n"}}),
    ("GET", "/words", {"query_string": {"pattern": "qu*", "limit": 50}}),
    ("GET", "/suggest", {"query_string": {"word": "quizz"}}),
    (
        "POST",
        "/score-round",
        {"json": {"round": 1, "players": [{"name": "Ann", "words": ["cat"], "unused": []}, {"name": "Bo", "words": ["(qu)a"], "unused": ["d"]}]}},
    ),
    ("GET", "/deal", {"query_string": {"ruleset": "standard", "players": 4, "round": 8, "seed": "0" * 64}}),
    (
        "POST",
        "/solitaire/solve",
        {
            "json": {
                "layout": {"piles": [{"cards": ["X", "T"], "face_down": 1}, {"cards": ["E"], "face_down": 0}, {"cards": ["A"], "face_down": 0}]},
                "budget": 1_000_000,
            }
        },
    ),
]


@pytest.fixture(scope="module")
def app() -> Any:
    return create_app()


def answer(app: Any, method: str, path: str, options: dict[str, Any]) -> int:
    reply = call_app(app, EnvironBuilder(path=path, method=method, **options).get_environ())
    assert reply is not None
    return reply.status


@pytest.fixture
def saved_garbage() -> Iterator[list[Any]]:
    """What a collection finds unreachable while the test runs, kept for a look (``gc.DEBUG_SAVEALL``)."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def ours(thing: object) -> str | None:
    """The name of ``thing`` if wordsvc's code made it: a function defined in wordsvc, or an instance of a wordsvc class."""
    if callable(thing) and getattr(thing, "__module__", "").startswith("wordsvc") and hasattr(thing, "__qualname__"):
        return f"function {thing.__qualname__}"
    kind = type(thing)
    if kind.__module__.startswith("wordsvc"):
        return f"{kind.__module__}.{kind.__qualname__}"
    return None


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
@pytest.mark.parametrize(("method", "path", "options"), REQUESTS, ids=[f"{m} {p}" for m, p, _ in REQUESTS])
def test_a_request_leaves_no_reference_cycle_of_wordsvcs_making(app, saved_garbage, method, path, options):
    assert answer(app, method, path, options) < 300  # once to fill what is filled once (indexes opened, solvers made)
    gc.collect()
    saved_garbage.clear()
    for _ in range(3):
        assert answer(app, method, path, options) < 300
    gc.collect()
    left = Counter(name for name in map(ours, saved_garbage) if name)
    assert not left, f"{method} {path} left cycles for the collector: {dict(left)}"


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
def test_a_request_handed_from_the_event_loop_to_the_pool_leaves_no_cycle(app, saved_garbage):
    def handed() -> dict[str, Any]:  # as the server's event loop calls the app for /validate (wordsvc.server.protocol)
        environ = EnvironBuilder(path="/validate", query_string={"word": "quizzq"}).get_environ()
        environ[HOSTING] = Hosting(to_pool=to_pool)
        return environ

    assert call_app(app, handed()) is None  # the word needs suggestions: the view asks for the pool
    gc.collect()
    saved_garbage.clear()
    for _ in range(3):
        assert call_app(app, handed()) is None
    gc.collect()
    frames = [thing.f_code.co_qualname for thing in saved_garbage if type(thing).__name__ == "frame"]
    assert not frames, f"the frames the handover passed are left for the collector: {frames}"
    assert not [name for name in map(ours, saved_garbage) if name]


@pytest.mark.slow  # seconds even alone: left out of make check, run by make test
def test_what_the_solver_and_deck_caches_keep_is_untracked_after_collections(app):
    for method, path, options in REQUESTS:
        answer(app, method, path, options)
    for _ in range(3):  # a collection stops tracking a tuple once what it holds is untracked: one level of nesting each
        gc.collect()
    caches = {
        name: [c for c in gc.get_objects() if isinstance(c, BudgetedCache) and c.name == name] for name in ("solver.prefixes", "solver.judged", "deck.plans")
    }
    looked: Counter[str] = Counter()
    for name, found in caches.items():
        for cache in found:
            for key, value in list(cache.recent.items()):
                looked[name] += 1
                assert not gc.is_tracked(key), (name, key)
                kept = value.ways if name == "deck.plans" else value  # a plan is a named tuple, which stays tracked; its ways are not
                assert not gc.is_tracked(kept), (name, key, value)
    assert all(looked[name] for name in caches), f"every cache was filled: {dict(looked)}"

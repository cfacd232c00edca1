"""The server-to-app contract (wordsvc/server/hosting.py): one typed object under one environ key, read by the app."""

from __future__ import annotations

from typing import Any

from wordsvc.server.hosting import HOSTING, Held, Hosting, hosting_of
from wordsvc.server.wsgi import build_environ, call_app


def environ(draining: bool = False) -> dict[str, Any]:
    return build_environ(b"GET", b"/stream", b"1.1", [(b"host", b"x")], b"", ("127.0.0.1", 80), ("127.0.0.1", 1), lambda: draining, lambda channel: None)


def fetch(after: int, keys: frozenset[str]) -> tuple[list[tuple[int, bytes]], int, bool, frozenset[str]]:
    return [], after, False, frozenset()


def holding(status: str) -> Any:
    def app(env: dict[str, Any], start_response: Any) -> list[bytes]:
        hosting = hosting_of(env)
        assert hosting is not None and hosting.holds_streams
        hosting.hold("club-dec", 3, fetch, "t1")
        start_response(status, [("Content-Type", "text/event-stream")])
        return [b": ready\n\n"]

    return app


def test_another_server_or_a_test_client_offers_no_hosting():
    assert hosting_of({}) is None
    assert hosting_of({HOSTING: "not the contract"}) is None


def test_each_request_gets_a_hosting_of_its_own_that_says_whether_the_worker_drains():
    first, second = hosting_of(environ()), hosting_of(environ(draining=True))
    assert first is not None and second is not None and first is not second
    assert (first.draining(), second.draining()) == (False, True)
    assert first.to_pool is None  # set only while the app runs on the event loop


def test_a_stream_the_app_holds_reaches_the_server_with_its_200():
    reply = call_app(holding("200 OK"), environ())
    assert reply is not None and reply.stream == Held("club-dec", 3, fetch, "t1")


def test_a_hold_asked_for_on_an_error_answer_is_not_held():
    reply = call_app(holding("404 Not Found"), environ())
    assert reply is not None and reply.stream is None


def test_without_streams_the_app_may_not_hold():
    assert not Hosting().holds_streams

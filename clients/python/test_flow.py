"""The generated Python client (``wordsvc_client``, build/clients/python) against a running wordsvc.

Run by api_tests/test_clients.py, which generates the client, puts it on
``PYTHONPATH`` and passes ``WORDSVC_URL`` and ``WORDSVC_ADMIN_TOKEN`` (an
admin token of that server's ledger); by hand::

    WORDSVC_URL=http://127.0.0.1:8000 WORDSVC_ADMIN_TOKEN=wsv_... PYTHONPATH=build/clients/python \\
        .venv/bin/python -m pytest clients/python/test_flow.py

Every call goes through the generated functions and models: the answers are
parsed into them, so a field the document gets wrong fails here.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from http import HTTPStatus

import pytest
from wordsvc_client import AuthenticatedClient, Client
from wordsvc_client.api.ledger import create_event, get_audit, get_round, get_standings, issue_token, seat_table, submit_round
from wordsvc_client.api.scoring import best_meld, score_round
from wordsvc_client.api.words import find_words, validate_word, validate_words
from wordsvc_client.models import (
    Audit,
    BestMeld,
    BestMeldRequest,
    Correction,
    Event,
    EventBody,
    GameBody,
    IssuedToken,
    Judge,
    Player,
    Problem,
    ProblemCode,
    Round,
    RoundDetail,
    RoundRequest,
    RoundResult,
    RoundSubmission,
    Standings,
    TokenBody,
    TokenBodyRole,
    ValidateBody,
    Verdict,
    Words,
)
from wordsvc_client.types import UNSET

URL = os.environ.get("WORDSVC_URL", "").rstrip("/")
ADMIN_TOKEN = os.environ.get("WORDSVC_ADMIN_TOKEN", "")
TIMEOUT = 60.0  # seconds: the best play and the ledger's writes may wait behind other requests


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    if not URL:
        pytest.fail("set WORDSVC_URL to the server to test (and WORDSVC_ADMIN_TOKEN for the ledger)")
    with Client(base_url=URL, timeout=TIMEOUT, raise_on_unexpected_status=True) as anonymous:
        yield anonymous


@pytest.fixture
def authenticated() -> Iterator[Callable[[str], AuthenticatedClient]]:
    """A client that sends a token, closed when the test ends."""
    with ExitStack() as stack:
        yield lambda token: stack.enter_context(AuthenticatedClient(base_url=URL, token=token, timeout=TIMEOUT, raise_on_unexpected_status=True))


@pytest.mark.parametrize(("ruleset", "word", "lang"), [("standard", "quiz", "en-US"), ("islenska", "hestur", "is"), ("eesti", "maja", "et")])
def test_a_word_is_judged_in_each_language(client: Client, ruleset: str, word: str, lang: str) -> None:
    verdict = validate_word.sync(client=client, word=word, ruleset=ruleset)
    assert isinstance(verdict, Verdict), verdict
    assert verdict.valid and verdict.lang == lang and verdict.reasons == []
    assert verdict.spellings and all(s.points > 0 for s in verdict.spellings)
    assert verdict.lexicon.id == lang and len(verdict.lexicon.sha256) == 64


@pytest.mark.parametrize(("lang", "word", "ruleset"), [("de", "schön", "deutsch"), ("es", "niño", "espanol")])
def test_a_language_named_alone_plays_its_own_ruleset(client: Client, lang: str, word: str, ruleset: str) -> None:
    verdict = validate_word.sync(client=client, word=word, lang=lang)
    assert isinstance(verdict, Verdict), verdict
    assert verdict.valid and verdict.ruleset == ruleset and verdict.lexicon.id == lang
    refused = validate_word.sync(client=client, word=word, lang=lang, ruleset="standard", suggest=False)
    assert isinstance(refused, Verdict) and not refused.valid
    assert refused.reasons[0].code == "not_spellable" and refused.reasons[0].hint.ruleset == ruleset


def test_a_judged_play_names_no_word(client: Client) -> None:
    ruling = validate_words.sync(client=client, body=ValidateBody(words=["quiz", "xyzzy"], judge=True))
    assert isinstance(ruling, Judge), ruling
    assert ruling.acceptable is False and ruling.count == 2


def test_a_round_is_scored(client: Client) -> None:
    body = RoundRequest(
        ruleset="standard",
        round_=1,
        players=[Player(name="Ann", words=[["QU", "I", "Z"]], unused=[], went_out=True), Player(name="Bob", words=["top"], unused=[])],
    )
    result = score_round.sync(client=client, body=body)
    assert isinstance(result, RoundResult), result
    assert [(p.name, p.total) for p in result.players] == [("Ann", 35), ("Bob", 11)]
    assert result.players[0].words[0].reason is None  # a nullable nested field: a valid word has no reason


def test_the_best_play_of_a_hand(client: Client) -> None:
    best = best_meld.sync(client=client, body=BestMeldRequest(hand="a(cl)g(in)(th)mpouyn", discard=True, top=3, face_up="E"))
    assert isinstance(best, BestMeld), best
    assert best.score == 58 and [w.word for w in best.words] == ["unclamping", "thy"] and best.discard == "O"
    assert best.face_up is not None and best.face_up.take is False


def test_a_word_search_goes_on_from_its_cursor(client: Client) -> None:
    first = find_words.sync(client=client, pattern="qu?z*", limit=2)
    assert isinstance(first, Words), first
    assert first.count == len(first.words) <= 2
    assert isinstance(first.next_cursor, str)  # qu?z* has more than two words (and a page cut short by its budget has a cursor too)
    second = find_words.sync(client=client, pattern="qu?z*", limit=2, cursor=first.next_cursor)
    assert isinstance(second, Words), second
    assert not {w.word for w in first.words} & {w.word for w in second.words}
    assert all(w.word.startswith("qu") and w.valid for w in [*first.words, *second.words])


def test_an_event_from_its_creation_to_its_audit(authenticated: Callable[[str], AuthenticatedClient]) -> None:
    if not ADMIN_TOKEN:
        pytest.fail("set WORDSVC_ADMIN_TOKEN: creating an event needs an admin token of the server's ledger")
    event_id = f"py-client-{uuid.uuid4().hex[:12]}"
    created = create_event.sync_detailed(client=authenticated(ADMIN_TOKEN), body=EventBody(id=event_id, name="Python client night", ruleset="standard"))
    assert created.status_code == HTTPStatus.CREATED and isinstance(created.parsed, Event), created.content
    assert created.parsed.director_token is not UNSET
    director = authenticated(created.parsed.director_token.token)

    seated = seat_table.sync_detailed(event_id, "t1", client=director, body=GameBody(players=["Ann", "Bob"]))
    assert seated.status_code == HTTPStatus.CREATED, seated.content
    issued = issue_token.sync(event_id, client=director, body=TokenBody(role=TokenBodyRole.REFEREE, table="t1"))
    assert isinstance(issued, IssuedToken) and issued.table == "t1", issued
    referee = authenticated(issued.token)

    play = RoundSubmission(players=[Player(name="Ann", words=["(qu)iz"]), Player(name="Bob", words=["to"], unused=["p"])])
    stored = submit_round.sync_detailed(event_id, "t1", 1, client=referee, body=play)
    assert stored.status_code == HTTPStatus.CREATED and isinstance(stored.parsed, Round), stored.content
    again = submit_round.sync_detailed(event_id, "t1", 1, client=referee, body=play)  # a retry: the stored result, no new revision
    assert again.status_code == HTTPStatus.OK and isinstance(again.parsed, Round) and again.parsed.revision == 1

    current = get_round.sync(event_id, "t1", 1, client=director)
    assert isinstance(current, RoundDetail) and current.etag == stored.parsed.etag, current
    fixed = RoundSubmission(
        players=[Player(name="Ann", words=["(qu)iz"]), Player(name="Bob", words=["top"])], correction=Correction(reason="Bob laid TOP, not TO and P")
    )
    stale = submit_round.sync(event_id, "t1", 1, client=director, body=fixed, if_match='"not-the-etag"')
    assert isinstance(stale, Problem) and stale.status == 412, stale
    corrected = submit_round.sync(event_id, "t1", 1, client=director, body=fixed, if_match=current.etag)
    assert isinstance(corrected, Round) and corrected.revision == 2, corrected
    assert [p.total for p in corrected.result.players] == [35, 11]

    standings = get_standings.sync(event_id, client=director)
    assert isinstance(standings, Standings), standings
    assert [(s.rank, s.player, s.table, s.rounds, s.total) for s in standings.standings] == [(1, "Ann", "t1", 1, 35), (2, "Bob", "t1", 1, 11)]
    audit = get_audit.sync(event_id, client=director)
    assert isinstance(audit, Audit), audit
    assert audit.head is not None and audit.head.seq == audit.entries[-1].seq
    corrections = [e.payload.additional_properties.get("reason") for e in audit.entries if e.action == "round.corrected"]
    assert corrections == ["Bob laid TOP, not TO and P"]


def test_errors_come_back_as_typed_problems(client: Client, authenticated: Callable[[str], AuthenticatedClient]) -> None:
    unknown = validate_word.sync(client=client, word="quiz", lang="xx")
    assert isinstance(unknown, Problem) and unknown.status == 404, unknown
    assert unknown.code is ProblemCode.UNKNOWN_LANGUAGE  # a typed value: the registry's codes are an enum
    assert "en-US" in unknown.detail  # the languages that exist

    duplicate = RoundRequest(round_=1, players=[Player(name="Ann", words=["(qu)iz"]), Player(name="Ann", words=["top"])])
    invalid = score_round.sync_detailed(client=client, body=duplicate)
    assert invalid.status_code == HTTPStatus.UNPROCESSABLE_ENTITY and isinstance(invalid.parsed, Problem), invalid.content
    assert invalid.headers["Content-Type"].startswith("application/problem+json")
    assert invalid.parsed.code is ProblemCode.INVALID_FIELDS
    entries = invalid.parsed.errors.additional_properties
    assert list(entries) == ["players.1.name"]
    assert [(e.code, e.message) for e in entries["players.1.name"]] == [(ProblemCode.DUPLICATE_NAME, "duplicate player name 'Ann' (also player 0)")]
    assert invalid.parsed.request_id == invalid.headers["X-Request-ID"]

    refused = create_event.sync(client=authenticated("wsv_not-a-token"), body=EventBody(name="no"))
    assert isinstance(refused, Problem) and refused.status == 401 and refused.code is ProblemCode.TOKEN_INVALID, refused

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
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from http import HTTPStatus

import pytest
from wordsvc_client import AuthenticatedClient, Client
from wordsvc_client.api.ledger import create_event, get_audit, get_round, get_standings, get_table, issue_token, seat_table, submit_round
from wordsvc_client.api.play import create_table, get_play, get_play_log, play_move, take_seat
from wordsvc_client.api.scoring import best_meld, score_round
from wordsvc_client.api.words import find_words, validate_word, validate_words
from wordsvc_client.models import (
    Audit,
    BestMeld,
    BestMeldRequest,
    BotSeat,
    BotSeatLevel,
    Correction,
    CreatedTable,
    CreatedTableStatus,
    Event,
    EventBody,
    Game,
    GameBody,
    IssuedToken,
    Judge,
    MoveBody,
    Moved,
    Play,
    Player,
    PlayLog,
    PlayMove,
    PlayMoveKind,
    PlayState,
    PlayStatus,
    Problem,
    ProblemCode,
    Round,
    RoundDetail,
    RoundRequest,
    RoundResult,
    RoundSubmission,
    RoundViewPhase,
    SeatBody,
    SeatTaken,
    Standings,
    TableBody,
    TokenBody,
    TokenBodyRole,
    ValidateBody,
    Verdict,
    Words,
)
from wordsvc_client.types import UNSET, Unset

URL = os.environ.get("WORDSVC_URL", "").rstrip("/")
ADMIN_TOKEN = os.environ.get("WORDSVC_ADMIN_TOKEN", "")
TIMEOUT = 60.0  # seconds: the best play and the ledger's writes may wait behind other requests
FUTURE_SEQ = 1_000_000  # a move count no game reaches: a move quoting it is always stale
GAME_PATIENCE = 900.0  # seconds: a guard against a hang only; the suite's server plays its bots at once (WORDSVC_BOT_DELAY_MS=0)


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


def _my_move(state: PlayState) -> PlayMove | None:
    """A simple legal move from the seat's own projection, or ``None`` while another seat is to move.

    It never goes out: it draws (takes the discard when the draw pile is empty and cannot be rebuilt from the
    discard pile), then discards the first card of its hand; in a last turn after someone went out it lays down no
    word and discards; when the draw pile ended the round (phase ``lay``) it lays down nothing; in a challenge window
    it passes. Enough to play any game to its end, since the bots go out.
    """
    seat, r = state.viewer, state.round_
    if r is None or seat is None:
        return None
    if r.phase is RoundViewPhase.CHALLENGES:
        return None if r.passed[seat] else PlayMove(kind=PlayMoveKind.PASS)
    if r.turn != seat:
        return None
    if r.phase is RoundViewPhase.LAY:
        return PlayMove(kind=PlayMoveKind.LAY_DOWN, words=[], discard=None)
    if r.phase is RoundViewPhase.DRAW:
        drawable = r.draw_pile > 0 or r.discard_pile > 1  # an empty draw pile is rebuilt from the discard pile but its top card
        return PlayMove(kind=PlayMoveKind.DRAW if drawable else PlayMoveKind.TAKE)
    assert not isinstance(r.hand, Unset), "a seat's projection shows its hand"
    if r.out is not None:
        return PlayMove(kind=PlayMoveKind.LAY_DOWN, words=[], discard=r.hand[0])
    return PlayMove(kind=PlayMoveKind.DISCARD, card=r.hand[0])


def test_a_hosted_game_against_the_servers_bots_is_played_to_its_end(authenticated: Callable[[str], AuthenticatedClient]) -> None:
    if not ADMIN_TOKEN:
        pytest.fail("set WORDSVC_ADMIN_TOKEN: the table is created with an admin token of the server's ledger")
    bots = [BotSeat(seat=1, level=BotSeatLevel.VALUE_1), BotSeat(seat=2, level=BotSeatLevel.VALUE_4)]
    created = create_table.sync_detailed(client=authenticated(ADMIN_TOKEN), body=TableBody(seats=3, bots=bots, name="Python client's game"))
    assert created.status_code == HTTPStatus.CREATED and isinstance(created.parsed, CreatedTable), created.content
    table = created.parsed
    assert table.status is CreatedTableStatus.WAITING and len(table.commitment) == 64 and table.server_seed is UNSET
    assert [s.kind for s in table.seats] == ["open", "bot", "bot"]
    director = authenticated(table.director_token.token)

    taken = take_seat.sync(table.event, table.game, client=director, body=SeatBody(name="Ann", nonce="python-client"))
    assert isinstance(taken, SeatTaken) and taken.seat == 0, taken
    ann = authenticated(taken.token)

    first = get_play.sync(table.event, table.game, client=ann)
    assert isinstance(first, Play) and first.status is PlayStatus.PLAYING and first.state is not None, first
    future = MoveBody(seq=FUTURE_SEQ, move_id="from-the-future", move=PlayMove(kind=PlayMoveKind.DRAW))  # the bots may have moved since the read
    stale = play_move.sync(table.event, table.game, client=ann, body=future)
    assert isinstance(stale, Problem) and stale.status == 409 and stale.code is ProblemCode.STALE_MOVE, stale

    state, moves, stale_moves = first.state, 0, 0
    deadline = time.monotonic() + GAME_PATIENCE
    while not state.over:
        assert time.monotonic() < deadline, f"the game did not end in {GAME_PATIENCE:.0f} s: {state.to_dict()}"
        move = _my_move(state)
        if move is not None:
            answer = play_move.sync(table.event, table.game, client=ann, body=MoveBody(seq=state.seq, move_id=f"ann-{state.seq}", move=move))
            if isinstance(answer, Moved):
                assert answer.seq == state.seq + 1 and not answer.repeat, answer
                state, moves = answer.state, moves + 1
                continue
            assert isinstance(answer, Problem) and answer.code is ProblemCode.STALE_MOVE, answer  # a bot moved first: read again
            stale_moves += 1
        else:
            time.sleep(0.02)  # a bot is thinking
        read = get_play.sync(table.event, table.game, client=ann)
        assert isinstance(read, Play) and read.state is not None, read
        state = read.state

    assert moves > 0 and stale_moves <= moves
    final = get_play.sync(table.event, table.game, client=director)  # the director is a spectator: no hand
    assert isinstance(final, Play) and final.status is PlayStatus.OVER and final.state is not None, final
    assert final.state.viewer is None and final.state.round_ is None and len(final.state.rounds) == 8
    assert [sum(r.totals[seat] for r in final.state.rounds) for seat in range(3)] == final.state.totals
    assert isinstance(final.server_seed, str) and isinstance(final.seed, str)

    log = get_play_log.sync(table.event, table.game, client=director)
    assert isinstance(log, PlayLog) and log.log is not None, log
    assert log.log["server_seed"] == final.server_seed and len(log.moves) == final.state.seq  # revealed: anyone can replay the game
    ledger_table = get_table.sync(table.event, table.game, client=director)
    assert isinstance(ledger_table, Game) and len(ledger_table.rounds) == 8, ledger_table
    assert [t.total for t in ledger_table.totals] == final.state.totals  # stored as a referee's table, with the same totals

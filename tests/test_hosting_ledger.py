"""Hosted games in the ledger (wordsvc/ledger/hosting/), on SQLite and PostgreSQL: seats, moves, rounds stored as a referee's, clocks.

Time is the test's own (``play_clock``), so a clock runs out when the test
says and never by waiting. A whole game played through the ledger lands as
a referee's table would (its rounds, totals and audit verify), and each of
its rounds' entries carries the hash of its moves.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from play_lexicon import HASH

from wordsvc.core.play import new_game
from wordsvc.core.play.dealing import face_of
from wordsvc.core.play.moves import move_to_dict
from wordsvc.core.play.random_player import RandomPlayer
from wordsvc.core.play.views import replay_public
from wordsvc.data.rulesets import load_rulesets
from wordsvc.ledger import LOCAL, Conflict, Ledger, Principal
from wordsvc.ledger.hosting.plays import HOST, IllegalPlay, StaleMove
from wordsvc.ledger.hosting.setup import TableSetup
from wordsvc.ledger.hosting.tables import PRESENT_MS

BOOK = load_rulesets()
_ids = itertools.count()


@dataclass
class Time:
    """The test's clock, in milliseconds since the epoch."""

    now: int = 1_800_000_000_000

    def __call__(self) -> int:
        return self.now


@pytest.fixture(scope="module")
def time() -> Time:
    return Time()


@pytest.fixture(scope="module")
def ledger(database_url: str, time: Time) -> Iterator[Ledger]:
    opened = Ledger.open(database_url, lambda lang: HASH, play_clock=time)
    yield opened
    opened.close()


def _table(ledger: Ledger, seats: list[str], ruleset: str = "standard", **setup: Any) -> tuple[str, dict[int, Principal]]:
    event = f"host{next(_ids)}"
    made = ledger.events.create_event(LOCAL, BOOK.get(ruleset), HASH, "Hosted", event)
    director = ledger.tokens.authenticate(made["director_token"]["token"])
    ledger.tables.create(director, event, "t", TableSetup(len(seats) + len(setup.get("bots", {})), **setup))
    actors = {}
    for name in seats:
        taken = ledger.tables.sit(None, event, "t", None, name, None)
        actors[taken["seat"]] = ledger.tokens.authenticate(taken["token"])
    return event, actors


def _entries(ledger: Ledger, event: str) -> list[dict[str, Any]]:
    """Every audit entry of the event, in order."""
    found: list[dict[str, Any]] = []
    while page := ledger.trail.audit_entries(None, event, found[-1]["seq"] if found else 0)["entries"]:
        found += page
    return found


def _public(move: Any) -> tuple[int, dict[str, Any]]:
    data = move_to_dict(move)
    seat = data.pop("seat")
    if "card" in data:
        data["card"] = face_of(data["card"])
    if "words" in data:
        data["words"] = [[face_of(c) for c in word] for word in data["words"]]
    if data.get("discard"):
        data["discard"] = face_of(data["discard"])
    return seat, data


def test_a_whole_game_lands_in_the_ledger_as_a_referees_table_with_each_rounds_moves_hashed(ledger: Ledger) -> None:
    event, actors = _table(ledger, ["Ann", "Bob", "Cy"])
    player = RandomPlayer(BOOK.get("standard"), HASH, random.Random(5), eagerness=0.3)
    while not (game := ledger.plays.game(event, "t")).state.over:
        seat, move = _public(player.move(game.state))
        ledger.plays.move(actors[seat], seat, event, "t", game.state.moves, f"m{game.state.moves}", move)
    state = game.state
    table = ledger.games.game(None, event, "t")
    assert [t["total"] for t in table["totals"]] == list(state.totals) and len(table["rounds"]) == 8
    assert ledger.trail.verify(event) == []
    entries = [e for e in _entries(ledger, event) if e["action"] == "round.submitted"]
    logged = ledger.plays.moves_of(event, "t")
    played = [e for e in _entries(ledger, event) if e["action"] == "move.played"]
    assert len(played) == len(logged) == state.moves
    ends = [p["payload"]["seq"] for p in played if "round_over" in p["payload"]]
    starts = [0, *ends[:-1]]
    for entry, start, end in zip(entries, starts, ends, strict=True):
        digest = hashlib.sha256(json.dumps(logged[start:end], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()
        assert entry["payload"]["moves_sha256"] == digest
    # the audit alone replays the game: its public moves, and the seed revealed at the end
    ended = next(e for e in _entries(ledger, event) if e["action"] == "play.ended")["payload"]
    start = new_game(BOOK.get("standard"), ended["seed"], ["Ann", "Bob", "Cy"], HASH)
    assert replay_public(start, [p["payload"] for p in played], BOOK.get("standard"), HASH).canonical() == state.canonical()
    assert ledger.tables.table(None, event, "t")["server_seed"] == ended["server_seed"]


def test_a_live_clock_charges_the_bank_plays_a_turn_out_of_time_and_hands_a_gone_seat_to_a_bot(ledger: Ledger, time: Time) -> None:
    clock = {"kind": "live", "turn_seconds": 30, "bank_seconds": 60}
    event, actors = _table(ledger, ["Ann", "Bob"], clock=clock)
    seats = {s["seat"]: s for s in ledger.tables.table(None, event, "t")["seats"]}
    assert seats[1]["deadline_ms"] == time.now + 90_000 and seats[0]["deadline_ms"] is None and seats[0]["bank_ms"] == 60_000
    assert ledger.plays.time_out(event, "t") == 0

    time.now += 29_000
    ledger.plays.move(actors[1], 1, event, "t", 0, "b1", {"kind": "draw"})
    time.now += 21_000  # 50 s in all: 20 s beyond the limit come off the bank
    hand = ledger.plays.view(1, event, "t")["round"]["hand"]
    ledger.plays.move(actors[1], 1, event, "t", 1, "b2", {"kind": "discard", "card": hand[0]})
    seats = {s["seat"]: s for s in ledger.tables.table(None, event, "t")["seats"]}
    assert seats[1]["bank_ms"] == 40_000 and seats[0]["deadline_ms"] == time.now + 90_000

    time.now += 90_000  # Ann's turn runs out: a move she sends now finds the clock has drawn and discarded for her
    with pytest.raises(StaleMove):
        ledger.plays.move(actors[0], 0, event, "t", 2, "a0", {"kind": "draw"})
    assert ledger.plays.game(event, "t").state.moves == 4
    assert ledger.plays.game(event, "t").state.current.turn == 1
    seats = {s["seat"]: s for s in ledger.tables.table(None, event, "t")["seats"]}
    assert (seats[0]["timeouts"], seats[0]["kind"], seats[0]["bank_ms"]) == (1, "person", 0)

    late = ledger.plays.game(event, "t").state.moves
    ledger.plays.move(actors[1], 1, event, "t", late, "b3", {"kind": "draw"})
    hand = ledger.plays.view(1, event, "t")["round"]["hand"]
    ledger.plays.move(actors[1], 1, event, "t", late + 1, "b4", {"kind": "discard", "card": hand[0]})
    time.now += 31_000  # past Ann's limit, her bank empty: a move sent now finds the clock has played her second turn in a row
    with pytest.raises(Conflict) as handed:
        ledger.plays.move(actors[0], 0, event, "t", late + 2, "a1", {"kind": "draw"})
    assert handed.value.code == "seat_handed_over"
    seats = {s["seat"]: s for s in ledger.tables.table(None, event, "t")["seats"]}
    assert (seats[0]["timeouts"], seats[0]["kind"], seats[0]["handed"]) == (2, "bot", "timeouts")  # two in a row: handed to a bot, a forfeit
    assert ledger.plays.game(event, "t").state.moves == late + 4
    assert any(e["action"] == "play.handed" for e in _entries(ledger, event))
    # the clock's moves replay from their public form too (its discards named by face)
    state = ledger.plays.game(event, "t").state
    played = [e["payload"] for e in _entries(ledger, event) if e["action"] == "move.played"]
    start = new_game(BOOK.get("standard"), state.seed, ["Ann", "Bob"], HASH)
    assert replay_public(start, played, BOOK.get("standard"), HASH).canonical() == state.canonical()


def test_a_restart_gives_a_turn_whose_deadline_passed_meanwhile_its_whole_limit_again(ledger: Ledger, database_url: str, time: Time) -> None:
    event, _ = _table(ledger, ["Ann", "Bob"], clock={"kind": "correspondence", "turn_hours": 1})
    assert ledger.tables.deadline_of(event, "t") == time.now + 3_600_000
    time.now += 5 * 3_600_000  # the server was down for five hours
    restarted = Ledger.open(database_url, lambda lang: HASH, play_clock=time)
    try:
        assert restarted.plays.resume_clocks() >= 1
        assert restarted.tables.deadline_of(event, "t") == time.now + 3_600_000
        assert restarted.plays.time_out(event, "t") == 0
    finally:
        restarted.close()


def test_a_move_is_refused_with_its_code_and_a_retry_is_answered_once(ledger: Ledger) -> None:
    event, actors = _table(ledger, ["Ann", "Bob"])
    state = ledger.plays.game(event, "t").state
    turn, other = state.current.turn, 1 - state.current.turn
    with pytest.raises(IllegalPlay) as refused:
        ledger.plays.move(actors[other], other, event, "t", 0, "x", {"kind": "draw"})
    assert refused.value.refusal.code == "not_your_turn"
    first = ledger.plays.move(actors[turn], turn, event, "t", 0, "x", {"kind": "draw"})
    again = ledger.plays.move(actors[turn], turn, event, "t", 0, "x", {"kind": "draw"})
    assert (first.seq, again.seq, first.repeat, again.repeat) == (1, 1, False, True)
    assert ledger.plays.game(event, "t").state.moves == 1


def _play_out(ledger: Ledger, event: str, actors: dict[int, Principal], rounds: int | None = None, game_id: str = "t") -> None:
    """Random legal moves until the game is over (or ``rounds`` rounds are scored)."""
    player = RandomPlayer(BOOK.get("standard"), HASH, random.Random(11), eagerness=0.5)
    while not (game := ledger.plays.game(event, game_id)).state.over and (rounds is None or len(game.state.finished) < rounds):
        seat, move = _public(player.move(game.state))
        if seat in actors:
            ledger.plays.move(actors[seat], seat, event, game_id, game.state.moves, f"m{game.state.moves}", move)
        else:  # a bot's seat: the server's move, as its runner makes it
            ledger.plays.move(HOST, seat, event, game_id, game.state.moves, f"bot-{game.state.moves}-{seat}", move, by="bot")


def test_resign_hands_the_seat_to_a_bot_and_abort_ends_a_game_only_before_it_has_a_result(ledger: Ledger) -> None:
    event, actors = _table(ledger, ["Ann", "Bob"])
    table = ledger.endings.resign(actors[0], 0, event, "t")
    assert (table["seats"][0]["kind"], table["seats"][0]["name"], table["seats"][0]["handed"]) == ("bot", "Ann", "resigned")
    with pytest.raises(Conflict) as again:
        ledger.endings.resign(actors[0], 0, event, "t")
    assert again.value.code == "seat_handed_over"
    assert any(e["action"] == "play.handed" and e["payload"]["reason"] == "resigned" for e in _entries(ledger, event))

    event, actors = _table(ledger, ["Ann", "Bob"])
    aborted = ledger.endings.abort(actors[1], event, "t")
    assert aborted["status"] == "aborted" and aborted["server_seed"]
    with pytest.raises(Conflict) as twice:
        ledger.endings.abort(actors[1], event, "t")
    assert twice.value.code == "game_ended"

    event, actors = _table(ledger, ["Ann", "Bob"])
    _play_out(ledger, event, actors, rounds=1)
    with pytest.raises(Conflict) as late:
        ledger.endings.abort(actors[0], event, "t")
    assert late.value.code == "abort_too_late"


def test_a_rematch_seats_everyone_one_place_to_the_left_with_a_new_seed_and_starts_when_all_accept(ledger: Ledger) -> None:
    event, actors = _table(ledger, ["Ann", "Bob"], bots={2: 1})
    _play_out(ledger, event, actors)
    old = ledger.tables.table(None, event, "t")
    first = ledger.endings.rematch(actors[0], 0, event, "t")
    assert first["seat"] == 1 and first["table"]["game"] == "t-2" and first["table"]["status"] == "waiting"
    assert [s["name"] for s in first["table"]["seats"]] == ["Bot 3 (level 1)", "Ann", "Bob"]
    assert [s["kind"] for s in first["table"]["seats"]] == ["bot", "person", "reserved"]
    assert first["table"]["commitment"] != old["commitment"]
    assert ledger.tables.table(None, event, "t")["rematch"] == "t-2"
    with pytest.raises(Conflict):
        ledger.endings.rematch(actors[0], 0, event, "t")
    second = ledger.endings.rematch(actors[1], 1, event, "t")
    assert second["seat"] == 2 and second["table"]["status"] == "playing"
    bob = ledger.tokens.authenticate(second["token"])
    assert ledger.tables.seat_of(bob, event, "t-2") == 2


def test_a_seat_is_present_while_its_token_is_used_and_a_bot_always(ledger: Ledger, time: Time) -> None:
    event, _ = _table(ledger, ["Ann"], bots={1: 1})
    assert [s["present"] for s in ledger.tables.table(None, event, "t")["seats"]] == [True, True]  # just sat down
    time.now += PRESENT_MS
    assert [s["present"] for s in ledger.tables.table(None, event, "t")["seats"]] == [False, True]
    ledger.tables.seen(event, "t", 0)
    assert [s["present"] for s in ledger.tables.table(None, event, "t")["seats"]] == [True, True]

"""The ledger keeps what it acknowledged, with real processes on real databases (no mocks).

- ``kill -9`` on SQLite: ``wordsvc serve`` (master and both workers) is
  SIGKILLed while referees submit rounds as fast as they can; after a restart
  on the same file every acknowledged round is there exactly as acknowledged,
  nothing else is, and ``wordsvc audit verify`` passes. The server is first
  frozen (SIGSTOP) by the referee whose answer makes the count, so how far
  the others get before the kill is bounded by counts, not by how fast the
  test's threads run.
- Two ``wordsvc serve`` processes on one PostgreSQL database, racing on the
  same round at the same moment: one revision is stored, the other request
  gets 409 (another play) or 200 with the same result (the same play).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import REPO, _free_port, _stop, _wait_ready, _wordsvc_command, admin_token_for, wordsvc_cli
from .plays import PLAYERS, random_players
from .postgres import create_database, drop_database

ROUNDS = range(1, 9)  # the standard ruleset's eight rounds; round n deals n + 2 cards
TIMEOUT = 20.0  # seconds for any one HTTP request
GONE_TIMEOUT = 30.0  # seconds for a killed server's processes to disappear (they go in milliseconds)
PATIENCE = 60.0  # seconds to wait for the referees to stand still at a frozen server (they do in milliseconds)


# ---------------------------------------------------------------- servers


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path


def _launch(database_url: str, log: Path) -> Server:
    """``wordsvc serve --workers 2`` on a free port, in a process group of its own (not yet ready)."""
    port = _free_port()
    command = [_wordsvc_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    env = {**os.environ, "WORDSVC_DATABASE_URL": database_url}
    with log.open("ab") as out:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(command, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    return Server(f"http://127.0.0.1:{port}", process, log)


def _group_alive(pgid: int) -> list[int]:
    """Live (not zombie) processes of the process group ``pgid``."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields_ = stat[stat.rindex(")") + 2 :].split()  # state, ppid, pgrp, ...
        if int(fields_[2]) == pgid and fields_[0] not in "ZX":
            alive.append(int(entry.name))
    return alive


def _wait_gone(server: Server) -> None:
    deadline = time.monotonic() + GONE_TIMEOUT
    while (alive := _group_alive(server.process.pid)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not alive, f"processes {alive} of the server's group {server.process.pid} outlived it"


def _kill(server: Server) -> None:
    """SIGKILL the server's whole process group, master and workers at once, and wait until none of them is left."""
    os.killpg(server.process.pid, signal.SIGKILL)
    server.process.wait(timeout=GONE_TIMEOUT)
    _wait_gone(server)


@contextmanager
def serving(*database_urls: str, logs: Path) -> Iterator[list[Server]]:
    """One ready ``wordsvc serve`` per URL (started side by side); each stopped, or killed, and gone when the block ends."""
    logs.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        servers = []
        for i, url in enumerate(database_urls):
            server = _launch(url, logs / f"server-{i}-{uuid.uuid4().hex[:6]}.log")
            stack.callback(_wait_gone, server)
            stack.callback(_stop, server.process)
            servers.append(server)
        for server in servers:
            _wait_ready(server.url, server.process, server.log)
        yield servers


# ---------------------------------------------------------------- plays and events


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _deck(url: str) -> list[str]:
    """The standard deck as a multiset of faces ("a" ten times, "qu" twice, ...): 118 cards."""
    response = requests.get(f"{url}/rulesets/standard", timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    cards = [card["face"].lower() for card in response.json()["deck"]["cards"] for _ in range(card["count"])]
    assert len(cards) == 118
    return cards


def deal(rng: random.Random, deck: list[str], number: int) -> dict[str, Any]:
    """A valid round-``number`` body (:func:`~api_tests.plays.random_players`)."""
    return {"players": random_players(rng, deck, number)}


def normalized(body: dict[str, Any]) -> dict[str, Any]:
    """What the ledger stores of a body dealt by :func:`deal` (docs/ledger.md: cards as faces, no round number, in the play's one
    order: players by seat, a player's words by their cards, the unused cards by face)."""
    seat = {name: i for i, name in enumerate(PLAYERS)}
    players = [
        {"name": p["name"], "words": sorted(p["words"]), "unused": sorted(p["unused"]), "went_out": p["went_out"]}
        for p in sorted(body["players"], key=lambda p: seat[p["name"]])
    ]
    return {"players": players, "challenges": [], "bonus_choice": None}


def seat_event(url: str, admin: str, event: str, tables: list[str]) -> dict[str, str]:
    """Create ``event`` with a three-player game per table; each table's referee token."""
    referees = {}
    with requests.Session() as session:
        created = session.post(f"{url}/events", json={"name": f"durability {event}", "id": event, "ruleset": "standard"}, headers=_auth(admin), timeout=TIMEOUT)
        assert created.status_code == 201, created.text
        director = _auth(created.json()["director_token"]["token"])
        for table in tables:
            seated = session.put(f"{url}/events/{event}/games/{table}", json={"players": PLAYERS}, headers=director, timeout=TIMEOUT)
            assert seated.status_code == 201, seated.text
            issued = session.post(f"{url}/events/{event}/tokens", json={"role": "referee", "table": table}, headers=director, timeout=TIMEOUT)
            assert issued.status_code == 201, issued.text
            referees[table] = issued.json()["token"]
    return referees


def audit_verify(database_url: str, *event_ids: str) -> None:
    done = wordsvc_cli(database_url, "audit", "verify", *event_ids)
    assert done.returncode == 0, f"wordsvc audit verify {' '.join(event_ids)} exited {done.returncode}:\n{done.stdout}{done.stderr}"


# ---------------------------------------------------------------- kill -9 on SQLite


@dataclass
class Wave:
    """What the referees of one event sent and heard before the server was killed."""

    event: str
    tables: list[str]
    seed: int
    sent: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    acked: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    #: (table, round) -> when the request began, for requests that got no answer
    unanswered: dict[tuple[str, int], float] = field(default_factory=dict)
    #: table -> the round its referee has sent and not yet heard about
    pending: dict[str, tuple[str, int]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    #: set once the server is frozen (SIGSTOP): what it had in hand then stays unanswered until the kill
    frozen: threading.Event = field(default_factory=threading.Event)
    pending_at_freeze: int = 0
    killed_at: float = float("inf")
    lock: threading.Lock = field(default_factory=threading.Lock)

    def in_flight(self) -> set[tuple[str, int]]:
        """Rounds sent before the kill and never answered: the server had them in hand when it died."""
        return {key for key, began in self.unanswered.items() if began < self.killed_at}


def _referee(url: str, wave: Wave, table: str, token: str, deck: list[str], kill_after: int, pgid: int) -> None:
    """Submit rounds 1..8 of ``table`` in order, as fast as the server answers; stop at the first request without an answer.

    The referee whose answer makes ``kill_after`` acknowledged rounds freezes the server's process group
    (SIGSTOP) before it lets go of the wave's lock: no answer is counted after that but those the server
    had already written, one per referee at most, so every count below is bounded whatever the timing.
    """
    rng = random.Random(f"{wave.seed}/{wave.event}/{table}")
    try:
        with requests.Session() as session:
            session.headers.update(_auth(token))
            for number in ROUNDS:
                key = (table, number)
                body = deal(rng, deck, number)
                with wave.lock:
                    wave.sent[key] = body
                    wave.pending[table] = key
                began = time.monotonic()
                try:
                    response = session.put(f"{url}/events/{wave.event}/games/{table}/rounds/{number}", json=body, timeout=TIMEOUT)
                except requests.RequestException:  # refused, reset, cut off mid-answer: the server is gone
                    with wave.lock:
                        wave.unanswered[key] = began
                    return
                with wave.lock:
                    del wave.pending[table]
                    if response.status_code != 201:
                        wave.failures.append(f"round {key}: {response.status_code} {response.text[:500]}")
                        return
                    wave.acked[key] = response.json()  # read whole by put(): an answer, or a failure of the test
                    if len(wave.acked) >= kill_after and not wave.frozen.is_set():
                        os.killpg(pgid, signal.SIGSTOP)  # master and workers stand still wherever they are, mid-transaction or not
                        wave.pending_at_freeze = len(wave.pending)
                        wave.frozen.set()
    except Exception as err:  # the test fails on it, with what it was
        with wave.lock:
            wave.failures.append(f"table {table}: {err!r}")


def submit_and_kill(server: Server, wave: Wave, referees: dict[str, str], deck: list[str], kill_after: int) -> None:
    """One referee thread per table; once ``kill_after`` rounds are acknowledged the server is frozen, and once every
    referee with rounds to go is waiting on it, SIGKILLed: the rounds it had in hand are never answered."""
    pgid = server.process.pid  # its own session: the master's pid is the group's
    threads = {t: threading.Thread(target=_referee, args=(server.url, wave, t, referees[t], deck, kill_after, pgid), daemon=True) for t in wave.tables}
    for thread in threads.values():
        thread.start()

    def still() -> bool:  # frozen (or every referee stopped), and each referee left is blocked on the frozen server
        with wave.lock:
            live = [table for table, thread in threads.items() if thread.is_alive()]
            return (wave.frozen.is_set() or not live) and all(table in wave.pending for table in live)

    give_up = time.monotonic() + PATIENCE
    while not still():
        assert time.monotonic() < give_up, f"the referees did not stand still at the frozen server: {wave.failures}"
        time.sleep(0.005)
    wave.killed_at = time.monotonic()
    _kill(server)
    for thread in threads.values():
        thread.join(TIMEOUT + 5)
    assert not any(thread.is_alive() for thread in threads.values()), "a referee thread did not stop after the kill"
    assert not wave.failures, f"seed {wave.seed}: {wave.failures}"


def _stored_rounds(url: str, event: str, table: str) -> dict[tuple[str, int], dict[str, Any]]:
    """Every round of ``table`` the server has (GET of each of rounds 1..8), checked against the table's own list."""
    stored = {}
    with requests.Session() as session:
        game = session.get(f"{url}/events/{event}/games/{table}", timeout=TIMEOUT)
        assert game.status_code == 200, game.text
        listed = {view["round"] for view in game.json()["rounds"]}
        for number in ROUNDS:
            response = session.get(f"{url}/events/{event}/games/{table}/rounds/{number}", timeout=TIMEOUT)
            assert response.status_code in (200, 404), f"round {number} of {table}: {response.status_code} {response.text[:500]}"
            if response.status_code == 200:
                stored[(table, number)] = response.json()
        assert {number for _, number in stored} == listed, f"{table}: rounds found {sorted(stored)}, listed {sorted(listed)}"
    return stored


def check_survivors(url: str, wave: Wave) -> int:
    """After a restart: every acknowledged round exactly as acknowledged, nothing never sent, every stored round whole. How many are stored."""
    context = f"seed {wave.seed}, event {wave.event}"
    stored: dict[tuple[str, int], dict[str, Any]] = {}
    with ThreadPoolExecutor(8) as pool:
        for rounds in pool.map(lambda table: _stored_rounds(url, wave.event, table), wave.tables):
            stored |= rounds
    never_sent = set(stored) - set(wave.sent)
    assert not never_sent, f"{context}: rounds stored that were never sent: {sorted(never_sent)}"
    lost = set(wave.acked) - set(stored)
    assert not lost, f"{context}: acknowledged rounds lost in the kill: {sorted(lost)}"
    for key, answer in wave.acked.items():
        view = stored[key]
        assert view["result"] == answer["result"], f"{context}: round {key} differs from what was acknowledged"
        same = {k: v for k, v in view.items() if k not in ("history", "receipt")} == {k: v for k, v in answer.items() if k != "receipt"}
        assert same, f"{context}: round {key}'s view (etag, totals) differs from what was acknowledged"
        kept, now = answer["receipt"], view["receipt"]  # the same entry, in the tree as it is now (as large or larger)
        assert (now["seq"], now["entry_hash"]) == (kept["seq"], kept["entry_hash"]) and now["tree_size"] >= kept["tree_size"], f"{context}: round {key}'s receipt"
    for key, view in stored.items():
        assert (view["revision"], view["revisions"], len(view["history"])) == (1, 1, 1), f"{context}: round {key}: {view}"
        assert view["history"][0]["body"] == normalized(wave.sent[key]), f"{context}: round {key} holds a play that was not sent"
        assert view["history"][0]["result"] == view["result"], f"{context}: round {key}"
    # A round stored but never acknowledged can only be one whose request got no answer.
    assert set(stored) - set(wave.acked) <= set(wave.unanswered), f"{context}: unacknowledged rounds stored that were answered otherwise"
    return len(stored)


def check_restart(url: str, database_url: str, waves: list[Wave]) -> None:
    """Every event so far survived (:func:`check_survivors`), and ``wordsvc audit verify`` passes on them all and the admin tokens' chain."""
    for wave in waves:
        stored = check_survivors(url, wave)
        print(f"seed {wave.seed}, event {wave.event}: {len(wave.acked)} acknowledged, {stored} stored after the restart")  # shown with -s
    if waves:
        audit_verify(database_url)


def test_sigkill_loses_no_acknowledged_round_on_sqlite(tmp_path: Path) -> None:
    """A SIGKILL of the whole server (master and workers) mid-stream loses no acknowledged round, stores nothing else, leaves the audit valid.

    Proves that SQLite's commit comes before the answer (an acknowledged round
    is on disk, as acknowledged, with revision 1) and that a write is all or
    nothing (every stored round reads back whole, only sent plays are stored,
    and ``wordsvc audit verify`` finds the rows and the chain in agreement).
    The kill comes twice on the same file, the second time with three times
    the referees, and each restart checks every event so far.
    """
    database_url = f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    seed = random.randrange(2**32)
    logs = tmp_path / "logs"
    admin = admin_token_for(database_url)
    # 1. Eight tables, eight referees. The kill is tied to progress, not to a clock: the referee whose answer
    #    makes half the rounds acknowledged freezes the server, the others hear at most the one answer each
    #    the server had written by then (32 + 7 acknowledged at most, of 64), and each then sends its next
    #    round to the frozen server: when the SIGKILL comes, every referee with rounds to go has one in flight.
    # 2. Twenty-four tables: more referees than the two workers' sixteen app threads, so when the freeze
    #    comes the workers hold a full set of requests, most waiting on the write lock and one inside
    #    a write transaction or its commit: the freeze (and the kill after it) very likely lands mid-request,
    #    mid-transaction. What the test asserts holds wherever it lands, so it cannot be flaky about that.
    plan = [("e1", 8, 32), ("e2", 24, 48)]
    waves: list[Wave] = []
    for event, size, kill_after in plan:
        with serving(database_url, logs=logs) as (server,):
            check_restart(server.url, database_url, waves)  # after the previous kill, if any
            deck = _deck(server.url)
            wave = Wave(event, [f"t{i}" for i in range(1, size + 1)], seed)
            referees = seat_event(server.url, admin, event, wave.tables)
            submit_and_kill(server, wave, referees, deck, kill_after)
        waves.append(wave)
        context = (
            f"seed {seed}, event {event}: {len(wave.acked)} acknowledged, {wave.pending_at_freeze} in the server's hands at the freeze, "
            f"{len(wave.in_flight())} in flight at the kill, {len(wave.sent)} sent"
        )
        print(context)  # shown with -s
        assert len(wave.acked) >= kill_after, f"{context}: too few rounds acknowledged before the kill to prove anything"
        assert wave.in_flight(), f"{context}: the kill came when no round was in flight"
        assert len(wave.sent) < size * len(ROUNDS), f"{context}: every round was sent before the kill"
    with serving(database_url, logs=logs) as (server,):
        check_restart(server.url, database_url, waves)


# ---------------------------------------------------------------- two servers racing on PostgreSQL


@dataclass
class Race:
    """One (table, round) submitted through both servers at once."""

    table: str
    number: int
    bodies: tuple[dict[str, Any], dict[str, Any]]
    answers: list[tuple[int, dict[str, Any]] | None] = field(default_factory=lambda: [None, None])

    @property
    def same(self) -> bool:
        return self.bodies[0] == self.bodies[1]


def _racer(url: str, event: str, token: str, side: int, races: list[Race], barrier: threading.Barrier, failures: list[str]) -> None:
    """Submit one side of each race of a table, each the moment the other side's thread is ready too."""
    try:
        with requests.Session() as session:
            session.headers.update(_auth(token))
            session.get(f"{url}/health", timeout=TIMEOUT)  # a connection already open: the race starts at the PUT
            for race in races:
                barrier.wait(timeout=TIMEOUT)
                response = session.put(f"{url}/events/{event}/games/{race.table}/rounds/{race.number}", json=race.bodies[side], timeout=TIMEOUT)
                race.answers[side] = (response.status_code, response.json())
    except Exception as err:
        barrier.abort()
        failures.append(f"side {side}: {err!r}")


def test_two_servers_racing_on_postgresql_store_one_revision(postgres_server_url: str, tmp_path: Path) -> None:
    """Two server processes on one PostgreSQL database, each given the same round at the same moment, store exactly one revision.

    Proves the cross-process serialization of round writes (the event's
    advisory lock and the revisions key): with different plays exactly one
    request gets 201 and the other 409; with the same play one gets 201 and
    the other 200 with the identical result. Afterwards each round has one
    revision holding the winner's play, one ``round.submitted`` audit entry,
    and ``wordsvc audit verify`` passes.
    """
    name = f"durability_race_{uuid.uuid4().hex[:8]}"
    database_url = create_database(postgres_server_url, name)
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    tables = [f"t{i}" for i in range(1, 9)]
    try:
        with serving(database_url, database_url, logs=tmp_path / "logs") as servers:
            admin = admin_token_for(database_url)
            referees = seat_event(servers[0].url, admin, "race", tables)
            deck = _deck(servers[0].url)
            by_table: dict[str, list[Race]] = {}
            for i, table in enumerate(tables):
                for number in ROUNDS:
                    first = deal(rng, deck, number)
                    second = first if (i + number) % 2 else deal(rng, deck, number)  # half the same play, half another
                    assert (first == second) == bool((i + number) % 2)
                    by_table.setdefault(table, []).append(Race(table, number, (first, second)))
            failures: list[str] = []
            threads = []
            for table, races in by_table.items():
                barrier = threading.Barrier(2)
                for side, server in enumerate(servers):
                    args = (server.url, "race", referees[table], side, races, barrier, failures)
                    threads.append(threading.Thread(target=_racer, args=args, daemon=True))
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(TIMEOUT * len(ROUNDS))
            assert not any(thread.is_alive() for thread in threads), "a racing thread did not finish"
            assert not failures, f"seed {seed}: {failures}"

            races = [race for races in by_table.values() for race in races]
            assert sum(race.same for race in races) == len(races) // 2
            with requests.Session() as session:
                for race in races:
                    context = f"seed {seed}, table {race.table} round {race.number} ({'same' if race.same else 'different'} plays)"
                    answers = race.answers
                    assert answers[0] is not None and answers[1] is not None, context
                    statuses = sorted(status for status, _ in answers)
                    assert statuses == ([200, 201] if race.same else [201, 409]), f"{context}: {answers}"
                    winner = 0 if answers[0][0] == 201 else 1
                    won, lost = answers[winner][1], answers[1 - winner][1]
                    if race.same:
                        assert lost["result"] == won["result"] and lost["etag"] == won["etag"], f"{context}: the repeat's answer differs"
                    else:
                        assert lost["status"] == 409, f"{context}: {lost}"
                    for server in servers:  # each process reads the one stored revision, the winner's
                        view = session.get(f"{server.url}/events/race/games/{race.table}/rounds/{race.number}", timeout=TIMEOUT)
                        assert view.status_code == 200, f"{context}: {view.text[:500]}"
                        stored = view.json()
                        assert (stored["revision"], stored["revisions"], len(stored["history"])) == (1, 1, 1), f"{context}: {stored}"
                        assert stored["history"][0]["body"] == normalized(race.bodies[winner]), f"{context}: the stored play is not the winner's"
                        assert stored["result"] == won["result"], f"{context}: the stored result is not the winner's"
                audit = session.get(f"{servers[1].url}/events/race/audit", timeout=TIMEOUT)
                assert audit.status_code == 200, audit.text
                submitted = sorted((e["payload"]["game"], e["payload"]["round"]) for e in audit.json()["entries"] if e["action"] == "round.submitted")
                assert submitted == sorted((race.table, race.number) for race in races), f"seed {seed}: one round.submitted entry per round"
            audit_verify(database_url, "race")
    finally:
        drop_database(postgres_server_url, name)


# ---------------------------------------------------------------- a close racing round writes


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_close_racing_round_writes_leaves_no_round_after_it(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """Referees keep storing rounds through every server while the event is closed: no round is stored after the close.

    On SQLite one server with two workers, on PostgreSQL two servers on one
    database. The close comes once a quarter of the rounds are acknowledged
    (an event, not a time); each referee then stops at its first 409. Every
    round answered 201 is stored, and every ``round.submitted`` entry of the
    audit trail comes before ``event.closed``: the close and the round writes
    are serialized by the event's lock, and each write reads the status
    under it. One table's referee holds its last rounds until the close has
    been answered, so some round always meets the closed event.
    """
    if backend == "sqlite":
        database_url, name = f"sqlite:///{tmp_path}/close-race.sqlite3", ""
        urls: tuple[str, ...] = (database_url,)
    else:
        postgres = request.getfixturevalue("postgres_server_url")
        name = f"close_race_{uuid.uuid4().hex[:8]}"
        database_url = create_database(postgres, name)
        urls = (database_url, database_url)
    tables = [f"t{i}" for i in range(1, 9)]
    try:
        with serving(*urls, logs=tmp_path / "logs") as servers:
            admin = admin_token_for(database_url)
            deck = _deck(servers[0].url)
            for race in range(3):
                event = f"close-race-{race}"
                referees = seat_event(servers[0].url, admin, event, tables)
                acknowledged: list[tuple[str, int]] = []
                refused: list[tuple[str, int]] = []
                quarter, closed_answered = threading.Event(), threading.Event()
                lock = threading.Lock()

                def referee(
                    i: int, table: str, event: str = event, referees: dict[str, str] = referees, acknowledged=acknowledged, refused=refused, quarter=quarter,
                    lock=lock, closed_answered=closed_answered,
                ) -> None:  # fmt: skip
                    rng = random.Random(f"{event}-{table}")
                    with requests.Session() as session:
                        session.headers.update(_auth(referees[table]))
                        for number in ROUNDS:
                            if table == tables[-1] and number > 2:
                                assert closed_answered.wait(TIMEOUT * len(ROUNDS)), "the close was never answered"
                            url = servers[(i + number) % len(servers)].url
                            answer = session.put(f"{url}/events/{event}/games/{table}/rounds/{number}", json=deal(rng, deck, number), timeout=TIMEOUT)
                            with lock:
                                if answer.status_code == 201:
                                    acknowledged.append((table, number))
                                    if len(acknowledged) >= (len(tables) - 1) * len(ROUNDS) // 4:
                                        quarter.set()
                                else:
                                    assert answer.status_code == 409 and answer.json()["errors"] == {"event": [{"code": "event_closed", "message": "closed"}]}, answer.text
                                    refused.append((table, number))
                                    return

                threads = [threading.Thread(target=referee, args=(i, table), daemon=True) for i, table in enumerate(tables)]
                for thread in threads:
                    thread.start()
                assert quarter.wait(TIMEOUT * len(ROUNDS)), "too few rounds acknowledged to race a close"
                closed = requests.post(f"{servers[-1].url}/events/{event}/close", headers=_auth(admin), timeout=TIMEOUT)
                assert closed.status_code == 200, closed.text
                closed_answered.set()
                for thread in threads:
                    thread.join(TIMEOUT * len(ROUNDS))
                assert not any(thread.is_alive() for thread in threads)
                entries = requests.get(f"{servers[0].url}/events/{event}/audit", headers=_auth(admin), timeout=TIMEOUT).json()["entries"]
                (close_seq,) = [e["seq"] for e in entries if e["action"] == "event.closed"]
                stored = {(e["payload"]["game"], e["payload"]["round"]): e["seq"] for e in entries if e["action"] == "round.submitted"}
                assert all(seq < close_seq for seq in stored.values()), f"{event}: a round stored after the close"
                assert set(stored) == set(acknowledged), f"{event}: acknowledged {sorted(acknowledged)}, stored {sorted(stored)}"
                assert refused, f"{event}: the close came after every round"
            audit_verify(database_url, *(f"close-race-{race}" for race in range(3)))
    finally:
        if name:
            drop_database(request.getfixturevalue("postgres_server_url"), name)


# ---------------------------------------------------------------- a reseat racing a session's first round


RESEAT_TRIALS = 8  # events a back end, half with a swap, half with a redraw; each races one first round against one reseat


def _seated_session(url: str, admin: str, event: str) -> tuple[dict[str, str], dict[str, Any]]:
    """``event`` with four checked-in players seated at two tables of two by a random session; the director's header and the session."""
    with requests.Session() as session:
        created = session.post(f"{url}/events", json={"name": f"reseat {event}", "id": event, "ruleset": "standard"}, headers=_auth(admin), timeout=TIMEOUT)
        assert created.status_code == 201, created.text
        director = _auth(created.json()["director_token"]["token"])
        for player in ("ann", "bob", "cat", "dan"):
            registered = session.put(f"{url}/events/{event}/players/{player}", json={"name": player.title(), "checked_in": True}, headers=director, timeout=TIMEOUT)
            assert registered.status_code == 201, registered.text
        seated = session.post(f"{url}/events/{event}/sessions", json={"method": "random", "size": {"target": 2}, "number": 1}, headers=director, timeout=TIMEOUT)
        assert seated.status_code == 201, seated.text
    return director, seated.json()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_reseat_racing_a_sessions_first_round_never_stores_a_round_of_other_players(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """A director's swap (or redraw) and a table's first round, sent at the same moment through different servers: whichever
    commits first wins, and the other is refused (409: the session has started, or the table was reseated).

    A round is never stored for players its table no longer seats: after every race each stored round's players are its
    table's (what an import of the event's export checks, row by row) and ``audit verify`` passes. Which one wins varies;
    the test holds whatever the outcome: the round's write reads the seats again under the event's lock, as the reseat
    reads the rounds.
    """
    if backend == "sqlite":
        database_url, name = f"sqlite:///{tmp_path}/reseat-race.sqlite3", ""
        urls: tuple[str, ...] = (database_url,)
    else:
        postgres = request.getfixturevalue("postgres_server_url")
        name = f"reseat_race_{uuid.uuid4().hex[:8]}"
        database_url = create_database(postgres, name)
        urls = (database_url, database_url)
    try:
        with serving(*urls, logs=tmp_path / "logs") as servers:
            admin = admin_token_for(database_url)
            deck = _deck(servers[0].url)
            events = [f"reseat-{trial}" for trial in range(RESEAT_TRIALS)]
            for trial, event in enumerate(events):
                reseat = ("swap", "redraw")[trial % 2]
                director, session = _seated_session(servers[0].url, admin, event)
                names = [seat["name"] for seat in session["tables"][0]["seats"]]
                other = session["tables"][1]["seats"][0]["player"]
                body = {"players": random_players(random.Random(event), deck, 1, names)}
                barrier = threading.Barrier(2)
                answers: dict[str, requests.Response] = {}

                def send(what: str, url: str, payload: dict[str, Any], answers=answers, barrier=barrier, director=director, event=event) -> None:
                    barrier.wait(TIMEOUT)
                    answers[what] = requests.request("PUT" if what == "round" else "POST", url, json=payload, headers=director, timeout=TIMEOUT)

                first = session["tables"][0]["seats"][0]["player"]
                reseat_url = f"{servers[-1].url}/events/{event}/sessions/1/{reseat}"
                threads = [
                    threading.Thread(target=send, args=("round", f"{servers[0].url}/events/{event}/games/s1-t1/rounds/1", body)),
                    threading.Thread(target=send, args=("reseat", reseat_url, {"players": [first, other]} if reseat == "swap" else {})),
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join(TIMEOUT * 2)
                stored, moved = answers["round"], answers["reseat"]
                table = requests.get(f"{servers[0].url}/events/{event}/games/s1-t1", headers=director, timeout=TIMEOUT).json()
                if moved.status_code == 409:  # the round committed first
                    assert moved.json()["errors"] == {"session": [{"code": "session_conflict", "message": "started"}]} and stored.status_code == 201, f"{event}: {moved.text} / {stored.text}"
                else:  # the reseat committed first: the round is refused (409 if it had read the seats before), unless the
                    # redraw left the table its players, so the round read them after it (the seats' order may differ)
                    assert moved.status_code == 200, f"{event}: {moved.text}"
                    kept = sorted(table["players"]) == sorted(names)
                    assert stored.status_code in ((201, 409) if kept else (409, 422)), f"{event}: {stored.text}"
                    if stored.status_code == 409:
                        assert stored.json()["errors"] == {"game": [{"code": "stored_meanwhile", "message": "reseated"}]}, stored.text
                rounds = _stored_rounds(servers[0].url, event, "s1-t1")
                for (_, number), view in rounds.items():
                    assert [p["name"] for p in view["result"]["players"]] == table["players"], f"{event}: round {number} of other players"
            audit_verify(database_url, *events)
    finally:
        if name:
            drop_database(request.getfixturevalue("postgres_server_url"), name)

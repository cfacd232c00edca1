"""Hosted games keep every acknowledged move, with real processes on real databases (docs/play.md, "Storage").

- ``kill -9`` of the worker that took a table's last moves, then of the
  whole server and a restart on the same database (SQLite and PostgreSQL):
  after each, every acknowledged move is in the state's ``seq`` and the
  table's log, a retry of the last one is answered as a repeat, and the
  games play on to their end with every round in the ledger's table.
- ``kill -9`` of the whole server with a bot to move: after the restart the
  bot plays on while the person's client only follows the table's stream (a
  process looks at every table being played when it starts).
- Two ``wordsvc serve`` on one PostgreSQL database: each person's move is
  sent to both at once; one is taken, the other is its repeat (the same move
  id) or 409 ``stale_move``; the bots of both replicas race too; a stream on
  each replica sees every move once, in order, the same on both.
- On one server, raced moves: threads sending the same move with the same id
  (applied once) and different moves quoting the same ``seq`` (one taken,
  the rest 409).

Every server runs with ``WORDSVC_BOT_DELAY_MS=0`` but for one life of one
worker, which holds its bot's move (the setting's maximum) so that the kill
finds the bot to move. The tests wait for states and log lines, never for a
time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from .conftest import REPO, LedgerServer, _free_port, _stop, _wait_ready, _wordsvc_command
from .postgres import create_database, drop_database
from .sse import Message, Stream
from .test_ledger_durability import TIMEOUT, Server, _kill, _wait_gone, audit_verify, serving
from .test_play import person_move

PATIENCE = 30.0  # seconds, a safety net: a bot at delay 0 moves in milliseconds, a replaced worker is ready in one
BOT_HELD_MS = "60000"  # WORDSVC_BOT_DELAY_MS's maximum: the bot holds its move far longer than the test takes to kill the server
ACKED = 8  # a person's moves acknowledged at each table before the first kill (twice as many before the second)
TABLES = 3  # tables played side by side in the worker kill
RACERS = 8  # threads racing one move
STEPS = 12  # moves raced one after the other on one server
ROUNDS = 8  # the standard ruleset's rounds


# ---------------------------------------------------------------- a person at a hosted table


@dataclass(frozen=True)
class Acked:
    """A move the server answered 200 (not a repeat): what was sent, and the request id that names it in the access log."""

    seq: int
    move_id: str
    move: dict[str, Any]
    request_id: str


@dataclass
class Person:
    """One seat of a two-seat table played by the test (the other seat is the server's bot): what it was acknowledged."""

    event: str
    token: str
    seat: int
    rng: random.Random
    acked: dict[int, Acked] = field(default_factory=dict)

    @classmethod
    def seated(cls, url: str, label: str) -> Person:
        """A new casual table of the standard rules with a top-level bot at seat 1 (round 1's first turn), and the person at seat 0."""
        created = requests.post(f"{url}/tables", json={"seats": 2, "bots": [{"seat": 1, "level": 4}], "name": f"durability {label}"}, timeout=TIMEOUT)
        assert created.status_code == 201, created.text
        event = created.json()["event"]
        taken = requests.post(f"{url}/events/{event}/games/table/play/seats", json={"name": "Ann", "nonce": label}, timeout=TIMEOUT)
        assert taken.status_code == 201, taken.text
        return cls(event, taken.json()["token"], taken.json()["seat"], random.Random(label))

    @property
    def path(self) -> str:
        return f"/events/{self.event}/games/table/play"

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def last(self) -> Acked:
        return self.acked[max(self.acked)]

    def read(self, session: requests.Session | None, url: str) -> dict[str, Any]:
        """The seat's projection, as the server at ``url`` has it (through ``session``, else a connection of its own)."""
        answer = (session or requests).get(f"{url}{self.path}", headers=self.auth, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()["state"]
        return state

    def wait_turn(self, session: requests.Session, url: str) -> dict[str, Any]:
        """The state once the seat is to move or the game is over: the bot moves in between, on its own."""
        deadline = time.monotonic() + PATIENCE
        while True:
            state = self.read(session, url)
            if state["over"] or person_move(state, random.Random(0)) is not None:
                return state
            assert time.monotonic() < deadline, (
                f"{self.event}: the bot did not move in {PATIENCE:.0f} s; the table has stood at move {state['seq']}: {state['round']}"
            )
            time.sleep(0.005)  # a read again, not an order of events: the state says when the bot has moved

    def send(self, session: requests.Session, url: str, state: dict[str, Any]) -> Acked:
        """The seat's move in ``state``, which must be taken: the seat is to move and nobody else can move meanwhile."""
        seq = state["seq"]
        move = person_move(state, self.rng)
        assert move is not None, state
        sent = Acked(seq + 1, f"p{self.seat}-{seq}", move, f"{self.event}-{seq}")
        answer = session.post(
            f"{url}{self.path}/moves",
            headers={**self.auth, "X-Request-ID": sent.request_id},
            json={"seq": seq, "move_id": sent.move_id, "move": move},
            timeout=TIMEOUT,
        )
        assert answer.status_code == 200, f"{self.event}: {answer.text}"
        assert (answer.json()["seq"], answer.json()["repeat"]) == (seq + 1, False), answer.text
        self.acked[sent.seq] = sent
        return sent

    def play(self, url: str, stop: Callable[[Person, dict[str, Any]], bool] = lambda person, state: False) -> dict[str, Any]:
        """Play the seat until the game is over or ``stop(self, state)`` holds at its turn; the last state."""
        with requests.Session() as session:
            while True:
                state = self.wait_turn(session, url)
                if state["over"] or stop(self, state):
                    return state
                self.send(session, url, state)

    def retry_last(self, url: str) -> None:
        """The last acknowledged move sent again, as a client that lost the answer would: a repeat, applied once."""
        last = self.last()
        answer = requests.post(
            f"{url}{self.path}/moves", headers=self.auth, json={"seq": last.seq - 1, "move_id": last.move_id, "move": last.move}, timeout=TIMEOUT
        )
        assert answer.status_code == 200, f"{self.event}: the retry of move {last.seq}: {answer.text}"
        assert (answer.json()["seq"], answer.json()["repeat"]) == (last.seq, True), f"{self.event}: the retry of move {last.seq}: {answer.text}"

    def check_kept(self, url: str, context: str) -> dict[str, Any]:
        """Every acknowledged move is in the table's log at its seq, once, and nothing of this seat that was not acknowledged; the log."""
        log = requests.get(f"{url}{self.path}/log", timeout=TIMEOUT)
        assert log.status_code == 200, log.text
        moves = log.json()["moves"]
        assert [m["seq"] for m in moves] == list(range(1, len(moves) + 1)), f"{context}: the log's moves are not 1..{len(moves)}"
        mine = {m["seq"]: m for m in moves if m["seat"] == self.seat}
        assert sorted(mine) == sorted(self.acked), f"{context}: the seat's moves in the log {sorted(mine)}, acknowledged {sorted(self.acked)}"
        for seq, sent in self.acked.items():
            shown = mine[seq]
            assert shown["kind"] == sent.move["kind"], f"{context}: move {seq} is {shown}, {sent.move} was acknowledged"
            if "card" in sent.move:
                assert shown["card"] == sent.move["card"], f"{context}: move {seq} is {shown}, {sent.move} was acknowledged"
            if "discard" in sent.move:
                assert shown["discard"] == sent.move["discard"], f"{context}: move {seq} is {shown}, {sent.move} was acknowledged"
        body: dict[str, Any] = log.json()
        return body

    def check_finished(self, url: str, context: str) -> None:
        """The game is over, its log whole, and the ledger's table has its eight rounds with the game's totals."""
        state = self.read(None, url)
        assert state["over"] and len(state["rounds"]) == ROUNDS, f"{context}: {state}"
        log = self.check_kept(url, context)
        assert len(log["moves"]) == state["seq"] and log["log"] is not None, f"{context}: the log of a finished game"
        table = requests.get(f"{url}/events/{self.event}/games/table", timeout=TIMEOUT)
        assert table.status_code == 200, table.text
        assert [r["round"] for r in table.json()["rounds"]] == list(range(1, ROUNDS + 1)), f"{context}: the ledger's table's rounds"
        assert [t["total"] for t in table.json()["totals"]] == state["totals"], f"{context}: the ledger's totals differ from the game's"


def at_discard(acked: int) -> Callable[[Person, dict[str, Any]], bool]:
    """Stop once ``acked`` moves are acknowledged and the seat has drawn (not in a final turn): its discard is due, no bot can move."""

    def stop(person: Person, state: dict[str, Any]) -> bool:
        r = state["round"]
        return len(person.acked) >= acked and r["phase"] == "discard" and r["out"] is None

    return stop


# ---------------------------------------------------------------- databases and workers


@contextmanager
def database(backend: str, request: pytest.FixtureRequest, tmp_path: Path, label: str) -> Iterator[str]:
    """A fresh ledger database of ``backend``: its URL until the block ends (a PostgreSQL database is dropped then)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / f'{label}.sqlite3'}"
        return
    admin = request.getfixturevalue("postgres_server_url")
    name = f"{label}_{uuid.uuid4().hex[:8]}"
    url = create_database(admin, name)
    try:
        yield url
    finally:
        drop_database(admin, name)


def log_events(server: Server, kind: str) -> list[dict[str, Any]]:
    """The server's JSON log lines of event ``kind``, so far (a line still being written is left for the next read)."""
    found = []
    for line in server.log.read_text(errors="replace").splitlines():
        if line.startswith("{") and f'"{kind}"' in line:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("event") == kind:
                found.append(entry)
    return found


def until(condition: Callable[[], Any], what: str) -> Any:
    """``condition()``'s first true value, read again until it is (a safety net of ``PATIENCE``)."""
    deadline = time.monotonic() + PATIENCE
    while not (value := condition()):
        assert time.monotonic() < deadline, f"waited {PATIENCE:.0f} s for {what}"
        time.sleep(0.01)
    return value


def worker_of(server: Server, request_id: str) -> int:
    """The pid of the worker that answered the request ``request_id`` (its access log line, written once the answer is sent)."""
    lines = until(lambda: [e for e in log_events(server, "request") if e.get("request_id") == request_id], f"the access log line of {request_id}")
    return int(lines[0]["worker"])


def kill_workers(server: Server, pids: set[int]) -> None:
    """SIGKILL the workers ``pids`` and wait until each is gone and the master has a fresh worker ready in its place."""
    ready = len(log_events(server, "worker_ready"))
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in pids), f"workers {sorted(pids)} to be gone")
    until(lambda: {e["worker"] for e in log_events(server, "worker_exited")} >= pids, f"the master to see workers {sorted(pids)} exit")
    until(lambda: len(log_events(server, "worker_ready")) >= ready + len(pids), "the master's fresh workers")
    assert server.process.poll() is None, "the master died with its workers"


# ---------------------------------------------------------------- kill -9 of a worker, then of the server


def check_kept_after_kill(people: list[Person], url: str, context: str) -> None:
    """Each table is at its last acknowledged move with every acknowledged move in its log; the last, sent again, is a repeat."""
    for person in people:
        where = f"{context}, table {person.event}"
        assert person.read(None, url)["seq"] == person.last().seq, f"{where}: the table is not at its last acknowledged move {person.last().seq}"
        person.check_kept(url, where)
        person.retry_last(url)
        assert person.read(None, url)["seq"] == person.last().seq, f"{where}: the retry was applied again"


def play_all(people: list[Person], url: str, stop: Callable[[Person, dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """Every table played side by side, each by a thread of its own, until ``stop`` or its end; the last states."""
    with ThreadPoolExecutor(len(people)) as pool:
        return list(pool.map(lambda person: person.play(url, stop) if stop else person.play(url), people))


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_moves_acknowledged_before_kill_9_of_their_worker_or_the_server_are_kept_and_the_games_play_on(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three tables, each a person and a bot, played side by side until each has eight acknowledged moves and waits for its
    person's discard; the workers that answered the tables' last moves (found by request id in the access log) are
    SIGKILLed. Once the master has replaced them the tables play on to sixteen acknowledged moves, and the whole server
    (master and workers) is SIGKILLed and started again on the same database.

    After each kill: each table is at its last acknowledged move, its log holds every acknowledged move at its seq and no
    other move of the person, and the last move sent again is answered ``repeat: true`` and changes nothing. After the
    restart every game plays on to its end, with its eight rounds in the ledger's table, and ``audit verify`` passes.
    """
    monkeypatch.setenv("WORDSVC_BOT_DELAY_MS", "0")
    logs = tmp_path / "logs"
    with database(backend, request, tmp_path, "play_kill") as database_url:
        with serving(database_url, logs=logs) as (server,):
            people = [Person.seated(server.url, f"kill-{backend}-{i}") for i in range(TABLES)]
            assert not any(state["over"] for state in play_all(people, server.url, at_discard(ACKED)))
            workers = {worker_of(server, person.last().request_id) for person in people}
            kill_workers(server, workers)
            check_kept_after_kill(people, server.url, f"{backend}, after the kill of workers {sorted(workers)}")
            assert not any(state["over"] for state in play_all(people, server.url, at_discard(2 * ACKED)))
            _kill(server)
        with serving(database_url, logs=logs) as (server,):
            check_kept_after_kill(people, server.url, f"{backend}, after the kill of the server and a restart")
            assert all(state["over"] for state in play_all(people, server.url))
            for person in people:
                person.check_finished(server.url, f"{backend}, table {person.event}")
        audit_verify(database_url, *(person.event for person in people))


@contextmanager
def one_worker(database_url: str, logs: Path) -> Iterator[Server]:
    """A ready ``wordsvc serve --workers 1``: one process takes every request, so one bot runner hears every nudge."""
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"one-worker-{uuid.uuid4().hex[:6]}.log"
    port = _free_port()
    command = [_wordsvc_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]
    env = {**os.environ, "WORDSVC_DATABASE_URL": database_url}
    with log.open("ab") as out:  # the child keeps its own copy of the descriptor
        process = subprocess.Popen(command, cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    try:
        _wait_ready(server.url, process, log)
        yield server
    finally:
        _stop(process)
        _wait_gone(server)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_bot_to_move_when_the_server_is_killed_plays_on_after_the_restart_for_a_client_on_the_stream(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose bot is to move when the whole server is SIGKILLed: after a restart the bot moves while the person's
    client follows the table by its stream alone, the only request that reaches the restarted server.

    docs/play.md, "Bots": a process looks at every table being played when it starts, so a restart leaves no bot
    waiting; and a client may follow a game by the stream and send only its moves (the protocol's "The stream"). The
    first life is one worker with the bot's delay at its maximum, on a fresh database: the table's creation (no table
    being played yet) schedules its bot a minute ahead and its last seat taken finds it scheduled, so the bot (seat 1,
    round 1's first turn) is to move, and has not, when the kill comes. The restart runs at delay 0; once the stream
    shows the bot's move, the game plays on to its end.
    """
    logs = tmp_path / "logs"
    with database(backend, request, tmp_path, "play_bot_restart") as database_url:
        monkeypatch.setenv("WORDSVC_BOT_DELAY_MS", BOT_HELD_MS)
        with one_worker(database_url, logs) as server:
            person = Person.seated(server.url, f"bot-restart-{backend}")
            state = person.read(None, server.url)
            assert (state["seq"], state["round"]["turn"]) == (0, 1), f"the bot is not the one to move first: {state}"
            _kill(server)

        monkeypatch.setenv("WORDSVC_BOT_DELAY_MS", "0")
        with serving(database_url, logs=logs) as (server,):
            with Stream(f"{server.url}{person.path}/stream", {**person.auth, "Last-Event-ID": "0"}) as stream:
                deadline = time.monotonic() + PATIENCE

                def bot_moved(messages: list[Message]) -> bool:  # read again at each message or heartbeat
                    assert time.monotonic() < deadline, (
                        f"{backend}: the bot did not move in {PATIENCE:.0f} s of the restarted server, its table's stream open: {[m.event for m in messages]}"
                    )
                    return any(m.event == "move" for m in messages)

                stream.until(bot_moved, "the bot's move")
                first = stream.of("move")[0].data
                assert (first["seq"], first["seat"]) == (1, 1), f"{backend}: the first move after the restart is {first}"
            person.play(server.url)
            person.check_finished(server.url, f"{backend}, table {person.event}")


# ---------------------------------------------------------------- two replicas on one PostgreSQL


def _race(sessions: list[requests.Session], urls: list[str], path: str, auth: dict[str, str], bodies: list[dict[str, Any]]) -> list[requests.Response]:
    """``bodies[i]`` posted through ``urls[i]`` by ``sessions[i]``, all released at one moment; the answers in that order."""
    barrier = threading.Barrier(len(bodies))
    answers: list[requests.Response | None] = [None] * len(bodies)
    failures: list[str] = []

    def send(i: int) -> None:
        try:
            barrier.wait(TIMEOUT)
            answers[i] = sessions[i].post(f"{urls[i]}{path}/moves", headers=auth, json=bodies[i], timeout=TIMEOUT)
        except Exception as err:  # the test fails on it, with what it was
            barrier.abort()
            failures.append(f"sender {i}: {err!r}")

    threads = [threading.Thread(target=send, args=(i,), daemon=True) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 2)
    assert not failures and all(answer is not None for answer in answers), failures
    return [answer for answer in answers if answer is not None]


def _other_move(state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """Another legal move than ``move`` in ``state`` where there is one (take for draw, another card), else ``move``."""
    r = state["round"]
    if move["kind"] == "draw":
        return {"kind": "take"} if r["discard_top"] is not None else move
    key = "card" if move["kind"] == "discard" else "discard"
    others = [face for face in r["hand"] if face != move[key]]
    return {**move, key: others[0]} if others and move[key] is not None else move


def test_two_replicas_on_one_postgresql_take_each_move_once_and_stream_every_move(
    postgres_server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two servers on one database; a person and a bot at a table; every move of the person sent to both at once.

    With the same move id, one answer applies it and the other is its repeat (200, ``repeat: true``, the same seq); with
    different move ids (and another move where there is one), one is taken and the other is 409 ``stale_move``. The bots
    of both replicas race for the bot's seat (one move each time). A stream opened on each replica before the first
    move sees every move once, in order (``seq`` 1, 2, ...), the same on both; at the end both replicas show the same
    state, log and ledger table, and ``audit verify`` passes.
    """
    monkeypatch.setenv("WORDSVC_BOT_DELAY_MS", "0")
    name = f"play_replicas_{uuid.uuid4().hex[:8]}"
    database_url = create_database(postgres_server_url, name)
    try:
        with serving(database_url, database_url, logs=tmp_path / "logs") as servers:
            urls = [server.url for server in servers]
            person = Person.seated(urls[0], "replicas")
            streams = [Stream(f"{url}{person.path}/stream", {"Last-Event-ID": "0"}) for url in urls]
            sessions = [requests.Session(), requests.Session()]
            races = {"same": 0, "different": 0}
            try:
                while True:
                    state = person.wait_turn(sessions[len(person.acked) % 2], urls[len(person.acked) % 2])
                    if state["over"]:
                        break
                    seq = state["seq"]
                    move = person_move(state, person.rng)
                    assert move is not None
                    same = len(person.acked) % 2 == 0
                    other = move if same else _other_move(state, move)
                    ids = (f"r{seq}", f"r{seq}") if same else (f"r{seq}-a", f"r{seq}-b")
                    answers = _race(
                        sessions, urls, person.path, person.auth, [{"seq": seq, "move_id": i, "move": m} for i, m in zip(ids, (move, other), strict=True)]
                    )
                    context = f"move {seq + 1} sent to both replicas ({'the same id' if same else 'different ids'}): {[a.text[:300] for a in answers]}"
                    statuses = sorted(a.status_code for a in answers)
                    if same:
                        assert statuses == [200, 200], context
                        assert sorted(a.json()["repeat"] for a in answers) == [False, True] and {a.json()["seq"] for a in answers} == {seq + 1}, context
                        winner = 0
                    else:
                        assert statuses == [200, 409], context
                        winner = 0 if answers[0].status_code == 200 else 1
                        lost = answers[1 - winner].json()
                        assert lost["code"] == "stale_move" and lost["state"]["seq"] >= seq + 1, context
                        assert answers[winner].json()["seq"] == seq + 1 and not answers[winner].json()["repeat"], context
                    person.acked[seq + 1] = Acked(seq + 1, ids[winner], (move, other)[winner], "")
                    races["same" if same else "different"] += 1
                assert races["same"] >= 5 and races["different"] >= 5, f"too few races: {races}"

                final = state["seq"]
                seen = []
                for url, stream in zip(urls, streams, strict=True):
                    stream.until(lambda messages: any(m.event == "play.ended" for m in messages), f"the game's end on {url}")
                    moves = [m.data for m in stream.of("move")]
                    assert [m["seq"] for m in moves] == list(range(1, final + 1)), f"{url}: the stream's moves are not 1..{final}"
                    ids_ = [m.id for m in stream.messages if m.id is not None]
                    assert ids_ == sorted(set(ids_)), f"{url}: the stream's ids repeat or go back"
                    seen.append(moves)
                assert seen[0] == seen[1], "the replicas' streams differ"
            finally:
                for stream in streams:
                    stream.close()
                for session in sessions:
                    session.close()

            for url in urls:
                person.check_finished(url, f"replica {url}")
            views = [[requests.get(f"{url}{person.path}", headers=headers, timeout=TIMEOUT).json()["state"] for headers in (person.auth, {})] for url in urls]
            assert views[0] == views[1], "the replicas show different states of the finished game"
            logs = [requests.get(f"{url}{person.path}/log", timeout=TIMEOUT).json() for url in urls]
            assert logs[0] == logs[1], "the replicas show different logs"
            assert logs[0]["moves"] == [{k: v for k, v in m.items() if k != "game"} for m in seen[0]], "the stream's moves are not the log's"
        audit_verify(database_url, person.event)
    finally:
        drop_database(postgres_server_url, name)


# ---------------------------------------------------------------- raced and retried moves on one server


def test_raced_moves_at_one_table_are_taken_once(ledger_server: LedgerServer) -> None:
    """Two people at a table (no bot); each move raced by eight threads released at once.

    The same move with the same move id: every answer is 200 with the same seq and exactly one is not a repeat. Different
    moves (each its own id) quoting the same seq: exactly one is 200, the rest 409 ``stale_move`` with the state after the
    winner. The log holds one move per race, the winner's, at its seq.
    """
    url = ledger_server.url
    created = requests.post(f"{url}/tables", json={"seats": 2, "name": "durability races"}, timeout=TIMEOUT)
    assert created.status_code == 201, created.text
    event = created.json()["event"]
    path = f"/events/{event}/games/table/play"
    tokens = {}
    for name in ("Ann", "Bob"):
        taken = requests.post(f"{url}{path}/seats", json={"name": name}, timeout=TIMEOUT)
        assert taken.status_code == 201, taken.text
        tokens[taken.json()["seat"]] = taken.json()["token"]
    rng = random.Random(event)
    winners: dict[int, tuple[int, dict[str, Any]]] = {}
    sessions = [requests.Session() for _ in range(RACERS)]
    try:
        for session in sessions:  # connections open before the races: each starts at its POST
            session.get(f"{url}/health", timeout=TIMEOUT)
        for step in range(STEPS):
            spectator = requests.get(f"{url}{path}", timeout=TIMEOUT).json()["state"]
            seat = spectator["round"]["turn"]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            state = requests.get(f"{url}{path}", headers=auth, timeout=TIMEOUT).json()["state"]
            seq, move = state["seq"], person_move(state, rng)
            assert seq == step and move is not None, state
            same = step % 2 == 0
            if same:
                bodies = [{"seq": seq, "move_id": f"same-{step}", "move": move}] * RACERS
            else:
                r = state["round"]
                choices = ([{"kind": "draw"}] + ([{"kind": "take"}] if r["discard_top"] is not None else [])) if r["phase"] == "draw" else [
                    {"kind": "discard", "card": face} for face in sorted(set(r["hand"]))
                ]  # fmt: skip
                bodies = [{"seq": seq, "move_id": f"diff-{step}-{i}", "move": choices[i % len(choices)]} for i in range(RACERS)]
            answers = _race(sessions, [url] * RACERS, path, auth, bodies)
            context = f"step {step} ({'the same move' if same else 'different moves'}): {sorted((a.status_code, a.text[:200]) for a in answers)}"
            taken = [i for i, a in enumerate(answers) if a.status_code == 200 and not a.json()["repeat"]]
            assert len(taken) == 1, context
            if same:
                assert all(a.status_code == 200 and a.json()["seq"] == seq + 1 for a in answers), context
            else:
                assert answers[taken[0]].json()["seq"] == seq + 1, context
                lost = [a for i, a in enumerate(answers) if i != taken[0]]
                assert all(a.status_code == 409 and a.json()["code"] == "stale_move" and a.json()["state"]["seq"] == seq + 1 for a in lost), context
            winners[seq + 1] = (seat, bodies[taken[0]]["move"])
    finally:
        for session in sessions:
            session.close()

    log = requests.get(f"{url}{path}/log", timeout=TIMEOUT).json()["moves"]
    assert [m["seq"] for m in log] == list(range(1, STEPS + 1)), "one move per race, in order"
    for shown in log:
        seat, move = winners[shown["seq"]]
        assert shown["seat"] == seat and shown["kind"] == move["kind"] and shown.get("card") == move.get("card"), f"move {shown['seq']}: {shown}, won {move}"
    assert requests.get(f"{url}{path}", timeout=TIMEOUT).json()["state"]["seq"] == STEPS

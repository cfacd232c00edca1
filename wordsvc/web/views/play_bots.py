"""The server's bots and clocks at hosted tables: one thread a process plays every bot seat whose turn it is, and every turn out of time, off the request path.

A bot is an ordinary client (:class:`~wordsvc.core.play.bots.Bot`): it reads
its seat's projection and sends a public move through the same
:meth:`~wordsvc.ledger.hosting.plays.Plays.move` a person's POST goes
through, quoting the move count it saw, with the move id
``bot-<seq>-<seat>``. So two processes (or replicas) that both think for
the same bot store one move: the other finds its id taken, or a stale count,
and looks again. A request that changes a table (a seat taken, a move)
*nudges* the runner; the runner plays after ``WORDSVC_BOT_DELAY_MS`` (0 in
the tests), then looks again, until no bot is to move. A read of a table or
its stream *wakes* it (starts the thread if this process has none), and the
thread first looks at every table being played, so a restart leaves no bot
waiting once anyone follows a table.

The same thread keeps the clocks: it looks at a table again at its stored
deadline and has the clock play the turns that ran out
(:meth:`~wordsvc.ledger.hosting.plays.Plays.time_out`); on its first nudge a
process gives every turn whose deadline passed while no process ran its whole
limit again (:meth:`~wordsvc.ledger.hosting.plays.Plays.resume_clocks`).

Each bot draws its randomness from the game's seed and its seat (secret
until the game is over), so a game with bots replays the same.
"""

from __future__ import annotations

import heapq
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import current_app

from ...core.play.bots import Bot, NotBotsTurn
from ...core.play.views import project
from ...ledger import Conflict, Ledger
from ...ledger.hosting.plays import HOST, IllegalPlay, StaleMove, wall_ms
from .analysis import snapshot_solvers
from .ledger_access import ledger

__all__ = ["BotRunner", "play_bots"]

log = logging.getLogger(__name__)
_MAKING = threading.Lock()


class BotRunner:
    """Plays the bots of the tables it is nudged about, one move at a time, on a thread of its own."""

    def __init__(self, book: Ledger, solver_for: Callable[[Any, Any], Any], delay: float):
        self.book = book
        self.solver_for = solver_for
        self.delay = delay
        self._due: list[tuple[float, str, str]] = []
        self._next: dict[tuple[str, str], float] = {}  # each table's earliest look scheduled (the heap keeps later ones, skipped)
        self._bots: dict[tuple[str, str, int], Bot] = {}
        self._wake = threading.Condition()
        self._changed: Callable[[str | None], None] | None = None
        self._thread: threading.Thread | None = None
        self._swept = False

    def nudge(self, event_id: str, game_id: str, changed: Callable[[str | None], None] | None = None) -> None:
        """Look at the table soon: a bot may be to move. ``changed``: tells this worker's streams of the event once a bot moved."""
        with self._wake:
            self._begin(changed)
            self._add((event_id, game_id), self.delay)
            self._wake.notify()

    def wake(self, changed: Callable[[str | None], None] | None = None) -> None:
        """Make sure the runner runs in this process (a read calls it: after a restart, the first request starts the bots and clocks)."""
        if self._thread is not None and self._thread.is_alive():
            return
        with self._wake:
            self._begin(changed)
            self._wake.notify()

    def _begin(self, changed: Callable[[str | None], None] | None) -> None:
        """The thread started (its first act is the process's sweep: every table being played looked at, the clocks resumed)."""
        if changed is not None:
            self._changed = changed
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
            self._thread.start()

    def _add(self, table: tuple[str, str], delay: float) -> None:
        """Look at ``table`` in ``delay`` seconds, unless a look comes sooner already."""
        at = time.monotonic() + delay
        if at < self._next.get(table, float("inf")):
            self._next[table] = at
            heapq.heappush(self._due, (at, *table))

    def _run(self) -> None:
        if not self._swept:  # on the thread, not the request's: every table being played looked at, the clocks resumed
            self._swept = True
            try:
                self.book.plays.resume_clocks()
                playing = self.book.tables.playing()
            except Exception as err:  # the database away: the tables are looked at on their next nudge
                log.error("bots_sweep_failed", extra={"error": type(err).__name__})
                playing = []
            with self._wake:
                for table in playing:
                    self._add(table, self.delay)
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(None if not self._due else max(0.0, self._due[0][0] - time.monotonic()))
                due, event_id, game_id = heapq.heappop(self._due)
                if self._next.get((event_id, game_id)) != due:
                    continue  # a later entry of a table looked at sooner
                del self._next[(event_id, game_id)]
            try:
                self.book.plays.time_out(event_id, game_id)
                again = self._turn(event_id, game_id)
                ends = self.book.tables.deadline_of(event_id, game_id)
            except Exception as err:  # a bot must never take the runner down: the table is looked at again on its next nudge
                log.error(
                    "bot_failed", extra={"event": event_id, "game": game_id, "error": type(err).__name__}
                )  # the type only: a message may name a hidden card
                again, ends = False, None
            with self._wake:
                if again:
                    self._add((event_id, game_id), self.delay)
                if ends is not None:
                    self._add((event_id, game_id), max(0.0, (ends - wall_ms()) / 1000))

    def _turn(self, event_id: str, game_id: str) -> bool:
        """One bot move at the table if a bot is to move; whether to look again."""
        if self.book.tables.status_of(event_id, game_id) != "playing":
            return False
        game = self.book.plays.game(event_id, game_id)
        state = game.state
        r = state.current
        if r is None:
            return False
        seats = self.book.tables.bot_seats(event_id, game_id)
        movers = _movers(project(state, None)["round"], seats)
        if not movers:
            return False
        seat = movers[0]
        bot = self._bot(event_id, game_id, seat, seats[seat], game)
        try:
            move = bot.move(project(state, seat))
            played = self.book.plays.move(HOST, seat, event_id, game_id, state.moves, f"bot-{state.moves}-{seat}", move, by="bot")
        except StaleMove:  # another process moved first: look again
            return True
        except (NotBotsTurn, Conflict, IllegalPlay) as err:  # the game ended or was aborted meanwhile, or a bot's bug: not again until the next nudge
            log.warning("bot_move_refused", extra={"event": event_id, "game": game_id, "seat": seat, "why": type(err).__name__})
            return False
        if self._changed is not None:
            self._changed(event_id)
        return bool(_movers(played.state["round"], seats))  # a bot to move next (a person's move nudges the runner itself)

    def _bot(self, event_id: str, game_id: str, seat: int, level: int, game: Any) -> Bot:
        key = (event_id, game_id, seat)
        bot = self._bots.get(key)
        if bot is None:
            solver = self.solver_for(game.ruleset, game.lexicon)
            rng = random.Random(f"{game.state.seed}:{seat}:{level}")
            bot = self._bots[key] = Bot(level, game.ruleset, game.lexicon, solver, rng, game.setup.knobs)
            if len(self._bots) > 4096:
                self._bots.pop(next(iter(self._bots)))
        return bot


def _movers(r: dict[str, Any] | None, bots: dict[int, int]) -> list[int]:
    """The bot seats a round's projection asks for a move: in a challenge window those that have not passed, else the seat to move."""
    if r is None:
        return []
    if r["phase"] == "challenges":
        return [seat for seat in bots if not r["passed"][seat]]
    return [r["turn"]] if r["turn"] in bots else []


def play_bots() -> BotRunner:
    """The app's bot runner, made on first use in this process."""
    extensions = current_app.extensions
    runner = extensions.get("wordsvc.bots")
    if runner is None:
        with _MAKING:
            runner = extensions.get("wordsvc.bots")
            if runner is None:
                settings = extensions["wordsvc.settings"]
                solvers = snapshot_solvers()
                runner = extensions["wordsvc.bots"] = BotRunner(ledger(), solvers.get, settings.bot_delay_ms / 1000)
    return runner  # type: ignore[no-any-return]

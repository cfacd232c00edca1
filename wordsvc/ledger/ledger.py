"""The ledger on one database: :class:`Ledger`, which builds every concept on one store.

Each concept has its own module, and :class:`Ledger` only builds them, so
the web layer and the command line have one object to hold and call the
concept that does the work (``ledger.rounds.submit_round(...)``;
docs/ledger.md, "The Ledger object"):

- :mod:`.records.store`: what every concept shares (the engine, the writer, the readers,
  the receipts, an event's ruleset and lexicon, appending an audit entry);
- :mod:`.records.tokens`: authenticating, issuing and revoking tokens;
- :mod:`.records.events`: creating, reading, accepting a lexicon, closing;
- :mod:`.records.deals`: a seeded event's deals;
- :mod:`.records.games` and :mod:`.records.rounds`: seating tables, submitting and correcting rounds;
- :mod:`.records.rulings`: judge rulings;
- :mod:`.tournaments.standings`: standings and matchpoints;
- :mod:`.transfer.export`: export and import;
- :mod:`.trail`: the audit entries, checkpoints and proofs, and verify;
- :mod:`.records.feed`: an event's changes as its streams send them (docs/streams.md);
- :mod:`.hosting.tables` and :mod:`.hosting.plays`: hosted games, their seats and moves (docs/play.md);
  :mod:`.hosting.seated`: a table the director seated, hosted online.

Every write runs in one transaction (:class:`~wordsvc.ledger._db.database.Writer`)
that holds its event's audit chain (:func:`~wordsvc.ledger._db.database.lock_chain`),
re-reads what it depends on, writes its rows and appends its audit entry
(:meth:`~wordsvc.ledger.records.store.Store.append`): so a write is all there or
not at all, and two processes racing on one round store one revision.
Scoring happens before the transaction; it needs no lock.

Who may do what is checked in the concepts too (:mod:`.records.access`), so the
CLI and the web layer cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Engine

from ..core.budget import MemoryBudget
from ..core.ids import EXPORT_FORMAT
from ..core.lexicon import Lexicon
from ._db.database import connect, upgrade
from .hosting.endings import Endings
from .hosting.plays import Plays, wall_ms
from .hosting.seated import SeatedTables
from .hosting.tables import Tables
from .integrity.checkpoints import Signer
from .records.deals import Deals
from .records.events import Events
from .records.feed import Feed
from .records.games import Games
from .records.principals import LOCAL
from .records.rounds import Rounds, Submitted
from .records.rulings import Rulings
from .records.store import Store
from .records.tokens import Tokens
from .tournaments.players import Players
from .tournaments.ratings import Ratings
from .tournaments.registration import Registration
from .tournaments.sessions import Sessions
from .tournaments.standings import Standings
from .tournaments.tournament_standings import TournamentStandings
from .trail import Trail
from .transfer.export import Transfer, records_of

__all__ = ["EXPORT_FORMAT", "LOCAL", "Ledger", "Submitted", "records_of"]


class Ledger:
    """The ledger on one database: every concept built on one :class:`~.records.store.Store`. ``lexicons(lang)`` gives the loaded lexicon of a language.

    A caller uses the concept: ``ledger.rounds.submit_round(...)``,
    ``ledger.sessions.create(...)``. Each attribute is its class's name in
    snake case (:class:`Tokens` ``tokens``, :class:`TournamentStandings`
    ``tournament_standings``); ``store`` and its ``engine``, ``writer``,
    ``readers`` and ``receipts`` are there for the command line and the
    tests that work beside a request. Why no method of its own:
    docs/ledger.md, "The Ledger object".
    """

    def __init__(
        self,
        engine: Engine,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
        play_clock: Callable[[], int] | None = None,
    ):
        """``play_clock``: hosted games' time in milliseconds since the epoch (the system's; the tests of clocks give their own)."""
        self.store = store = Store(engine, lexicons, budget, on_commit, signer)
        self.engine, self.writer, self.readers, self.receipts = store.engine, store.writer, store.readers, store.receipts
        self.tokens = Tokens(store)
        self.deals = Deals(store)
        self.events = Events(store, self.tokens, self.deals)
        self.games = Games(store)
        self.rounds = Rounds(store, self.deals)
        self.rulings = Rulings(store)
        self.tournament_standings = TournamentStandings(store)
        self.standings = Standings(store, self.tournament_standings)
        self.players = Players(store)
        self.registration = Registration(store)
        self.sessions = Sessions(store, self.tournament_standings.ranking)
        self.ratings = Ratings(store)
        self.transfer = Transfer(store, self.tokens, self.events)
        self.trail = Trail(store, self.transfer)
        self.feed = Feed(store)
        self.tables = Tables(store, self.tokens, play_clock or wall_ms)
        self.plays = Plays(store, self.tables, clock=play_clock or wall_ms)
        self.endings = Endings(store, self.tables, self.plays)
        self.seated_tables = SeatedTables(store, self.tables)

    @classmethod
    def open(
        cls,
        url: str,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
        play_clock: Callable[[], int] | None = None,
    ) -> Ledger:
        """Connect, bring the schema up to date, and close the connections (a pre-fork master must not share them).

        ``on_commit(writes, seconds)`` hears of every write transaction (:class:`~wordsvc.ledger._db.database.Writer`);
        ``signer`` signs the checkpoints (unsigned without one: :mod:`.integrity.checkpoints`)."""
        engine = connect(url)
        upgrade(engine)
        engine.dispose()
        return cls(engine, lexicons, budget, on_commit, signer, play_clock)

    def close(self) -> None:
        """Close the ledger's connections (its threads' readers and the pool)."""
        self.store.close()

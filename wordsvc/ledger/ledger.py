"""The ledger's operations on one database, behind one facade: :class:`Ledger`.

Each concept has its own module, and :class:`Ledger` only builds them and
delegates, so the web layer and the command line have one object to hold
(docs/ledger.md, "Code map"):

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
- :mod:`.records.feed`: an event's changes as its streams send them (docs/streams.md).

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

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine

from ..core.budget import MemoryBudget
from ..core.ids import EXPORT_FORMAT
from ..core.lexicon import Lexicon
from ..core.ruleset import Ruleset
from ..core.scoring import RoundPlay
from ._db.database import connect, upgrade
from .integrity.checkpoints import Signer
from .integrity.entry_signatures import Keys
from .integrity.receipts import Appended
from .integrity.verification import Verified
from .records.deals import Deals
from .records.events import Events
from .records.feed import Changes, Feed
from .records.games import Games
from .records.principals import LOCAL, Principal
from .records.rounds import Rounds, Submitted
from .records.rulings import Rulings
from .records.store import Store
from .records.tokens import Tokens
from .tournaments.players import Players
from .tournaments.ratings import Ratings
from .tournaments.sessions import Sessions
from .tournaments.standings import Standings
from .tournaments.tournament_standings import TournamentStandings
from .trail import Trail
from .transfer.export import Transfer, records_of

__all__ = ["EXPORT_FORMAT", "LOCAL", "Ledger", "Submitted", "records_of"]


class Ledger:
    """The ledger on one database. ``lexicons(lang)`` gives the loaded lexicon of a language.

    The concepts are attributes too (``ledger.events``, ``ledger.rounds``, …);
    the methods below are theirs, by the names callers have always used.
    """

    def __init__(
        self,
        engine: Engine,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
    ):
        self.store = store = Store(engine, lexicons, budget, on_commit, signer)
        self.engine, self.writer, self.readers, self.receipts = store.engine, store.writer, store.readers, store.receipts
        self.lexicons, self.budget = lexicons, budget
        self.tokens = Tokens(store)
        self.deals = Deals(store)
        self.events = Events(store, self.tokens, self.deals)
        self.games = Games(store)
        self.rounds = Rounds(store, self.deals)
        self.rulings = Rulings(store)
        self.tournament = TournamentStandings(store)
        self.standings_ = Standings(store, self.tournament)
        self.players_ = Players(store)
        self.sessions_ = Sessions(store, self.tournament.ranking)
        self.ratings_ = Ratings(store)
        self.transfer = Transfer(store, self.tokens, self.events)
        self.trail = Trail(store, self.transfer)
        self.feed = Feed(store)

    @classmethod
    def open(
        cls,
        url: str,
        lexicons: Callable[[str], Lexicon],
        budget: MemoryBudget | None = None,
        on_commit: Callable[[int, float], None] | None = None,
        signer: Signer | None = None,
    ) -> Ledger:
        """Connect, bring the schema up to date, and close the connections (a pre-fork master must not share them).

        ``on_commit(writes, seconds)`` hears of every write transaction (:class:`~wordsvc.ledger._db.database.Writer`);
        ``signer`` signs the checkpoints (unsigned without one: :mod:`.integrity.checkpoints`)."""
        engine = connect(url)
        upgrade(engine)
        engine.dispose()
        return cls(engine, lexicons, budget, on_commit, signer)

    def close(self) -> None:
        """Close the ledger's connections (its threads' readers and the pool)."""
        self.store.close()

    # --- tokens (:mod:`.records.tokens`) ---------------------------------------------------------------

    def authenticate(self, token: str) -> Principal:
        return self.tokens.authenticate(token)

    def create_admin_token(self, label: str | None = None, actor: Principal = LOCAL) -> tuple[str, str]:
        return self.tokens.create_admin_token(label, actor)

    def issue_token(self, actor: Principal | None, event_id: str, role: str, table: str | None = None, label: str | None = None) -> dict[str, Any]:
        return self.tokens.issue_token(actor, event_id, role, table, label)

    def revoke_token(self, actor: Principal | None, event_id: str, tid: str) -> dict[str, Any]:
        return self.tokens.revoke_token(actor, event_id, tid)

    def list_tokens(self, actor: Principal | None, event_id: str) -> list[dict[str, Any]]:
        return self.tokens.list_tokens(actor, event_id)

    def revoke_admin_token(self, tid: str, actor: Principal = LOCAL) -> None:
        self.tokens.revoke_admin_token(tid, actor)

    def token_event(self, tid: str) -> str | None:
        return self.tokens.token_event(tid)

    # --- events (:mod:`.records.events`, :mod:`.records.deals`) --------------------------------------------------

    def create_event(
        self,
        actor: Principal | None,
        ruleset: Ruleset,
        lexicon: Lexicon,
        name: str,
        event_id: str | None = None,
        private: bool = False,
        deals: str = "none",
        duplicate: bool = False,
        tournament_format: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return self.events.create_event(actor, ruleset, lexicon, name, event_id, private, deals, duplicate, tournament_format)

    def event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.events.event(actor, event_id)

    def close_event(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.events.close_event(actor, event_id)

    def accept_lexicon(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.events.accept_lexicon(actor, event_id)

    def scoring_context(self, actor: Principal | None, event_id: str) -> tuple[Ruleset, Lexicon]:
        return self.events.scoring_context(actor, event_id)

    def event_ids(self) -> list[str]:
        return self.events.event_ids()

    def round_deal(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        return self.deals.round_deal(actor, event_id, game_id, number)

    # --- tables and rounds (:mod:`.records.games`, :mod:`.records.rounds`, :mod:`.records.rulings`, :mod:`.tournaments.standings`) -----

    def put_game(self, actor: Principal | None, event_id: str, game_id: str, players: Sequence[str]) -> tuple[bool, dict[str, Any]]:
        return self.games.put_game(actor, event_id, game_id, players)

    def game(self, actor: Principal | None, event_id: str, game_id: str) -> dict[str, Any]:
        return self.games.game(actor, event_id, game_id)

    def submit_round(
        self,
        actor: Principal | None,
        event_id: str,
        game_id: str,
        number: int,
        play: RoundPlay,
        correction: str | None = None,
        if_match: str | None = None,
    ) -> Submitted:
        return self.rounds.submit_round(actor, event_id, game_id, number, play, correction, if_match)

    def preview_round(self, actor: Principal | None, event_id: str, game_id: str, number: int, play: RoundPlay) -> dict[str, Any]:
        return self.rounds.preview_round(actor, event_id, game_id, number, play)

    def round(self, actor: Principal | None, event_id: str, game_id: str, number: int) -> dict[str, Any]:
        return self.rounds.round(actor, event_id, game_id, number)

    def judge(self, actor: Principal | None, event_id: str, table: str, round_number: int, words: Sequence[str]) -> dict[str, Any]:
        return self.rulings.judge(actor, event_id, table, round_number, words)

    def standings(self, actor: Principal | None, event_id: str, session: int | None = None) -> dict[str, Any]:
        return self.standings_.standings(actor, event_id, session)

    # --- tournaments (:mod:`.tournaments.players`, :mod:`.tournaments.sessions`, :mod:`.tournaments.tournament_standings`, :mod:`.tournaments.ratings`) ---

    def register_player(
        self, actor: Principal | None, event_id: str, player_id: str, name: str, club: str | None = None, rating_id: str | None = None, checked_in: bool = False
    ) -> tuple[bool, dict[str, Any]]:
        return self.players_.register(actor, event_id, player_id, name, club, rating_id, checked_in)

    def check_in(self, actor: Principal | None, event_id: str, player_id: str) -> dict[str, Any]:
        return self.players_.check_in(actor, event_id, player_id)

    def withdraw(self, actor: Principal | None, event_id: str, player_id: str) -> dict[str, Any]:
        return self.players_.withdraw(actor, event_id, player_id)

    def players(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.players_.players(actor, event_id)

    def create_session(self, actor: Principal | None, event_id: str, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        return self.sessions_.create(actor, event_id, body)

    def session(self, actor: Principal | None, event_id: str, number: int) -> dict[str, Any]:
        return self.sessions_.session(actor, event_id, number)

    def sessions(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.sessions_.sessions(actor, event_id)

    def swap(self, actor: Principal | None, event_id: str, number: int, first: str, second: str) -> dict[str, Any]:
        return self.sessions_.swap(actor, event_id, number, first, second)

    def redraw(self, actor: Principal | None, event_id: str, number: int) -> dict[str, Any]:
        return self.sessions_.redraw(actor, event_id, number)

    def publish_schedule(self, actor: Principal | None, event_id: str, count: int, size: dict[str, Any] | None = None) -> tuple[bool, dict[str, Any]]:
        return self.sessions_.publish_schedule(actor, event_id, count, size)

    def schedule(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.sessions_.schedule(actor, event_id)

    def crosstable(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.tournament.crosstable(actor, event_id)

    def set_rated(self, actor: Principal | None, event_id: str, rated: bool, reason: str) -> dict[str, Any]:
        return self.ratings_.set_rated(actor, event_id, rated, reason)

    def ratings(self) -> dict[str, Any]:
        return self.ratings_.ratings()

    def rating(self, rating_id: str) -> dict[str, Any]:
        return self.ratings_.rating(rating_id)

    # --- audit, export, import, verify (:mod:`.trail`, :mod:`.transfer.export`) ---------------------------

    def stream_head(self, actor: Principal | None, event_id: str) -> int:
        return self.feed.head(actor, event_id)

    def stream_read(self, event_id: str, after: int, tokens: frozenset[str] = frozenset()) -> Changes:
        return self.feed.read(event_id, after, tokens)

    def audit_entries(self, actor: Principal | None, event_id: str, after: int = 0, limit: int = 1000) -> dict[str, Any]:
        return self.trail.audit_entries(actor, event_id, after, limit)

    def checkpoint(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.trail.checkpoint(actor, event_id)

    def inclusion_proof(self, actor: Principal | None, event_id: str, seq: int, tree_size: int | None = None) -> dict[str, Any]:
        return self.trail.inclusion_proof(actor, event_id, seq, tree_size)

    def consistency_proof(self, actor: Principal | None, event_id: str, first: int, second: int | None = None) -> dict[str, Any]:
        return self.trail.consistency_proof(actor, event_id, first, second)

    def verify(self, event_id: str, keys: Keys | None = None) -> list[str]:
        return self.trail.verify(event_id, keys)

    def check(self, event_id: str, keys: Keys | None = None) -> Verified:
        return self.trail.check(event_id, keys)

    def verify_house(self, keys: Keys | None = None) -> list[str]:
        return self.trail.verify_house(keys)

    def accept(self, chain: str, upto: int) -> Appended | None:
        return self.trail.accept(chain, upto)

    def log(self, event_id: str) -> list[dict[str, Any]]:
        return self.trail.log(event_id)

    def export(self, actor: Principal | None, event_id: str) -> dict[str, Any]:
        return self.transfer.export(actor, event_id)

    def import_event(self, actor: Principal | None, document: dict[str, Any]) -> dict[str, Any]:
        return self.transfer.import_event(actor, document)

    # --- kept for tests that write beside a request ---------------------------------------------

    def _append(self, conn: Connection, chain: str, actor: Principal, action: str, payload: dict[str, Any]) -> Appended:
        return self.store.append(conn, chain, actor, action, payload)

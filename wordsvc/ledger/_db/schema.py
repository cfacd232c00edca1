"""The ledger's tables (SQLAlchemy Core), one schema for SQLite and PostgreSQL (docs/ledger.md).

Values that must come back byte for byte are canonical JSON text and times
are ISO 8601 UTC strings, so neither back end's JSON or time types matter.
The migrations in ``migrations/versions/`` create exactly these tables; a
test compares the two.
"""

from __future__ import annotations

from sqlalchemy import BigInteger as sa_BigInteger
from sqlalchemy import Boolean, Column, ForeignKeyConstraint, Index, Integer, MetaData, String, Table, Text, UniqueConstraint, false, true

__all__ = ["audit", "events", "games", "hosted", "hosted_seats", "metadata", "moves", "players", "revisions", "schedules", "seats", "sessions", "tokens"]

metadata = MetaData()

events = Table(
    "events",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("private", Boolean, nullable=False),
    Column("ruleset_id", String(64), nullable=False),
    Column("ruleset_json", Text, nullable=False),
    Column("ruleset_sha256", String(64), nullable=False),
    Column("lexicon_json", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    # 0002: seeded deals (docs/deals.md), duplicate events, closing
    Column("deals", String(16), nullable=False, server_default="none"),
    Column("duplicate", Boolean, nullable=False, server_default=false()),
    Column("deal_seed", String(64), nullable=True),  # secret until the event is closed
    Column("deal_commitment", String(64), nullable=True),
    Column("status", String(16), nullable=False, server_default="open"),
    Column("closed_at", String(32), nullable=True),
    # 0003: tournaments (docs/tournaments.md)
    Column("format_json", Text, nullable=True),  # the tournament format's snapshot; none: the default format
    Column("rated", Boolean, nullable=False, server_default=true()),  # false: left out of the ratings by a director
)

games = Table(
    "games",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("id", String(64), primary_key=True),
    Column("players_json", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("session", Integer, nullable=True),  # 0003: the session a table belongs to; none for a table seated by name
    ForeignKeyConstraint(["event_id"], ["events.id"], name="games_event_fk"),
)

revisions = Table(
    "revisions",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("revision", Integer, primary_key=True, autoincrement=False),
    Column("body_json", Text, nullable=False),
    Column("body_sha256", String(64), nullable=False),
    Column("result_json", Text, nullable=False),
    Column("totals_json", Text, nullable=False),
    Column("reason", Text, nullable=True),
    Column("actor", String(16), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("deal_digest", String(64), nullable=True),  # 0002: the deal the round was played from
    Column("deal_id", String(300), nullable=True),
    ForeignKeyConstraint(["event_id", "game_id"], ["games.event_id", "games.id"], name="revisions_game_fk"),
)

tokens = Table(
    "tokens",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("secret_sha256", String(64), nullable=False),
    Column("role", String(16), nullable=False),
    Column("event_id", String(64), nullable=True),
    Column("table_id", String(64), nullable=True),
    Column("label", String(200), nullable=True),
    Column("created_at", String(32), nullable=False),
    Column("revoked_at", String(32), nullable=True),
    # 0004: the service's Ed25519 seal over id, hash, role, event and table, made as it issued the token (docs/ledger.md); null before
    Column("key_id", String(16), nullable=True),
    Column("signature", String(88), nullable=True),
    Index("tokens_event", "event_id"),
)

audit = Table(
    "audit",
    metadata,
    Column("chain", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("at", String(32), nullable=False),
    Column("actor_token", String(16), nullable=False),
    Column("actor_role", String(16), nullable=False),
    Column("action", String(32), nullable=False),
    Column("payload_json", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    # 0004: the service's Ed25519 signature of the entry, made as it was written (docs/ledger.md, "Entry signatures"); null before
    Column("key_id", String(16), nullable=True),
    Column("signature", String(88), nullable=True),
)

# 0003: tournaments (docs/tournaments.md)
players = Table(
    "players",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("id", String(64), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("club", String(200), nullable=True),
    Column("rating_id", String(64), nullable=True),
    Column("checked_in", Boolean, nullable=False),
    Column("joined", Integer, nullable=False),  # the first session the player may be seated in
    Column("withdrawn", Integer, nullable=True),  # the first session the player is no longer seated in
    Column("created_at", String(32), nullable=False),
    ForeignKeyConstraint(["event_id"], ["events.id"], name="players_event_fk"),
    Index("players_rating", "rating_id"),
)

sessions = Table(
    "sessions",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("request_json", Text, nullable=False),  # the method and size policy asked for, canonical JSON
    Column("draws", Integer, nullable=False),  # 1, then one more for each redraw
    Column("unfinished", Boolean, nullable=False),  # the director let it start with the session before unfinished
    Column("created_at", String(32), nullable=False),
    ForeignKeyConstraint(["event_id"], ["events.id"], name="sessions_event_fk"),
)

seats = Table(
    "seats",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("session", Integer, primary_key=True, autoincrement=False),
    Column("player_id", String(64), primary_key=True),  # the key: one seat per player per session, whatever the code does
    Column("game_id", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    UniqueConstraint("event_id", "game_id", "seat", name="seats_one_player_a_seat"),
    ForeignKeyConstraint(["event_id", "session"], ["sessions.event_id", "sessions.number"], name="seats_session_fk"),
    ForeignKeyConstraint(["event_id", "player_id"], ["players.event_id", "players.id"], name="seats_player_fk"),
    ForeignKeyConstraint(["event_id", "game_id"], ["games.event_id", "games.id"], name="seats_game_fk"),
)

schedules = Table(
    "schedules",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("document_json", Text, nullable=False),  # the request and the whole schedule, canonical JSON
    Column("created_at", String(32), nullable=False),
    ForeignKeyConstraint(["event_id"], ["events.id"], name="schedules_event_fk"),
)

# 0005: hosted games (docs/play.md): the table's setup and secret, its seats, and every move in order
hosted = Table(
    "hosted",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("setup_json", Text, nullable=False),  # ruleset, language, knobs, seats, clock, rated, public: canonical JSON
    Column("server_seed", String(64), nullable=False),  # secret until the game is over
    Column("commitment", String(64), nullable=False),
    Column("seed", String(64), nullable=True),  # the game's seed, derived when it starts; secret until the game is over
    Column("status", String(16), nullable=False),  # waiting, playing, over, aborted
    Column("deadline_ms", Integer().with_variant(sa_BigInteger(), "postgresql"), nullable=True),  # the seat to move must move by then (clocks)
    Column("created_at", String(32), nullable=False),
    ForeignKeyConstraint(["event_id"], ["events.id"], name="hosted_event_fk"),
    Index("hosted_status", "status"),
)

hosted_seats = Table(
    "hosted_seats",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),  # open, person, bot (the server's), outside (a program with a bot token)
    Column("name", String(64), nullable=True),
    Column("level", Integer, nullable=True),  # a server bot's level
    Column("token_id", String(16), nullable=True),  # the seat's bearer token (the tokens table keeps its hash)
    Column("nonce", String(64), nullable=True),
    Column("bank_ms", Integer().with_variant(sa_BigInteger(), "postgresql"), nullable=True),  # what is left of the seat's time bank
    Column("clock_from_ms", Integer().with_variant(sa_BigInteger(), "postgresql"), nullable=True),  # when the seat's turn on the clock began
    Column("timeouts", Integer, nullable=False, server_default="0"),  # timeouts in a row
    Column("handed", String(16), nullable=True),
    Column("seen_ms", Integer().with_variant(sa_BigInteger(), "postgresql"), nullable=True),  # the seat's token last used (presence)  # why a person's seat went to a bot (timeouts, resigned): the player's forfeit
    ForeignKeyConstraint(["event_id", "game_id"], ["hosted.event_id", "hosted.game_id"], name="hosted_seats_table_fk"),
)

moves = Table(
    "moves",
    metadata,
    Column("event_id", String(64), primary_key=True),
    Column("game_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),  # 1, 2, 3 ...: one move a number, whichever process takes it
    Column("seat", Integer, nullable=False),
    Column("move_json", Text, nullable=False),  # the engine's move, card ids: secret until the game is over
    Column("move_id", String(64), nullable=False),  # the client's id of the move: a retry is answered, never applied twice
    Column("drawn", String(16), nullable=True),  # the face a draw gave its seat (only that seat's stream shows it)
    Column("by", String(16), nullable=False),  # who made it: the seat, a bot, the clock
    Column("created_at", String(32), nullable=False),
    UniqueConstraint("event_id", "game_id", "move_id", name="moves_one_id"),
    ForeignKeyConstraint(["event_id", "game_id"], ["hosted.event_id", "hosted.game_id"], name="moves_table_fk"),
)

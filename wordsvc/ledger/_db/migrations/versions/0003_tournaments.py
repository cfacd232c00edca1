"""Tournaments: players, sessions, seats and schedules; an event's format and whether it is rated.

Players are registered once per event; a session seats the active ones
at tables, which are games of that session; the primary key of ``seats``
makes a player at two tables of one session impossible. An event keeps a
snapshot of its tournament format and whether a director left it out of
the ratings (docs/tournaments.md).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as events:
        events.add_column(sa.Column("format_json", sa.Text, nullable=True))
        events.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()))
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("session", sa.Integer, nullable=True))
    op.create_table(
        "players",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("club", sa.String(200), nullable=True),
        sa.Column("rating_id", sa.String(64), nullable=True),
        sa.Column("checked_in", sa.Boolean, nullable=False),
        sa.Column("joined", sa.Integer, nullable=False),
        sa.Column("withdrawn", sa.Integer, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="players_event_fk"),
    )
    op.create_index("players_rating", "players", ["rating_id"])
    op.create_table(
        "sessions",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("request_json", sa.Text, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("unfinished", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="sessions_event_fk"),
    )
    op.create_table(
        "seats",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("session", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.UniqueConstraint("event_id", "game_id", "seat", name="seats_one_player_a_seat"),
        sa.ForeignKeyConstraint(["event_id", "session"], ["sessions.event_id", "sessions.number"], name="seats_session_fk"),
        sa.ForeignKeyConstraint(["event_id", "player_id"], ["players.event_id", "players.id"], name="seats_player_fk"),
        sa.ForeignKeyConstraint(["event_id", "game_id"], ["games.event_id", "games.id"], name="seats_game_fk"),
    )
    op.create_table(
        "schedules",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("document_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="schedules_event_fk"),
    )


def downgrade() -> None:
    for table in ("schedules", "seats", "sessions", "players"):
        op.drop_table(table)
    with op.batch_alter_table("games") as games:
        games.drop_column("session")
    with op.batch_alter_table("events") as events:
        events.drop_column("rated")
        events.drop_column("format_json")

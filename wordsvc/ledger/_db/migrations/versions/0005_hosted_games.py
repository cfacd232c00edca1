"""Hosted games (docs/play.md): a table's setup and server seed, its seats, and its moves in order.

``moves`` has one row a move number of a table (its key), so two processes,
or two replicas on one PostgreSQL, can store only one move as move ``n``;
``moves_one_id`` answers a retried move instead of applying it twice.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_MS = sa.Integer().with_variant(sa.BigInteger(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "hosted",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("setup_json", sa.Text, nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("deadline_ms", _MS, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="hosted_event_fk"),
    )
    op.create_index("hosted_status", "hosted", ["status"])
    op.create_table(
        "hosted_seats",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("level", sa.Integer, nullable=True),
        sa.Column("token_id", sa.String(16), nullable=True),
        sa.Column("nonce", sa.String(64), nullable=True),
        sa.Column("bank_ms", _MS, nullable=True),
        sa.Column("clock_from_ms", _MS, nullable=True),
        sa.Column("timeouts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("handed", sa.String(16), nullable=True),
        sa.Column("seen_ms", _MS, nullable=True),
        sa.ForeignKeyConstraint(["event_id", "game_id"], ["hosted.event_id", "hosted.game_id"], name="hosted_seats_table_fk"),
    )
    op.create_table(
        "moves",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move_json", sa.Text, nullable=False),
        sa.Column("move_id", sa.String(64), nullable=False),
        sa.Column("drawn", sa.String(16), nullable=True),
        sa.Column("by", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.UniqueConstraint("event_id", "game_id", "move_id", name="moves_one_id"),
        sa.ForeignKeyConstraint(["event_id", "game_id"], ["hosted.event_id", "hosted.game_id"], name="moves_table_fk"),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_table("hosted_seats")
    op.drop_index("hosted_status", "hosted")
    op.drop_table("hosted")

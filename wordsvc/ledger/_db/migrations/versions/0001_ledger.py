"""The ledger's first schema: events, games, revisions, tokens, audit.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("ruleset_id", sa.String(64), nullable=False),
        sa.Column("ruleset_json", sa.Text, nullable=False),
        sa.Column("ruleset_sha256", sa.String(64), nullable=False),
        sa.Column("lexicon_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("players_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name="games_event_fk"),
    )
    op.create_table(
        "revisions",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("revision", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("body_json", sa.Text, nullable=False),
        sa.Column("body_sha256", sa.String(64), nullable=False),
        sa.Column("result_json", sa.Text, nullable=False),
        sa.Column("totals_json", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=True),
        sa.Column("actor", sa.String(16), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.ForeignKeyConstraint(["event_id", "game_id"], ["games.event_id", "games.id"], name="revisions_game_fk"),
    )
    op.create_table(
        "tokens",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("secret_sha256", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("event_id", sa.String(64), nullable=True),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("label", sa.String(200), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("revoked_at", sa.String(32), nullable=True),
    )
    op.create_index("tokens_event", "tokens", ["event_id"])
    op.create_table(
        "audit",
        sa.Column("chain", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("actor_token", sa.String(16), nullable=False),
        sa.Column("actor_role", sa.String(16), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("payload_json", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )


def downgrade() -> None:
    for table in ("audit", "tokens", "revisions", "games", "events"):
        op.drop_table(table)

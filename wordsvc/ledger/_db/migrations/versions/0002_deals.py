"""Seeded deals, duplicate events and closing an event.

Events get how they deal (``none`` or ``seeded``), whether they are
duplicate, the secret event seed and its published commitment, and a
status (``open``, ``closed``: closing reveals the seed). Each stored
revision keeps the digest and id of the deal its round was played from.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as events:
        events.add_column(sa.Column("deals", sa.String(16), nullable=False, server_default="none"))
        events.add_column(sa.Column("duplicate", sa.Boolean, nullable=False, server_default=sa.false()))
        events.add_column(sa.Column("deal_seed", sa.String(64), nullable=True))
        events.add_column(sa.Column("deal_commitment", sa.String(64), nullable=True))
        events.add_column(sa.Column("status", sa.String(16), nullable=False, server_default="open"))
        events.add_column(sa.Column("closed_at", sa.String(32), nullable=True))
    with op.batch_alter_table("revisions") as revisions:
        revisions.add_column(sa.Column("deal_digest", sa.String(64), nullable=True))
        revisions.add_column(sa.Column("deal_id", sa.String(300), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("revisions") as revisions:
        revisions.drop_column("deal_id")
        revisions.drop_column("deal_digest")
    with op.batch_alter_table("events") as events:
        for column in ("closed_at", "status", "deal_commitment", "deal_seed", "duplicate", "deals"):
            events.drop_column(column)

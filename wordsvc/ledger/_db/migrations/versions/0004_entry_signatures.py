"""Entry signatures and token seals: each audit entry and each token row keeps the service's Ed25519 signature, made as it was written.

``key_id`` names the key (as a checkpoint names it) and ``signature`` is the
signature in base64; both are null for the entries and tokens written before
this revision, or by a service without a key. They stay as they are: the
service writes after such an entry, and lets such a token in, only once an
operator accepts the chain (``wordsvc audit accept``, docs/ledger.md).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audit") as audit:
        audit.add_column(sa.Column("key_id", sa.String(16), nullable=True))
        audit.add_column(sa.Column("signature", sa.String(88), nullable=True))
    with op.batch_alter_table("tokens") as tokens:
        tokens.add_column(sa.Column("key_id", sa.String(16), nullable=True))
        tokens.add_column(sa.Column("signature", sa.String(88), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tokens") as tokens:
        tokens.drop_column("signature")
        tokens.drop_column("key_id")
    with op.batch_alter_table("audit") as audit:
        audit.drop_column("signature")
        audit.drop_column("key_id")

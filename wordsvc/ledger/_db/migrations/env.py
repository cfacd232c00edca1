"""Alembic's environment for the ledger: the connection comes from :func:`wordsvc.ledger._db.database.upgrade`."""

from __future__ import annotations

from alembic import context

from wordsvc.ledger._db.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()

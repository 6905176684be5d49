"""Alembic's environment: the connection comes from :func:`sevenstud.server.store.upgrade`."""

from __future__ import annotations

from alembic import context

from sevenstud.server.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the alembic command line is not how we migrate
    raise RuntimeError("run migrations through sevenstud.server.store.upgrade(engine)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

"""Alembic environment: runs the migrations on the connection that ``keima.server.storage.store.migrate`` passes in
``config.attributes["connection"]``, or on ``sqlalchemy.url`` when run from the ``alembic`` command line."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from keima.server.storage.store import metadata

config = context.config


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()


run()

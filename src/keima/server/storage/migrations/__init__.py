"""Alembic migrations of the server's database (run by ``keima.server.storage.store.migrate``)."""

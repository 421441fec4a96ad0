"""The database itself: its URL, the SQLAlchemy engine with keima's settings (SQLite's WAL and synchronous mode,
PostgreSQL's synchronous commit) and the migrations that bring its schema to the newest revision."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine


def default_url() -> str:
    """Return the default database URL: a SQLite file in the user's data folder (created if needed)."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("keima"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'keima.db'}"


def durable_default() -> bool:
    """True when the environment asks for durable commits (``KEIMA_DURABLE`` set to 1, true or yes)."""
    return os.environ.get("KEIMA_DURABLE", "").strip().lower() in ("1", "true", "yes")


def make_engine(url: str, *, durable: bool | None = None) -> Engine:
    """Create the SQLAlchemy engine for ``url``; raises ``sqlalchemy.exc.ArgumentError`` for a bad URL.

    ``durable`` (default: ``durable_default()``): every commit reaches the disk before it is acknowledged, so
    it survives a power loss (SQLite ``synchronous=FULL``; PostgreSQL ``synchronous_commit=on``). Otherwise
    SQLite runs with ``synchronous=NORMAL`` (or ``KEIMA_SQLITE_SYNC``), which survives a killed process only."""
    if durable is None:
        durable = durable_default()
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 5})
        sync = os.environ.get("KEIMA_SQLITE_SYNC", "NORMAL").upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            sync = "NORMAL"
        if durable and sync not in ("FULL", "EXTRA"):
            sync = "FULL"

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL: readers never block the writer; NORMAL: a commit survives a killed process.
            if url not in ("sqlite://", "sqlite:///:memory:"):
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            # Checkpoints run in the store's background thread, never inside a commit.
            cur.execute("PRAGMA wal_autocheckpoint=0")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    connect_args = {"options": "-c synchronous_commit=on"} if durable and url.startswith("postgres") else {}
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5, connect_args=connect_args)


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            # Several processes of a cluster start at once: one migrates, the others wait and find it done.
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7243501)")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def prepare_database(url: str) -> None:
    """Open the database at ``url``, bring its schema to the newest revision and close it: what a process checks
    before it starts serving. Raises the driver's or Alembic's error when the database cannot be opened."""
    engine = make_engine(url)
    try:
        migrate(engine)
    finally:
        engine.dispose()

"""Fixtures for the server tests: a database URL per storage backend, and an API client on it.

Storage tests run on SQLite always and on PostgreSQL when ``KEIMA_TEST_PG_URL`` is set (scripts/test.sh starts
a throw-away cluster and sets it).

Every server test runs on a fixed day and hour (``fixed_day``): the server's clocks, weekend pauses, digests and
deadlines never depend on when the suite runs. A test about another moment installs its own (``moved_time``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from keima.server import create_app

from .moved_time import MovedTime, moved_time

#: The moment every server test starts at: a Wednesday morning, far from a weekend, a digest hour or midnight.
TEST_START = datetime(2026, 12, 2, 10, 0, tzinfo=UTC).timestamp()

PG_URL = os.environ.get("KEIMA_TEST_PG_URL")
BACKENDS = ["sqlite"] + (["postgres"] if PG_URL else [])


def _reset_pg(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE IF EXISTS game_players, player_sessions, players, server_settings, "
                             "game_log, games, game_outbox, event_progress, player_records, scheduled_jobs, ratings, "
                             "rating_history, automatch, rating_changes, analyses, tournament_log, tournament_games, tournament_accounts, tournament_directors, "
                             "tournaments, player_settings, notifications, emails, chat_mutes, conditional_moves, "
                             "blocks, player_standing, moderators, reports, moderation_log, annulled_games, "
                             "abandonments, club_games, club_imports, club_announcements, club_challenges, club_members, clubs, boards, "
                             "alembic_version CASCADE"))
    engine.dispose()


@pytest.fixture(autouse=True)
def fixed_day() -> Iterator[MovedTime]:
    """The server's time for the test: ``TEST_START``, running on (``keima.server.timesource``)."""
    with moved_time(TEST_START) as clock:
        yield clock


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file, or the test PostgreSQL database emptied."""
    if request.param == "postgres":
        assert PG_URL is not None
        _reset_pg(PG_URL)
        return PG_URL
    return f"sqlite:///{tmp_path / 'keima.db'}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite database (for tests that are not about the storage backend)."""
    return f"sqlite:///{tmp_path / 'keima.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """An API client on a running application (lifespan started)."""
    with TestClient(create_app(db_url)) as c:
        yield c


@pytest.fixture
def fast_client(sqlite_url: str) -> Iterator[TestClient]:
    """An API client on SQLite only."""
    with TestClient(create_app(sqlite_url)) as c:
        yield c

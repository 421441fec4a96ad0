"""What the whole suite shares: under pytest-xdist (``-n N``, scripts/test.sh), each worker gets a PostgreSQL
database and a Redis database of its own, so that the server tests (which empty their database) and the cluster
tests of two workers never meet. Read at import, before any test module reads ``KEIMA_TEST_PG_URL`` or
``KEIMA_TEST_REDIS_URL``."""

from __future__ import annotations

import os
import re

import pytest

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _worker_number() -> int | None:
    found = re.fullmatch(r"gw(\d+)", WORKER)
    return None if found is None else int(found.group(1))


def _own_postgres(url: str, n: int) -> str:
    """A database ``<name>_w<n>`` beside the one of ``url`` (made when missing); returns its URL."""
    import sqlalchemy as sa

    base = sa.engine.make_url(url)
    name = f"{base.database}_w{n}"
    engine = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            exists = conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first()
            if exists is None:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def _own_redis(url: str, n: int) -> str:
    """The same Redis server, database ``n + 1`` (a Redis server has 16; 0 stays the single run's)."""
    return re.sub(r"/\d*$", "", url.rstrip("/")) + f"/{n + 1}"


_n = _worker_number()
if _n is not None:
    if os.environ.get("KEIMA_TEST_PG_URL", "").startswith("postgresql"):
        os.environ["KEIMA_TEST_PG_URL"] = _own_postgres(os.environ["KEIMA_TEST_PG_URL"], _n)
    if os.environ.get("KEIMA_TEST_REDIS_URL") and _n < 15:
        os.environ["KEIMA_TEST_REDIS_URL"] = _own_redis(os.environ["KEIMA_TEST_REDIS_URL"], _n)


@pytest.fixture(autouse=True)
def no_compilation_under_way() -> None:
    """A compilation of the bot's search started in the background by an earlier test of this process finished
    before the next test. A server test starts one (``keima.seat.warm_up``), as ``keima serve`` does; a bot test
    that ran next in the same xdist worker then got the quick moves (no playout) while a loaded machine read the
    code. Costs nothing when no compilation is under way (the bot tests compile in the foreground themselves)."""
    from keima.ai.warmup import DEFAULT

    if DEFAULT.busy():
        DEFAULT.run()

"""The store's group commit: the writes queued in one turn of the event loop share a transaction, with all the game
rows' updates of consecutive appends in one statement. What each caller wrote, and in what order, must be what a
write of its own would have given."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from keima.server.games.rows import MUTABLE_COLUMNS
from keima.server.storage.store import Store, make_engine, migrate, now_utc
from keima.server.storage.tables import game_log, games, scheduled_jobs
from server.live import run_async


def _row(phase: str, moves: int) -> dict[str, Any]:
    """A game row's mutable part (the update an append carries)."""
    return {"phase": phase, "result": "B+R" if phase == "finished" else None, "seat_b": "hb", "seat_w": "hw",
            "invite_hash": None, "people": {"B": {"id": "p1"}, "W": {"id": "p2"}}, "summary": {"moves": moves}}


def test_a_batch_of_appends_writes_each_row_in_order(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    long_ago = now_utc() - timedelta(days=3)
    with engine.begin() as conn:
        for gid, phase in (("g1", "playing"), ("g2", "playing"), ("g3", "finished")):
            conn.execute(games.insert().values(id=gid, created_at=long_ago, updated_at=long_ago, params={},
                                               mode="invite", clock={}, phase=phase, people={}))
    store = Store(engine)
    store.start()

    def read_g1(conn: Connection) -> Any:
        return conn.execute(sa.select(games.c.summary).where(games.c.id == "g1")).scalar_one()

    async def one_turn() -> list[Any]:
        # Queued in the same turn of the loop: one transaction on SQLite (inline), the writer's batch otherwise.
        return await asyncio.gather(
            store.write(Store.append("g1", 1, [{"n": 1}], _row("playing", 1))),
            store.write(read_g1),  # comes after g1's first append: it sees it, and not the second
            store.write(Store.append("g2", 1, [{"n": 1}], _row("playing", 7))),
            store.write(Store.append("g1", 2, [{"n": 2}], _row("playing", 2),
                                     jobs=[("flag", now_utc() + timedelta(minutes=5))])),
            store.write(Store.append("g3", 1, [{"n": 1}], _row("finished", 9))),  # e.g. a chat line after the end
        )

    try:
        results = run_async(one_turn(), 60)
    finally:
        store.stop()
    assert results[1] == {"moves": 1}
    with engine.connect() as conn:
        rows = {r.id: r for r in conn.execute(sa.select(games))}
        log = [(r.game_id, r.seq, r.entry) for r in conn.execute(sa.select(game_log).order_by(game_log.c.game_id,
                                                                                             game_log.c.seq))]
        jobs = [(r.kind, r.game_id) for r in conn.execute(sa.select(scheduled_jobs))]
    engine.dispose()
    assert rows["g1"].summary == {"moves": 2} and rows["g2"].summary == {"moves": 7}
    for gid, moves in (("g1", 2), ("g2", 7)):
        assert {c: getattr(rows[gid], c) for c in MUTABLE_COLUMNS} == _row("playing", moves)
        assert rows[gid].updated_at.replace(tzinfo=None) > long_ago.replace(tzinfo=None) + timedelta(days=2)
    # A finished game keeps the time it finished: the lists of finished games are in that order.
    assert rows["g3"].summary == {"moves": 9}
    assert rows["g3"].updated_at.replace(tzinfo=None) == long_ago.replace(tzinfo=None)
    assert log == [("g1", 1, {"n": 1}), ("g1", 2, {"n": 2}), ("g2", 1, {"n": 1}), ("g3", 1, {"n": 1})]
    assert jobs == [("flag", "g1")]


def test_a_failing_append_in_a_batch_fails_alone(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    now = now_utc()
    with engine.begin() as conn:
        for gid in ("g1", "g2"):
            conn.execute(games.insert().values(id=gid, created_at=now, updated_at=now, params={}, mode="invite",
                                               clock={}, phase="playing", people={}))
        conn.execute(game_log.insert().values(game_id="g2", seq=1, entry={"n": 1}, created_at=now))
    store = Store(engine)
    store.start()

    async def one_turn() -> list[Any]:
        return await asyncio.gather(
            store.write(Store.append("g1", 1, [{"n": 1}], _row("playing", 1))),
            store.write(Store.append("g2", 1, [{"n": 9}], _row("playing", 9))),  # seq 1 is taken: refused
            return_exceptions=True,
        )

    try:
        first, second = run_async(one_turn(), 60)
    finally:
        store.stop()
    assert first is None and isinstance(second, sa.exc.IntegrityError)
    with engine.connect() as conn:
        summaries = dict(conn.execute(sa.select(games.c.id, games.c.summary)).all())
    engine.dispose()
    assert summaries == {"g1": {"moves": 1}, "g2": None}


def test_updates_of_different_columns_in_one_batch_land_in_order(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    now = now_utc()
    with engine.begin() as conn:
        conn.execute(games.insert().values(id="g1", created_at=now, updated_at=now, params={}, mode="invite",
                                           clock={}, phase="playing", people={}))
    store = Store(engine)
    store.start()

    async def one_turn() -> list[Any]:
        return await asyncio.gather(
            store.write(Store.append("g1", 1, [{"n": 1}], {"phase": "playing", "summary": {"moves": 1}})),
            store.write(Store.append("g1", 2, [{"n": 2}], {"summary": {"moves": 2}})),
            store.write(Store.append("g1", 3, [{"n": 3}], {"phase": "scoring", "summary": {"moves": 3}})),
        )

    try:
        run_async(one_turn(), 60)
    finally:
        store.stop()
    with engine.connect() as conn:
        row = conn.execute(sa.select(games.c.phase, games.c.summary)).one()
    engine.dispose()
    assert (row.phase, row.summary) == ("scoring", {"moves": 3})  # the last append's, as if written one by one

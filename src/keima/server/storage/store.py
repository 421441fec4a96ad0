"""Storage of games as event logs, through SQLAlchemy (SQLite by default, PostgreSQL by URL).

Tables (created by the Alembic migrations in ``keima/server/migrations``):
- ``games``: one row per game: its parameters, mode, clock spec, bot, the SHA-256 of each seat token and of the
  invitation code, and the phase and result (for listing; the log is the truth).
- ``game_log``: the log of each game, ``(game_id, seq)`` primary key, ``seq`` = 1, 2, 3...; an entry is a small
  JSON object describing one change (see ``keima.server.games.session``). The primary key also makes two writers of the same
  game collide instead of interleaving.

The games row of a session is made and read back by ``keima.server.games.rows`` (``to_row``, ``from_row``): the one
mapping between a session and its ``games`` row; this module stores what it gives.

Each caller of ``Store.write`` is answered only after the commit that holds its change. Changes queued at the
same moment share one transaction (group commit). SQLite commits run on the event loop's thread (a local call of
well under a millisecond) in WAL mode with ``synchronous=NORMAL``: a commit is written to the WAL file (the
operating system holds it) but not flushed to the disk, so every committed transaction survives the *process*
being killed, not an operating-system crash or a power loss. The durable setting (``make_engine(durable=True)``,
``keima serve --durable``, ``KEIMA_DURABLE=1``) flushes the WAL at every commit (``synchronous=FULL``) and, on
PostgreSQL, insists on ``synchronous_commit=on`` whatever the database server's default. PostgreSQL commits run
in a writer thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server import timesource
from keima.server.storage.database import default_url, durable_default, make_engine, migrate, prepare_database
from keima.server.storage.tables import (
    game_log,
    game_outbox,
    game_players,
    games,
    metadata,
    player_sessions,
    players,
    scheduled_jobs,
    server_settings,
)

__all__ = ["default_url", "durable_default", "game_log", "game_players", "games", "make_engine", "metadata", "migrate",
           "player_sessions", "players", "prepare_database", "server_settings"]


def now_utc() -> datetime:
    """Return the current time, timezone-aware UTC (``keima.server.timesource``)."""
    return timesource.now_utc()


@dataclass
class Append:
    """A write op: log entries of one game from sequence number ``first_seq`` on, an optional update of its
    ``games`` row, the events for the outbox (``(version, kind, data)``), the scheduler's jobs of the game to
    set (``(kind, due_at)``) or clear (``(kind, None)``) and further ``ops`` of the change (a conditional
    move's tree, kept or dropped with the move that follows it), all in the transaction of the entries."""

    game_id: str
    first_seq: int
    entries: list[dict[str, Any]]
    update: dict[str, Any] | None = None
    outbox: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    jobs: list[tuple[str, datetime | None]] = field(default_factory=list)
    ops: list[Callable[[Connection], Any]] = field(default_factory=list)


@dataclass
class StoredGame:
    """A game as read back: its ``games`` row (as a dict, times as the driver gives them) and its log entries
    in order; ``keima.server.games.rows.from_row`` makes a session of it."""

    row: dict[str, Any]
    entries: list[dict[str, Any]]
    people: dict[int, dict[str, Any]] | None = None


_Item = tuple["Callable[[Connection], Any] | Append", asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class Store:
    """Database access. Reads run in the caller's thread (use an executor); writes go through ``write``.

    SQLite writes run on the event loop's own thread ("inline"): everything written during one turn of the
    loop is committed together right after it. A SQLite commit in WAL mode is a short local call, and handing
    it to another thread cost more than the commit itself (each hand-off waits for the GIL and for the
    scheduler). The WAL is checkpointed by a background thread, so that no commit pays for a checkpoint's disk
    flush. Other databases (PostgreSQL: a network round trip per commit) are written by a writer thread.
    """

    def __init__(self, engine: Engine, *, inline: bool | None = None) -> None:
        self.engine = engine
        self.inline = engine.dialect.name == "sqlite" if inline is None else inline
        self._queue: queue.Queue[_Item | None] = queue.Queue()
        self._pending: list[_Item] = []
        self._flush_scheduled = False
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # -- writing -------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the writer thread, or the checkpoint thread for SQLite (idempotent)."""
        if self._thread is None:
            self._stop.clear()
            target = self._checkpointer if self.inline else self._writer
            self._thread = threading.Thread(target=target, name="keima-db", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Finish the queued writes and stop the background thread."""
        if self._pending:
            self._flush()
        if self._thread is not None:
            self._stop.set()
            self._queue.put(None)
            self._thread.join()
            self._thread = None

    async def write(self, op: Callable[[Connection], Any] | Append) -> Any:
        """Run ``op`` (an ``Append``, or any ``op(connection)``) in a committed transaction; returns its result
        once the commit is done. Raises whatever ``op`` or the commit raised (nothing of that op is stored)."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        if self.inline:
            self._pending.append((op, loop, fut))
            if not self._flush_scheduled:
                self._flush_scheduled = True
                loop.call_soon(self._flush)
        else:
            self._queue.put((op, loop, fut))
        return await fut

    def _flush(self) -> None:
        self._flush_scheduled = False
        batch, self._pending = self._pending, []
        if batch:
            self._run_batch(batch)

    def _checkpointer(self) -> None:
        # Copies the WAL into the database file every second without blocking writers (PASSIVE), so the WAL
        # stays small and commits never run a checkpoint themselves (autocheckpoint is off, see make_engine).
        while not self._stop.wait(1.0):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: the next round checkpoints
                continue

    def _writer(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            stop = False
            # Group commit: everything queued meanwhile shares one transaction.
            while len(batch) < 1000:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            self._run_batch(batch)
            if stop:
                return

    @staticmethod
    def _execute(conn: Connection, ops: list[Callable[[Connection], Any] | Append]) -> list[Any]:
        # All appended log rows go in one executemany, and all the game-row updates of consecutive appends in
        # another: per-statement work on this thread (building, caching and binding a statement) is what
        # competes with the players' moves. The statements are built once (``_LOG_INSERT``, ``_game_update``).
        now = now_utc()
        rows = [
            {"game_id": op.game_id, "seq": op.first_seq + i, "entry": e, "created_at": now}
            for op in ops
            if isinstance(op, Append)
            for i, e in enumerate(op.entries)
        ]
        if len(rows) == 1:  # a lone row: one plain statement (an executemany of one row costs a pipeline)
            conn.execute(_LOG_INSERT, rows[0])
        elif rows:
            conn.execute(_LOG_INSERT, rows)
        results: list[Any] = []
        outbox = [{"game_id": op.game_id, "version": v, "kind": k, "data": d, "created_at": now}
                  for op in ops if isinstance(op, Append) for v, k, d in op.outbox]
        if outbox:
            if conn.dialect.name == "postgresql":
                # Outbox numbers are given in commit order (the subscribers read up to the last one they applied):
                # transactions that write events take turns. Events are rare (a finished game), moves never wait.
                conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7243502)")
            conn.execute(_OUTBOX_INSERT, outbox)
        updates: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for op in ops:
            if isinstance(op, Append):
                if op.update is not None:
                    keys = tuple(sorted(op.update))
                    if keys not in updates:  # another set of columns: those queued go first, rows stay in order
                        _update_games(conn, updates)
                    params = {f"v_{k}": v for k, v in op.update.items()}
                    params["v_id"], params["v_now"] = op.game_id, now
                    updates.setdefault(keys, []).append(params)
                for kind, due in op.jobs:
                    set_job(conn, kind, op.game_id, due)
                if op.ops:
                    _update_games(conn, updates)
                    for extra in op.ops:
                        extra(conn)
                results.append(None)
            else:
                # An op may read or change the game rows: the updates before it are written first, in order.
                _update_games(conn, updates)
                results.append(op(conn))
        _update_games(conn, updates)
        return results

    def _run_batch(self, batch: list[_Item]) -> None:
        try:
            with self.engine.begin() as conn:
                results = self._execute(conn, [op for op, _loop, _fut in batch])
        except Exception as exc:
            if len(batch) == 1:
                _op, loop, fut = batch[0]
                _resolve(loop, fut, None, exc)  # nothing of this op was committed
                return
            # One op failed: retry each alone so that only the bad one fails.
            for one in batch:
                self._run_batch([one])
            return
        for (_op, loop, fut), result in zip(batch, results, strict=True):
            _resolve(loop, fut, result, None)

    # -- operations ----------------------------------------------------------------------------------------
    @staticmethod
    def insert_game(row: dict[str, Any], entries: list[dict[str, Any]]) -> Callable[[Connection], None]:
        """Return a write op that creates a game row with its first log entries."""

        def op(conn: Connection) -> None:
            now = now_utc()
            values = {"created_at": now, "updated_at": now} | row
            conn.execute(games.insert().values(**values))
            if entries:
                conn.execute(
                    _LOG_INSERT,
                    [{"game_id": row["id"], "seq": i + 1, "entry": e, "created_at": now} for i, e in enumerate(entries)],
                )

        return op

    @staticmethod
    def append(
        game_id: str, first_seq: int, entries: list[dict[str, Any]], update: dict[str, Any] | None = None,
        outbox: list[tuple[int, str, dict[str, Any]]] | None = None,
        jobs: list[tuple[str, datetime | None]] | None = None,
        ops: list[Callable[[Connection], Any]] | None = None,
    ) -> Append:
        """Return a write op that appends ``entries`` at ``first_seq``, ``first_seq + 1``... and, when given,
        updates the game row with ``update``, adds ``outbox`` events, sets or clears scheduler ``jobs`` and runs
        ``ops`` (see ``Append``). A sequence number already used raises an integrity error."""
        return Append(game_id, first_seq, entries, update, list(outbox or ()), list(jobs or ()), list(ops or ()))

    @staticmethod
    def delete_game(game_id: str) -> Callable[[Connection], None]:
        """Return a write op that deletes a game with its log, its seats and its timed jobs."""

        def op(conn: Connection) -> None:
            conn.execute(scheduled_jobs.delete().where(scheduled_jobs.c.game_id == game_id))
            conn.execute(game_players.delete().where(game_players.c.game_id == game_id))
            conn.execute(game_log.delete().where(game_log.c.game_id == game_id))
            conn.execute(games.delete().where(games.c.id == game_id))

        return op

    def load(self, game_id: str) -> StoredGame | None:
        """Read a game and its whole log; None when there is no such game. Blocking: call from a thread."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            entries = [
                r.entry
                for r in conn.execute(
                    sa.select(game_log.c.entry).where(game_log.c.game_id == game_id).order_by(game_log.c.seq)
                )
            ]
            seated = conn.execute(
                sa.select(game_players.c.color, players.c.id, players.c.name, players.c.rank)
                .join(players, players.c.id == game_players.c.player_id)
                .where(game_players.c.game_id == game_id)
            ).all()
        people = {r.color: {"id": r.id, "name": r.name, "rank": r.rank} for r in seated}
        return StoredGame(dict(row), entries, people)


def job_key(kind: str, game_id: str) -> str:
    """The scheduler's key of job ``kind`` of game ``game_id``: one job of each kind per game."""
    return f"{kind}:{game_id}"


_LOG_INSERT = game_log.insert()
_OUTBOX_INSERT = game_outbox.insert()
_JOB_CLEAR = scheduled_jobs.delete().where(scheduled_jobs.c.key == sa.bindparam("v_key"))
_JOB_MOVE = (scheduled_jobs.update().where(scheduled_jobs.c.key == sa.bindparam("v_key"))
             .values(due_at=sa.bindparam("v_due", type_=scheduled_jobs.c.due_at.type), claimed_until=None))
_JOB_ADD = scheduled_jobs.insert()
_GAME_UPDATES: dict[tuple[str, ...], sa.Update] = {}


def _game_update(keys: tuple[str, ...]) -> sa.Update:
    """The statement that sets the ``games`` columns ``keys`` (parameters ``v_<column>``) and ``updated_at`` of
    the game ``v_id``, at ``v_now``. Built once per set of columns: SQLAlchemy then finds its compiled form by
    the statement's memoised cache key instead of building and hashing a new statement for every move."""
    stmt = _GAME_UPDATES.get(keys)
    if stmt is None:
        values: dict[str, Any] = {k: sa.bindparam(f"v_{k}", type_=games.c[k].type) for k in keys}
        # A finished game keeps the time it finished (the lists of finished games are in that order): what comes
        # after (chat, the rating change) does not move it. The CASE reads the row as it was.
        values["updated_at"] = sa.case((games.c.phase == "finished", games.c.updated_at),
                                       else_=sa.bindparam("v_now", type_=games.c.updated_at.type))
        stmt = _GAME_UPDATES[keys] = games.update().where(games.c.id == sa.bindparam("v_id")).values(values)
    return stmt


def _update_games(conn: Connection, updates: dict[tuple[str, ...], list[dict[str, Any]]]) -> None:
    """Write the queued game-row updates (one executemany; ``_execute`` queues one set of columns at a time) and
    empty ``updates``."""
    for keys, params in updates.items():
        conn.execute(_game_update(keys), params[0] if len(params) == 1 else params)
    updates.clear()


def set_job(conn: Connection, kind: str, game_id: str, due: datetime | None) -> None:
    """Set (``due``) or clear (None) the scheduler's job ``kind`` of ``game_id`` in the transaction of ``conn``."""
    # One statement for the usual case (a move moves the due time of a running clock): an update, and an insert
    # only for a clock that just started.
    key = job_key(kind, game_id)
    if due is None:
        conn.execute(_JOB_CLEAR, {"v_key": key})
        return
    moved = conn.execute(_JOB_MOVE, {"v_key": key, "v_due": due})
    if not moved.rowcount:
        conn.execute(_JOB_ADD, {"key": key, "kind": kind, "game_id": game_id, "due_at": due, "claimed_until": None})


def _resolve(loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    def done() -> None:
        if fut.done():
            return
        if exc is not None:
            fut.set_exception(exc)
        else:
            fut.set_result(result)

    try:
        here = asyncio.get_running_loop() is loop
    except RuntimeError:
        here = False
    if here:  # inline write, on the loop's own thread
        done()
        return
    # A closed loop means nobody waits any more.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(done)

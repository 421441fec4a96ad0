"""The bot's reviews of finished games and uploaded records: stored once, shared, run at a low priority.

A review is one row of ``analyses`` (``keima.server.storage.tables``), whose id is derived from what it reviews
(``review_id``): a game of this server by its id, an uploaded record by a hash of its rules, setup and moves, so
that every process and every visitor finds the same row and nobody starts a second review of the same game.

It runs in *chunks* (``ReviewService.run_chunk``): each searches positions one after another
(``keima.ai.analysis.Analyst``) and stores each position's evaluation and the per-move list built so far, until
the review is done, cancelled, or the chunk's time is up. In a single process the chunks run one after another in
one thread of lowered priority (``keima.ai.analysis.lower_priority``); in a cluster each chunk is a job of the
workers' queue (``keima.server.worker.keima_review``) that queues the next one with a delay, so that the live bot
moves queued meanwhile go first, and a worker runs at most one review chunk at a time, in a thread of lowered
priority, in a job slot of its own. A worker killed mid-review loses one chunk: the stored evaluations stay, and
the next chunk (queued again by the next request that finds the review stalled) goes on from there.

Refusals: ``game-in-progress`` (409) for a game not finished (a review during play would help a player cheat);
``review-limit`` (429) when the requester already has a review queued or running; ``review-queue-full`` (429)
past ``max_queue`` reviews queued or running on the server; ``not-requester`` (403) when someone other than the
requester cancels; ``review-over`` (409) when cancelling a review that has ended.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from keima.ai.analysis import (
    CAP_SECONDS,
    Analyst,
    Budget,
    Cancelled,
    Evaluation,
    ReviewRun,
    default_playouts,
    expected_seconds,
    lower_priority,
    positions,
    refine_budget,
    summary,
)
from keima.record import SgfError, load_record
from keima.rules.game import Game
from keima.server import timesource
from keima.server.errors import Refused
from keima.server.storage import analyses, games

log = logging.getLogger("keima.reviews")

#: Statuses of a review. ``queued`` and ``running`` are *active*: they count against the limits.
STATUSES = ("queued", "running", "done", "cancelled", "failed")
#: A record whose first moves (this many or more) are a game in progress here is that game (``live_twin``); the
#: games in progress looked at, the most recently changed first.
SHARED_MOVES = 10
LIVE_LOOKED_AT = 500
#: Reviews under way at once for the guests (and API clients without a player) of one address, all together
#: (the default of ``KEIMA_REVIEW_ADDRESS_LIMIT``).
GROUP_ACTIVE = 2
ACTIVE = ("queued", "running")
#: The time cap of a position's search (``KEIMA_REVIEW_SECONDS`` overrides), its playouts by board size
#: (``KEIMA_REVIEW_PLAYOUTS`` overrides): ``keima review``'s, so that both give the same review of the same record.
DEFAULT_SECONDS = CAP_SECONDS
#: Reviews queued or running on the whole server at most (``KEIMA_REVIEW_QUEUE`` overrides).
DEFAULT_MAX_QUEUE = 8
#: A review has at most this many positions (a 19x19 game has about 250 moves).
MAX_POSITIONS = 1000
#: A worker's chunk searches for about this long before it hands its slot back.
CHUNK_SECONDS = 10.0
#: An active review whose row has not changed for this long is taken to have lost its worker: the next request
#: that finds it queues it again.
STALE_SECONDS = 60.0
#: How often a running review reads its row to learn whether it was cancelled.
CANCEL_POLL_SECONDS = 1.0


def _env_float(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        return default
    return value if value > 0 else default


def review_id(kind: str, key: str) -> str:
    """The id of the review of ``kind`` ("game" or "record") ``key`` (a game id, or ``record_key``'s hash)."""
    return hashlib.sha256(f"{kind}:{key}".encode()).hexdigest()[:32]


def record_key(game: Game) -> str:
    """A hash of what a review of ``game`` depends on: size, rules, komi, handicap, and every event up to the last
    move (setup stones included; a resignation or a marking after it changes nothing)."""
    events = [e.to_dict() for e in game.events]
    while events and events[-1]["kind"] != "move":
        events.pop()
    text = json.dumps([game.size, game.rules.name, game.komi, game.handicap, events], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _utc(at: datetime | None) -> datetime | None:
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def review_json(row: dict[str, Any]) -> dict[str, Any]:
    """A stored review as the API answers it (docs/web-api.md, *Reviews by the bot*): with ``summary``, each
    player's classed moves and accuracy (``keima.ai.analysis.summary``)."""
    return {
        "id": row["id"],
        "url": f"/api/analysis/{row['id']}",
        "status": row["status"],
        "progress": {"done": row["done"], "total": row["total"]},
        "size": row["size"],
        "game_id": row["game_id"],
        "seconds": row["seconds"],
        # Before the page has seen the review's own pace: what a search of the default playouts usually takes.
        "search_seconds": round(expected_seconds(row["size"], Budget(seconds=row["seconds"],
                                                                     playouts=default_playouts(row["size"]))), 2),
        "error": row["error"],
        "moves": row["moves"],
        "summary": summary(row["moves"] or []),
    }


def stored_game(store: Any, game_id: str) -> Game | None:
    """The referee game of ``game_id`` as ``store`` (``keima.server.storage.store.Store``) holds it; None when there is
    none. Blocking: call it from a thread."""
    from keima.server.games import from_row

    stored = store.load(game_id)
    return None if stored is None else from_row(stored.row, stored.entries, stored.people).game


class _CancelWatch:
    """The ``stop`` callable of a running review: True once the service closes or the row is no longer active
    (read at most every ``CANCEL_POLL_SECONDS``)."""

    def __init__(self, engine: Engine, aid: str, closing: threading.Event) -> None:
        self.engine, self.aid, self.closing = engine, aid, closing
        self._at = time.monotonic()
        self._stopped = False

    def __call__(self) -> bool:
        if self._stopped or self.closing.is_set():
            return True
        now = time.monotonic()
        if now - self._at >= CANCEL_POLL_SECONDS:
            self._at = now
            with self.engine.connect() as conn:
                status = conn.execute(sa.select(analyses.c.status).where(analyses.c.id == self.aid)).scalar()
            self._stopped = status not in ACTIVE
        return self._stopped


class ReviewService:
    """The reviews of one process (a web process or a worker). ``engine``: the database; ``load_game(id)``:
    the stored game ``id`` (blocking; None when there is none); ``jobs``: the cluster's queue (None: reviews
    run here, in a thread of lowered priority)."""

    def __init__(self, engine: Engine, load_game: Callable[[str], Game | None], *, jobs: Any = None,
                 seconds: float | None = None, playouts: int | None = None, max_queue: int | None = None) -> None:
        self.engine = engine
        self.load_game = load_game
        self.jobs = jobs
        self.seconds = seconds if seconds is not None else _env_float("KEIMA_REVIEW_SECONDS", DEFAULT_SECONDS)
        #: The playouts a position (``KEIMA_REVIEW_PLAYOUTS``; None: the review's default by board size,
        #: ``keima.ai.analysis.default_playouts``), within ``seconds`` a position.
        if playouts is None and os.environ.get("KEIMA_REVIEW_PLAYOUTS"):
            playouts = int(_env_float("KEIMA_REVIEW_PLAYOUTS", 1000))
        self.playouts = playouts
        self.max_queue = max_queue if max_queue is not None else int(_env_float("KEIMA_REVIEW_QUEUE",
                                                                                DEFAULT_MAX_QUEUE))
        #: Reviews under way for the guests of one address (``KEIMA_REVIEW_ADDRESS_LIMIT``: a club or a school
        #: behind one router allows more).
        self.group_active = int(_env_float("KEIMA_REVIEW_ADDRESS_LIMIT", GROUP_ACTIVE))
        self.closing = threading.Event()
        # Starts are checked against the limits one at a time: in this process by this lock, across the processes
        # of a cluster by a PostgreSQL advisory lock (starts are rare; nothing else waits for them).
        self._starting = threading.Lock()
        # One thread, of lowered priority, runs this process's reviews one after another.
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="keima-review", initializer=lower_priority)

    def close(self) -> None:
        """Stop the running review where it is (it stays active in the database: the next start goes on with it)
        and the thread."""
        self.closing.set()
        self.pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------------------------------ requests
    async def start_game(self, game: Game, game_id: str, requester: str,
                         group: str | None = None) -> tuple[dict[str, Any], bool]:
        """Start the review of the finished game ``game_id`` (its ``game``), or find the stored one. Returns the
        review (``review_json``) and whether this request started it. Raises ``Refused`` (the module's
        refusals)."""
        if game.phase != "finished":
            raise Refused("game-in-progress", "a game is reviewed by the bot once it is finished, never during play")
        total = self._total(game)
        return await self._start(review_id("game", game_id), game_id, None, game.size, total, requester, group)

    def live_twin(self, game: Game) -> str | None:
        """The id of a game in progress on this server that ``game`` (an uploaded record) is, as far as both go:
        their first ``SHARED_MOVES`` moves or more the same, one the other's beginning; None when there is none.
        The bot reviews a game once it is finished, never during play: its public SGF uploaded as a record would
        otherwise give a player the bot's moves mid-game. Blocking."""
        mine = [(m.color, m.point) for m in game.moves]
        if len(mine) < SHARED_MOVES:
            return None
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games.c.id, games.c.params, games.c.summary)
                                .where(games.c.phase != "finished").order_by(games.c.updated_at.desc())
                                .limit(LIVE_LOOKED_AT)).all()
        for row in rows:
            played = (row.summary or {}).get("moves", 0)
            if (row.params or {}).get("size") != game.size or played < SHARED_MOVES:
                continue
            live = self.load_game(row.id)
            if live is None:
                continue
            theirs = [(m.color, m.point) for m in live.moves]
            k = min(len(theirs), len(mine))
            if k >= SHARED_MOVES and theirs[:k] == mine[:k]:
                return str(row.id)
        return None

    async def start_record(self, sgf: str, requester: str, group: str | None = None) -> tuple[dict[str, Any], bool]:
        """Start the review of an uploaded record (SGF text), or find the stored one of the same game. Raises
        ``Refused`` ``invalid-request`` for a record that cannot be read, and the module's refusals."""
        def read() -> Game:
            try:
                return load_record(sgf).game
            except SgfError as exc:
                raise Refused("invalid-request", f"sgf: {exc}", field="sgf") from None

        game = await asyncio.to_thread(read)
        if await asyncio.to_thread(self.live_twin, game) is not None:
            raise Refused("game-in-progress", "this record is a game in progress on this server: the bot reviews it "
                          "once it is finished, never during play")
        total = self._total(game)
        return await self._start(review_id("record", record_key(game)), None, sgf, game.size, total, requester,
                                 group)

    @staticmethod
    def _total(game: Game) -> int:
        """The searches a review of ``game`` takes (at most: ``ReviewRun.total``)."""
        total = sum(1 for e in game.events if e.kind == "move") + 1
        if total > MAX_POSITIONS:
            raise Refused("invalid-request", f"the game has {total - 1} moves: a review takes at most "
                          f"{MAX_POSITIONS - 1}")
        return total + refine_budget(total - 1)

    async def _start(self, aid: str, game_id: str | None, sgf: str | None, size: int, total: int,
                     requester: str, group: str | None = None) -> tuple[dict[str, Any], bool]:
        def op() -> tuple[dict[str, Any], bool]:
            now = timesource.now_utc()
            with self._starting, self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7243503)")
                row = conn.execute(sa.select(analyses).where(analyses.c.id == aid)).mappings().first()
                if row is not None and row["status"] in ("done", *ACTIVE):
                    return dict(row), False
                by = analyses.c.requested_by
                mine = conn.execute(sa.select(sa.func.count()).select_from(analyses).where(
                    sa.or_(by == requester, by.like(f"{requester} %")), analyses.c.status.in_(ACTIVE))).scalar() or 0
                if mine:
                    raise Refused("review-limit", "you already have a review under way: wait for its end or "
                                  "cancel it (DELETE on its address)")
                if group is not None:
                    # Guests share their address's reviews: fresh guests, one review each, filled the queue.
                    ours = conn.execute(sa.select(sa.func.count()).select_from(analyses).where(
                        by.like(f"% {group}"), analyses.c.status.in_(ACTIVE))).scalar() or 0
                    if ours >= self.group_active:
                        raise Refused("review-limit", f"{ours} reviews asked for from your address without an "
                                      "account are under way: wait for their end, or register")
                active = conn.execute(sa.select(sa.func.count()).select_from(analyses).where(
                    analyses.c.status.in_(ACTIVE))).scalar() or 0
                if active >= self.max_queue:
                    raise Refused("review-queue-full", f"the server is reviewing {active} games already: "
                                  "try again in a few minutes")
                values = {"status": "queued", "done": 0, "total": total, "seconds": self.seconds, "evals": [],
                          "moves": [], "requested_by": requester if group is None else f"{requester} {group}",
                          "error": None, "updated_at": now}
                if row is None:
                    conn.execute(analyses.insert().values(id=aid, game_id=game_id, sgf=sgf, size=size,
                                                          created_at=now, **values))
                else:  # cancelled or failed before: start again
                    conn.execute(analyses.update().where(analyses.c.id == aid).values(**values))
                fresh = conn.execute(sa.select(analyses).where(analyses.c.id == aid)).mappings().one()
                return dict(fresh), True

        try:
            row, started = await asyncio.to_thread(op)
        except IntegrityError:  # another process inserted it at the same moment: theirs is the review
            again = await asyncio.to_thread(self._read, aid)
            if again is None:
                raise
            row, started = again, False
        if started:
            await self._launch(aid, 0)
        elif row["status"] in ACTIVE:
            updated = _utc(row["updated_at"])
            if updated is not None and (timesource.now_utc() - updated).total_seconds() > STALE_SECONDS:
                await self._launch(aid, int(row["done"]))  # its worker is gone: queue it again
        return review_json(row), started

    async def get(self, aid: str) -> dict[str, Any]:
        """The review ``aid`` (``review_json``); raises ``Refused`` ``not-found``."""
        row = await asyncio.to_thread(self._read, aid)
        if row is None:
            raise Refused("not-found", f"no review {aid[:40]!r}")
        return review_json(row)

    async def cancel(self, aid: str, requester: str) -> dict[str, Any]:
        """Cancel the review ``aid``: only its requester may. Raises ``Refused`` ``not-found``,
        ``not-requester``, ``review-over`` (it has ended)."""
        def op() -> dict[str, Any] | None:
            with self.engine.begin() as conn:
                row = conn.execute(sa.select(analyses).where(analyses.c.id == aid)).mappings().first()
                if row is None:
                    return None
                if (row["requested_by"] or "").split(" ")[0] != requester:
                    raise Refused("not-requester", "only who started a review may cancel it")
                if row["status"] not in ACTIVE:
                    raise Refused("review-over", f"the review has ended ({row['status']})")
                conn.execute(analyses.update().where(analyses.c.id == aid).values(
                    status="cancelled", updated_at=timesource.now_utc()))
                return dict(conn.execute(sa.select(analyses).where(analyses.c.id == aid)).mappings().one())

        row = await asyncio.to_thread(op)
        if row is None:
            raise Refused("not-found", f"no review {aid[:40]!r}")
        return review_json(row)

    def _read(self, aid: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(analyses).where(analyses.c.id == aid)).mappings().first()
        return None if row is None else dict(row)

    # ------------------------------------------------------------------------------------------ running
    async def _launch(self, aid: str, done: int) -> None:
        if self.jobs is not None:
            await self.jobs.enqueue_review(aid, done)
        else:
            self.pool.submit(self._run_here, aid)

    def resume(self) -> int:
        """Single process: run again the reviews left active by the last run of the server (blocking). Returns
        how many."""
        with self.engine.connect() as conn:
            ids = [r.id for r in conn.execute(sa.select(analyses.c.id).where(analyses.c.status.in_(ACTIVE))
                                              .order_by(analyses.c.created_at))]
        for aid in ids:
            self.pool.submit(self._run_here, aid)
        return len(ids)

    def _run_here(self, aid: str) -> None:
        while not self.closing.is_set() and self.run_chunk(aid, None) == "more":
            pass

    def _game_of(self, row: dict[str, Any]) -> Game | None:
        if row["sgf"] is not None:
            return load_record(row["sgf"]).game
        return self.load_game(row["game_id"])

    def budget(self, size: int, seconds: float | None = None) -> Budget:
        """A position's search on a ``size`` board: this service's playouts (by default the review's, by board
        size) within ``seconds`` (default: this service's cap)."""
        playouts = self.playouts if self.playouts is not None else default_playouts(size)
        return Budget(seconds=self.seconds if seconds is None else seconds, playouts=playouts)

    def run_chunk(self, aid: str, limit: float | None) -> str:
        """Search the next positions of review ``aid`` for about ``limit`` seconds (None: to the end), storing
        each one's evaluation as it comes (blocking: call it from a thread of lowered priority). Returns "done",
        "more" (time up), "cancelled" (or ended: nothing to do), "gone" (no such review) or "failed" (its game
        cannot be read or the search broke: stored with the reason)."""
        row = self._read(aid)
        if row is None:
            return "gone"
        if row["status"] not in ACTIVE:
            return "cancelled"
        try:
            game = self._game_of(row)
            if game is None:
                self._fail(aid, "the game is gone")
                return "failed"
            # ``keima review``'s path (``ReviewRun``): the same passes, the same review of the same record.
            run = ReviewRun(positions(game), [Evaluation.from_dict(d) for d in row["evals"]])
            stop = _CancelWatch(self.engine, aid, self.closing)
            analyst = Analyst(self.budget(game.size, float(row["seconds"])))
            start = time.monotonic()
            self._save(aid, run, game.size, "running")
            while not run.complete:
                if stop():
                    return "cancelled"
                run.step(analyst, stop)
                complete = run.complete
                if not self._save(aid, run, game.size, "done" if complete else "running"):
                    return "cancelled"
                if not complete and limit is not None and time.monotonic() - start >= limit:
                    return "more"
            return "done"
        except Cancelled:
            return "cancelled"
        except Exception as exc:
            log.exception("review %s failed", aid)
            self._fail(aid, f"{type(exc).__name__}: {exc}"[:200])
            return "failed"

    def _save(self, aid: str, run: ReviewRun, size: int, status: str) -> bool:
        """Store the evaluations so far and the searches done of the searches planned (``done``, ``total``);
        False when the review is no longer active (cancelled meanwhile)."""
        moves = [r.as_dict(size) for r in run.reviews()]
        with self.engine.begin() as conn:
            done = conn.execute(analyses.update().where(analyses.c.id == aid, analyses.c.status.in_(ACTIVE)).values(
                status=status, done=run.done, total=run.total, evals=[e.as_dict() for e in run.evals],
                moves=moves, updated_at=timesource.now_utc()))
        return bool(done.rowcount)

    def _fail(self, aid: str, reason: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(analyses.update().where(analyses.c.id == aid, analyses.c.status.in_(ACTIVE)).values(
                status="failed", error=reason, updated_at=timesource.now_utc()))

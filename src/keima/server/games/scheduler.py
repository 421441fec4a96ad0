"""Timed work on games: the clock that runs out, in memory and in the database.

Two layers, both calling the game service's ``flag`` (which stores a time loss only when the clock really ran
out, so that running it twice, early or on two processes, changes nothing):

- ``Clocks``: a timer on the event loop for each game in memory whose clock runs, set again after each change: the
  loss is recorded the moment the time is up.
- ``Scheduler``: the durable layer. Each change of a game with a clock stores, in the same transaction, when its
  running clock will run out (``scheduled_jobs``, written by ``GameService.commit``). Every process polls the due
  jobs, claims each with one conditional update (so one process runs it), and runs it. A job survives a restart
  and a process killed in the middle: its claim lapses after ``CLAIM_S`` and another poll takes it.

Time while no server process was running is charged to nobody (``keima.server.games.cache``): a job found due after a
restart reads the game, whose clock then has the time it had when the server stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games.cache import GameCache
from keima.server.games.service import FLAG, SCORING, GameService
from keima.server.games.session import GameSession
from keima.server.housekeeping import Background
from keima.server.storage import now_utc
from keima.server.storage import queues as store_events

log = logging.getLogger("keima.server")

CLAIM_S = 30.0  # how long a claimed job is left to the process that took it


class Clocks:
    """The in-memory timers of one process (``enabled``: False in a worker, which leaves them to the web
    processes)."""

    def __init__(self, service: GameService, cache: GameCache, *, enabled: bool = True) -> None:
        self.service = service
        self.enabled = enabled
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        service.listeners.append(lambda s, _events: self.arm(s))
        cache.on_load.append(self.arm)
        cache.on_catch_up.append(self.arm)
        cache.on_evict.append(self.cancel)

    def arm(self, s: GameSession) -> None:
        """Set the timer of ``s`` for the moment its running clock runs out (or clear it)."""
        self.cancel(s.id)
        c = s.clock.running
        if not self.enabled or c is None:
            return
        now = timesource.now()
        delay = s.clock.runs_out_at(c, now) - now
        self._timers[s.id] = asyncio.get_running_loop().call_later(delay + 0.005, self._fire, s.id)

    def cancel(self, game_id: str) -> None:
        """Clear the timer of ``game_id``."""
        old = self._timers.pop(game_id, None)
        if old is not None:
            old.cancel()

    def _fire(self, game_id: str) -> None:
        self._timers.pop(game_id, None)
        task = asyncio.get_running_loop().create_task(self._flag(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _flag(self, game_id: str) -> None:
        try:
            s = await self.service.flag(game_id)
            self.arm(s)  # not out yet (a clock read again after a restart): look again when it is
        except Refused as exc:
            log.debug("game %s: flag: %s", game_id, exc.message)

    async def close(self) -> None:
        """Cancel the timers and the flags under way."""
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


Handler = Callable[[str], Awaitable["datetime | None"]]


class Scheduler:
    """Runs the durable jobs that are due (see the module docstring). ``handlers``: job kind -> an async function
    of the game id that does the job and returns when it is due next (None: done)."""

    def __init__(self, engine: Engine, handlers: dict[str, Handler], *, poll_s: float = 1.0) -> None:
        self.engine = engine
        self.handlers = handlers
        self.poll_s = poll_s
        self.ran = 0
        self._loop = Background(self._run)

    def start(self) -> None:
        """Start polling (from the event loop)."""
        self._loop.start()

    async def close(self) -> None:
        """Stop polling."""
        await self._loop.close()

    async def run_due(self) -> int:
        """Run every job due now that this process can claim; returns how many ran."""
        loop = asyncio.get_running_loop()
        now = now_utc()
        due = await loop.run_in_executor(None, store_events.due_jobs, self.engine, now, 100)
        ran = 0
        for key, kind, game_id in due:
            claimed = await loop.run_in_executor(None, store_events.claim_job, self.engine, key, now,
                                                 now + timedelta(seconds=CLAIM_S))
            if not claimed:
                continue  # another process took it
            handler = self.handlers.get(kind)
            nxt: datetime | None = None
            try:
                if handler is not None:
                    nxt = await handler(game_id)
            except Refused as exc:
                log.info("scheduled %s of game %s: %s", kind, game_id, exc.message)
                if exc.code not in ("no-such-game", "corrupt-game"):
                    nxt = now_utc() + timedelta(seconds=CLAIM_S)  # try again later
            except Exception:
                log.exception("scheduled %s of game %s failed", kind, game_id)
                nxt = now_utc() + timedelta(seconds=CLAIM_S)
            await loop.run_in_executor(None, store_events.reschedule_job, self.engine, key, nxt)
            ran += 1
        self.ran += ran
        return ran

    async def _run(self) -> None:
        while True:
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the next poll tries again
                log.warning("scheduler: %s", type(exc).__name__)
            await asyncio.sleep(self.poll_s)


def flag_handler(service: GameService) -> Handler:
    """The scheduler's ``flag`` job: end the game whose clock ran out; returns when to look again (the clock of a
    game read again after a restart has the time it had then, so it may not be out yet)."""

    async def run(game_id: str) -> datetime | None:
        s = await service.flag(game_id)
        due = service.due(s)
        return None if due is None else datetime.fromtimestamp(due, tz=now_utc().tzinfo)

    return run


def scoring_handler(service: GameService) -> Handler:
    """The scheduler's ``scoring`` job: past a correspondence game's scoring deadline, its marking stands; returns
    when to look again (the deadline moved: someone acted meanwhile), None once done."""

    async def run(game_id: str) -> datetime | None:
        s = await service.end_scoring(game_id)
        if s.game.phase != "scoring" or s.scoring is None:
            return None
        return datetime.fromtimestamp(s.scoring[1], tz=now_utc().tzinfo)

    return run


__all__ = ["FLAG", "SCORING", "Clocks", "Handler", "Scheduler", "flag_handler", "scoring_handler"]

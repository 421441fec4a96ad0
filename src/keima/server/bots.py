"""The computer seats of a server process: the bot's moves, its answer to a marking, and the dead-stone estimate.

The bot and the estimator work on a copy of the game in a thread pool; their result goes through the game
service like any player's intent, and is applied only if the game has not changed meanwhile (otherwise they start
again on the new position). With a job queue (``jobs``, cluster mode), keima's own bot and the estimate are
enqueued for the workers instead (``keima worker`` runs ``run_job``); a GTP engine runs where it is configured, in
the web process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from keima import ai, seat
from keima.gtp.budget import TimeBudget
from keima.rules.board import BLACK
from keima.server.cache import GameCache
from keima.server.errors import Refused
from keima.server.events import GameEvent
from keima.server.service import GameService
from keima.server.session import PLAY_PHASES, GameSession

log = logging.getLogger("keima.server")


class BotRunner:
    """Bot turns and estimates for the games of one process (see the module docstring)."""

    def __init__(self, service: GameService, cache: GameCache, *, threads: int | None = None, jobs: Any = None,
                 engines: dict[str, str] | None = None) -> None:
        self.service = service
        self.cache = cache
        self.jobs = jobs
        #: GTP engines offered as opponents: name -> command line (``keima serve --engine NAME=COMMAND``).
        self.engines: dict[str, str] = dict(engines or {})
        self.pool = ThreadPoolExecutor(max_workers=threads or max(1, os.cpu_count() or 1),
                                       thread_name_prefix="keima-bot")
        self.players: dict[str, seat.Seat] = {}
        self._busy: set[str] = set()
        self._estimating: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        service.listeners.append(self._on_change)
        cache.on_load.append(self.maybe)
        cache.on_catch_up.append(self.maybe)
        cache.on_evict.append(self.release)
        cache.pins.append(lambda gid: gid in self._busy or gid in self._estimating)
        # Start compiling the bot in the background; its moves meanwhile are the quick ones (keima.ai.warmup).
        seat.warm_up()

    async def close(self) -> None:
        """Cancel the bot tasks, stop the threads and the engines."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)
        for computer in self.players.values():
            computer.close()
        self.players.clear()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a background task (cancelled by ``close``)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_change(self, s: GameSession, _events: list[GameEvent]) -> None:
        self.maybe(s)

    # ------------------------------------------------------------------------------------------ seats
    def seat_of(self, s: GameSession) -> seat.Seat:
        """The computer seat of ``s`` (keima at its level, or a GTP engine), made on first use."""
        computer = self.players.get(s.id)
        if computer is None:
            assert s.bot_level is not None, "a bot game always has a level"
            computer = seat.make_seat(s.bot_level, self.engines)
            self.players[s.id] = computer
        return computer

    def release(self, game_id: str) -> None:
        """Let the computer seat of ``game_id`` go (an engine's process ends with its game)."""
        computer = self.players.pop(game_id, None)
        if computer is not None:
            # An engine's process takes up to seconds to stop: not on the event loop.
            self.pool.submit(computer.close)

    @staticmethod
    def task(s: GameSession) -> str | None:
        """What the bot of ``s`` must do now: "move", "accept" (a marking), or None."""
        g = s.game
        if s.bot_color is None:
            return None
        if g.phase in PLAY_PHASES and g.result is None and g.to_move == s.bot_color:
            return "move"
        if g.phase == "scoring" and s.proposal is not None and s.bot_color not in g.accepted:
            return "accept"
        return None

    @staticmethod
    def needs_estimate(s: GameSession) -> bool:
        """True when ``s`` waits for the dead-stone estimate."""
        return s.game.phase == "scoring" and s.proposal is None

    def maybe(self, s: GameSession) -> None:
        """Start the estimate or the bot's turn of ``s`` when they are due."""
        self._maybe_estimate(s)
        if s.bot_color is None or s.broken or s.id in self._busy:
            return
        if s.game.phase == "finished":
            self.release(s.id)
            return
        what = self.task(s)
        if what is None:
            return
        if self.jobs is not None and seat.engine_of(s.bot_level) is None:
            self.spawn(self.jobs.enqueue("bot", s.id, s.version))
            return
        self._busy.add(s.id)
        self.spawn(self._turn(s, what))

    def _seconds(self, s: GameSession) -> float:
        # The seat's thinking time: a share of the clock's time left (at most 2 s), the level's default (1 to 3 s)
        # without a clock.
        budget = None
        if s.clock.enabled and s.bot_color is not None:
            budget = TimeBudget(kind="absolute")
            budget.left[s.bot_color] = (s.clock.time_left(s.bot_color, time.monotonic()), 0)
        color = s.bot_color if s.bot_color is not None else BLACK
        default = self.seat_of(s).default_seconds
        return seat.Seat.think_time(s.game, color, budget, default, cap=2.0 if budget is not None else default)

    async def _turn(self, s: GameSession, what: str) -> None:
        loop = asyncio.get_running_loop()
        version = s.version
        retry = True
        try:
            computer = self.seat_of(s)
            copy = s.game.copy()
            color = s.bot_color
            assert color is not None
            if what == "move":
                decision = await loop.run_in_executor(self.pool, computer.move, copy, color, self._seconds(s))

                def do(cur: GameSession) -> dict[str, Any] | None:
                    if cur.version != version:
                        return None
                    return decision_entry(cur, decision, color)
            else:
                review = await loop.run_in_executor(self.pool, computer.review, copy)

                def do(cur: GameSession) -> dict[str, Any] | None:
                    if cur.version != version:
                        return None
                    return review_entry(cur, review, color)
            s = await self.service.change(s.id, do, retry_refusals=False)
        except Refused as exc:
            log.warning("game %s: bot %s refused: %s", s.id, what, exc.message)
        except asyncio.CancelledError:
            retry = False
            raise
        except Exception:
            log.exception("game %s: bot %s failed", s.id, what)
        finally:
            self._busy.discard(s.id)
            # In finally, so that an early end (the game changed while the bot was thinking) still gives the bot
            # its turn in the new state instead of leaving the game waiting for it.
            cur = self.cache.sessions.get(s.id)
            if retry and cur is not None and not cur.broken and cur.version != version:
                self.maybe(cur)
            if s.game.phase == "finished":
                self.release(s.id)

    # ------------------------------------------------------------------------------------------ estimator
    def _maybe_estimate(self, s: GameSession) -> None:
        if self.needs_estimate(s) and s.id not in self._estimating and not s.broken:
            if self.jobs is not None:
                self.spawn(self.jobs.enqueue("estimate", s.id, s.version))
                return
            self._estimating.add(s.id)
            self.spawn(self._estimate(s))

    async def _estimate(self, s: GameSession) -> None:
        version = s.version
        retry = True
        try:
            loop = asyncio.get_running_loop()
            dead = frozenset(await loop.run_in_executor(self.pool, ai.estimate_dead, s.game.copy()))

            def do(cur: GameSession) -> dict[str, Any] | None:
                if cur.version != version or cur.game.phase != "scoring" or cur.proposal is not None:
                    return None
                return cur.set_proposal(dead)

            await self.service.change(s.id, do, retry_refusals=False)
        except asyncio.CancelledError:
            retry = False
            raise
        except Refused:
            pass
        except Exception:
            log.exception("game %s: dead-stone estimate failed", s.id)
        finally:
            self._estimating.discard(s.id)
            # In finally: an early return (the game changed during the estimate) must not drop the proposal.
            cur = self.cache.sessions.get(s.id)
            if retry and cur is not None and not cur.broken and cur.version != version:
                self._maybe_estimate(cur)

    # ------------------------------------------------------------------------------------------ workers
    async def run_job(self, kind: str, game_id: str, version: int) -> str:
        """Run one queued job here (a worker): the bot's turn (``kind`` "bot") or the estimate ("estimate") of
        ``game_id`` at ``version``. Returns "stale" when the stored game has moved on (the job is then moot),
        "nothing" when there is nothing to do, "done" otherwise (the result stored once: a second worker on the
        same job loses the race for the sequence number). Raises ``Refused`` ``no-such-game``."""
        s = await self.cache.get(game_id, fresh=True)
        if s.version != version or s.broken:
            return "stale"
        if kind == "estimate":
            if not self.needs_estimate(s) or s.id in self._estimating:
                return "nothing"
            self._estimating.add(s.id)
            await self._estimate(s)
            return "done"
        what = self.task(s)
        if what is None or s.id in self._busy:
            return "nothing"
        self._busy.add(s.id)
        await self._turn(s, what)
        return "done"

    def start_sweep(self, every: float = 2.0) -> None:
        """Cluster mode: every ``every`` seconds queue again the bot turns and estimates of the watched games
        (a job lost with a restarted Redis is queued anew; the queue keeps one job per game and version)."""

        async def sweep() -> None:
            while True:
                await asyncio.sleep(every)
                if self.jobs is None:
                    continue
                for s in list(self.cache.sessions.values()):
                    if s.broken or not self.cache.pubsub.subscribers(s.id):
                        continue
                    if self.task(s) is not None:
                        await self.jobs.enqueue("bot", s.id, s.version)
                    elif self.needs_estimate(s):
                        await self.jobs.enqueue("estimate", s.id, s.version)

        self.spawn(sweep())


def decision_entry(s: GameSession, decision: seat.Decision, color: int) -> dict[str, Any]:
    """Apply the computer seat's ``decision`` for ``color`` to ``s``; returns the log entry. Raises ``Refused``
    when the referee refuses it (the seat's moves are legal: its tests say so)."""
    now = time.monotonic()
    seats = frozenset({color})
    if decision.note:
        log.info("game %s: %s %s: %s", s.id, decision.action, decision.point, decision.note)
    if decision.action == "forfeit":
        return s.forfeit(color, decision.note or "", now)
    if decision.action == "resign":
        return s.apply({"type": "resign"}, seats, now)
    action = {"type": "pass"} if decision.action == "pass" else {"type": "play", "move": decision.point}
    return s.apply(action, seats, now)


def review_entry(s: GameSession, review: seat.Review, color: int) -> dict[str, Any]:
    """Apply the computer seat's answer to a marking for ``color``: accept it, or resume play saying which chains
    it disputes and why (never a silent wait); returns the log entry."""
    seats = frozenset({color})
    now = time.monotonic()
    if review.accept:
        entry = s.apply({"type": "accept"}, seats, now)
        if s.bot_note is not None:
            entry["bot_note"] = None
    else:
        entry = s.apply({"type": "resume"}, seats, now)
        entry["bot_note"] = review.message
    # In the stored entry: a reload, and the other processes of a cluster, show it too.
    s.take_notes(entry)
    return entry

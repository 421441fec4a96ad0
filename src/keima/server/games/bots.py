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
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from keima import ai, seat
from keima.rules.board import BLACK, opponent
from keima.rules.game import GameError
from keima.server import timesource
from keima.server.errors import Refused, game_error
from keima.server.games.cache import GameCache
from keima.server.games.events import GameEvent
from keima.server.games.folding import take_notes
from keima.server.games.service import GameService
from keima.server.games.session import PLAY_PHASES, GameSession
from keima.timecontrol import TimeBudget

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
            # The person marks at their pace and submits (toggles, then their acceptance): the seat answers the
            # estimator's marking as it stands, or a marking the person has accepted, never one half made.
            person = opponent(s.bot_color)
            if person in g.accepted or g.dead == s.proposal:
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
            budget = TimeBudget.remaining(s.bot_color, s.clock.time_left(s.bot_color, timesource.now()))
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
                answer: seat.Decision | seat.Review = await loop.run_in_executor(
                    self.pool, computer.move, copy, color, self._seconds(s))
            else:
                answer = await loop.run_in_executor(self.pool, computer.review, copy)

            def do(cur: GameSession) -> dict[str, Any] | None:
                return None if cur.version != version else answer_entry(cur, answer, color)

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



class SeatTable:
    """A game session as the table a computer seat's answer is carried out on (``keima.seat.apply_answer``): each
    answer becomes the session's intent for the seat's colour; ``entry`` is the log entry it made."""

    def __init__(self, s: GameSession, now: float) -> None:
        self.s, self.now = s, now
        self.entry: dict[str, Any] = {}

    def _act(self, color: int, action: dict[str, Any]) -> None:
        self.entry = self.s.apply(action, frozenset({color}), self.now)

    def play(self, move: int | None, color: int, *, allow_out_of_turn: bool = False) -> None:
        self._act(color, {"type": "pass"} if move is None else {"type": "play", "move": move})

    def resign(self, color: int) -> None:
        self._act(color, {"type": "resign"})

    def forfeit(self, color: int, reason: str) -> None:
        self.entry = self.s.forfeit(color, reason, self.now)

    def accept(self, color: int) -> None:
        self._act(color, {"type": "accept"})

    def resume(self, color: int) -> None:
        self._act(color, {"type": "resume"})


def answer_entry(s: GameSession, answer: seat.Decision | seat.Review, color: int) -> dict[str, Any]:
    """Carry out the computer seat's ``answer`` for ``color`` on ``s`` (``keima.seat.apply_answer``); returns the
    log entry. A review that resumes play says which chains it disputes and why (never a silent wait), and a
    decision its reason for the person (``Decision.say``: a resignation, play going on after a pass), in the entry
    (``bot_note``), so that a reload and every process of a cluster show it. Raises ``Refused`` when the referee refuses
    it (the seat's moves are legal: a refusal means the game changed meanwhile)."""
    if isinstance(answer, seat.Decision) and answer.note:
        log.info("game %s: %s %s: %s", s.id, answer.action, answer.point, answer.note)
    table = SeatTable(s, timesource.now())
    try:
        seat.apply_answer(table, color, answer)
    except GameError as exc:
        raise game_error(exc) from None
    entry = table.entry
    if isinstance(answer, seat.Review):
        if not answer.accept:
            entry["bot_note"] = answer.message
        elif s.bot_note is not None:
            entry["bot_note"] = None
        take_notes(s, entry)
    elif answer.say is not None:
        # Why it resigns, or which border it plays on after a pass: the page says it until the person moves.
        entry["bot_note"] = s.bot_note = answer.say
    return entry

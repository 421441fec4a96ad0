"""The hub: the parts of one server process that hold and change games, put together, and nothing else.

- ``cache`` (``keima.server.games.cache.GameCache``): the games in memory, loaded, evicted and caught up with the log;
- ``service`` (``keima.server.games.service.GameService``): the one write path, with its game events;
- ``clocks`` and ``scheduler`` (``keima.server.games.scheduler``): a clock running out, in memory and durably, and the
  timed jobs other domains add (``handlers``: the ratings' ``rated``, the notifications' ``warn``);
- ``bots`` (``keima.server.games.bots.BotRunner``): the computer seats and the dead-stone estimate;
- ``outbox`` (``keima.server.games.outbox.Outbox``): the durable subscribers of game events that other domains give
  (``subscribers``: the players' records and ratings, tournament results, notifications);
- ``conditional`` (``keima.server.games.conditional.Conditional``): a follower of the service that plays a player's
  conditional answer in the transaction of the move it answers;
- ``bell`` (``keima.server.live.bell.Bell``): a notification stored tells the player's pages, after its commit;
- ``gc_pauses`` (``keima.server.housekeeping``): the process's garbage-collector figures;
- ``seat_person``: a player's record as a game keeps it when they take a seat, with the rank shown beside their name
  then (``shown_ranks``, which ``make_hub`` gives: ``keima.server.ratings.with_shown_rank``).

The routes, sockets and the worker use its parts directly (``hub.service.act``, ``hub.cache.get``): the hub holds
them and starts and stops them together; it forwards nothing. ``keima.server.app.make_hub`` gives it every
domain's subscribers and jobs. Cluster mode (``shared``): several processes on one database, live updates through
Redis (``keima.server.live.redis_pubsub``), see ``keima.server.games.service`` for how a change is stored once; the methods
below keep this process's copies in step.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from keima.server import timesource
from keima.server.games.bots import BotRunner
from keima.server.games.cache import GameCache
from keima.server.games.conditional import Conditional
from keima.server.games.outbox import Outbox, Subscriber
from keima.server.games.scheduler import (
    FLAG,
    SCORING,
    Clocks,
    Handler,
    Scheduler,
    flag_handler,
    scoring_handler,
)
from keima.server.games.service import GameService
from keima.server.games.session import GameSession
from keima.server.housekeeping import GcPauses
from keima.server.live import Bell, PubSub
from keima.server.storage import Store

#: A timed job of the scheduler that a domain above the games adds (the ratings' ``rated``, the notifications'
#: ``warn``): made for the process's game service.
HandlerFactory = Callable[[GameService], Handler]
#: A player's record (``{"id", "name", "rank"}``) with the rank shown beside their name added, read from the
#: database given (blocking): the ratings' ``with_shown_rank``.
ShownRanks = Callable[[Any, dict[str, Any]], dict[str, Any]]

log = logging.getLogger("keima.server")


class Hub:
    """Games in memory and everything that changes them, for one server process.

    ``shared``: other processes change the same games (cluster mode). ``jobs``: a job queue
    (``keima.server.live.jobs.JobQueue``) that runs bot moves and estimates on workers. ``timers``: False in a worker,
    which leaves clocks, the scheduler and the outbox to the web processes."""

    def __init__(self, store: Store, pubsub: PubSub, *, bot_threads: int | None = None,
                 cache_size: int = 2000, idle_seconds: float = 30.0, shared: bool = False, jobs: Any = None,
                 timers: bool = True, engines: dict[str, str] | None = None,
                 subscribers: Sequence[Subscriber] = (), handlers: Mapping[str, HandlerFactory] | None = None,
                 shown_ranks: ShownRanks | None = None) -> None:
        self.store = store
        self._shown_ranks = shown_ranks
        self.pubsub = pubsub
        self.shared = shared
        self.jobs = jobs
        self.timers = timers
        self.cache = GameCache(store, pubsub, shared=shared, cache_size=cache_size, idle_seconds=idle_seconds)
        self.service = GameService(self.cache, store, pubsub, shared=shared)
        self.clocks = Clocks(self.service, self.cache, enabled=timers)
        self.bots = BotRunner(self.service, self.cache, threads=bot_threads, jobs=jobs, engines=engines)
        # Conditional moves answer in the transaction of the move they answer, whichever process stores it.
        self.conditional = Conditional(store, self.service)
        self.outbox = Outbox(store.engine, list(subscribers))
        self.service.listeners.append(self.outbox.listener)
        jobs_run: dict[str, Handler] = {FLAG: flag_handler(self.service), SCORING: scoring_handler(self.service)}
        jobs_run.update({kind: make(self.service) for kind, make in (handlers or {}).items()})
        self.scheduler = Scheduler(store.engine, jobs_run)
        self.gc_pauses = GcPauses()
        self.cache.on_load.append(self._loaded)
        self.bell = Bell(store.engine, pubsub)
        self.bell.start()
        if timers:
            self.outbox.start()
            self.scheduler.start()

    async def close(self) -> None:
        """Stop the timers, the scheduler, the outbox and the bot threads."""
        self.cache.close()
        self.bell.close()
        await self.scheduler.close()
        await self.outbox.close()
        await self.clocks.close()
        await self.bots.close()

    async def seat_person(self, person: dict[str, Any] | None) -> dict[str, Any] | None:
        """``person`` (a player's record, ``Player.person()``; None for a seat without a player) as a game keeps it
        when the player takes a seat: with the rank shown beside their name now (``shown_rank`` and
        ``provisional``) when the hub was given ``shown_ranks``; as it is without, or when the ratings cannot be
        read (the game then shows the typed rank: a seat is never refused for it)."""
        if person is None or self._shown_ranks is None or not person.get("id"):
            return person
        try:
            return await asyncio.get_running_loop().run_in_executor(None, self._shown_ranks, self.store.engine,
                                                                    person)
        except Exception as exc:
            log.warning("the shown rank of a seat could not be read: %s: %s", type(exc).__name__, exc)
            return person

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a background task of the process (cancelled by ``close``)."""
        self.bots.spawn(coro)

    # ------------------------------------------------------------------------------------------ cluster
    def _loaded(self, s: GameSession) -> None:
        # A game read (again) from the database may be newer than what this process's watchers were sent (a
        # change made elsewhere while Redis was away): they get its state, and drop it if they have it already.
        if self.pubsub.subscribers(s.id):
            self.publish_state(s)

    def publish_state(self, s: GameSession) -> None:
        """Offer the whole state of ``s`` to this process's watchers of it."""
        publish = getattr(self.pubsub, "publish_local", self.pubsub.publish)
        publish(s.id, s.version, s.state_json(timesource.now()))

    async def refresh(self, game_id: str, publish: bool = True) -> None:
        """Cluster mode: bring this process's copy of ``game_id`` up to the stored log and, with ``publish``, offer
        its newest state to this process's watchers (after a lost Redis message, or a new subscription). Never
        raises."""
        try:
            s = await self.cache.catch_up(game_id)
            if s is None:
                s = self.cache.sessions.get(game_id)
                if s is None and publish and self.pubsub.subscribers(game_id):
                    s = await self.cache.get(game_id)
            if publish and s is not None and not s.broken:
                self.publish_state(s)
        except Exception as exc:
            log.debug("game %s: refresh failed: %s", game_id, exc)

    def on_remote(self, game_id: str, version: int, bare: bool = False) -> None:
        """Another process published ``version`` of ``game_id``: catch up a staler copy in the background (its
        timer and bot turn then follow the stored game). ``bare``: the message had no text (RedisPubSub), so the
        watchers here get the state from the database."""
        s = self.cache.sessions.get(game_id)
        if (s is not None and s.version < version) or (bare and self.pubsub.subscribers(game_id)):
            self.spawn(self.refresh(game_id, publish=bare))

    def rebuildable(self, channel: str) -> bool:
        """True when ``channel`` is a game this process holds: another process can rebuild what it missed from
        the database (``refresh``), so a bare "version N exists" notice may stand for the message."""
        return channel in self.cache.sessions


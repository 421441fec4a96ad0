"""The games a server process holds in memory: loading them from the database, keeping the ones in use, letting the
others go, and catching a copy up with the log when another process has changed the game.

Memory holds only the games in use: a game leaves it (and reloads from the database on demand, exactly as it
was) once nobody has touched it for ``idle_seconds``, at once when it is finished, and beyond ``cache_size``
games; never while someone watches it, its clock runs, a change of it is under way, or another part of the
server pins it (``pins``: the bot at work, for instance).

Cluster mode (``shared=True``: several processes on one database, see ``keima.server.games.cluster``): a copy in memory
is only a cache of the log; ``is_current`` compares it with the stored head, ``catch_up`` folds in the entries
another process stored (``GameSession.fold``, the one routine by which a log becomes a game).

The clock of a game read back from the database runs from the later of its last stored change and this process's
start: time while no server process was running is charged to nobody (docs/server.md, *Clocks*).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterator
from datetime import datetime

from keima.rules.game import GameError
from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games import cluster
from keima.server.games.folding import fold
from keima.server.games.rows import from_row, mutable_part, to_row
from keima.server.games.session import GameSession
from keima.server.housekeeping import release_memory
from keima.server.live import PubSub
from keima.server.storage import Store, now_utc

log = logging.getLogger("keima.server")

GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")


#: The most games one turn of the sweep lets go. Freeing a long game's objects takes a fraction of a millisecond:
#: when a few hundred games ended together, one sweep that let them all go held the event loop for over 100 ms.
EVICT_PER_TURN = 16


class GameCache:
    """The games of one process, least recently used first (see the module docstring)."""

    def __init__(self, store: Store, pubsub: PubSub, *, shared: bool = False, cache_size: int = 2000,
                 idle_seconds: float = 30.0) -> None:
        self.store = store
        self.pubsub = pubsub
        self.shared = shared
        self.sessions: collections.OrderedDict[str, GameSession] = collections.OrderedDict()
        self.cache_size = cache_size
        # A game nobody touched for this long leaves memory; the sweep looks at most every sweep_seconds.
        self.idle_seconds = idle_seconds
        self.sweep_seconds = 5.0
        #: When this process started (UTC): a clock never runs for a time before it (see the module docstring).
        self.started_at = now_utc()
        #: Other parts that keep a game in memory while they work on it: ``pin(game_id) -> bool``.
        self.pins: list[Callable[[str], bool]] = []
        #: Called with each game that leaves memory (its timer, its computer seat...).
        self.on_evict: list[Callable[[str], None]] = []
        #: Called with each game read from the database (its timer and bot start again).
        self.on_load: list[Callable[[GameSession], None]] = []
        #: Called with each copy caught up with entries another process stored (``catch_up``).
        self.on_catch_up: list[Callable[[GameSession], None]] = []
        self._used: dict[str, float] = {}
        self._requests: collections.Counter[str] = collections.Counter()  # changes under way, by game
        self._sweeper: asyncio.TimerHandle | None = None
        self._evicted_since_trim = 0
        # The most games held in memory since the last full collection this cache asked for (``sweep``).
        self._most_held = 0
        self._loading: dict[str, asyncio.Future[GameSession]] = {}

    def close(self) -> None:
        """Stop the sweeper."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None

    # ------------------------------------------------------------------------------------------- loading
    async def get(self, game_id: str, *, fresh: bool = False) -> GameSession:
        """Return the game ``game_id``, from memory or rebuilt from the database. ``fresh`` (cluster mode): first
        compare the copy in memory with the stored log, and reload it when another process changed the game.

        Raises ``Refused`` ``no-such-game`` for an unknown (or malformed) id, ``corrupt-game`` for a stored log
        that does not replay."""
        s = self.sessions.get(game_id)
        if s is not None and not s.broken and fresh and self.shared and not await self.is_current(s):
            self.drop(s)
        s = self.sessions.get(game_id)
        if s is not None and not s.broken:
            self.sessions.move_to_end(game_id)
            self._used[game_id] = time.monotonic()
            return s
        if not GAME_ID_RE.fullmatch(game_id):
            raise Refused("no-such-game", "there is no game with this id")
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[GameSession] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = fut
        try:
            s = await self._load(game_id)
            self.keep(s)
            fut.set_result(s)
            for hook in self.on_load:
                hook(s)
            return s
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            del self._loading[game_id]

    async def _load(self, game_id: str) -> GameSession:
        loop = asyncio.get_running_loop()
        stored = await loop.run_in_executor(None, self.store.load, game_id)
        if stored is None:
            raise Refused("no-such-game", f"there is no game {game_id!r}")
        try:
            s = from_row(stored.row, stored.entries, stored.people)
        except (GameError, ValueError, KeyError, TypeError) as exc:
            log.error("game %s: stored log does not replay: %s", game_id, exc)
            raise Refused("corrupt-game", f"the stored log of game {game_id} does not replay: {exc}") from None
        if s.clock.running is not None:
            _seq, last_at = await loop.run_in_executor(None, cluster.head, self.store.engine, game_id)
            self.charge_since(s, last_at)
        s.view.mark(s, timesource.now())
        return s

    def charge_since(self, s: GameSession, last_at: datetime | None) -> None:
        """Charge the running clock of ``s`` the time since its last stored change ``last_at``, but not the time
        before this process started (see the module docstring), except in a correspondence game: its clock
        counts days, and a timeout due while no server ran must still come (docs/correspondence.md)."""
        if s.clock.spec.correspondence and s.clock.running is not None and s.clock.restored_since is not None:
            s.clock.started_at = min(s.clock.restored_since, timesource.now())
        elif last_at is not None:
            cluster.charge_since(s, last_at if s.clock.spec.correspondence else max(last_at, self.started_at))

    async def is_current(self, s: GameSession) -> bool:
        """True when the stored log of ``s`` ends at ``s.version`` (cluster mode: nobody else changed it)."""
        seq, _at = await asyncio.get_running_loop().run_in_executor(None, cluster.head, self.store.engine, s.id)
        return seq == s.version

    def drop(self, s: GameSession) -> None:
        """Forget the copy ``s`` (stale or broken): the next ``get`` reloads the game from the database."""
        s.broken = True
        if self.sessions.get(s.id) is s:
            del self.sessions[s.id]
            self._used.pop(s.id, None)

    async def catch_up(self, game_id: str) -> GameSession | None:
        """Cluster mode: bring this process's copy of ``game_id`` up to the stored log, folding in the entries
        another process stored (or reading the game again when they changed its row: a join). Returns the copy
        when it changed or was read afresh, None when it was already current or is not held here (and nobody
        here watches it). Raises ``Refused`` as ``get`` does."""
        s = self.sessions.get(game_id)
        if s is None:
            if not self.pubsub.subscribers(game_id):
                return None
            return await self.get(game_id)
        loop = asyncio.get_running_loop()
        async with s.lock:
            if s.broken:
                return None
            entries, last_at = await loop.run_in_executor(
                None, cluster.entries_since, self.store.engine, game_id, s.version)
            if not entries:
                return None
            folded = False
            if not any("join" in e or "revoke" in e for e in entries):  # those change the games row: read it
                try:
                    for entry in entries:
                        fold(s, entry)
                    folded = True
                except Exception as exc:  # an entry that does not fit this copy: read the game again
                    log.warning("game %s: catching up failed (%s); reloading", game_id, exc)
            if folded:
                s.clock.running = None  # restarted below for the player to move, as a reload would
                s.sync_clock(timesource.now())
                self.charge_since(s, last_at)
                s.stored_row = mutable_part(to_row(s))
                s.view.mark(s, timesource.now())
                for hook in self.on_catch_up:
                    hook(s)
                return s
            self.drop(s)
        return await self.get(game_id)

    # ------------------------------------------------------------------------------------------- keeping
    @contextlib.contextmanager
    def hold(self, game_id: str) -> Iterator[None]:
        """Keep ``game_id`` in memory from ``get`` to the end of a change (waiting for its lock included)."""
        self._requests[game_id] += 1
        try:
            yield
        finally:
            self._requests[game_id] -= 1
            if not self._requests[game_id]:
                del self._requests[game_id]

    def keep(self, s: GameSession) -> None:
        """Put ``s`` in memory as the most recently used game; make room beyond ``cache_size``."""
        self.sessions[s.id] = s
        self.sessions.move_to_end(s.id)
        self._most_held = max(self._most_held, len(self.sessions))
        self._used[s.id] = time.monotonic()
        self._trim()
        if self._sweeper is None:
            self._arm_sweeper()

    def evictable(self, gid: str, s: GameSession) -> bool:
        """True when ``gid`` may leave memory: nobody watches it, its clock is stopped, no change of it is under
        way and no pin holds it (a game's timer and tasks live here, its watchers' sockets hold this object)."""
        return not (self.pubsub.subscribers(gid) or s.clock.running is not None or s.lock.locked()
                    or self._requests[gid] or any(pin(gid) for pin in self.pins))

    def _evict(self, gid: str) -> None:
        s = self.sessions.pop(gid)
        self._used.pop(gid, None)
        for hook in self.on_evict:
            hook(gid)
        # Retired like a broken session: a change that still holds this object (one that was waiting for its
        # lock) sees the flag and goes back through get(), which reloads the game from its stored log. Two
        # live copies of one game would otherwise race for the same log sequence numbers.
        s.broken = True
        self._evicted_since_trim += 1

    def _trim(self) -> None:
        excess = len(self.sessions) - self.cache_size
        if excess <= 0:
            return
        for gid in list(self.sessions):
            if excess <= 0:
                break
            if self.evictable(gid, self.sessions[gid]):
                self._evict(gid)
                excess -= 1

    def _arm_sweeper(self, every: float | None = None) -> None:
        if every is None:
            every = max(0.01, min(self.sweep_seconds, self.idle_seconds / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self.sweep)

    def sweep(self) -> int:
        """Drop from memory every finished game and every game idle for ``idle_seconds`` that may leave
        (``evictable``), at most ``EVICT_PER_TURN`` at a time; returns how many left. Runs by itself every few
        seconds on the event loop, and again at once while games are left to drop."""
        if self._sweeper is not None:  # called from elsewhere: this turn replaces the one armed
            self._sweeper.cancel()
        self._sweeper = None
        cutoff = time.monotonic() - self.idle_seconds
        gone = 0
        more = False
        for gid in list(self.sessions):
            s = self.sessions.get(gid)
            if s is None:  # gone meanwhile (an eviction's hooks may let another game go)
                continue
            finished = s.game.phase == "finished"
            if (finished or self._used.get(gid, 0.0) <= cutoff) and self.evictable(gid, s):
                del s  # the game's objects are freed by _evict, one game at a time
                self._evict(gid)
                gone += 1
                if gone == EVICT_PER_TURN:
                    more = True
                    break
        if self._evicted_since_trim >= 64:
            self._evicted_since_trim = 0
            # When most of the games have gone, a full collection is cheap (it walks what is left) and it frees
            # what only it can: the cycles of closed connections that reached the old generation while the games
            # played; the few of them left in the allocator's pages kept ~50 MB in use after a load of 1,000
            # games (docs/server.md). Under load, with as many games held as before, it would be a long pause.
            collect = len(self.sessions) * 4 <= self._most_held
            if collect:
                self._most_held = len(self.sessions)
            release_memory(collect=collect)
        if more:
            self._arm_sweeper(0.0)  # the rest on the next turns, with the players' moves in between
        elif self.sessions:
            self._arm_sweeper()
        return gone

    def drop_if_finished(self, gid: str) -> None:
        """Let a finished game that may leave memory go at once."""
        s = self.sessions.get(gid)
        if s is not None and s.game.phase == "finished" and self.evictable(gid, s):
            self._evict(gid)

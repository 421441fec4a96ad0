"""The hub: every game the server holds, and the only path by which games change.

For each change: take the game's lock, apply the intent to the session (the referee checks it), store the log
entry (the writer thread commits it), and only then publish the new state and acknowledge. A failed write
marks the session broken and drops it from memory, so the next request rebuilds it from the database: memory
never runs ahead of what is stored.

Timers (a clock running out), bot moves and the dead-stone estimate run as tasks; the bot and the estimator
work on a copy of the game in a thread pool, and their result is applied only if the game has not changed
meanwhile (otherwise they start again on the new position).

Memory holds only the games in use: a game leaves it (and reloads from the database on demand, exactly as it
was) once nobody has touched it for ``idle_seconds``, at once when it is finished, and beyond ``cache_size``
games; never while someone watches it, its clock runs, its lock is held, or its bot or estimator works.

Cluster mode (``shared=True``: several processes on one database, see ``keima.server.cluster``): memory holds
no authority. A change is stored under the next sequence number of the copy in memory: when another process
stored that number first (the copy was stale, or the two raced), the insert collides, and the change is tried
again on the game reloaded from the database. A refusal is given only after checking the copy against the
stored head of the log (it may have come from a stale copy).
With a job queue (``jobs``), bot moves and estimates are enqueued for workers instead of run here.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import ctypes.util
import hmac
import logging
import os
import re
import secrets
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from keima import ai, seat
from keima.rules.board import BLACK, WHITE, opponent
from keima.rules.game import GameError
from keima.rules.ruleset import RulesError, get_ruleset
from keima.server import cluster
from keima.server.clock import ClockSpec, GameClock
from keima.server.errors import ApiError
from keima.server.pubsub import PubSub
from keima.server.session import PLAY_PHASES, GameSession, Seats, token_hash
from keima.server.store import Store, from_row, mutable_part, now_utc, to_row
from keima.timecontrol import TimeBudget

log = logging.getLogger("keima.server")

GAME_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_game_id() -> str:
    """A new random game id."""
    return secrets.token_urlsafe(8)


class GcPauses:
    """Durations of the garbage collector's passes (a ``gc.callbacks`` entry), for ``/api/stats``."""

    def __init__(self) -> None:
        self._start = 0.0
        self.count = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]
        self.total = 0.0

    def observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        gen = info.get("generation", 0)
        took = time.perf_counter() - self._start
        self.count[gen] += 1
        self.longest[gen] = max(self.longest[gen], took)
        self.total += took

    def summary(self) -> dict[str, Any]:
        return {"collections": self.count, "longest_ms": [round(t * 1000, 3) for t in self.longest],
                "total_s": round(self.total, 3)}


class Conflict(ApiError):
    """Another process stored the next entry of the game first (cluster mode): reload and try again."""


_libc: Any = None


def release_memory() -> None:
    """Hand freed memory back to the operating system after many games left memory.

    Python returns its emptied object arenas (and large blocks) to the C allocator, but glibc keeps freed
    blocks in its heap for reuse; ``malloc_trim(0)`` gives the unused pages back. What stays is Python's own
    fragmentation: arenas with a few live objects left, reused by the next games (docs/server.md has the
    figures). A no-op where glibc is not the C library."""
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
            _libc = lib if lib is not None and hasattr(lib, "malloc_trim") else False
        except OSError:
            _libc = False
    if _libc:
        _libc.malloc_trim(0)


class _SeatTable:
    """A game session as the table a seat's answer is carried out on (``seat.apply_answer``): each answer becomes
    the session's action for the computer's seats; ``entry`` is the log entry it made."""

    def __init__(self, s: GameSession, seats: frozenset[int], now: float) -> None:
        self.s, self.seats, self.now = s, seats, now
        self.entry: dict[str, Any] = {}

    def _act(self, action: dict[str, Any]) -> None:
        self.entry = self.s.apply(action, self.seats, self.now)

    def play(self, move: int | None, color: int, *, allow_out_of_turn: bool = False) -> None:
        self._act({"type": "pass"} if move is None else {"type": "play", "move": move})

    def resign(self, color: int) -> None:
        self._act({"type": "resign"})

    def forfeit(self, color: int, reason: str) -> None:
        self.entry = self.s.forfeit(color, reason, self.now)

    def accept(self, color: int) -> None:
        self._act({"type": "accept"})

    def resume(self, color: int) -> None:
        self._act({"type": "resume"})


class Hub:
    """Games in memory, their locks, timers and background tasks (one per server process).

    ``shared``: other processes change the same games (cluster mode, see the module docstring). ``jobs``: a job
    queue (``keima.server.jobs.JobQueue``) that runs bot moves and estimates on workers. ``timers``: False in a
    worker, which leaves time losses to the web processes."""

    def __init__(self, store: Store, pubsub: PubSub, *, bot_threads: int | None = None,
                 cache_size: int = 2000, idle_seconds: float = 30.0, shared: bool = False, jobs: Any = None,
                 timers: bool = True, engines: dict[str, str] | None = None) -> None:
        self.store = store
        self.pubsub = pubsub
        self.shared = shared
        self.jobs = jobs
        self.timers = timers
        self.conflicts = 0
        # Games in memory, least recently used first; the database holds them all.
        self.sessions: collections.OrderedDict[str, GameSession] = collections.OrderedDict()
        self.cache_size = cache_size
        # A game nobody touched for this long leaves memory; the sweep looks at most every sweep_seconds.
        self.idle_seconds = idle_seconds
        self.sweep_seconds = 5.0
        self._used: dict[str, float] = {}
        self._requests: collections.Counter[str] = collections.Counter()  # requests under way, by game
        self._sweeper: asyncio.TimerHandle | None = None
        self._evicted_since_trim = 0
        self._loading: dict[str, asyncio.Future[GameSession]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._bot_busy: set[str] = set()
        self._estimating: set[str] = set()
        self._players: dict[str, seat.Seat] = {}
        #: GTP engines offered as opponents: name -> command line (``keima serve --engine NAME=COMMAND``).
        self.engines: dict[str, str] = dict(engines or {})
        # Called with each session after a published change (keima.server.lobby: lobby and "my games" notices).
        self.listeners: list[Callable[[GameSession], None]] = []
        # Seconds from taking a game's lock to the stored change, for the last actions (GET /api/stats).
        self.timings: collections.deque[float] = collections.deque(maxlen=100_000)
        self.gc_pauses = GcPauses()
        self.pool = ThreadPoolExecutor(max_workers=bot_threads or max(1, os.cpu_count() or 1), thread_name_prefix="keima-bot")
        # Compile the bot now, in the background (numba's cache makes it quick after the first run), so that the
        # first move in the browser does not wait for it; states say "warming up" meanwhile.
        self.pool.submit(seat.warm_up)

    async def close(self) -> None:
        """Cancel timers and background tasks; stop the bot threads."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        self.pool.shutdown(wait=False, cancel_futures=True)
        for computer in self._players.values():
            computer.close()
        self._players.clear()

    # ------------------------------------------------------------------------------------------- loading
    async def get(self, game_id: str, *, fresh: bool = False) -> GameSession:
        """Return the game ``game_id``, from memory or rebuilt from the database. ``fresh`` (cluster mode): first
        compare the copy in memory with the stored log, and reload it when another process changed the game.

        Raises ``ApiError`` 404 for an unknown (or malformed) id, 500 for a stored log that does not replay.
        """
        s = self.sessions.get(game_id)
        if s is not None and not s.broken and fresh and self.shared and not await self.is_current(s):
            self.drop(s)
        s = self.sessions.get(game_id)
        if s is not None and not s.broken:
            self.sessions.move_to_end(game_id)
            self._used[game_id] = time.monotonic()
            return s
        if not GAME_ID_RE.fullmatch(game_id):
            raise ApiError(404, "no-such-game", "there is no game with this id")
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[GameSession] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = fut
        try:
            stored = await asyncio.get_running_loop().run_in_executor(None, self.store.load, game_id)
            if stored is None:
                raise ApiError(404, "no-such-game", f"there is no game {game_id!r}")
            try:
                s = from_row(stored.row, stored.entries, stored.people)
            except (GameError, ValueError, KeyError, TypeError) as exc:
                log.error("game %s: stored log does not replay: %s", game_id, exc)
                raise ApiError(500, "corrupt-game", f"the stored log of game {game_id} does not replay: {exc}") from None
            if self.shared and s.clock.running is not None:
                _seq, last_at = await asyncio.get_running_loop().run_in_executor(
                    None, cluster.head, self.store.engine, game_id)
                cluster.charge_since(s, last_at)
            self._keep(s)
            fut.set_result(s)
            self.after_change(s, publish=False)
            return s
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            del self._loading[game_id]

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

    async def refresh(self, game_id: str) -> None:
        """Cluster mode: bring this process's copy of ``game_id`` up to the stored log (folding in the new entries,
        or reloading the game), and offer its newest state to this process's subscribers (after a change made
        elsewhere, a lost Redis message or a new subscription). Never raises."""
        try:
            s = self.sessions.get(game_id)
            loaded = s is None  # read afresh from the database: its state is new to the watchers here
            if s is None:
                if not self.pubsub.subscribers(game_id):
                    return
                s = await self.get(game_id)
            loop = asyncio.get_running_loop()
            caught_up = True
            async with s.lock:
                if s.broken:
                    return
                entries, last_at = await loop.run_in_executor(
                    None, cluster.entries_since, self.store.engine, game_id, s.version)
                if not entries and not loaded:
                    return
                if entries:  # (a copy just loaded has its clock charged and its timer armed by get)
                    try:
                        caught_up = cluster.catch_up(s, entries)
                    except Exception as exc:  # an entry that does not fit this copy: read the game again
                        log.warning("game %s: catching up failed (%s); reloading", game_id, exc)
                        caught_up = False
                    if caught_up:
                        cluster.charge_since(s, last_at)
                        self.after_change(s, publish=False)
                    else:
                        self.drop(s)
            if not caught_up:
                s = await self.get(game_id)
            publish = getattr(self.pubsub, "publish_local", self.pubsub.publish)
            publish(s.id, s.version, s.state_json(time.monotonic()))
        except Exception as exc:
            log.debug("game %s: refresh failed: %s", game_id, exc)

    def on_remote(self, game_id: str, version: int, bare: bool = False) -> None:
        """Another process published ``version`` of ``game_id``: reload a staler copy in the background (its
        timer and bot turn then follow the stored game). ``bare``: the message had no state (RedisPubSub), so
        the watchers here get theirs from the database even when no copy is in memory (one just dropped)."""
        s = self.sessions.get(game_id)
        if (s is not None and s.version < version) or (bare and s is None and self.pubsub.subscribers(game_id)):
            self._spawn(self.refresh(game_id))

    def rebuildable(self, channel: str) -> bool:
        """True when ``channel`` is a game this process holds: another process can rebuild its state from the
        database (``refresh``), so a bare "version N exists" notice may stand for the state (RedisPubSub)."""
        return channel in self.sessions

    def _keep(self, s: GameSession) -> None:
        """Put ``s`` in memory as the most recently used game; make room beyond ``cache_size``."""
        self.sessions[s.id] = s
        self.sessions.move_to_end(s.id)
        self._used[s.id] = time.monotonic()
        self._trim()
        if self._sweeper is None:
            self._arm_sweeper()

    def _evictable(self, gid: str, s: GameSession) -> bool:
        # A game that someone watches, whose clock runs, or whose bot or estimator is at work stays: its timer
        # and tasks live here, and its watchers' sockets hold this very object.
        return not (self.pubsub.subscribers(gid) or s.clock.running is not None or s.lock.locked()
                    or self._requests[gid] or gid in self._bot_busy or gid in self._estimating)

    @contextlib.contextmanager
    def _request(self, gid: str) -> Iterator[None]:
        # Holds the game in memory from get() to the end of the change, waiting for its lock included.
        self._requests[gid] += 1
        try:
            yield
        finally:
            self._requests[gid] -= 1
            if not self._requests[gid]:
                del self._requests[gid]

    def _evict(self, gid: str) -> None:
        s = self.sessions.pop(gid)
        self._used.pop(gid, None)
        self._release_seat(gid)
        timer = self._timers.pop(gid, None)
        if timer is not None:
            timer.cancel()
        # Retired like a broken session: a request that still holds this object (one that was waiting for its
        # lock) sees the flag and goes back through get(), which reloads the game from its stored log. Two
        # live copies of one game would otherwise race for the same log sequence numbers.
        s.broken = True
        self._evicted_since_trim += 1

    def _trim(self) -> None:
        """Drop the least recently used games from memory beyond ``cache_size`` (they reload from the database
        when asked for), skipping those that must stay (``_evictable``)."""
        excess = len(self.sessions) - self.cache_size
        if excess <= 0:
            return
        for gid in list(self.sessions):
            if excess <= 0:
                break
            if self._evictable(gid, self.sessions[gid]):
                self._evict(gid)
                excess -= 1

    def _arm_sweeper(self) -> None:
        every = max(0.01, min(self.sweep_seconds, self.idle_seconds / 4))
        self._sweeper = asyncio.get_running_loop().call_later(every, self.sweep)

    def sweep(self) -> int:
        """Drop from memory every finished game and every game idle for ``idle_seconds`` that may leave
        (``_evictable``); returns how many left. Runs by itself every few seconds on the event loop."""
        self._sweeper = None
        cutoff = time.monotonic() - self.idle_seconds
        gone = 0
        for gid, s in list(self.sessions.items()):
            finished = s.game.phase == "finished"
            if (finished or self._used.get(gid, 0.0) <= cutoff) and self._evictable(gid, s):
                self._evict(gid)
                gone += 1
        if self._evicted_since_trim >= 64:
            self._evicted_since_trim = 0
            release_memory()
        if self.sessions:
            self._arm_sweeper()
        return gone

    def _drop_if_finished(self, gid: str) -> None:
        s = self.sessions.get(gid)
        if s is not None and s.game.phase == "finished" and self._evictable(gid, s):
            self._evict(gid)

    # ------------------------------------------------------------------------------------------- creating
    async def create(self, body: dict[str, Any], *, game_id: str | None = None, token: str | None = None,
                     person: dict[str, Any] | None = None) -> tuple[GameSession, str, str | None]:
        """Create a game from a validated ``NewGame`` dict; returns (session, seat token, invitation code).

        ``game_id``: the new game's id (default: a new random one); ``token``: the creator's seat token (default:
        a new random one); ``person``: the player creating it (keima.server.players), who holds the creator's
        seats. An ``"open"`` game is an invitation without a code: anyone
        takes its free seat (``join`` with ``code=None``).
        Raises ``ApiError`` 422 for settings the rules or the bot refuse."""
        try:
            ruleset = get_ruleset(body["rules"])
        except RulesError as exc:
            raise ApiError(422, "invalid-request", str(exc), field="rules") from None
        mode = body["opponent"]
        color = body["color"]
        human = {"B": BLACK, "W": WHITE}.get(color) or secrets.choice((BLACK, WHITE))
        bot_color = bot_level = None
        placement = body["placement"]
        if mode == "bot":
            engine = body.get("engine")
            if engine is not None:
                if engine not in self.engines:
                    raise ApiError(422, "invalid-request", f"no engine named {engine!r} at this server "
                                   f"(engines: {', '.join(self.engines) or 'none'})", field="engine")
                bot_level = seat.ENGINE_PREFIX + engine
            else:
                try:
                    bot_level = ai.level_name(body["bot_level"] or ai.LEVELS[len(ai.LEVELS) // 2])
                except ValueError as exc:
                    raise ApiError(422, "invalid-request", str(exc), field="bot_level") from None
            bot_color = opponent(human)
            if bot_color == BLACK and placement is None and ruleset.handicap_placement == "either":
                placement = "fixed"  # the bot does not choose where free handicap stones go
        params = {
            "size": body["size"],
            "rules": ruleset.name,
            "komi": body["komi"],
            "handicap": body["handicap"],
            "placement": placement,
        }
        try:
            game = GameSession.new_game(params)
        except RulesError as exc:
            raise ApiError(422, "invalid-request", str(exc)) from None
        params["komi"] = game.komi
        params["placement"] = game.placement
        try:
            spec = ClockSpec.from_dict(body["clock"])
        except (TypeError, ValueError) as exc:
            raise ApiError(422, "invalid-request", str(exc), field="clock") from None
        token = token or secrets.token_urlsafe(32)
        th = token_hash(token)
        seats = Seats()
        invite_code = invite_hash = invite_color = None
        if mode == "local":
            seats = Seats(th, th)
        else:
            if human == BLACK:
                seats.black = th
            else:
                seats.white = th
            if mode in ("invite", "open"):
                invite_code = secrets.token_urlsafe(16)
                invite_hash = token_hash(invite_code)
                invite_color = opponent(human)
        gid = game_id or new_game_id()
        s = GameSession(
            id=gid,
            created_at=now_utc(),
            params=params,
            mode=mode,
            game=game,
            clock=GameClock(spec),
            seats=seats,
            bot_color=bot_color,
            bot_level=bot_level,
            invite_hash=invite_hash,
            invite_color=invite_color,
        )
        if person is not None:
            s.people = {c: dict(person) for c in (BLACK, WHITE) if seats.get(c) == th}
        s.sync_clock(time.monotonic())
        row = to_row(s)
        await self.store.write(Store.insert_game(row, []))
        s.stored_row = mutable_part(row)
        self._keep(s)
        self.after_change(s)
        return s, token, invite_code

    # ------------------------------------------------------------------------------------------- changing
    async def act(self, game_id: str, action: dict[str, Any], thash: str | None) -> GameSession:
        """Apply a player's intent; returns the session once the change is stored and published.

        Raises ``ApiError`` for a refused intent (nothing changed) or a failed write (503, nothing changed)."""
        for _attempt in range(50 if self.shared else 3):
            with self._request(game_id):
                s = await self.get(game_id)
                async with s.lock:
                    if s.broken:
                        continue
                    t0 = time.perf_counter()
                    try:
                        entry = s.apply(action, s.seats.held_by(thash), time.monotonic())
                    except ApiError:
                        # Cluster mode: a refusal may come from a stale copy (the other player's move was made
                        # on another process): refuse only on the stored game.
                        if self.shared and not await self.is_current(s):
                            self.drop(s)
                            continue
                        raise
                    try:
                        # A stale copy that accepted the intent collides with the stored entry of that number.
                        await self._commit(s, entry)
                    except Conflict:
                        continue
                    self.timings.append(time.perf_counter() - t0)
                    notice = s.notice
                    self.after_change(s)
            if notice is not None:
                raise notice
            return s
        raise ApiError(503, "storage-error", "the game could not be loaded from storage; try again")

    async def join(self, game_id: str, code: str | None, thash: str | None, *, token: str | None = None,
                   person: dict[str, Any] | None = None) -> tuple[GameSession, str | None]:
        """Take the invited seat with invitation ``code``, or with ``code=None`` the free seat of an open
        challenge; returns (session, new token or None when the caller already holds that seat).
        ``token``: the seat token to give (default: a new random one); ``person``: the player taking it.
        Raises ``ApiError`` 403 for a wrong or used code or the creator's own challenge, 409 for a challenge
        already taken."""
        with self._request(game_id):
            return await self._join(game_id, code, thash, token, person)

    async def _join(self, game_id: str, code: str | None, thash: str | None, token: str | None,
                    person: dict[str, Any] | None) -> tuple[GameSession, str | None]:
        s = await self.get(game_id, fresh=True)
        async with s.lock:
            if s.broken:  # a failed write dropped it while this request waited: take the stored game
                return await self._join(game_id, code, thash, token, person)
            held = s.seats.held_by(thash)
            if code is None:
                if s.mode != "open":
                    raise ApiError(403, "bad-invitation", "this game is not an open challenge: it needs the "
                                   "invitation code")
                if held and s.invite_color not in held:
                    raise ApiError(403, "own-challenge", "this is your own challenge: wait for an opponent")
                if s.invite_hash is None and not held:
                    raise ApiError(409, "challenge-taken", "someone already accepted this challenge")
                if held:
                    return s, None
                code = ""
            if s.invite_color is not None and s.invite_color in held:
                return s, None
            if held:
                # The creator opening their own link would trade their seat for the other one.
                raise ApiError(409, "wrong-phase", "you already hold a seat in this game: send the invitation link "
                               "to your opponent", reason="already-seated")
            if s.mode != "open" and (s.invite_hash is None
                                     or not hmac.compare_digest(token_hash(code), s.invite_hash)):
                raise ApiError(403, "bad-invitation", "this invitation code is wrong or was already used")
            assert s.invite_color is not None
            token = token or secrets.token_urlsafe(32)
            if person is not None:
                s.people[s.invite_color] = person
            entry = s.join(s.invite_color, token_hash(token), time.monotonic())
            await self._commit(s, entry)
            self.after_change(s)
        return s, token

    async def _commit(self, s: GameSession, entry: dict[str, Any]) -> None:
        row = mutable_part(to_row(s))
        # The games row changes rarely (join, end of game): most moves write only their log entry.
        update = None if row == s.stored_row else row
        try:
            await self.store.write(Store.append(s.id, s.version, [entry], update))
            s.stored_row = row
        except Exception as exc:
            self.drop(s)
            if self.shared and cluster.is_conflict(exc):
                self.conflicts += 1
                raise Conflict(409, "busy", "another process changed the game first; try again") from None
            log.exception("game %s: storing entry %d failed", s.id, s.version)
            raise ApiError(503, "storage-error", f"the change could not be stored, nothing changed ({type(exc).__name__})") from None

    def after_change(self, s: GameSession, *, publish: bool = True) -> None:
        """Publish the state, re-arm the clock timer, start the bot or the estimator when their turn comes."""
        if publish:
            self.pubsub.publish(s.id, s.version, s.state_json(time.monotonic()))
            for listener in self.listeners:
                listener(s)
            if s.game.phase == "finished":
                # Once the caller has released the game's lock: a finished game nobody watches leaves memory.
                asyncio.get_running_loop().call_soon(self._drop_if_finished, s.id)
        self._arm_timer(s)
        self._maybe_estimate(s)
        self._maybe_bot(s)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a background task of the hub (cancelled by ``close``)."""
        self._spawn(coro)

    def start_sweep(self, every: float = 2.0) -> None:
        """Cluster mode: every ``every`` seconds queue again the bot turns and estimates of the watched games
        (a job lost with a restarted Redis is queued anew; the queue keeps one job per game and version)."""

        async def sweep() -> None:
            while True:
                await asyncio.sleep(every)
                if self.jobs is None:
                    continue
                for s in list(self.sessions.values()):
                    if s.broken or not self.pubsub.subscribers(s.id):
                        continue
                    if self.bot_task(s) is not None:
                        await self.jobs.enqueue("bot", s.id, s.version)
                    elif self.needs_estimate(s):
                        await self.jobs.enqueue("estimate", s.id, s.version)

        self._spawn(sweep())

    # ------------------------------------------------------------------------------------------- clocks
    def _arm_timer(self, s: GameSession) -> None:
        old = self._timers.pop(s.id, None)
        if old is not None:
            old.cancel()
        if not self.timers:
            return
        c = s.clock.running
        if c is None:
            return
        delay = s.clock.time_left(c, time.monotonic())
        self._timers[s.id] = asyncio.get_running_loop().call_later(
            delay + 0.005, lambda: self._spawn(self._flag(s))
        )

    async def _flag(self, s: GameSession) -> None:
        if self.shared:
            # The first process to store the time loss wins; the others read it back (or the move that came
            # in time) from the database.
            async with s.lock:
                stale = not s.broken and not await self.is_current(s)
                if stale:
                    self.drop(s)
            if s.broken:
                if self.sessions.get(s.id) is None:
                    with contextlib.suppress(ApiError):
                        await self.get(s.id)  # re-arms the timer of the stored game
                return
        async with s.lock:
            if s.broken:
                return
            entry = s.flag(time.monotonic())
            if entry is None:
                self._arm_timer(s)
                return
            try:
                await self._commit(s, entry)
            except Conflict:
                with contextlib.suppress(ApiError):
                    await self.get(s.id)
                return
            except ApiError:
                return
            self.after_change(s)

    # ------------------------------------------------------------------------------------------- the bot
    def _seat(self, s: GameSession) -> seat.Seat:
        """The computer seat of ``s`` (keima at its level, or a GTP engine), made on first use."""
        computer = self._players.get(s.id)
        if computer is None:
            assert s.bot_level is not None, "a bot game always has a level"
            computer = seat.make_seat(s.bot_level, self.engines)
            self._players[s.id] = computer
        return computer

    def _release_seat(self, game_id: str) -> None:
        computer = self._players.pop(game_id, None)
        if computer is not None:
            # An engine's process takes up to seconds to stop: not on the event loop.
            self.pool.submit(computer.close)

    @staticmethod
    def bot_task(s: GameSession) -> str | None:
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

    def _maybe_bot(self, s: GameSession) -> None:
        if s.bot_color is None or s.broken or s.id in self._bot_busy:
            return
        if s.game.phase == "finished":
            self._release_seat(s.id)  # an engine's process ends with its game
            return
        what = self.bot_task(s)
        if what is None:
            return
        if self.jobs is not None and seat.engine_of(s.bot_level) is None:
            # A GTP engine (keima serve --engine) runs where it is configured, in this web process; keima's own
            # bot goes to the workers.
            self._spawn(self.jobs.enqueue("bot", s.id, s.version))
            return
        self._bot_busy.add(s.id)
        self._spawn(self._bot_turn(s, what))

    def _bot_seconds(self, s: GameSession) -> float:
        """The seat's thinking time: a share of the clock's time left (at most 2 s), the level's default (1 to
        3 s) without a clock."""
        budget = None
        if s.clock.enabled and s.bot_color is not None:
            budget = TimeBudget.remaining(s.bot_color, s.clock.time_left(s.bot_color, time.monotonic()))
        color = s.bot_color if s.bot_color is not None else BLACK
        default = self._seat(s).default_seconds
        return seat.Seat.think_time(s.game, color, budget, default, cap=2.0 if budget is not None else default)

    async def _bot_turn(self, s: GameSession, what: str) -> None:
        loop = asyncio.get_running_loop()
        version = s.version
        retry = True
        try:
            computer = self._seat(s)
            copy = s.game.copy()
            color = s.bot_color
            assert color is not None
            decision: seat.Decision | None = None
            review: seat.Review | None = None
            if what == "move":
                decision = await loop.run_in_executor(self.pool, computer.move, copy, color, self._bot_seconds(s))
            else:
                review = await loop.run_in_executor(self.pool, computer.review, copy)
            async with s.lock:
                if s.broken or s.version != version:
                    return
                table = _SeatTable(s, frozenset({color}), time.monotonic())
                answer = review if review is not None else decision
                assert answer is not None
                if decision is not None and decision.note:
                    log.info("game %s: %s %s: %s", s.id, decision.action, decision.point, decision.note)
                # The seat's answers are legal for the referee (its tests say so); a refusal is logged below.
                seat.apply_answer(table, color, answer)
                entry = table.entry
                if review is not None:
                    # Never a silent wait: say which chains and why, and settle it on the board.
                    if not review.accept or s.bot_note is not None:
                        entry["bot_note"] = None if review.accept else review.message
                    # In the stored entry: a reload, and the other processes of a cluster, show it too.
                    s.take_notes(entry)
                await self._commit(s, entry)
                self.after_change(s)
        except ApiError as exc:
            log.warning("game %s: bot %s refused: %s", s.id, what, exc.message)
        except asyncio.CancelledError:
            retry = False
            raise
        except Exception:
            log.exception("game %s: bot %s failed", s.id, what)
        finally:
            self._bot_busy.discard(s.id)
            # In finally, so that the early returns above (the game changed while the bot was thinking) still
            # give the bot its turn in the new state instead of leaving the game waiting for it.
            if retry and not s.broken and s.version != version:
                self._maybe_bot(s)
            if s.game.phase == "finished":
                self._release_seat(s.id)

    # ------------------------------------------------------------------------------------------- estimator
    def _maybe_estimate(self, s: GameSession) -> None:
        if self.needs_estimate(s) and s.id not in self._estimating and not s.broken:
            if self.jobs is not None:
                self._spawn(self.jobs.enqueue("estimate", s.id, s.version))
                return
            self._estimating.add(s.id)
            self._spawn(self._estimate(s))

    async def _estimate(self, s: GameSession) -> None:
        version = s.version
        retry = True
        try:
            loop = asyncio.get_running_loop()
            dead = frozenset(await loop.run_in_executor(self.pool, ai.estimate_dead, s.game.copy()))
            async with s.lock:
                if s.broken or s.version != version or s.game.phase != "scoring" or s.proposal is not None:
                    return
                entry = s.set_proposal(dead)
                await self._commit(s, entry)
                self.after_change(s)
        except asyncio.CancelledError:
            retry = False
            raise
        except ApiError:
            pass
        except Exception:
            log.exception("game %s: dead-stone estimate failed", s.id)
        finally:
            self._estimating.discard(s.id)
            # In finally: an early return (the game changed during the estimate) must not drop the proposal.
            if retry and not s.broken and s.version != version:
                self._maybe_estimate(s)

    # ------------------------------------------------------------------------------------------- worker jobs
    async def run_job(self, kind: str, game_id: str, version: int) -> str:
        """Run one queued job here (a worker): the bot's turn (``kind`` "bot") or the estimate ("estimate") of
        ``game_id`` at ``version``. Returns "stale" when the stored game has moved on (the job is then moot),
        "nothing" when there is nothing to do, "done" otherwise (the result stored once: a second worker on the
        same job loses the race for the sequence number). Raises ``ApiError`` 404 for an unknown game."""
        s = await self.get(game_id, fresh=True)
        if s.version != version or s.broken:
            return "stale"
        if kind == "estimate":
            if not self.needs_estimate(s) or s.id in self._estimating:
                return "nothing"
            self._estimating.add(s.id)
            await self._estimate(s)
            return "done"
        what = self.bot_task(s)
        if what is None or s.id in self._bot_busy:
            return "nothing"
        self._bot_busy.add(s.id)
        await self._bot_turn(s, what)
        return "done"

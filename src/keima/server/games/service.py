"""The game service: the one path by which games change.

Every change of a game (its creation, a join, a move, a pass, an undo and its answer, a marking, an acceptance, a
resignation, a chat message, a clock running out, a bot's decision, the estimator's proposal, a rename before the
game starts, a withdrawal) goes through ``change``: take the game's lock, let the change act on the session (the
referee checks it), store the log entry together with the events the durable subscribers need (the outbox) and the
game's timed jobs (the scheduler), all in one transaction, and only then tell everyone: the delta goes to the
game's channel (every watcher, in every process), and the game's events to the listeners of this process (the
lobby, the clocks, the bot runner). Memory never runs ahead of what is stored: a failed write drops the copy, and
the next request reads the game again from the database.

A change may be followed, in the same transaction, by one more (``followers``: a conditional move answering the
move just made, ``keima.server.games.conditional``): both entries are stored together or not at all, so that no
crash falls between a move and its answer. Each has its own delta; the outbox copy of the answered move says
``answered`` (its player is not told "your turn": it is their opponent's turn again).

Cluster mode (``shared``): a change is stored under the next sequence number of the copy in memory: when another
process stored that number first (the copy was stale, or the two raced), the insert collides, and the change is
tried again on the game read again from the database. A refusal is given only after checking the copy against
the stored head of the log (it may have come from a stale copy).
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games import cluster
from keima.server.games.cache import GameCache
from keima.server.games.events import GameEvent, durable, event_of
from keima.server.games.rows import mutable_part, to_row
from keima.server.games.seats import token_hash
from keima.server.games.session import GameSession
from keima.server.games.view import wall_time
from keima.server.live import PubSub
from keima.server.storage import Store, now_utc

log = logging.getLogger("keima.server")

#: What a change does to a session: returns the log entry, or None when there is nothing to store.
Change = Callable[[GameSession], "dict[str, Any] | None"]
#: An in-process listener: called with a game and the events of its change once it is stored and published.
Listener = Callable[[GameSession, "list[GameEvent]"], None]
#: A store operation run in the transaction of a change (``Store.append``'s ``ops``).
Op = Callable[[Any], Any]


@dataclass
class FollowUp:
    """What a follower makes of a change (``GameService.followers``): ``answer`` applies one more change to the
    session (returns its log entry, raises ``Refused`` when it cannot), None for none; ``ops(answered)`` the store
    operations to run in the change's transaction, given whether the answer was applied."""

    answer: Change | None
    ops: Callable[[bool], list[Op]]


#: A follower: called under the game's lock with a change applied but not stored yet and its events.
Follower = Callable[[GameSession, "list[GameEvent]"], Awaitable["FollowUp | None"]]
#: What one stored entry of a change publishes: its events and its delta (None: made when published).
Step = tuple["list[GameEvent]", "str | None"]

FLAG = "flag"  # the scheduler's job that ends a game whose clock runs out
SCORING = "scoring"  # the scheduler's job that ends a correspondence game's scoring phase at its deadline
WARN = "warn"  # the scheduler's job that warns a correspondence player whose clock runs low
REMIND = "remind"  # the scheduler's job that reminds a correspondence game's players of the scoring deadline
REMIND_S = 86400.0  # a day before the marking on the board stands
WARN_S = 86400.0  # warned a day before a timeout, or halfway through a move's time when it is under two days


class Conflict(Refused):
    """Another process stored the next entry of the game first (cluster mode): read it again and try again."""


class Timings:
    """The last ``size`` durations (seconds), newest overwriting oldest, in one array allocated once.

    Not a deque of floats: a float object per action, made in the middle of the games' memory and kept after
    them, holds the allocator's pools and arenas of a load's past games resident (28,000 floats after
    bench/server_load.py's 1,000 games, each pinning its pool; docs/server.md)."""

    def __init__(self, size: int = 100_000) -> None:
        self._values = array.array("d", bytes(8 * size))
        self._count = 0

    def append(self, seconds: float) -> None:
        """Keep ``seconds``, dropping the oldest when full."""
        self._values[self._count % len(self._values)] = seconds
        self._count += 1

    def __len__(self) -> int:
        return min(self._count, len(self._values))

    def __iter__(self) -> Iterator[float]:
        """The kept durations (oldest first once full)."""
        size = len(self._values)
        if self._count <= size:
            return iter(self._values[:self._count])
        cut = self._count % size
        return iter(self._values[cut:] + self._values[:cut])


class GameService:
    """Changes games (see the module docstring). ``listeners``: this process's subscribers to game events."""

    def __init__(self, cache: GameCache, store: Store, pubsub: PubSub, *, shared: bool = False) -> None:
        self.cache = cache
        self.store = store
        self.pubsub = pubsub
        self.shared = shared
        self.listeners: list[Listener] = []
        self.followers: list[Follower] = []
        self.conflicts = 0
        # Seconds from taking a game's lock to the stored change, for the last actions (GET /api/stats).
        self.timings = Timings()

    # ------------------------------------------------------------------------------------------ the path
    async def change(self, game_id: str, do: Change, *, fresh: bool = False, retry_refusals: bool = True,
                     timed: bool = False) -> GameSession:
        """Apply ``do`` to the game ``game_id`` under its lock and store what it returns; returns the session once
        the change is stored and published (also when ``do`` had nothing to store).

        ``fresh``: read the stored game first in cluster mode. ``retry_refusals`` (cluster mode): a refusal on a
        copy that turns out stale is tried again on the stored game. ``timed``: count the change in ``timings``.
        Raises ``Refused`` for a refused change (nothing changed), ``storage-error`` for a failed write (nothing
        changed) and whatever ``do`` raises."""
        for _attempt in range(50 if self.shared else 3):
            with self.cache.hold(game_id):
                s = await self.cache.get(game_id, fresh=fresh)
                async with s.lock:
                    if s.broken:
                        continue
                    t0 = time.perf_counter()
                    before = s.before()
                    try:
                        entry = do(s)
                    except Refused:
                        if self.shared and retry_refusals and not await self.cache.is_current(s):
                            self.cache.drop(s)
                            continue
                        raise
                    if entry is None:
                        return s
                    notice = s.notice
                    try:
                        steps = await self.commit(s, entry, before)
                    except Conflict:
                        continue
                    if timed:
                        self.timings.append(time.perf_counter() - t0)
                    self.published(s, steps)
            if notice is not None:
                raise notice
            return s
        raise Refused("storage-error", "the game could not be loaded from storage; try again")

    async def commit(self, s: GameSession, entry: dict[str, Any], before: Any) -> list[Step]:
        """Store ``entry`` (version ``s.version``), and what the followers add to it (an answer: version
        ``s.version + 1``), with their durable events and the game's timed jobs in one transaction; returns each
        stored entry's events and delta. On failure the copy is dropped and ``Conflict`` (another process was
        first) or ``Refused`` ``storage-error`` is raised: nothing of the change is stored."""
        first = s.version
        events = event_of(s.id, s.version, entry, before, s)
        entries: list[dict[str, Any]] = [entry]
        steps: list[Step] = [(events, None)]
        ops: list[Op] = []
        try:
            for follow in self.followers:
                up = await follow(s, events)
                if up is None:
                    continue
                answered = up.answer is not None and len(entries) == 1 and self._answer(s, up.answer, entries, steps)
                ops.extend(up.ops(answered))
        except Exception as exc:
            self.cache.drop(s)  # the answer may have been half applied: read the game again
            log.exception("game %s: following entry %d failed", s.id, first)
            raise Refused("storage-error", f"the change could not be stored, nothing changed "
                          f"({type(exc).__name__})") from None
        row = mutable_part(to_row(s))
        # The game's row changes with each change of its lobby line; a change that leaves it alone writes only
        # its log entry.
        update = None if row == s.stored_row else row
        corr = s.clock.spec.correspondence
        answered_at = first if len(entries) > 1 else None
        # A pass tells the durable subscribers the phase it left (the one that ends the play starts the count: no
        # "your turn" then), and a move answered at once says so (its player does not have the turn); the live
        # event keeps its documented shape.
        outbox: list[tuple[int, str, dict[str, Any]]] = [
            (e.version, e.type, self._outbox_data(e, s.game.phase if e.version == s.version else "play",
                                                  e.version == answered_at))
            for step_events, _delta in steps for e in step_events if durable(e.type, corr)]
        try:
            await self.store.write(Store.append(s.id, first, entries, update, outbox, self._jobs(s), ops))
            s.stored_row = row
        except Exception as exc:
            self.cache.drop(s)
            if self.shared and cluster.is_conflict(exc):
                self.conflicts += 1
                raise Conflict("busy", "another process changed the game first; try again") from None
            log.exception("game %s: storing entry %d failed", s.id, s.version)
            raise Refused("storage-error",
                          f"the change could not be stored, nothing changed ({type(exc).__name__})") from None
        return steps

    @staticmethod
    def _outbox_data(e: GameEvent, phase: str, answered: bool) -> dict[str, Any]:
        if e.type not in ("passed", "moved"):
            return e.data
        extra: dict[str, Any] = {"phase": phase} if e.type == "passed" else {}
        if answered:
            extra["answered"] = True
        return {**e.data, **extra} if extra else e.data

    @staticmethod
    def _answer(s: GameSession, answer: Change, entries: list[dict[str, Any]], steps: list[Step]) -> bool:
        # The first entry's delta is made now, from the game before the answer; the answer keeps the first
        # change's notice (``apply`` clears it).
        events = steps[0][0]
        steps[0] = (events, s.view.delta(s, [e.as_dict() for e in events], timesource.now()))
        notice, before = s.notice, s.before()
        try:
            entry = answer(s)
        except Refused as exc:
            log.info("game %s: the answer to version %d was not played: %s", s.id, s.version, exc.message)
            entry = None
        s.notice = notice
        if entry is None:
            return False
        entries.append(entry)
        steps.append((event_of(s.id, s.version, entry, before, s), None))
        return True

    @staticmethod
    def _jobs(s: GameSession) -> list[tuple[str, Any]]:
        # The durable flag: when the running clock would run out, in the server's wall time; and a correspondence
        # game's scoring deadline.
        if not s.clock.enabled:
            return []
        jobs: list[tuple[str, Any]] = []
        c = s.clock.running
        now = timesource.now()
        out_at = None if c is None else s.clock.runs_out_at(c, now)
        if s.clock.spec.correspondence:
            jobs.append((SCORING, None if s.scoring is None else datetime.fromtimestamp(s.scoring[1], UTC)))
            # A deadline less than a day away when it is set (the phase's 7 days nearly spent) reminds at once.
            jobs.append((REMIND, None if s.scoring is None
                         else datetime.fromtimestamp(max(now, s.scoring[1] - REMIND_S), UTC)))
            warn_at = None if out_at is None else out_at - min(WARN_S, s.clock.spec.per_move_s / 2)
            jobs.append((WARN, datetime.fromtimestamp(warn_at, UTC) if warn_at is not None and warn_at > now
                         else None))
        if out_at is None:
            return [(FLAG, None), *jobs]
        return [(FLAG, now_utc() + timedelta(seconds=out_at - now)), *jobs]

    def published(self, s: GameSession, steps: list[Step]) -> None:
        """Tell everyone about a stored change: the delta of each of its entries to the game's watchers (all
        processes), all its events to this process's listeners."""
        now = timesource.now()
        for i, (events, delta) in enumerate(steps):
            version = s.version - (len(steps) - 1 - i)
            if delta is None:
                delta = s.view.delta(s, [e.as_dict() for e in events], now)
            self.pubsub.publish(s.id, version, delta)
        everything = [e for events, _delta in steps for e in events]
        for listener in self.listeners:
            listener(s, everything)
        if s.game.phase == "finished":
            # Once the caller has released the game's lock: a finished game nobody watches leaves memory.
            asyncio.get_running_loop().call_soon(self.cache.drop_if_finished, s.id)

    # ------------------------------------------------------------------------------------------ creating
    async def create(self, s: GameSession) -> GameSession:
        """Store the new game ``s`` (``keima.server.games.newgame.build``) as version 0 and announce it (event
        ``created``). Raises ``Refused`` ``storage-error`` when it could not be stored."""
        row = to_row(s)
        try:
            await self.store.write(Store.insert_game(row, []))
        except Exception as exc:
            log.exception("game %s: storing the new game failed", s.id)
            raise Refused("storage-error", f"the game could not be stored ({type(exc).__name__})") from None
        s.stored_row = mutable_part(row)
        s.view.mark(s, timesource.now())
        self.cache.keep(s)
        created = [GameEvent(s.id, 0, "created")]
        for listener in self.listeners:
            listener(s, created)
        return s

    # ------------------------------------------------------------------------------------------ intents
    async def act(self, game_id: str, action: dict[str, Any], thash: str | None) -> GameSession:
        """Apply a player's intent (a validated action dict, docs/web-api.md) for the caller holding the seat
        token with hash ``thash``; returns the session once the change is stored and published.

        Raises ``Refused`` for a refused intent (nothing changed) or a failed write (nothing changed)."""

        def do(s: GameSession) -> dict[str, Any]:
            seats = s.seats.held_by(thash)
            if seats and action["type"] in ("play", "pass", "place_handicap") and s.invite_hash is not None:
                raise Refused("no-opponent", "nobody has taken the other seat yet: wait for your opponent "
                              "before playing")
            return s.apply(action, seats, timesource.now())

        return await self.change(game_id, do, timed=True)

    async def join(self, game_id: str, code: str | None, thash: str | None, *, token: str | None = None,
                   person: dict[str, Any] | None = None) -> tuple[GameSession, str | None]:
        """Take the invited seat with invitation ``code``, or with ``code=None`` the free seat of an open
        challenge; returns (session, new token or None when the caller already holds that seat).
        ``token``: the seat token to give (default: a new random one); ``person``: the player taking it.
        Raises ``Refused`` ``bad-invitation`` for a wrong or used code, ``own-challenge`` for the creator's own
        challenge, ``challenge-taken`` for a challenge already taken."""
        given: list[str | None] = [None]

        def do(s: GameSession) -> dict[str, Any] | None:
            held = s.seats.held_by(thash)
            invite = code
            if invite is None:
                if s.mode != "open":
                    raise Refused("bad-invitation", "this game is not an open challenge: it needs the "
                                  "invitation code")
                if held and s.invite_color not in held:
                    raise Refused("own-challenge", "this is your own challenge: wait for an opponent")
                if s.invite_hash is None and not held:
                    raise Refused("challenge-taken", "someone already accepted this challenge")
                if held:
                    return None
                invite = ""
            if s.invite_color is not None and s.invite_color in held:
                return None
            if held:
                # The creator opening their own link would trade their seat for the other one.
                raise Refused("wrong-phase", "you already hold a seat in this game: send the invitation link "
                              "to your opponent", reason="already-seated")
            if s.mode != "open" and (s.invite_hash is None
                                     or not hmac.compare_digest(token_hash(invite), s.invite_hash)):
                raise Refused("bad-invitation", "this invitation code is wrong or was already used")
            assert s.invite_color is not None
            new = token or secrets.token_urlsafe(32)
            if person is not None:
                s.people[s.invite_color] = dict(person)
            given[0] = new
            return s.join(s.invite_color, token_hash(new), timesource.now())

        s = await self.change(game_id, do, fresh=True, retry_refusals=False)
        return s, given[0]

    async def withdraw(self, game_id: str, thash: str | None) -> None:
        """Withdraw an open challenge or an unanswered invitation: the game is deleted without a result, gone from
        every list (event ``withdrawn``). Raises ``Refused`` ``not-creator`` for anyone but its creator,
        ``game-started`` once someone has taken the other seat, ``no-such-game``, ``storage-error``."""
        with self.cache.hold(game_id):
            s = await self.cache.get(game_id, fresh=True)
            async with s.lock:
                if not s.seats.held_by(thash) or s.mode not in ("open", "invite"):
                    raise Refused("not-creator", "only the player who offered this game can withdraw it")
                if s.invite_hash is None:
                    raise Refused("game-started", "your opponent has taken their seat: the game can only be "
                                  "resigned now")
                try:
                    await self.store.write(Store.delete_game(s.id))
                except Exception as exc:
                    log.exception("game %s: withdrawing failed", s.id)
                    raise Refused("storage-error", f"the game could not be withdrawn ({type(exc).__name__})") \
                        from None
                self.cache.drop(s)
                event = GameEvent(s.id, s.version + 1, "withdrawn")
                self.pubsub.publish(s.id, s.version + 1, json.dumps(
                    {"type": "delta", "from": s.version, "to": s.version + 1, "event": event.as_dict()},
                    separators=(",", ":")))
                for listener in self.listeners:
                    listener(s, [event])

    async def retire(self, game_id: str, colors: frozenset[int], thash: str) -> None:
        """A deleted account's seats ``colors`` in ``game_id`` (held by the token with hash ``thash``): its open
        challenge or unanswered invitation is withdrawn, its game in progress resigned, and its seats revoked in
        every game, so that its tokens act and chat nowhere any more. Raises ``Refused`` as ``change`` does."""
        s = await self.cache.get(game_id, fresh=True)
        if s.invite_hash is not None and s.mode in ("open", "invite"):
            await self.withdraw(game_id, thash)
            return

        def do(s: GameSession) -> dict[str, Any] | None:
            held = colors & s.seats.held_by(thash)
            if not held:
                return None
            entry = None
            if s.game.phase != "finished":
                c = min(held)
                with contextlib.suppress(Refused):  # a phase without resignation: the seats go all the same
                    entry = s.apply({"type": "resign", "color": "B" if c == 1 else "W"}, held, timesource.now())
            return s.revoke(held, entry)

        await self.change(game_id, do, fresh=True, retry_refusals=False)

    async def rename(self, game_id: str, player_id: str, person: dict[str, Any]) -> None:
        """Show ``person`` (a player's new name or rank) in their game ``game_id`` while it has not started (a
        game that has started keeps the names of the day). Raises ``Refused`` as ``change`` does."""

        def do(s: GameSession) -> dict[str, Any] | None:
            for color, p in s.people.items():
                if p.get("id") == player_id:
                    return s.rename(color, person)
            return None

        await self.change(game_id, do)

    async def flag(self, game_id: str) -> GameSession:
        """Check the running clock of ``game_id`` and record the time loss when it ran out; returns the session.
        Raises ``Refused`` as ``change`` does."""
        return await self.change(game_id, lambda s: s.flag(timesource.now()), fresh=True)

    async def end_scoring(self, game_id: str) -> GameSession:
        """Score the correspondence game ``game_id`` when its scoring deadline has passed (the marking on the
        board stands); returns the session. Raises ``Refused`` as ``change`` does."""
        return await self.change(game_id, lambda s: s.end_scoring(timesource.now()), fresh=True)

    def due(self, s: GameSession) -> float | None:
        """When the running clock of ``s`` runs out, as the server's Unix time; None when no clock runs."""
        c = s.clock.running
        if c is None:
            return None
        return wall_time(s.clock.runs_out_at(c, timesource.now()))

"""The automatch queue of one server process: entering and leaving it, making the games, telling the players.

The queue is in the database (``keima.server.automatch.store``), so every process of a cluster sees every
waiting player. Each process runs ``sweep`` after each request and every ``sweep_s`` seconds (a window widens with
time, so a pair may become possible with nobody asking): it reads the waiting entries, chooses the pairs
(``keima.server.automatch.pairs.pairs``), claims each pair in one transaction (a pair another process claimed first is
skipped) and creates its game through the game service with both seats bound to the two players' accounts. Each
player gets an ``automatch`` notification (``keima.server.notifications.notify.matched``, written by the claim's winner only) and
is told on their player channel, in every process: ``{"type": "matched", "game": id}``, which their lobby
sockets pass on. Until a player has been told once (``told``: by a socket, or by an answer of the API), their
matched entry stays for ``keep_matched_s`` seconds, and a socket that opens meanwhile is told (a message sent while
it reconnected is not lost); a page opened after that is not sent to the game again.

A waiting entry ends when its player cancels, or a few seconds after the last lobby socket of the player closes
(``left``: a reloaded page keeps its place), counted in every process through the pub/sub's watcher counts. An
account waiting for a correspondence game needs no page open: its entry stays until it is matched (the bell and an
email tell the player), cancelled, or ``CORRESPONDENCE_WAIT_S`` old (a sweep ends it). Times
are read through ``clock`` (the server's Unix time, injectable: tests move it instead of sleeping).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from keima.ratings import game as rating_game
from keima.rules.ruleset import RulesError, get_ruleset
from keima.server import timesource
from keima.server.accounts import barred_among, blocked_among
from keima.server.automatch import pairs as automatch
from keima.server.automatch import store as store_automatch
from keima.server.errors import Refused
from keima.server.games import build, new_game_id, seat_opponent
from keima.server.housekeeping import Background
from keima.server.live import player_channel
from keima.server.notifications import notify
from keima.server.ratings import rating_of

if TYPE_CHECKING:
    from keima.server.accounts import Player, Players
    from keima.server.games import Hub

log = logging.getLogger("keima.server.automatch")


#: How long an account waits for a correspondence game without a page open, at most.
CORRESPONDENCE_WAIT_S = 86400.0

#: How a "matched" message begins (the lobby socket tells it from the lists' notices by it).
MATCHED_PREFIX = '{"type":"matched"'


def matched_json(game_id: str) -> str:
    """The lobby socket's message that a player's game was found."""
    return json.dumps({"type": "matched", "game": game_id}, separators=(",", ":"))


def waits_alone(entry: automatch.Entry) -> bool:
    """Whether ``entry`` waits without a page open: an account's, for a correspondence game."""
    return entry.registered and entry.speed == "correspondence"


class Matchmaker:
    """The automatch of one process (``app.state.matchmaker``); see the module docstring."""

    def __init__(self, hub: Hub, players: Players, *, clock: Callable[[], float] = timesource.now,
                 sweep_s: float = 1.0, keep_matched_s: float = 60.0, recheck_s: float = 5.0,
                 grace_s: float = 3.0) -> None:
        self.hub = hub
        self.players = players
        self.clock = clock
        self.sweep_s = sweep_s
        self.keep_matched_s = keep_matched_s
        self.recheck_s = recheck_s
        self.grace_s = grace_s
        self.made = 0
        self._forgot = 0.0
        self._lock = asyncio.Lock()
        self._loop = Background(self._run)

    def start(self) -> None:
        """Sweep every ``sweep_s`` seconds (from the event loop)."""
        self._loop.start()

    async def close(self) -> None:
        """Stop sweeping."""
        await self._loop.close()

    async def _in_thread(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    # -- the player's requests -----------------------------------------------------------------------------
    async def enter(self, player: Player, sizes: list[int], speed: str, rules: str, handicap: bool,
                    club: str | None = None) -> str | None:
        """Put ``player`` in the queue and try to pair at once; returns the game when they were matched right
        away, else None (they wait). ``club``: paired only with players waiting for the same club (whose
        membership the caller checked). Raises ``Refused`` ``invalid-request`` (422, ``field``) for a size, speed or
        ruleset not offered, ``already-waiting`` (409) when the player is waiting already."""
        try:
            board_sizes, speed = automatch.check_request(sizes, speed)
        except ValueError as exc:
            field, message = exc.args
            raise Refused("invalid-request", message, field=field) from None
        try:
            ruleset = get_ruleset(rules)
        except RulesError as exc:
            raise Refused("invalid-request", str(exc), field="rules") from None
        rated = await self._in_thread(rating_of, self.hub.store.engine, player.id)
        rating = rating_game.initial(player.rank) if rated is None else rated[0]
        entry = automatch.Entry(player_id=player.id, name=player.name, registered=not player.guest,
                                rating=rating.rating, sizes=board_sizes, speed=speed, rules=ruleset.name,
                                handicap=handicap, since=self.clock(), club=club)
        try:
            await self.hub.store.write(store_automatch.add(entry))
        except IntegrityError:
            raise Refused("already-waiting", "you are waiting for an automatch game already: cancel it first to "
                          "ask for another") from None
        await self.sweep()
        got = await self.status(player.id)
        if got is None or got[1] is None:
            return None
        await self.told(player.id, got[1])
        return got[1]

    async def cancel(self, player_id: str) -> bool:
        """End the player's waiting entry; returns whether there was one (a matched entry stays matched)."""
        done: bool = await self.hub.store.write(store_automatch.cancel(player_id))
        return done

    async def status(self, player_id: str) -> tuple[automatch.Entry, str | None] | None:
        """The player's entry and the game it was matched with (None: waiting); None when they have none or
        their match is older than ``keep_matched_s``."""
        got = await self._in_thread(store_automatch.status, self.hub.store.engine, player_id)
        if got is None:
            return None
        entry, game, at = got
        if game is not None and (at is None or self.clock() - at > self.keep_matched_s):
            return None
        return entry, game

    async def told(self, player_id: str, game_id: str) -> None:
        """The player has been told of their game ``game_id`` (a lobby socket sent it, or an answer had it): their
        matched entry goes, so that a page opened later is not sent to the game again."""
        await self.hub.store.write(store_automatch.forget(player_id, game_id))

    async def left(self, player_id: str) -> None:
        """A lobby socket of ``player_id`` closed: their waiting entry ends when no other is open (in any
        process, as far as the pub/sub counts tell) ``grace_s`` seconds later: a page reloaded opens its new
        socket within that time and keeps its place. The other processes' counts are a few seconds old: while
        they still show a socket, the count is read again ``recheck_s`` seconds later, up to three times."""
        channel = player_channel(player_id)
        try:
            got = await self.status(player_id)
            if got is not None and got[1] is None and waits_alone(got[0]):
                return  # a correspondence wait goes on without a page
            for attempt in range(4):
                await asyncio.sleep(self.recheck_s if attempt else self.grace_s)
                if self.hub.pubsub.subscribers(channel):
                    return  # a page of theirs is open here
                if (await self.hub.pubsub.watchers([channel])).get(channel, 0) == 0:
                    await self.cancel(player_id)
                    return
        except Exception as exc:  # the database is away: the entry waits for a cancel or a match
            log.warning("automatch: ending the wait of %s: %s: %s", player_id, type(exc).__name__, exc)

    # -- pairing -------------------------------------------------------------------------------------------
    async def sweep(self) -> list[str]:
        """Pair the waiting players who may be paired now and make their games; returns the games made here."""
        async with self._lock:
            now = self.clock()
            engine = self.hub.store.engine
            made: list[str] = []
            queue = await self._in_thread(store_automatch.waiting, engine)
            # A player suspended or banned while waiting (a correspondence wait lasts days) is paired with nobody
            # until the sanction ends; read from the database, as the blocks, so that every process agrees.
            barred = await self._in_thread(barred_among, engine, [e.player_id for e in queue])
            queue = [e for e in queue if e.player_id not in barred]
            # The blocks among the waiting, from the database: every process reads the same (docs/moderation.md).
            apart = await self._in_thread(blocked_among, engine, [e.player_id for e in queue])
            for a, b in automatch.pairs(queue, now, apart):
                game = await self._pair(a, b, now)
                if game is not None:
                    made.append(game)
            if now - self._forgot > self.keep_matched_s:  # now and then: a sweep otherwise only reads
                self._forgot = now
                await self.hub.store.write(store_automatch.forget_matched(now - 10 * self.keep_matched_s))
                await self.hub.store.write(store_automatch.expire("correspondence", now - CORRESPONDENCE_WAIT_S))
            self.made += len(made)
            return made

    async def _pair(self, a: automatch.Entry, b: automatch.Entry, now: float) -> str | None:
        gid = new_game_id()
        try:
            await self.hub.store.write(store_automatch.claim((a.player_id, b.player_id), gid, now))
        except store_automatch.Taken:
            return None  # another process paired one of them first
        try:
            await self._create(automatch.settle(a, b, get_ruleset(a.rules)), gid)
        except Exception:
            log.exception("automatch: the game of %s and %s could not be made", a.name, b.name)
            with contextlib.suppress(Exception):
                await self.hub.store.write(store_automatch.release(gid))
                for e in (a, b):  # an account deleted while waiting leaves the queue, not the other player
                    if await self.players.get(e.player_id) is None:
                        await self.cancel(e.player_id)
            return None
        names = {a.player_id: a.name, b.player_id: b.name}
        try:  # the bell's "automatch" line: this process won the claim, so it is written once
            await self.hub.store.write(lambda conn: notify.matched(conn, gid, names))
        except Exception as exc:  # the game is made; the "matched" message below still sends the pages to it
            log.warning("automatch: the notifications of %s: %s: %s", gid, type(exc).__name__, exc)
        for pid in (a.player_id, b.player_id):
            self.hub.pubsub.publish(player_channel(pid), time.time_ns(), matched_json(gid))
        return gid

    async def _create(self, m: automatch.Match, gid: str) -> None:
        black = await self.players.get(m.black.player_id)
        white = await self.players.get(m.white.player_id)
        if black is None or white is None:
            raise Refused("not-found", "a matched player's account is gone")
        body = {"size": m.size, "rules": m.rules, "komi": None, "handicap": m.handicap, "placement": None,
                "clock": m.clock, "opponent": "invite", "color": "B", "bot_level": None, "engine": None,
                "rated": m.rated}
        black_person = await self.hub.seat_person(black.person())
        white_person = await self.hub.seat_person(white.person())
        assert black_person is not None and white_person is not None
        s, _token, _invite = build(body, self.hub.bots.engines, game_id=gid,
                                   token=self.players.seat_token(black.id, gid), person=black_person)
        seat_opponent(s, self.players.seat_token(white.id, gid), white_person, timesource.now())
        await self.hub.service.create(s)
        await self.players.seat(gid, [1], black.id)
        await self.players.seat(gid, [2], white.id)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_s)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away: the next sweep tries again
                log.warning("automatch sweep: %s: %s", type(exc).__name__, exc)

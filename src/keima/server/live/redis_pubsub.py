"""``PubSub`` over Redis publish/subscribe: live updates shared by several server processes (and workers).

Each process keeps its subscribers in a ``LocalPubSub`` and holds one Redis connection subscribed to the channels
that have a local subscriber. ``publish`` delivers to the local subscribers at once and sends the message to
Redis for the other processes; a process skips its own messages when they come back. Messages are
``<origin> <version> <text>``: the origin (a random id per process) and the version let a receiver drop echoes and
stale states.

A game's state is large (10 to 20 KB at move 200) and most games are watched from one process only. A channel
marked ``rebuildable`` (a game: the receiver can rebuild its state from the database) whose last message reached
no other process is sent as a bare ``<origin> <version>`` notice: a receiver gets ``on_remote`` only and rebuilds
the text itself. Redis says how many connections each message reached, so the first message after another
process subscribes shows it, and the following ones carry their text again; a process that subscribes reads the
game from the database anyway (``on_subscribed``), so a notice never loses a state.

Redis publish/subscribe is at-most-once: a message sent while a connection is down is lost. The state itself lives
in the database, so nothing is lost for good: each time a channel is (re)subscribed, ``on_subscribed(channel)`` is
called, and the hub then compares its copy of the game with the database and offers the newer state locally. A
dropped connection is retried every ``retry_s`` seconds, forever; publishing meanwhile drops messages (the
database has them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from keima.server import timesource
from keima.server.live.pubsub import LocalPubSub, Subscription

log = logging.getLogger("keima.server.redis")

PREFIX = "keima:"
WATCHING = PREFIX + "watching:"
WATCHING_PROCESSES = PREFIX + "watching"  # sorted set: process id -> when it last advertised (Unix time)


class RedisPubSub:
    """A ``PubSub`` whose channels reach every process connected to the same Redis (``url``: redis://HOST:PORT/N).

    ``start`` (from the event loop) connects; ``close`` stops. ``on_remote(channel, version, bare)`` is called for each
    message from another process (before its local delivery); ``on_subscribed(channel)`` after each
    (re)subscription, see the module docstring."""

    def __init__(self, url: str, *, retry_s: float = 0.5, advertise_s: float = 2.0) -> None:
        self.url = url
        self.origin = secrets.token_hex(6)
        self.retry_s = retry_s
        self.advertise_s = advertise_s
        self._advertised: dict[str, int] | None = None
        self.local = LocalPubSub()
        self.on_remote: Callable[[str, int, bool], None] | None = None
        self.on_subscribed: Callable[[str], None] | None = None
        # Channels whose messages a receiver can rebuild (from the database): those may go out as bare notices.
        self.rebuildable: Callable[[str], bool] = lambda _channel: False
        # Channels whose subscriptions this process advertises for the others' ``watchers``: the rebuildable ones
        # unless told otherwise (the app adds the players' channels, which automatch counts).
        self.counted: Callable[[str], bool] | None = None
        self._lonely: set[str] = set()  # rebuildable channels whose last message reached no other process
        self._subscribed: set[str] = set()
        self.bare_sent = 0
        self.connected = asyncio.Event()
        self.reconnects = 0
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue(maxsize=100_000)
        self._wanted: set[str] = set()
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None

    # ------------------------------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start the reader and publisher tasks; returns at once (they connect, and reconnect, on their own)."""
        import redis.asyncio as aioredis

        self._redis = aioredis.Redis.from_url(self.url, socket_connect_timeout=2, health_check_interval=10)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._reader()), loop.create_task(self._publisher()),
                       loop.create_task(self._advertiser())]

    async def close(self) -> None:
        """Stop the tasks and close the connections."""
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            with contextlib.suppress(BaseException):
                await t
        self._tasks = []
        if self._redis is not None:
            with contextlib.suppress(Exception):  # this process's watchers are gone at once
                await self._redis.delete(WATCHING + self.origin)
                await self._redis.zrem(WATCHING_PROCESSES, self.origin)
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    # ------------------------------------------------------------------------------------------ PubSub
    def publish(self, channel: str, version: int, message: str) -> None:
        """See ``PubSub.publish``: local subscribers at once, the other processes through Redis."""
        self.local.publish(channel, version, message)
        if channel in self._lonely:
            payload = f"{self.origin} {version}"
            self.bare_sent += 1
        else:
            payload = f"{self.origin} {version} {message}"
        try:
            self._outbox.put_nowait((PREFIX + channel, payload))
        except asyncio.QueueFull:
            log.warning("redis outbox full: dropping an update of %s (the database has it)", channel)

    def publish_local(self, channel: str, version: int, message: str) -> None:
        """Deliver to this process's subscribers only (a state read back from the database)."""
        self.local.publish(channel, version, message)

    def subscribe(self, channel: str, viewer: str | None = None) -> Subscription:
        """See ``PubSub.subscribe``."""
        sub = self.local.subscribe(channel, viewer)
        if channel not in self._wanted:
            self._wanted.add(channel)
            self._changed.set()
        return _Sub(self, channel, sub)

    def subscribers(self, channel: str) -> int:
        """See ``PubSub.subscribers`` (this process's)."""
        return self.local.subscribers(channel)

    async def watchers(self, channels: list[str]) -> dict[str, int]:
        """See ``PubSub.watchers``: this process's live counts plus what the others advertised."""
        out = {c: self.local.viewers(c) for c in channels}
        if not channels:
            return out
        try:
            now = timesource.now()
            recent = await self._redis.zrangebyscore(WATCHING_PROCESSES, now - 5 * self.advertise_s, "+inf")
            keys = [WATCHING + p.decode() for p in recent if p.decode() != self.origin]
            if keys:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for k in keys:
                        pipe.hmget(k, channels)
                    rows = await pipe.execute()
                for row in rows:
                    for c, n in zip(channels, row, strict=True):
                        if n is not None:
                            out[c] += int(n)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Redis down: this process's own counts
            log.debug("watcher counts of other processes unavailable: %s", exc)
        return out

    def _unsubscribed(self, channel: str) -> None:
        if not self.local.subscribers(channel) and channel in self._wanted:
            self._wanted.discard(channel)
            self._changed.set()

    # ------------------------------------------------------------------------------------------ tasks
    async def _publisher(self) -> None:
        while True:
            item = await self._outbox.get()
            batch = [item]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    reached = await pipe.execute()
                self._note_listeners(batch, reached)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis down: the database has the states; receivers resync on reconnect
                log.warning("redis publish failed (%s); %d update(s) dropped", type(exc).__name__, len(batch))

    def _note_listeners(self, batch: list[tuple[str, str]], reached: list[Any]) -> None:
        # PUBLISH answers how many connections got the message; this process's own one counts when subscribed.
        for (raw, _payload), count in zip(batch, reached, strict=True):
            channel = raw[len(PREFIX):]
            if not self.rebuildable(channel):
                continue
            others = int(count) - (channel in self._subscribed)
            if others > 0:
                self._lonely.discard(channel)
            else:
                if len(self._lonely) >= 200_000:  # forgetting is safe: the next message carries its text
                    self._lonely.clear()
                self._lonely.add(channel)

    async def _advertiser(self) -> None:
        key = WATCHING + self.origin
        while True:
            await asyncio.sleep(self.advertise_s)
            counted = self.counted or self.rebuildable
            counts = {c: n for c, n in self.local.counts().items() if counted(c)}
            try:
                async with self._redis.pipeline(transaction=True) as pipe:
                    if counts != self._advertised:
                        pipe.delete(key)
                        if counts:
                            pipe.hset(key, mapping=counts)
                    if counts:
                        pipe.expire(key, max(1, round(self.advertise_s * 5)))
                        now = timesource.now()
                        pipe.zadd(WATCHING_PROCESSES, {self.origin: now})
                        pipe.zremrangebyscore(WATCHING_PROCESSES, "-inf", now - 60 * self.advertise_s)
                    await pipe.execute()
                self._advertised = counts
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis down: write it all again next time
                self._advertised = None

    async def _reader(self) -> None:
        while True:
            ps = self._redis.pubsub(ignore_subscribe_messages=False)
            subscribed = self._subscribed = set()
            try:
                await ps.ping()
                await ps.subscribe(PREFIX + "__hello__")
                self.connected.set()
                while True:
                    self._changed.clear()
                    add, drop = self._wanted - subscribed, subscribed - self._wanted
                    if add:
                        await ps.subscribe(*(PREFIX + c for c in add))
                        subscribed |= add
                    if drop:
                        await ps.unsubscribe(*(PREFIX + c for c in drop))
                        subscribed -= drop
                    # Wake up for a message or for a change of the wanted channels, whichever comes first.
                    waiter = asyncio.ensure_future(self._changed.wait())
                    try:
                        while not self._changed.is_set():
                            msg = await ps.get_message(timeout=0.02)
                            if msg is not None:
                                self._handle(msg)
                    finally:
                        waiter.cancel()
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await ps.aclose()
                raise
            except Exception as exc:
                if self.connected.is_set():
                    log.warning("redis connection lost (%s); reconnecting", type(exc).__name__)
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await ps.aclose()
                self.reconnects += 1
                await asyncio.sleep(self.retry_s)

    def _handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        raw_channel = msg.get("channel")
        channel = raw_channel.decode() if isinstance(raw_channel, bytes) else str(raw_channel)
        if not channel.startswith(PREFIX):
            return
        channel = channel[len(PREFIX):]
        if kind == "subscribe":
            if self.on_subscribed is not None and channel != "__hello__":
                self.on_subscribed(channel)
            return
        if kind != "message":
            return
        data = msg["data"]
        text = data.decode() if isinstance(data, bytes) else str(data)
        origin, _, rest = text.partition(" ")
        if origin == self.origin:
            return
        vtext, text_follows, message = rest.partition(" ")
        try:
            version = int(vtext)
        except ValueError:
            return
        if self.on_remote is not None:
            self.on_remote(channel, version, not text_follows)
        if text_follows:  # else a bare notice: on_remote rebuilds the message
            self.local.publish(channel, version, message)


class _Sub:
    """A local subscription that tells its ``RedisPubSub`` when it closes."""

    def __init__(self, owner: RedisPubSub, channel: str, inner: Subscription) -> None:
        self._owner = owner
        self._channel = channel
        self._inner = inner

    def __aiter__(self) -> Any:
        return self._inner.__aiter__()

    def close(self) -> None:
        self._inner.close()
        self._owner._unsubscribed(self._channel)

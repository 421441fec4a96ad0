"""Live updates: a publish/subscribe interface, and its in-process implementation.

Every change of a game is published on the game's channel as its delta (``keima.server.games.view``), and sometimes
as a whole state (a game read again from the database); every WebSocket watching the game holds a subscription.
A subscription keeps the last ``QUEUE`` messages in order: a socket slower than that misses the older ones, sees
the gap in the versions and sends a whole state instead, so a slow socket never makes the server buffer without
bound.

``PubSub`` is the interface the application uses; ``LocalPubSub`` serves one process. Several server processes
would need an implementation over a shared broker (Redis publish/subscribe) with the same methods.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import AsyncIterator
from typing import Protocol


class Subscription(Protocol):
    """A subscription to one channel: iterate to receive messages; ``close`` to stop."""

    def __aiter__(self) -> AsyncIterator[tuple[int, str]]: ...

    def close(self) -> None: ...


class PubSub(Protocol):
    """Channels of versioned text messages."""

    def publish(self, channel: str, version: int, message: str) -> None:
        """Send ``message`` (the state at ``version``) to every subscriber of ``channel``; never blocks."""
        ...

    def subscribe(self, channel: str, viewer: str | None = None) -> Subscription:
        """Return a new subscription to ``channel``; ``viewer`` names the spectator it serves (None for a seated
        player, or anything else that is not someone watching): ``watchers`` counts distinct viewers."""
        ...

    def subscribers(self, channel: str) -> int:
        """Return how many subscriptions ``channel`` has in this process."""
        ...

    async def watchers(self, channels: list[str]) -> dict[str, int]:
        """Return how many distinct viewers (spectators, never the players) each of ``channels`` has: exact in
        this process; the other processes' counts are added as they last advertised them (a few seconds old, and
        one person watching through two processes counts twice). Never raises (this process's counts when the
        others cannot be asked)."""
        ...


#: The channels of one player: their games' lines, automatch's notices, the bell (``player_channel``).
PLAYER_PREFIX = "player:"


def player_channel(player_id: str) -> str:
    """The pub/sub channel of one player's games (and of their automatch notices and bell)."""
    return PLAYER_PREFIX + player_id


QUEUE = 256


class _LatestSlot:
    """A subscription that keeps the last ``QUEUE`` messages, in order."""

    def __init__(self, owner: LocalPubSub, channel: str, viewer: str | None) -> None:
        self._owner = owner
        self._channel = channel
        self.viewer = viewer
        self._queue: collections.deque[tuple[int, str]] = collections.deque(maxlen=QUEUE)
        self._event = asyncio.Event()
        self._closed = False

    def offer(self, version: int, message: str) -> None:
        self._queue.append((version, message))
        self._event.set()

    async def _iterate(self) -> AsyncIterator[tuple[int, str]]:
        while not self._closed:
            await self._event.wait()
            self._event.clear()
            while self._queue and not self._closed:
                yield self._queue.popleft()

    def __aiter__(self) -> AsyncIterator[tuple[int, str]]:
        return self._iterate()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._event.set()
            self._owner._remove(self._channel, self)


class LocalPubSub:
    """In-process ``PubSub`` (one server process). Must be used from the event loop's thread."""

    def __init__(self) -> None:
        self._channels: dict[str, set[_LatestSlot]] = {}
        # channel -> viewer -> how many of its subscriptions are open (a person's second tab is not a second
        # spectator)
        self._viewers: dict[str, collections.Counter[str]] = {}

    def publish(self, channel: str, version: int, message: str) -> None:
        """See ``PubSub.publish``."""
        for slot in self._channels.get(channel, ()):
            slot.offer(version, message)

    def subscribe(self, channel: str, viewer: str | None = None) -> Subscription:
        """See ``PubSub.subscribe``."""
        slot = _LatestSlot(self, channel, viewer)
        self._channels.setdefault(channel, set()).add(slot)
        if viewer is not None:
            self._viewers.setdefault(channel, collections.Counter())[viewer] += 1
        return slot

    def subscribers(self, channel: str) -> int:
        """See ``PubSub.subscribers``."""
        return len(self._channels.get(channel, ()))

    async def watchers(self, channels: list[str]) -> dict[str, int]:
        """See ``PubSub.watchers`` (one process: its own counts, exact)."""
        return {c: self.viewers(c) for c in channels}

    def viewers(self, channel: str) -> int:
        """How many distinct viewers ``channel`` has in this process."""
        return len(self._viewers.get(channel, ()))

    def counts(self) -> dict[str, int]:
        """Every channel with viewers, and how many distinct ones."""
        return {c: len(v) for c, v in self._viewers.items()}

    def _remove(self, channel: str, slot: _LatestSlot) -> None:
        slots = self._channels.get(channel)
        if slots is not None:
            if slot in slots and slot.viewer is not None:
                seen = self._viewers[channel]
                seen[slot.viewer] -= 1
                if seen[slot.viewer] <= 0:
                    del seen[slot.viewer]
                if not seen:
                    del self._viewers[channel]
            slots.discard(slot)
            if not slots:
                del self._channels[channel]

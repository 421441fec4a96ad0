"""Delivery of game events to the durable subscribers: at least once, each effect exactly once.

A change whose events a durable subscriber needs (``keima.server.games.events.DURABLE``: a finished game) writes them to
the outbox in the transaction of the change itself (``Store.append``). ``Outbox`` then hands them to each
subscriber in sequence order: the subscriber's effect and the sequence number it has reached are written in one
transaction (``keima.server.storage.queues.deliver``), so an event delivered twice (two processes, a process killed
after the effect but before it knew, a restart) changes nothing the second time, and an event whose process was
killed between the change and the delivery is delivered by the next one that runs.

Every process delivers: after each change that wrote events here, and every ``poll_s`` seconds for the events
that other processes wrote. ``KEIMA_OUTBOX_PAUSE`` (seconds) holds each delivery back that long: a test's window
to kill a process between a change and its delivery.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from dataclasses import dataclass

from sqlalchemy.engine import Engine

from keima.server.games.events import GameEvent, durable
from keima.server.games.session import GameSession
from keima.server.housekeeping import Background
from keima.server.storage import Apply
from keima.server.storage import queues as store_events

log = logging.getLogger("keima.server")


@dataclass(frozen=True)
class Subscriber:
    """A durable subscriber: its ``name`` (its progress is kept under it), the event ``kinds`` it applies and its
    effect ``apply``, run inside the delivery's transaction."""

    name: str
    kinds: frozenset[str]
    apply: Apply


class Outbox:
    """Delivers the outbox to ``subscribers`` (see the module docstring)."""

    def __init__(self, engine: Engine, subscribers: list[Subscriber], *, poll_s: float = 1.0) -> None:
        self.engine = engine
        self.subscribers = subscribers
        self.poll_s = poll_s
        self.pause_s = float(os.environ.get("KEIMA_OUTBOX_PAUSE", "0") or 0)
        self.delivered = 0
        self._wake = asyncio.Event()
        self._loop = Background(self._run)

    def listener(self, _s: GameSession, events: list[GameEvent]) -> None:
        """A game service listener: deliver at once after a change that wrote durable events."""
        if any(durable(e.type, _s.clock.spec.correspondence) for e in events):
            self._wake.set()

    def start(self) -> None:
        """Start delivering (from the event loop)."""
        self._loop.start()

    async def close(self) -> None:
        """Stop delivering."""
        await self._loop.close()

    async def deliver(self) -> int:
        """Deliver every pending event to every subscriber now; returns how many events were read."""
        loop = asyncio.get_running_loop()
        total = 0
        for sub in self.subscribers:
            while True:
                n = await loop.run_in_executor(None, store_events.deliver, self.engine, sub.name, sub.kinds,
                                               sub.apply)
                total += n
                if n == 0:
                    break
        self.delivered += total
        return total

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_s)
            self._wake.clear()
            if self.pause_s:
                await asyncio.sleep(self.pause_s)
            try:
                await self.deliver()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database is away, or two processes raced for a new row: next time
                log.warning("outbox delivery: %s: %s", type(exc).__name__, exc)

"""What one tournament and one player may cost the server (docs/web-api.md, *Tournaments*, *Limits*).

A pairing is a maximum-weight matching: its time grows with the cube of the players, and a tournament of 10,000
players took 50 s of CPU to pair. So a tournament holds at most ``MAX_PLAYERS`` players (the largest European
tournaments have about 1,500), a file to import at most that many, a process pairs ``PAIRINGS_AT_ONCE``
tournaments at a time and each tournament one pairing at a time (429 beyond: the next try may go through), and an
account creates at most ``CREATED_PER_DAY`` tournaments in 24 hours.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from keima.server.errors import Refused

MAX_PLAYERS = 2000
PAIRINGS_AT_ONCE = 2
CREATED_PER_DAY = 10


def check_players(count: int) -> None:
    """Raise ``Refused`` ``invalid-request`` (422) for a tournament of more than ``MAX_PLAYERS`` players."""
    if count > MAX_PLAYERS:
        raise Refused("invalid-request", f"a tournament holds at most {MAX_PLAYERS} players, not {count}",
                      field="players")


class Pairings:
    """The pairings under way in this process: at most ``at_once``, and one per tournament."""

    def __init__(self, at_once: int = PAIRINGS_AT_ONCE) -> None:
        self.at_once = at_once
        self.running: set[str] = set()

    @asynccontextmanager
    async def slot(self, tid: str) -> AsyncIterator[None]:
        """Hold a pairing slot for tournament ``tid`` during the block; raises ``Refused`` ``too-many-requests``
        (429) when the tournament is being paired already or every slot is taken."""
        if tid in self.running:
            raise Refused("too-many-requests", "this tournament is being paired already: wait for that pairing")
        if len(self.running) >= self.at_once:
            raise Refused("too-many-requests", "the server is pairing other tournaments: try again in a moment")
        self.running.add(tid)
        try:
            yield
        finally:
            self.running.discard(tid)

"""Abandoned live games (docs/moderation.md, *Abandoned games*).

In a live game (not correspondence: those keep their clocks and vacations), a player whose every keima page is
gone (no lobby socket of theirs in any process: the pub/sub's counts of their ``player:<id>`` channel, as
automatch reads them) for ``away_limit`` seconds lets the opponent end the game instead of waiting for the
clock: ``win`` (the absent player forfeits, ``B+F``/``W+F``, rated as any result) or, before move ``ANNUL_BEFORE``,
``annul`` (no result, not rated). A player who comes back in time loses nothing: a page seen resets the count.

Each process counts from when it first saw the player gone (``Presence``): the opponent's page asks every few
seconds; a process that has not seen the absence as long makes the claim wait longer, never shorter. Every game
ended so is kept (``abandonments``): the player page shows the ratio past ``SHOWN_FROM`` such games, and the
moderators' signals list the players concerned.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any, Literal

from sqlalchemy.engine import Engine

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games import GameSession
from keima.server.live import player_channel
from keima.server.moderation import store

#: Seconds without a page before a claim, by the clock's time a move (``ClockSpec.per_move_s``).
BLITZ_S = 60.0  # under 30 seconds a move (blitz)
LIVE_S = 120.0  # other live clocks
UNTIMED_S = 300.0  # a game without a clock
BLITZ_PER_MOVE_S = 30.0
#: A claim may annul the game (no result) while it has fewer moves than this.
ANNUL_BEFORE = 10
#: The player page shows the ratio of games abandoned from this many on.
SHOWN_FROM = 3

Outcome = Literal["win", "annul"]


def away_limit(s: Any) -> float | None:
    """Seconds without a page after which the opponent may claim in game ``s``; None for a correspondence game.
    ``KEIMA_ABANDON_SECONDS`` (environment) sets one limit for every live game (the browser suite's short wait)."""
    spec = s.clock.spec
    if spec.type != "none" and spec.correspondence:
        return None
    if os.environ.get("KEIMA_ABANDON_SECONDS"):
        return float(os.environ["KEIMA_ABANDON_SECONDS"])
    if spec.type == "none":
        return UNTIMED_S
    if spec.correspondence:
        return None
    return BLITZ_S if spec.per_move_s < BLITZ_PER_MOVE_S else LIVE_S


class Presence:
    """Since when this process has seen each player without a page (``app.state.moderation.presence``)."""

    def __init__(self, pubsub: Any) -> None:
        self.pubsub = pubsub
        self.clock = time.monotonic  # a duration's clock (tests move it)
        self._gone: dict[str, float] = {}

    async def away_for(self, player_id: str) -> float:
        """Seconds the player has had no page as far as this process has seen (0: a page is open now)."""
        channel = player_channel(player_id)
        pages = self.pubsub.subscribers(channel) or (await self.pubsub.watchers([channel])).get(channel, 0)
        if pages:
            self._gone.pop(player_id, None)
            return 0.0
        if len(self._gone) > 10_000:
            self._gone.clear()
        since = self._gone.setdefault(player_id, self.clock())
        return self.clock() - since


def _seats(s: Any, caller: frozenset[int]) -> tuple[int, dict[str, Any]]:
    # The caller's colour and the absent opponent's person; refusals for a game that is not one to claim.
    if len(caller) != 1:
        raise Refused("not-your-seat", "only one of the game's two players may claim it")
    mine = next(iter(caller))
    other = s.people.get(3 - mine) or {}
    if not other.get("id") or s.bot_color is not None:
        raise Refused("no-opponent", "this game has no absent player to claim against")
    if s.game.phase != "play":
        raise Refused("wrong-phase", "only a game in play can be claimed", reason="wrong-phase")
    return mine, other


async def standing_of(presence: Presence, s: Any, caller: frozenset[int]) -> dict[str, Any]:
    """What the caller of game ``s`` may claim now: ``away_s`` (the opponent's seconds without a page),
    ``claim_after_s`` (the game's limit; null: correspondence, never), ``can_claim``, ``may_annul``."""
    _mine, other = _seats(s, caller)
    limit = away_limit(s)
    away = await presence.away_for(other["id"])
    return {"away_s": round(away, 1), "claim_after_s": limit, "can_claim": limit is not None and away >= limit,
            "may_annul": len(s.game.moves) < ANNUL_BEFORE}


async def claim(presence: Presence, hub: Any, game_id: str, thash: str | None, outcome: Outcome) -> Any:
    """End game ``game_id`` for the caller (seat token hash ``thash``) because the opponent left: ``win`` or
    ``annul``; returns the session. Raises 409 ``not-abandoned`` before the limit (or with a page open), 409
    ``not-live`` for a correspondence game, 422 (``outcome``) for an annulment from move ``ANNUL_BEFORE`` on."""
    s = await hub.cache.get(game_id, fresh=True)
    mine, other = _seats(s, s.seats.held_by(thash))
    limit = away_limit(s)
    if limit is None:
        raise Refused("not-live", "a correspondence game keeps its clock and vacations: no claim")
    if outcome == "annul" and len(s.game.moves) >= ANNUL_BEFORE:
        raise Refused("invalid-request", f"outcome: a game is annulled only before move {ANNUL_BEFORE}",
                      field="outcome")
    away = await presence.away_for(other["id"])
    if away < limit:
        raise Refused("not-abandoned", f"your opponent may come back: {max(1, round(limit - away))} seconds "
                      "more without a page of theirs")
    absent = 3 - mine

    def do(cur: GameSession) -> dict[str, Any]:
        if cur.game.phase != "play":
            raise Refused("wrong-phase", "only a game in play can be claimed", reason="wrong-phase")
        now = timesource.now()
        return cur.forfeit(absent, "abandoned", now) if outcome == "win" else cur.void("abandoned", now)

    done = await hub.service.change(game_id, do, fresh=True, retry_refusals=False)

    await hub.store.write(store.keep_abandonment(game_id, other["id"], outcome))
    return done


async def ratio_of(engine: Engine, player_id: str) -> tuple[int, int]:
    """(games abandoned, games finished) of a player (``store.ratio``, from a thread)."""
    found: tuple[int, int] = await asyncio.get_running_loop().run_in_executor(None, store.ratio, engine, player_id)
    return found

"""What stands between players and what a moderator holds against one (docs/moderation.md).

Blocks: a player blocks another (``blocks``); either way round, the two get no game together (a challenge or an
invitation is refused to the other, automatch never pairs them), their chat messages are hidden from each other
(``Standing.hidden``: the handles of keima.server.accounts.mutes), and no notification of the other's doing
reaches them. Standing (``player_standing``): muted in every chat until a time, suspended (no new game, no move,
no chat) until a time, or banned (no login either), with the reason the player is shown.

Reads are cached for ``CACHE_S`` seconds per player in each process (a change shows at once in the process that
made it, within that time in the others). The automatch's rule does not rest on the cache: the matchmaker reads
the blocks among the waiting players from the database at each sweep and again in the claim's transaction
(``blocked_pair``), so that no process pairs two blocked players.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server import timesource
from keima.server.errors import Refused
from keima.server.storage import Store, blocks, player_standing

CACHE_S = 10.0
#: How many players one player may block.
MAX_BLOCKS = 500


@dataclass(frozen=True)
class Held:
    """A player's standing: ``muted_until``/``suspended_until`` (None: not), ``banned``, and the reason given."""

    muted_until: datetime | None = None
    suspended_until: datetime | None = None
    banned: bool = False
    reason: str = ""

    def muted(self, now: datetime) -> bool:
        """Whether the player may not chat at ``now`` (muted, suspended or banned)."""
        return self.banned or _after(self.muted_until, now) or _after(self.suspended_until, now)

    def suspended(self, now: datetime) -> bool:
        """Whether the player may not play at ``now`` (suspended or banned)."""
        return self.banned or _after(self.suspended_until, now)


def _aware(at: datetime | None) -> datetime | None:
    return at if at is None or at.tzinfo is not None else at.replace(tzinfo=UTC)


def _after(at: datetime | None, now: datetime) -> bool:
    at = _aware(at)
    return at is not None and at > now


def blocked_pair(conn: Connection, a: str, b: str) -> bool:
    """Whether ``a`` blocked ``b`` or ``b`` blocked ``a`` (in ``conn``'s transaction)."""
    k = blocks.c
    row = conn.execute(sa.select(k.player_id).where(sa.or_(sa.and_(k.player_id == a, k.blocked_id == b),
                                                           sa.and_(k.player_id == b, k.blocked_id == a)))).first()
    return row is not None


def blocked_among(engine: Engine, player_ids: Iterable[str]) -> set[frozenset[str]]:
    """The pairs of ``player_ids`` with a block between them (either way). Blocking."""
    ids = sorted(set(player_ids))
    if len(ids) < 2:
        return set()
    k = blocks.c
    with engine.connect() as conn:
        rows = conn.execute(sa.select(k.player_id, k.blocked_id)
                            .where(k.player_id.in_(ids), k.blocked_id.in_(ids))).all()
    return {frozenset((r.player_id, r.blocked_id)) for r in rows}


def barred_among(engine: Engine, player_ids: Iterable[str]) -> set[str]:
    """Those of ``player_ids`` a moderator suspended (until after now) or banned: no new game for them. Blocking."""
    ids = sorted(set(player_ids))
    if not ids:
        return set()
    with engine.connect() as conn:
        rows = conn.execute(sa.select(player_standing).where(player_standing.c.player_id.in_(ids))).all()
    now = timesource.now_utc()
    return {r.player_id for r in rows
            if Held(_aware(r.muted_until), _aware(r.suspended_until), bool(r.banned)).suspended(now)}


def read_held(conn: Connection, player_id: str) -> Held:
    """The player's standing as stored (nothing held: ``Held()``)."""
    row = conn.execute(sa.select(player_standing).where(player_standing.c.player_id == player_id)).first()
    if row is None:
        return Held()
    return Held(_aware(row.muted_until), _aware(row.suspended_until), bool(row.banned), row.reason or "")


def _until_words(at: datetime | None) -> str:
    return "for good" if at is None else "until " + at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


class Standing:
    """Blocks and standing of every player (``app.state.standing``)."""

    def __init__(self, store: Store, handle: Callable[[str], str]) -> None:
        self.store = store
        self.handle = handle  # keima.server.accounts.mutes.Mutes.handle: a player's chat handle
        self._apart: dict[str, tuple[float, frozenset[str]]] = {}
        self._held: dict[str, tuple[float, Held]] = {}

    async def _read(self, fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    # -- blocks --------------------------------------------------------------------------------------------
    def _read_apart(self, player_id: str) -> frozenset[str]:
        k = blocks.c
        with self.store.engine.connect() as conn:
            mine = conn.execute(sa.select(k.blocked_id).where(k.player_id == player_id)).scalars().all()
            theirs = conn.execute(sa.select(k.player_id).where(k.blocked_id == player_id)).scalars().all()
        return frozenset([*mine, *theirs])

    async def apart(self, player_id: str | None) -> frozenset[str]:
        """The players with a block between them and ``player_id``, either way (empty for no player)."""
        if player_id is None:
            return frozenset()
        hit = self._apart.get(player_id)
        if hit is not None and time.monotonic() - hit[0] < CACHE_S:
            return hit[1]
        found: frozenset[str] = await self._read(self._read_apart, player_id)
        if len(self._apart) > 10_000:  # a bounded cache
            self._apart.clear()
        self._apart[player_id] = (time.monotonic(), found)
        return found

    async def hidden(self, player_id: str | None) -> frozenset[str]:
        """The chat handles whose messages ``player_id`` is not shown because of a block."""
        return frozenset(self.handle("p:" + other) for other in await self.apart(player_id))

    async def check_apart(self, a: str | None, b: str | None) -> None:
        """Raise ``Refused`` ``blocked`` (403) when a block stands between players ``a`` and ``b``."""
        if a is not None and b is not None and a != b and b in await self.apart(a):
            raise Refused("blocked", "a block stands between you and this player: no game between you")

    def _read_blocked(self, player_id: str) -> list[tuple[str, datetime]]:
        k = blocks.c
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(k.blocked_id, k.at).where(k.player_id == player_id).order_by(k.at)).all()
        return [(r.blocked_id, _aware(r.at) or r.at) for r in rows]

    async def blocked_by(self, player_id: str) -> list[tuple[str, datetime]]:
        """The players ``player_id`` blocked and when, oldest first."""
        found: list[tuple[str, datetime]] = await self._read(self._read_blocked, player_id)
        return found

    async def block(self, player_id: str, other: str) -> None:
        """``player_id`` blocks ``other`` (again: nothing changes). Raises ``Refused`` 422 for oneself or a list
        already ``MAX_BLOCKS`` long."""
        if other == player_id:
            raise Refused("invalid-request", "name: you cannot block yourself", field="name")
        have = await self.blocked_by(player_id)
        if other in {o for o, _at in have}:
            return
        if len(have) >= MAX_BLOCKS:
            raise Refused("invalid-request", f"name: at most {MAX_BLOCKS} players can be blocked", field="name")

        def op(conn: Connection) -> None:
            conn.execute(blocks.delete().where(blocks.c.player_id == player_id, blocks.c.blocked_id == other))
            conn.execute(blocks.insert().values(player_id=player_id, blocked_id=other, at=timesource.now_utc()))

        await self.store.write(op)
        self.forget_cached(player_id, other)

    async def unblock(self, player_id: str, other: str) -> None:
        """``player_id`` lifts their block of ``other`` (nothing happens when there was none)."""

        def op(conn: Connection) -> None:
            conn.execute(blocks.delete().where(blocks.c.player_id == player_id, blocks.c.blocked_id == other))

        await self.store.write(op)
        self.forget_cached(player_id, other)

    async def forget_player(self, player_id: str) -> None:
        """Drop a deleted account's blocks, either way: its name goes to whoever takes it next, whom nobody
        blocked, and a list would show a line its owner cannot lift."""
        others = await self.apart(player_id)

        def op(conn: Connection) -> None:
            k = blocks.c
            conn.execute(blocks.delete().where(sa.or_(k.player_id == player_id, k.blocked_id == player_id)))

        await self.store.write(op)
        self.forget_cached(player_id, *others)

    def forget_cached(self, *player_ids: str) -> None:
        """Drop this process's cached readings of ``player_ids`` (after a change)."""
        for pid in player_ids:
            self._apart.pop(pid, None)
            self._held.pop(pid, None)

    # -- standing ------------------------------------------------------------------------------------------
    def _read_held(self, player_id: str) -> Held:
        with self.store.engine.connect() as conn:
            return read_held(conn, player_id)

    async def held(self, player_id: str | None) -> Held:
        """The player's standing (``Held()`` for no player)."""
        if player_id is None:
            return Held()
        hit = self._held.get(player_id)
        if hit is not None and time.monotonic() - hit[0] < CACHE_S:
            return hit[1]
        found: Held = await self._read(self._read_held, player_id)
        if len(self._held) > 10_000:
            self._held.clear()
        self._held[player_id] = (time.monotonic(), found)
        return found

    async def check_play(self, player_id: str | None) -> None:
        """Raise ``Refused`` ``banned``/``suspended`` (403, with the reason and the end) when the player may not
        play now."""
        held = await self.held(player_id)
        now = timesource.now_utc()
        if held.banned:
            raise Refused("banned", f"this account is banned: {held.reason}")
        if held.suspended(now):
            raise Refused("suspended", f"this account is suspended {_until_words(held.suspended_until)}: "
                          f"{held.reason}")

    async def check_chat(self, player_id: str | None) -> None:
        """Raise ``Refused`` ``muted`` (or ``banned``/``suspended``; 403) when the player may not chat now."""
        await self.check_play(player_id)
        held = await self.held(player_id)
        if held.muted(timesource.now_utc()):
            raise Refused("muted", f"a moderator muted you in every chat {_until_words(held.muted_until)}: "
                          f"{held.reason}")

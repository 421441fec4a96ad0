"""The lobby: open challenges, live games and finished games as short summaries, "my games", and their live
updates.

Lists are read from the database (which games), and each game's summary from its session (from memory when the
game is there, else rebuilt from its log without being kept). Live updates go through the ``PubSub`` interface,
so that a multi-process deployment carries them across processes:

- channel ``"lobby"``: a notice (the message is ``"lobby"``) whenever a game enters or leaves a list (created,
  joined, finished), and at most every ``MOVES_EVERY`` seconds when only move counts changed;
- channel ``"player:<id>"``: a notice whenever a game of that player changes.

The lobby WebSocket (``/api/lobby/ws``) sends ``{"type": "lobby", "open", "live", "finished", "mine"}`` at once
and again after each notice; the lists of one notice are made once per process and shared by every socket.
"""

from __future__ import annotations

import asyncio
import collections
import time
from typing import TYPE_CHECKING, Any, Literal

import sqlalchemy as sa

from keima.rules.board import BLACK, WHITE
from keima.server.schemas import Color
from keima.server.schemas_players import GameSummary, LobbyOut, PlayerBrief
from keima.server.session import GameSession
from keima.server.store import from_row, game_players, games
from keima.server.view import bot_name, color_out

if TYPE_CHECKING:
    from keima.server.hub import Hub

Status = Literal["open", "live", "finished"]
LOBBY = "lobby"
MOVES_EVERY = 2.0
LIST_LIMIT = 30
FRESH = 0.5


def player_channel(player_id: str) -> str:
    """The pub/sub channel of one player's games."""
    return f"player:{player_id}"


def clock_words(spec: dict[str, Any]) -> str | None:
    """The time control in words, as SGF ``OT`` and the lobby show it: ``"5x30 byo-yomi"``, ``"10/300
    Canadian"``, ``"10 s Fischer"``, ``"absolute"``; None for no clock."""
    kind = spec.get("type", "none")
    if kind == "byoyomi":
        return f"{spec['periods']}x{spec['period']:g} byo-yomi"
    if kind == "canadian":
        return f"{spec['stones']}/{spec['period']:g} Canadian"
    if kind == "fischer":
        cap = f", max {spec['max']:g} s" if spec.get("max") else ""
        return f"{spec['increment']:g} s Fischer{cap}"
    if kind == "absolute":
        return "absolute"
    return None


def status_of(s: GameSession) -> Literal["open", "waiting", "live", "finished"]:
    """``"finished"``, ``"open"`` (a challenge waiting for anyone), ``"waiting"`` (an invitation not taken
    yet) or ``"live"``."""
    if s.game.phase == "finished":
        return "finished"
    if s.invite_hash is not None:
        return "open" if s.mode == "open" else "waiting"
    return "live"


def summary(s: GameSession, spectators: int, now: float, you: frozenset[int] = frozenset()) -> GameSummary:
    """The lobby's summary of a game (``you``: the seats the reader holds, for "my games")."""
    seated: dict[Color, PlayerBrief | None] = {}
    for c in (BLACK, WHITE):
        if c == s.bot_color:
            seated[color_out(c)] = PlayerBrief(name=bot_name(s.bot_level), rank=None, kind="bot")
        elif c in s.people:
            p = s.people[c]
            seated[color_out(c)] = PlayerBrief(name=p["name"], rank=p.get("rank"), kind="human")
        elif s.seats.get(c) is not None:
            seated[color_out(c)] = PlayerBrief(name=None, rank=None, kind="human")
        else:
            seated[color_out(c)] = None
    g = s.game
    spec = s.clock.spec.as_dict()
    left = None
    if s.clock.enabled:
        left = {color_out(c): round(s.clock.time_left(c, now), 1) for c in (BLACK, WHITE)}
    return GameSummary(
        id=s.id, size=g.size, rules=g.rules.name, komi=g.komi, handicap=g.handicap,
        clock=spec if s.clock.enabled else None, clock_text=clock_words(spec), status=status_of(s),
        mode=s.mode, players=seated, moves=len(g.moves), to_move=color_out(g.to_move), result=g.result,
        phase=g.phase, spectators=spectators, created_at=s.created_at.isoformat(),
        you=[color_out(c) for c in sorted(you)], time_left=left,
    )


class Lobby:
    """The lists and their notices for one server process (``app.state.lobby``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._seen: dict[str, tuple[str, int]] = {}
        self._last_moves_notice = 0.0
        self._moves_pending: asyncio.TimerHandle | None = None
        self._cache: tuple[int, float, str] | None = None
        self._cache_lock = asyncio.Lock()
        # Summaries of finished games read from the store, by (game, reader): a finished game does not change
        # (a rename clears them), and finished games leave memory, so each list would replay them again.
        self._finished: collections.OrderedDict[tuple[str, str | None], GameSummary] = collections.OrderedDict()
        hub.listeners.append(self.on_change)

    # -- notices -------------------------------------------------------------------------------------------
    def notify(self) -> None:
        """Tell every lobby socket (in every process) that the lists changed."""
        self.hub.pubsub.publish(LOBBY, time.time_ns(), LOBBY)

    def on_change(self, s: GameSession) -> None:
        """Hub listener: a notice on the lobby channel when a game enters or leaves a list, a throttled one when
        only its move count changed, and one on each seated player's channel."""
        for person in s.people.values():
            self.hub.pubsub.publish(player_channel(person["id"]), time.time_ns(), "mine")
        status, moves = status_of(s), len(s.game.moves)
        before = self._seen.get(s.id)
        self._seen[s.id] = (status, moves)
        if len(self._seen) > 20_000:
            self._seen.clear()
        if before is None or before[0] != status:
            self.notify()
        elif before[1] != moves and status == "live":
            self._notify_moves()

    def _notify_moves(self) -> None:
        if self._moves_pending is not None:
            return
        wait = self._last_moves_notice + MOVES_EVERY - time.monotonic()

        def fire() -> None:
            self._moves_pending = None
            self._last_moves_notice = time.monotonic()
            self.notify()

        if wait <= 0:
            fire()
        else:
            self._moves_pending = asyncio.get_running_loop().call_later(wait, fire)

    # -- reading -------------------------------------------------------------------------------------------
    def _ids(self, status: Status, size: int | None, limit: int, player_id: str | None) -> list[str]:
        q = sa.select(games.c.id)
        if status == "open":
            q = q.where(games.c.mode == "open", games.c.invite_hash.is_not(None), games.c.phase != "finished")
        elif status == "live":
            q = q.where(games.c.phase != "finished")
            if player_id is None:
                q = q.where(games.c.invite_hash.is_(None))
        else:
            q = q.where(games.c.phase == "finished")
        if size is not None:
            q = q.where(games.c.params["size"].as_integer() == size)
        if player_id is not None:
            q = q.where(games.c.id.in_(sa.select(game_players.c.game_id).where(game_players.c.player_id == player_id)))
        order = games.c.updated_at if status == "finished" else games.c.created_at
        q = q.order_by(order.desc(), games.c.id).limit(limit)
        with self.hub.store.engine.connect() as conn:
            return [r.id for r in conn.execute(q)]

    def _load(self, game_id: str) -> GameSession | None:
        stored = self.hub.store.load(game_id)
        if stored is None:
            return None
        try:
            return from_row(stored.row, stored.entries, stored.people)
        except Exception:  # a game whose log does not replay is left out of the lists (GET shows the error)
            return None

    async def games(self, status: Status, *, size: int | None = None, limit: int = LIST_LIMIT,
                    player_id: str | None = None) -> list[GameSummary]:
        """The summaries of the newest games with ``status`` (of ``player_id`` only, when given: then ``live``
        includes their open and waiting games), at most ``limit``."""
        loop = asyncio.get_running_loop()
        ids = await loop.run_in_executor(None, self._ids, status, size, limit, player_id)
        out: list[GameSummary] = []
        watchers = await self.hub.pubsub.watchers(ids)
        now = time.monotonic()
        for gid in ids:
            kept = self._finished.get((gid, player_id)) if status == "finished" else None
            if kept is not None:
                out.append(kept)
                continue
            s = self.hub.sessions.get(gid)
            if s is None or s.broken:
                s = await loop.run_in_executor(None, self._load, gid)
                if s is None:
                    continue
            you = frozenset(c for c, p in s.people.items() if p["id"] == player_id) if player_id else frozenset()
            one = summary(s, watchers.get(gid, 0), now, you)
            if one.status == "finished":
                self._finished[(gid, player_id)] = one
                if len(self._finished) > 5000:
                    self._finished.popitem(last=False)
            out.append(one)
        return out

    def forget_names(self) -> None:
        """Drop the kept summaries of finished games (a player's name or rank changed)."""
        self._finished.clear()

    async def lists_json(self, version: int) -> str:
        """The JSON object body of the three lobby lists as of notice ``version`` (made once per notice; a
        reader that has seen no notice yet, version 0, gets lists at most ``FRESH`` seconds old)."""
        async with self._cache_lock:
            if self._cache is not None:
                cached_version, made, text = self._cache
                if (version and cached_version >= version) or (not version and time.monotonic() - made < FRESH):
                    return text
            lists = LobbyOut(type="lobby", open=await self.games("open"), live=await self.games("live"),
                             finished=await self.games("finished"), mine=None)
            text = lists.model_dump_json(exclude={"mine"})
            self._cache = (version, time.monotonic(), text)
            return text

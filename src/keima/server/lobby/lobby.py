"""The lobby: open challenges, live games and finished games as short summaries, "my games", and their live
updates.

Lists are read from the database: each game's line is stored with it at each change (``summary`` on ``games``,
``keima.server.games.summary.summary_line``), never rebuilt from its log. Live updates go through the ``PubSub`` interface,
so that a multi-process deployment carries them across processes:

- channel ``"lobby"``: a notice (the message is ``"lobby"``) whenever a game enters or leaves a list (created,
  joined, finished), and at most every ``MOVES_EVERY`` seconds when only move counts changed;
- channel ``"player:<id>"``: a notice whenever a game of that player changes.

The lobby WebSocket (``/api/lobby/ws``) sends ``{"type": "lobby", "open", "live", "finished", "mine"}`` at once
and again after each notice; the lists of one notice are made once per process and shared by every socket.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Literal, cast

from keima.server import timesource
from keima.server.games import (
    Color,
    GameEvent,
    GameSession,
    from_row,
    line_at,
    status_of,
    summary_line,
    turn_order,
)
from keima.server.games import reads as store_reads
from keima.server.live import player_channel
from keima.server.lobby.schemas import GameSummary, LobbyOut
from keima.server.ratings import ShownRank, bot_players, shown_ranks

if TYPE_CHECKING:
    from keima.server.games import Hub

Status = Literal["open", "live", "finished"]
LOBBY = "lobby"
MOVES_EVERY = 2.0
LIST_LIMIT = 30
FRESH = 0.5


class Lobby:
    """The lists and their notices for one server process (``app.state.lobby``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._seen: dict[str, tuple[str, int]] = {}
        self._last_moves_notice = 0.0
        self._moves_pending: asyncio.TimerHandle | None = None
        self._cache: tuple[int, float, str] | None = None
        self._changes = 0  # notices sent from this process (a list read across one is not kept)
        self._cache_lock = asyncio.Lock()
        hub.service.listeners.append(self.on_change)
        hub.cache.on_evict.append(self._forget)

    def _forget(self, game_id: str) -> None:
        # A game's last lobby reading lives as long as the game in memory (a game read again is news to the lists).
        self._seen.pop(game_id, None)

    # -- notices -------------------------------------------------------------------------------------------
    def notify(self) -> None:
        """Tell every lobby socket (in every process) that the lists changed."""
        # The lists made before this change must not go to a socket that opens now: it would never hear of the
        # change (its notice went out before it subscribed).
        self._cache = None
        self._changes += 1
        self.hub.pubsub.publish(LOBBY, time.time_ns(), LOBBY)

    def on_change(self, s: GameSession, events: list[GameEvent]) -> None:
        """Game service listener: a notice on the lobby channel when a game enters or leaves a list or a player
        changes their name, a throttled one when only its move count changed, and one on each seated player's
        channel."""
        for person in s.people.values():
            self.hub.pubsub.publish(player_channel(person["id"]), time.time_ns(), "mine")
        status, moves = status_of(s), len(s.game.moves)
        before = self._seen.get(s.id)
        self._seen[s.id] = (status, moves)
        if len(self._seen) > 20_000:  # a bound whatever happens to the games (they leave by _forget)
            self._seen.clear()
        if before is None or before[0] != status or any(e.type in ("renamed", "withdrawn", "rated") for e in events):
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
    async def games(self, status: Status, *, size: int | None = None, limit: int = LIST_LIMIT,
                    player_id: str | None = None) -> list[GameSummary]:
        """The summaries of the newest games with ``status`` (of ``player_id`` only, when given: then ``live``
        includes their open and waiting games, those waiting for the player's move first, the least time left
        first), at most ``limit``: the lines stored with the games as of now, with the number of spectators
        (``PubSub.watchers``: never the players) and the reader's seats."""
        loop = asyncio.get_running_loop()
        engine = self.hub.store.engine
        rows = await loop.run_in_executor(None, store_reads.game_lines, engine, status, size, limit, player_id)
        out = await self.summaries(rows, player_id)
        return turn_order(out) if player_id is not None and status == "live" else out

    async def summaries(self, rows: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]],
                        reader_id: str | None) -> list[GameSummary]:
        """The summaries of games read as ``(id, stored lobby line or None, people)``, in that order, with the
        number of spectators, the seats ``reader_id`` holds (``you``), and each player's rank as shown now
        (``keima.server.ratings.shown``: earned, else the rank typed when they took the seat; a bot level's, else
        its starting rank), their ratings read in one query for the whole list."""
        loop = asyncio.get_running_loop()
        watchers = await self.hub.pubsub.watchers([gid for gid, _line, _people in rows])
        typed = {str(p["id"]): p.get("rank") for _gid, _line, people in rows for p in (people or {}).values()
                 if p.get("id") and not p.get("deleted")}
        bots = self._bot_keys(rows)
        typed.update({key: bot_players.starting_rank(level) for key, level in bots.values()})
        ranks = await loop.run_in_executor(None, shown_ranks, self.hub.store.engine, typed) if typed else {}
        out: list[GameSummary] = []
        now = timesource.now()
        for gid, line, people in rows:
            if line is None:  # a game stored before lines were: made once from its log
                line = await loop.run_in_executor(None, self._backfill, gid)
                if line is None:
                    continue
            you = [cast(Color, c) for c, p in sorted((people or {}).items())
                   if reader_id and p.get("id") == reader_id]
            seats = {c: str(p.get("id")) for c, p in (people or {}).items()}
            seats.update({c: key for (g, c), (key, _level) in bots.items() if g == gid})
            out.append(GameSummary(**_ranked(line_at(line, now), seats, ranks), spectators=watchers.get(gid, 0),
                                   you=you))
        return out

    def _bot_keys(self, rows: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]],
                  ) -> dict[tuple[str, str], tuple[str, str]]:
        # (game, colour) -> (the bot level's key in the ratings, the level), found by the name the line shows.
        found: dict[tuple[str, str], tuple[str, str]] = {}
        for gid, line, _people in rows:
            for c, seat in ((line or {}).get("players") or {}).items():
                if seat and seat.get("kind") == "bot" and seat.get("name"):
                    level = bot_players.level_named(seat["name"], self.hub.bots.engines)
                    if level is not None:
                        found[(gid, c)] = (bot_players.key(level), level)
        return found

    def _backfill(self, game_id: str) -> dict[str, Any] | None:
        stored = self.hub.store.load(game_id)
        if stored is None:
            return None
        try:
            s = from_row(stored.row, stored.entries, stored.people)
        except Exception:  # a game whose log does not replay is left out of the lists (GET shows the error)
            return None
        line = summary_line(s, timesource.now())
        store_reads.save_line(self.hub.store.engine, game_id, line)
        return line

    async def lists_json(self, version: int) -> str:
        """The JSON object body of the three lobby lists as of notice ``version`` (made once per notice; a
        reader that has seen no notice yet, version 0, gets lists at most ``FRESH`` seconds old)."""
        async with self._cache_lock:
            if self._cache is not None:
                cached_version, made, text = self._cache
                if (version and cached_version >= version) or (not version and time.monotonic() - made < FRESH):
                    return text
            changes = self._changes
            lists = LobbyOut(type="lobby", open=await self.games("open"), live=await self.games("live"),
                             finished=await self.games("finished"), mine=None)
            text = lists.model_dump_json(exclude={"mine", "now"})
            if changes == self._changes:  # not kept when a change came while the lists were read
                self._cache = (version, time.monotonic(), text)
            return text


def _ranked(line: dict[str, Any], seats: dict[str, str], ranks: dict[str, ShownRank]) -> dict[str, Any]:
    # The stored line with the rank of now of each seat's player (``seats``: colour -> their id in the ratings),
    # a copy: the line may be shared.
    seated = dict(line.get("players") or {})
    for color, pid in seats.items():
        shown = ranks.get(pid)
        if shown is not None and seated.get(color) is not None:
            seated[color] = {**seated[color], "rank": shown.rank, "provisional": shown.provisional}
    return {**line, "players": seated}

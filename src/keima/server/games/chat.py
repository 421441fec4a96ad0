"""Chat in a game, and the game's SGF with its players, clock and chat.

A message is stored in the game's log as an entry ``{"chat": {"n", "from", "text", "at", "to", "player", "sender"}}``
(``n``: the number of moves played when it was sent; ``sender`` the handle a reader mutes, keima.server.accounts.mutes), so it is kept with the game, replays with it, and goes to
every viewer in the state (``GameState.chat``) like any change. Two chats: ``"players"`` (only seated players
write there) and ``"spectators"`` (everyone else); both are shown to everyone, the UI lets players hide the
spectators'. Text is kept as plain text: clients must show it as text, never as HTML.

In the SGF each message becomes a line of the ``C[]`` comment of the move after which it was sent (the root for
messages before the first move), as OGS does.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from datetime import UTC
from typing import Any

from keima.record import dump_sgf
from keima.rules.board import BLACK, WHITE, color_word
from keima.server import timesource
from keima.server.accounts import Limiter, Limits, Player, clean_text, rank_words, too_many
from keima.server.errors import Refused
from keima.server.games.clock import clock_words
from keima.server.games.hub import Hub
from keima.server.games.session import GameSession
from keima.server.games.view import bot_name

CHAT_LIMIT = 3  # messages per second and per sender
CHAT_WINDOW = 1.0


class Chat:
    """Chat of one server process: the rate limit per sender (``app.state.chat``), kept in Redis when ``limits``
    is (cluster mode: one limit across the processes)."""

    def __init__(self, hub: Hub, limits: Limits | None = None, handle: Callable[[str], str] | None = None,
                 check: Callable[[str | None], Awaitable[None]] | None = None) -> None:
        self.hub = hub
        # Raises the refusal of a player a moderator muted or suspended (keima.server.accounts.standing).
        self.check = check
        # The public handle of a sender (keima.server.accounts.mutes.Mutes.handle), which each message carries.
        self.handle = handle
        self.rate: Limiter = (limits or Limits()).limiter("chat", CHAT_LIMIT, CHAT_WINDOW)

    async def post(self, game_id: str, action: dict[str, Any], thash: str | None, player: Player | None) -> GameSession:
        """Add a chat message (a validated ``ChatAction`` dict) from a caller holding the seat token with hash
        ``thash`` and/or logged in as ``player``, through the game service; returns the session once the message
        is stored and published.

        Raises ``Refused`` ``not-your-seat`` for the players' chat from a spectator or the spectators' chat from a
        player, ``no-player`` for a spectator without a player (no name to show), ``invalid-request`` for an
        empty or too long text, ``too-many-requests`` for more than ``CHAT_LIMIT`` messages a second from one
        sender, ``storage-error`` when it could not be stored."""
        text = clean_text(action["text"])
        to = action.get("to") or "players"
        s = await self.hub.cache.get(game_id)
        seats = s.seats.held_by(thash)
        # A seat of a registered account writes as that account even without its session (logged out, or an API
        # client holding the seat token): its mute, suspension or ban, and the blocks, hold all the same.
        account = player.id if player is not None else _seat_account(s, seats)
        if self.check is not None and account is not None:
            await self.check(account)
        sender = self._sender(s, seats, to, thash, player)[1]
        wait = await self.rate.check(sender)
        if wait:
            raise too_many(wait, "chat messages")

        def do(cur: GameSession) -> dict[str, Any]:
            name, key = self._sender(cur, cur.seats.held_by(thash), to, thash, player)
            message = {"n": len(cur.game.moves), "from": name, "text": text,
                       "at": timesource.now_utc().isoformat(timespec="seconds"), "to": to,
                       "player": player.id if player is not None else _seat_account(cur, cur.seats.held_by(thash)),
                       "sender": None if self.handle is None else self.handle(key)}
            return cur.post_chat(message)

        return await self.hub.service.change(game_id, do)

    @staticmethod
    def _sender(s: GameSession, seats: frozenset[int], to: str, thash: str | None,
                player: Player | None) -> tuple[str, str]:
        # (the name shown, the key of the rate limit) of the caller, or the refusal of their message.
        if to == "players" and not seats:
            raise Refused("not-your-seat", "only the players write in the players' chat: "
                          "spectators write to \"spectators\"", field="to")
        if to == "spectators" and seats:
            raise Refused("not-your-seat", "players write in the players' chat, not the "
                          "spectators'", field="to")
        if player is not None:
            return player.name, "p:" + player.id
        if seats:
            c = min(seats)
            account = _seat_account(s, seats)
            return (s.people.get(c, {}).get("name") or color_word(c),
                    "t:" + str(thash) if account is None else "p:" + account)
        raise Refused("no-player", "spectators need a player name to chat: open the home page first")


def _seat_account(s: GameSession, seats: frozenset[int]) -> str | None:
    """The registered or guest account holding the seats ``seats`` of game ``s`` (None: a seat token alone)."""
    ids = {s.people.get(c, {}).get("id") for c in seats} - {None}
    return next(iter(ids)) if len(ids) == 1 else None


def sgf_info(s: GameSession, place: str | None = None) -> dict[str, str]:
    """The game-information properties of a game's SGF: ``PB``/``PW`` (the players' names; the bot's with its
    level), ``BR``/``WR`` (ranks, e.g. "3 dan"), ``DT`` (the date it began), ``TM`` (main time, seconds),
    ``OT`` (overtime in words), ``PC`` (the server: ``place``, default ``KEIMA_SERVER_NAME`` or "keima"),
    ``GN`` (the game's name), and for a tournament's game ``EV`` (the tournament's name) and ``RO`` (the round,
    with its table: ``"3 (table 2)"``)."""
    info: dict[str, str] = {}
    names: dict[int, str] = {}
    for c, (name_key, rank_key) in ((BLACK, ("PB", "BR")), (WHITE, ("PW", "WR"))):
        if c == s.bot_color:
            names[c] = bot_name(s.bot_level)
        elif c in s.people:
            names[c] = s.people[c]["name"]
            rank = rank_words(s.people[c].get("rank"))
            if rank:
                info[rank_key] = rank
        if c in names:
            info[name_key] = names[c]
    info["DT"] = s.created_at.astimezone(UTC).date().isoformat()
    if s.clock.enabled:
        spec = s.clock.spec.as_dict()
        info["TM"] = f"{spec.get('main', 0):g}"
        words = clock_words(spec)
        if words and spec["type"] != "absolute":
            info["OT"] = words
    info["PC"] = place or os.environ.get("KEIMA_SERVER_NAME") or "keima"
    b, w = names.get(BLACK, "Black"), names.get(WHITE, "White")
    info["GN"] = f"{b} vs {w} ({s.id})"
    event = s.params.get("event")
    if isinstance(event, dict):
        info["EV"] = str(event.get("name", ""))
        info["RO"] = f"{event.get('round')} (table {event.get('table')})"
    return info


def game_sgf(s: GameSession, place: str | None = None) -> str:
    """The game's SGF: ``dump_sgf`` with ``sgf_info`` and the chat as ``C[]`` comments (each message on a
    line "name: text", spectators' messages marked), on the node of the move after which it was sent."""
    text = dump_sgf(s.game, sgf_info(s, place))
    if not s.chat:
        return text
    from sgfmill import sgf

    tree = sgf.Sgf_game.from_string(text)
    nodes = tree.get_main_sequence()
    # Node k of the main line after the root holds move k; a setup-only first node holds none.
    moved = [nodes[0]] + [n for n in nodes[1:] if n.get_move() != (None, None)]
    for m in s.chat:
        node = moved[min(int(m["n"]), len(moved) - 1)]
        who = m["from"] if m["to"] == "players" else f"{m['from']} (spectator)"
        line = f"{who}: {m['text']}"
        old = node.get("C") if node.has_property("C") else ""
        node.set("C", f"{old}\n{line}" if old else line)
    out: bytes = tree.serialise()
    return out.decode("utf-8")

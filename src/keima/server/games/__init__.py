"""Games: a game held by the server (the referee's game, its clock, seats, chat), the one write path that changes it
(the game service) and its events, the games in memory, the state view sent to clients, the computer seats,
the timers and the scheduler, conditional moves, and the routes and the socket of a game.
"""

from __future__ import annotations

from keima.server.games import conditional_routes, reads, routes
from keima.server.games.away import AwaySettings, away_of
from keima.server.games.chat import Chat, game_sgf
from keima.server.games.clock import CORRESPONDENCE_PRESETS, duration_words
from keima.server.games.events import GameEvent
from keima.server.games.hub import Hub
from keima.server.games.newgame import build, new_game_id, seat_opponent
from keima.server.games.outbox import Subscriber
from keima.server.games.pauses import zone
from keima.server.games.rows import from_row
from keima.server.games.scheduler import Handler
from keima.server.games.schemas import ClockIn, Color
from keima.server.games.seats import cname, token_hash
from keima.server.games.service import REMIND, REMIND_S, WARN, WARN_S, GameService
from keima.server.games.session import GameSession
from keima.server.games.summary import line_at, status_of, summary_line, turn_order
from keima.server.games.view import bot_name

__all__ = [
    "AwaySettings", "CORRESPONDENCE_PRESETS", "Chat", "ClockIn", "Color", "GameEvent", "GameService",
    "GameSession", "Handler", "Hub", "Subscriber", "REMIND", "REMIND_S", "WARN", "WARN_S", "away_of", "bot_name",
    "build", "cname", "conditional_routes", "duration_words", "from_row", "game_sgf", "new_game_id",
    "reads", "routes", "seat_opponent", "status_of", "summary_line", "line_at", "turn_order", "token_hash", "zone"
]

"""The lobby: open challenges, live and finished games as short summaries, "my games", and the lobby's socket.
"""

from __future__ import annotations

from keima.server.lobby import routes
from keima.server.lobby.lobby import LOBBY, Lobby
from keima.server.lobby.schemas import GameSummary

__all__ = [
    "GameSummary", "LOBBY", "Lobby", "routes"
]

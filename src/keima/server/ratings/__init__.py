"""Ratings from rated games: the durable subscriber that rates each finished rated game (the mathematics is
``keima.ratings``), the players' records of wins and losses, the bots as rated players, and the endpoints of a
player's rank, rating and history.
"""

from __future__ import annotations

from keima.server.ratings import bot_players, records, routes, subscriber
from keima.server.ratings.routes import find_player
from keima.server.ratings.subscriber import has_rated_game, rating_of

__all__ = [
    "bot_players", "find_player", "has_rated_game", "rating_of", "records", "routes", "subscriber"
]

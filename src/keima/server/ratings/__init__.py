"""Ratings from rated games: the durable subscriber that rates each finished rated game (the mathematics is
``keima.ratings``), the players' records of wins and losses, the bots as rated players, and the endpoints of a
player's rank, rating and history; the rank shown beside every name (``shown``).
"""

from __future__ import annotations

from keima.server.ratings import bot_players, bot_routes, records, routes, shown, subscriber
from keima.server.ratings.routes import find_player
from keima.server.ratings.shown import ShownRank, rank_of, shown_rank, shown_ranks, with_shown_rank
from keima.server.ratings.subscriber import has_rated_game, rating_of

__all__ = [
    "ShownRank", "bot_players", "bot_routes", "find_player", "has_rated_game", "rank_of", "rating_of", "records", "routes", "shown",
    "shown_rank", "shown_ranks", "subscriber", "with_shown_rank"
]

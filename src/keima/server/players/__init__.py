"""What a player does with their account: registering, logging in and out, their settings and vacation, deleting
the account, muting chat senders, and the games and opponents their page lists.
"""

from __future__ import annotations

from keima.server.players import games_routes, mutes_routes, routes

__all__ = [
    "games_routes", "mutes_routes", "routes"
]

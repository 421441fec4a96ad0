"""Tournaments on the server: the director's and players' changes as a stored state, their storage, the endpoints,
the online rounds played as keima games with their results carried to the standings, the relays of tables
played at the table on demo boards, and the files for the federations (the pairing and the standings themselves
are ``keima.tournament``).
"""

from __future__ import annotations

from keima.server.tournaments import player_routes, relays, results, round_routes, rounds, routes

__all__ = [
    "player_routes", "relays", "results", "round_routes", "rounds", "routes"
]

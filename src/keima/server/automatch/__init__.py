"""Automatch: which waiting players make a pair and the game they get, the queue in the database shared by every
process, the matchmaker that makes the games, and its endpoints.
"""

from __future__ import annotations

from keima.server.automatch import routes
from keima.server.automatch.matchmaker import MATCHED_PREFIX, Matchmaker, matched_json

__all__ = [
    "MATCHED_PREFIX", "Matchmaker", "matched_json", "routes"
]

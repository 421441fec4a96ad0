"""Clubs: a club's page and its members with their roles, its ladder (rules, challenges, the ladder games made
through the game service and their results read from the games' end events), its announcements to the members'
bells, and the lines of the FFG rating list of its club code proposed to its members (docs/clubs.md).
"""

from __future__ import annotations

from keima.server.clubs import challenge_routes, ladder_routes, routes
from keima.server.clubs.ladder_games import SUBSCRIBER
from keima.server.clubs.store import MEMBER_ROLES, leave_all, role_at, withdraw_between

__all__ = ["MEMBER_ROLES", "SUBSCRIBER", "challenge_routes", "ladder_routes", "leave_all", "role_at", "routes",
           "withdraw_between"]

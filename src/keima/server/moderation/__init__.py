"""Moderation and fair play (docs/moderation.md): a player's blocks and standing as the API shows them, reports,
the moderators (named from the command line: ``keima admin``), their queue, actions and audit log. The rules a
block or a sanction puts on games, chat and notifications are enforced where those live, through
``keima.server.accounts.Standing``.
"""

from __future__ import annotations

from keima.server.moderation import routes, store
from keima.server.moderation.service import MAX_REPORTS_PER_HOUR, Moderation

__all__ = ["MAX_REPORTS_PER_HOUR", "Moderation", "routes", "store"]

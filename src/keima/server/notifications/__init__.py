"""What a player is told: the bell in the page and email, made once from the game events, the daily digest, the
player's choices of what to be told and how, and the mailer that sends the queued emails.
"""

from __future__ import annotations

from keima.server.notifications import count_reminder, notify, routes
from keima.server.notifications.mailer import Mailer, Smtp
from keima.server.notifications.notify import prefs_of, unread_count
from keima.server.notifications.preferences import update_settings
from keima.server.notifications.schemas import NotifyKind, NotifyPref

__all__ = [
    "Mailer", "NotifyKind", "NotifyPref", "Smtp", "count_reminder", "notify", "prefs_of", "routes", "unread_count",
    "update_settings"
]

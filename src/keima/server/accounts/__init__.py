"""Who a player is: guests and registered accounts, their sessions, passwords and names, the rate limits on what
creates or guesses, the muted chat senders, a player's stored settings (time zone, vacation days, email, language),
and the helpers that tell which player and which seat a request comes from.
"""

from __future__ import annotations

from keima.server.accounts.limits import ChatFlood, Limiter, Limits
from keima.server.accounts.mutes import Mutes, without_muted_delta, without_muted_state
from keima.server.accounts.requests import (
    SEAT_COOKIE_PREFIX,
    address,
    caller_player,
    caller_token,
    chat_player,
    check_chat_flood,
    is_https,
    needs_player,
    players_of,
    required_player,
    set_session_cookie,
)
from keima.server.accounts.service import SESSION_COOKIE, Player, Players, load_secret, name_key, too_many
from keima.server.accounts.settings import Away, as_datetime, read, upsert

# -- moderation (issue 47) --
from keima.server.accounts.standing import (
    Held,
    Standing,
    barred_among,
    blocked_among,
    blocked_pair,
    read_held,
)
from keima.server.accounts.text import CHAT_MAX, clean_text, name_folds, rank_words, reserved_reason, visible

__all__ = [
    "Away", "CHAT_MAX", "ChatFlood", "Limiter", "Limits", "Mutes", "Player", "Players",
    "SEAT_COOKIE_PREFIX", "SESSION_COOKIE", "address", "as_datetime", "caller_player", "caller_token",
    "chat_player", "check_chat_flood", "clean_text", "is_https", "load_secret", "name_key", "needs_player",
    "players_of", "rank_words", "read", "required_player", "set_session_cookie", "too_many", "upsert",
    "without_muted_delta", "without_muted_state",
    # -- moderation (issue 47) --
    "Held", "Standing", "barred_among", "blocked_among", "blocked_pair", "read_held",
    # -- clubs (issue 46): club names are checked as player names are
    "name_folds", "reserved_reason", "visible",
]

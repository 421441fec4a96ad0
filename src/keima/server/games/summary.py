"""A game in one line, as the lobby, "my games" and the players' pages list it: its status, whether it counts for the
ratings, and the summary stored in its ``games`` row (``summary_line``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from keima.rules.board import BLACK, WHITE
from keima.server.games.clock import clock_words

if TYPE_CHECKING:

    pass
from keima.server.games.view import ViewedGame, bot_name, color_out, counts_as_rated, shown_of, wall_time


def status_of(s: ViewedGame) -> Literal["open", "waiting", "live", "finished"]:
    """``"finished"``, ``"open"`` (a challenge waiting for anyone), ``"waiting"`` (an invitation not taken
    yet) or ``"live"``."""
    if s.game.phase == "finished":
        return "finished"
    if s.invite_hash is not None:
        return "open" if s.mode == "open" else "waiting"
    return "live"


def summary_line(s: ViewedGame, now: float) -> dict[str, Any]:
    """The lobby's line of a game as it is stored with it (``GameSummary`` but ``spectators`` and ``you``, which
    depend on the reader), its clock read as of ``now``: ``time_left`` of each side as of ``time_at`` (the
    server's Unix time), ``running`` the side whose clock runs."""
    seated: dict[str, dict[str, Any] | None] = {}
    for c in (BLACK, WHITE):
        if c == s.bot_color:
            seated[color_out(c)] = {"name": bot_name(s.bot_level), "rank": None, "kind": "bot"}
        elif c in s.people:
            p = s.people[c]
            rank, provisional = shown_of(p)
            seated[color_out(c)] = {"name": p["name"], "rank": rank, "provisional": provisional, "kind": "human"}
        elif s.seats.get(c) is not None:
            seated[color_out(c)] = {"name": None, "rank": None, "kind": "human"}
        else:
            seated[color_out(c)] = None
    g = s.game
    spec = s.clock.spec.as_dict()
    left = None
    if s.clock.enabled:
        left = {color_out(c): round(s.clock.time_left(c, now), 1) for c in (BLACK, WHITE)}
    return {
        "id": s.id, "size": g.size, "rules": g.rules.name, "komi": g.komi, "handicap": g.handicap,
        "clock": spec if s.clock.enabled else None, "clock_text": clock_words(spec), "status": status_of(s),
        "mode": s.mode, "players": seated, "moves": len(g.moves), "to_move": color_out(g.to_move),
        "result": g.result, "phase": g.phase, "created_at": s.created_at.isoformat(), "time_left": left,
        "time_at": wall_time(now) if left is not None else None,
        "running": None if s.clock.running is None else color_out(s.clock.running),
        "rated": counts_as_rated(s), "rating_change": s.rating_change,
        "paused": {color_out(c): s.clock.paused(c, now) if s.clock.running == c else None for c in (BLACK, WHITE)}
        if s.clock.enabled and s.clock.spec.correspondence else None,
    }

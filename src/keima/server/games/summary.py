"""A game in one line, as the lobby, "my games" and the players' pages list it: its status, whether it counts for the
ratings, and the summary stored in its ``games`` row (``summary_line``), read as of the reader's time
(``line_at``: a correspondence clock's pauses begin and end between two changes of the game)."""

from __future__ import annotations

from typing import Any, Literal

from keima.rules.board import BLACK, WHITE
from keima.server.games import pauses
from keima.server.games.clock import clock_words
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
        "rated": counts_as_rated(s), "rating_change": s.rating_change or None,
        "paused": {color_out(c): s.clock.paused(c, now) if s.clock.running == c else None for c in (BLACK, WHITE)}
        if s.clock.enabled and s.clock.spec.correspondence else None,
        # What pauses the running clock, for ``line_at`` (not sent).
        "pause": _pause_dict(s.clock.pause_of(s.clock.running))
        if s.clock.enabled and s.clock.spec.correspondence and s.clock.running is not None else None,
    }


def _pause_dict(p: pauses.Pause) -> dict[str, Any]:
    return {"weekend": p.weekend, "tz": p.tz, "away": None if p.away is None else list(p.away)}


def line_at(line: dict[str, Any], now: float) -> dict[str, Any]:
    """A stored line (``summary_line``) as of ``now``, the server's Unix time: the running correspondence clock
    charged for the time since the line was made, its pauses left out, and whether it is paused now; without what
    ``GameSummary`` does not carry. A line made before lines kept their pauses is returned as it was stored."""
    out = {k: v for k, v in line.items() if k != "pause"}
    p, run, at, left = line.get("pause"), line.get("running"), line.get("time_at"), line.get("time_left")
    if not isinstance(p, dict) or run not in ("B", "W") or not isinstance(at, (int, float)) or not left:
        return out
    away = p.get("away")
    pause = pauses.Pause(weekend=bool(p.get("weekend")), tz=p.get("tz"),
                         away=(float(away[0]), float(away[1])) if isinstance(away, list) and len(away) == 2 else None)
    out["time_left"] = {**left, run: round(max(0.0, float(left[run]) - pauses.counted(pause, float(at), now)), 1)}
    out["time_at"] = round(now, 3)
    if out.get("paused") is not None:
        out["paused"] = {**out["paused"], run: pauses.paused(pause, now)}
    return out


def turn_order(summaries: list[Any]) -> list[Any]:
    """``summaries`` (lobby lines of one reader's games, with ``you``) with the games waiting for the reader's move
    first, the least time left first (no clock: after those with one), then the others as they were."""

    def key(g: Any) -> tuple[int, float]:
        mine = g.status == "live" and g.phase in ("play", "handicap") and g.to_move in g.you
        if not mine:
            return (1, 0.0)
        left = (g.time_left or {}).get(g.to_move)
        return (0, float("inf") if left is None else float(left))

    return sorted(summaries, key=key)

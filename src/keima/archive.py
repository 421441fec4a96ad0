"""Checking an archive of SGF records: each replayed by the referee and counted (``keima check``, and the
workers' ``keima_check`` job)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from keima.rules.game import Game, GameError
from keima.rules.ruleset import RulesError, get_ruleset

#: Events that rebuild a position under other rules (marks, acceptances and endings are left out).
_POSITION_EVENTS = ("move", "handicap", "setup", "resume")


def replay_under(game: Game, rules: str) -> Game:
    """The position of ``game`` replayed under ruleset ``rules``; raises ``RulesError`` for an unknown ruleset,
    ``GameError`` when the moves are not legal under it."""
    ruleset = get_ruleset(rules)
    if game.handicap_stones and ruleset.handicap_placement != "either":
        ruleset = ruleset.replace(handicap_placement="either")
    events = [e for e in game.events if e.kind in _POSITION_EVENTS]
    return Game.replay(events, size=game.size, rules=ruleset, komi=game.komi, handicap=game.handicap,
                       placement=game.placement)


def check_record(name: str, source: Path | bytes, rules: str | None) -> dict[str, Any]:
    """Replay and count one record (``source``: a path, or the file's bytes); never raises for bad input.

    Returns ``{"file", "status", "recorded", "count", "illegal", "moves"}``: status "ok" (keima agrees with
    the record's result, or the record gives none), "differs", "illegal" (an illegal move: ``illegal`` says
    which) or "unreadable" (``illegal`` holds the reason)."""
    from keima.record import SgfError, load_record

    out: dict[str, Any] = {"file": name, "status": "ok", "recorded": None, "count": None, "illegal": None,
                           "moves": 0}
    try:
        record = load_record(source)
    except SgfError as exc:
        illegal = exc.move_number is not None
        out["status"] = "illegal" if illegal else "unreadable"
        out["illegal"] = (f"move {exc.move_number} {exc.point}: {exc.rule or exc.message}" if illegal
                          else exc.message)
        return out
    except (OSError, ValueError) as exc:
        out["status"] = "unreadable"
        out["illegal"] = str(exc)
        return out
    game = record.game
    out["recorded"] = record.result_text
    out["moves"] = game.move_number
    try:
        if rules is not None:
            game = replay_under(game, rules)
        if game.result is not None and game.phase == "finished" and not game.dead and _decisive(game.result):
            out["count"] = game.result  # resignation, time, forfeit: nothing to count
        else:
            dead = record.dead
            if dead is None and game.dead:
                dead = game.dead
            if dead is None and game.rules.dead_stones != "none":
                from keima.ai import estimate_dead

                dead = frozenset(estimate_dead(game))
            out["count"] = game.score(dead or frozenset()).result
    except (GameError, RulesError) as exc:
        out["status"] = "illegal"
        out["illegal"] = f"does not replay under the {rules} rules: {exc}"
        return out
    except Exception as exc:  # a record that replays but cannot be counted: reported, never a crash
        out["status"] = "unreadable"
        out["illegal"] = f"cannot count: {type(exc).__name__}: {exc}"
        return out
    if out["recorded"] and out["count"] and not _same(out["recorded"], out["count"]):
        out["status"] = "differs"
    return out


def _decisive(result: str) -> bool:
    return result.split("+", 1)[-1][:1] in ("R", "T", "F")


def _same(recorded: str, counted: str) -> bool:
    """True when the record's RE and keima's count name the same winner and margin (R/Resign, T/Time alike)."""
    def norm(r: str) -> str:
        r = r.strip()
        if r in ("0", "Draw", "Jigo", "B+0", "W+0"):
            return "0"
        if "+" not in r:
            return r
        side, how = r.split("+", 1)
        how = {"Resign": "R", "Time": "T", "Forfeit": "F"}.get(how, how)
        with contextlib.suppress(ValueError):
            how = f"{float(how):g}"
        return f"{side.upper()}+{how}"

    return norm(recorded) == norm(counted)



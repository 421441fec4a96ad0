"""The SQL of the signals for the moderators (docs/moderation.md, *Signals*): patterns worth a look, never a sanction by
themselves.

- ``sandbagging``: a rating that fell more than ``DROP`` points in the last ``DAYS`` days, with at least
  ``EARLY_LOSSES`` of the games of that time lost by resignation before move ``EARLY_MOVES``;
- ``stalling``: at least ``DISPUTES`` disputes of the marking (play resumed from the counting) in ``DAYS`` days;
- ``abandoning``: at least ``abandon.SHOWN_FROM`` live games left without a page (keima.server.moderation.abandon).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from keima.server import timesource
from keima.server.moderation.abandon import SHOWN_FROM
from keima.server.storage import abandonments, game_log, games, players, rating_history

DROP = 150.0
DAYS = 14
EARLY_MOVES = 40
EARLY_LOSSES = 3
DISPUTES = 3


def _early_resignation(row: Any, player_id: str) -> bool:
    # The player lost the game ``row`` by resignation before move ``EARLY_MOVES``.
    people = row.people or {}
    color = next((c for c, p in people.items() if (p or {}).get("id") == player_id), None)
    if color is None or not row.result or not row.result.endswith("+R") or row.result[0] == color:
        return False
    return int((row.summary or {}).get("moves") or 0) < EARLY_MOVES


def signals(engine: Engine) -> list[dict[str, Any]]:
    """The signals of now: ``{"player": id, "kind", "count", "drop", "games"}``, most games first. Blocking."""
    since = timesource.now_utc() - timedelta(days=DAYS)
    out: list[dict[str, Any]] = []
    h = rating_history.c
    with engine.connect() as conn:
        recent = conn.execute(sa.select(h.player_id, h.seq, h.game_id, h.rating).where(h.at >= since)
                              .order_by(h.player_id, h.seq)).all()
        by_player: dict[str, list[Any]] = {}
        for r in recent:
            by_player.setdefault(r.player_id, []).append(r)
        for pid, rows in by_player.items():
            before = conn.execute(sa.select(h.rating).where(h.player_id == pid, h.seq < rows[0].seq)
                                  .order_by(h.seq.desc()).limit(1)).scalar()
            start = float(before) if before is not None else 1500.0
            drop = start - float(rows[-1].rating)
            if drop <= DROP:
                continue
            found = conn.execute(sa.select(games.c.id, games.c.people, games.c.result, games.c.summary)
                                 .where(games.c.id.in_([r.game_id for r in rows]))).all()
            early = [g.id for g in found if _early_resignation(g, pid)]
            if len(early) >= EARLY_LOSSES:
                out.append({"player": pid, "kind": "sandbagging", "count": len(early), "drop": round(drop, 1),
                            "games": early})
        disputes: dict[str, list[str]] = {}
        entries = conn.execute(sa.select(game_log.c.game_id, game_log.c.entry, games.c.people)
                               .select_from(game_log.join(games, games.c.id == game_log.c.game_id))
                               .where(game_log.c.created_at >= since,
                                      sa.cast(game_log.c.entry, sa.Text).like("%resume%"))).all()
        for e in entries:
            for ev in (e.entry or {}).get("events") or []:
                if ev.get("kind") == "resume":
                    color = {1: "B", 2: "W"}.get(ev.get("color"), ev.get("color"))
                    who = ((e.people or {}).get(color) or {}).get("id")
                    if who:
                        disputes.setdefault(who, []).append(e.game_id)
        out += [{"player": pid, "kind": "stalling", "count": len(g), "drop": None, "games": sorted(set(g))}
                for pid, g in disputes.items() if len(g) >= DISPUTES]
        left = conn.execute(sa.select(abandonments.c.player_id, sa.func.count().label("n"))
                            .group_by(abandonments.c.player_id)
                            .having(sa.func.count() >= SHOWN_FROM)).all()
        for r in left:
            ids = conn.execute(sa.select(abandonments.c.game_id).where(abandonments.c.player_id == r.player_id)
                               .order_by(abandonments.c.at.desc()).limit(20)).scalars().all()
            out.append({"player": r.player_id, "kind": "abandoning", "count": int(r.n), "drop": None,
                        "games": list(ids)})
        names = dict(conn.execute(sa.select(players.c.id, players.c.name)
                                  .where(players.c.id.in_([o["player"] for o in out]))).all())
    for o in out:
        o["name"] = names.get(o["player"], "?")
    out.sort(key=lambda o: (-o["count"], o["kind"], o["name"]))
    return out

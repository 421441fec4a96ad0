"""How long a club's page and ladder answer on a full club (issue 46: under 200 ms): ``GET /api/clubs/{slug}``
(members by rank with their shown ranks, their live games and recent results, announcements) and
``GET /api/clubs/{slug}/ladder``, through the whole application (HTTP in-process, the database on disk).

Seeds ``--members`` members (a third of them rated), ``--games`` games between them (a tenth in progress) and
``--others`` games between players outside the club, straight into the tables, then reads the page and the
ladder ``--repeat`` times each and prints the median and the slowest time of each. SQLite in a temporary file by
default, or ``--url`` (an empty PostgreSQL database).

    PYTHONPATH=src python bench/club_page.py
    PYTHONPATH=src python bench/club_page.py --members 300 --games 1000 --others 20000
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.storage import club_members, clubs, game_players, games, players, ratings
from keima.server.storage.store import make_engine, migrate

SLUG = "club-de-go-de-grenoble"
LIMIT_MS = 200.0


def seed(url: str, n_members: int, n_games: int, n_others: int, rng: random.Random) -> None:
    """Store the club, its members, their games and the others' games."""
    engine = make_engine(url)
    migrate(engine)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    members = [f"m{i}" for i in range(n_members)]
    others = [f"o{i}" for i in range(200)]
    with engine.begin() as conn:
        conn.execute(players.insert(), [{"id": p, "name": p, "name_key": p, "rank": rng.choice((None, "5k", "1d")),
                                         "password_hash": "x", "created_at": start} for p in members + others])
        conn.execute(ratings.insert(), [{"player_id": p, "rating": rng.uniform(800, 2400), "deviation": 80.0,
                                         "volatility": 0.06, "games": 20} for p in members[::3]])
        conn.execute(clubs.insert().values(id="club", slug=SLUG, name="Club de go de Grenoble", code="38Gr",
                                           city="Grenoble", description="", link=None, created_by="m0",
                                           created_at=start, invite_code="x", settings={}))
        conn.execute(club_members.insert(), [{"club_id": "club", "player_id": p, "role": "admin" if i == 0 else "member",
                                              "place": i + 1, "licence": None, "joined_at": start}
                                             for i, p in enumerate(members)])
    rows_g: list[dict[str, Any]] = []
    rows_p: list[dict[str, Any]] = []
    for i in range(n_games + n_others):
        pool = members if i < n_games else others
        b, w = rng.sample(pool, 2)
        finished = rng.random() > 0.1
        at = start + timedelta(minutes=rng.randrange(300_000))
        people = {"B": {"id": b, "name": b, "rank": None}, "W": {"id": w, "name": w, "rank": None}}
        rows_g.append({"id": f"g{i}", "created_at": at, "updated_at": at + timedelta(minutes=30),
                       "params": {"size": 19, "komi": 7.5, "handicap": 0, "rules": "french"}, "mode": "invite",
                       "clock": {}, "phase": "finished" if finished else "play",
                       "result": rng.choice(("B+R", "W+3.5")) if finished else None, "people": people, "summary": {}})
        rows_p += [{"game_id": f"g{i}", "color": 1, "player_id": b}, {"game_id": f"g{i}", "color": 2, "player_id": w}]
    with engine.begin() as conn:
        for k in range(0, len(rows_g), 5000):
            conn.execute(games.insert(), rows_g[k:k + 5000])
            conn.execute(game_players.insert(), rows_p[2 * k:2 * k + 10000])
    engine.dispose()


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(median ms, slowest ms) of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="an empty database (default: SQLite in a temporary file)")
    ap.add_argument("--members", type=int, default=300)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--others", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.url or f"sqlite:///{tmp}/club.db"
        seed(url, args.members, args.games, args.others, random.Random(1))
        with TestClient(create_app(url)) as client:
            def page() -> None:
                r = client.get(f"/api/clubs/{SLUG}")
                assert r.status_code == 200 and len(r.json()["members"]) == args.members, r.text[:200]

            def ladder() -> None:
                r = client.get(f"/api/clubs/{SLUG}/ladder")
                assert r.status_code == 200 and len(r.json()["ladder"]) == args.members, r.text[:200]

            page()
            ladder()  # warm: the first reads load the modules and the caches
            print(f"{args.members} members, {args.games} club games, {args.others} other games")
            for name, fn in (("club page", page), ("ladder", ladder)):
                median, worst = timed(fn, args.repeat)
                verdict = "ok" if median < LIMIT_MS else f"OVER {LIMIT_MS:.0f} ms"
                print(f"{name:10s} median {median:7.1f} ms, slowest {worst:7.1f} ms  {verdict}")


if __name__ == "__main__":
    main()

"""How long a player page's reads take on a large database: ``keima.server.players.store.game_lines`` (the first
page, a page deep in the history by its ``before`` key, a result filter, an opponent filter) and ``opponents``.

Seeds ``--games`` finished games (and a tenth as many live ones) between ``--players`` players straight into the
tables, the busiest player holding ``--mine`` of them, then reads that player's pages ``--repeat`` times each and
prints the median and the slowest time of each read. SQLite in a temporary file by default, or ``--url`` (an
empty PostgreSQL database: its tables are made by the migrations, and the rows are left there).

    python bench/player_games.py
    python bench/player_games.py --url postgresql+psycopg://keima@127.0.0.1:5432/bench --games 200000
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

from keima.server.players import store as store_player
from keima.server.storage.store import make_engine, migrate
from keima.server.storage.tables import game_players, games, players


def seed(engine: Any, n_games: int, n_players: int, mine: int, rng: random.Random) -> str:
    """Store the players and games; returns the busiest player's id."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    ids = [f"p{i}" for i in range(n_players)]
    with engine.begin() as conn:
        conn.execute(players.insert(), [{"id": p, "name": p, "name_key": p, "rank": None, "password_hash": "x",
                                         "created_at": start} for p in ids])
    busy = ids[0]
    batch_g: list[dict[str, Any]] = []
    batch_p: list[dict[str, Any]] = []
    n_live = n_games // 10
    for i in range(n_games + n_live):
        b = busy if i < mine else rng.choice(ids[1:])
        w = rng.choice([p for p in ids[:50] if p != b])
        finished = i < n_games
        at = start + timedelta(minutes=rng.randrange(300_000))
        size = rng.choice((9, 13, 19))
        result = rng.choice(("B+R", "W+R", "B+3.5", "W+T", "0", "Void")) if finished else None
        people = {"B": {"id": b, "name": b, "rank": None}, "W": {"id": w, "name": w, "rank": None}}
        line = {"id": f"g{i}", "size": size, "players": {c: {"name": p["name"], "rank": None, "kind": "human"}
                                                          for c, p in people.items()}}
        batch_g.append({"id": f"g{i}", "created_at": at, "updated_at": at + timedelta(minutes=30),
                        "params": {"size": size, "komi": 7.5, "handicap": 0, "rules": "french"}, "mode": "invite",
                        "clock": {}, "phase": "finished" if finished else "play", "result": result,
                        "people": people, "summary": line})
        batch_p += [{"game_id": f"g{i}", "color": 1, "player_id": b}, {"game_id": f"g{i}", "color": 2, "player_id": w}]
        if len(batch_g) == 5000:
            with engine.begin() as conn:
                conn.execute(games.insert(), batch_g)
                conn.execute(game_players.insert(), batch_p)
            batch_g, batch_p = [], []
    if batch_g:
        with engine.begin() as conn:
            conn.execute(games.insert(), batch_g)
            conn.execute(game_players.insert(), batch_p)
    return busy


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, Any]:
    """(median ms, slowest ms, last answer) of ``repeat`` calls of ``fn``."""
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), max(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="an empty database (default: SQLite in a temporary file)")
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--players", type=int, default=1000)
    ap.add_argument("--mine", type=int, default=3000, help="games of the busiest player")
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    url = args.url or f"sqlite:///{tmp.name}/bench.db"
    engine = make_engine(url)
    migrate(engine)
    t = time.perf_counter()
    me = seed(engine, args.games, args.players, args.mine, random.Random(1))
    print(f"{engine.dialect.name}: seeded {args.games} finished + {args.games // 10} live games, "
          f"{args.players} players ({args.mine} games for the busiest) in {time.perf_counter() - t:.1f} s")
    first = store_player.game_lines(engine, me, "finished", limit=20)
    deep = store_player.game_lines(engine, me, "finished", limit=1000)[-1][0]
    reads: list[tuple[str, Callable[[], Any]]] = [
        ("first page (20)", lambda: store_player.game_lines(engine, me, "finished", limit=20)),
        ("next page (before)", lambda: store_player.game_lines(engine, me, "finished", limit=20,
                                                               before=first[-1][0])),
        ("page after game 1000", lambda: store_player.game_lines(engine, me, "finished", limit=20, before=deep)),
        ("won, 19x19", lambda: store_player.game_lines(engine, me, "finished", limit=20, outcome="won", size=19)),
        ("against one opponent", lambda: store_player.game_lines(engine, me, "finished", limit=20,
                                                                 opponent_id="p1")),
        ("live", lambda: store_player.game_lines(engine, me, "live", limit=20)),
        ("opponents table", lambda: store_player.opponents(engine, me)),
    ]
    for name, fn in reads:
        median, worst, out = timed(fn, args.repeat)
        print(f"  {name:<22} median {median:7.2f} ms   max {worst:7.2f} ms   ({len(out)} rows)")
    engine.dispose()
    tmp.cleanup()


if __name__ == "__main__":
    main()

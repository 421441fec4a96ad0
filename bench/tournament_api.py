"""What a director waits for: the tournament API's answer times for a club tournament, in one process on SQLite.

For each size (``--players``), registers that many players (a third from FFG list lines), then pairs and enters
every result of ``--rounds`` rounds, and prints the median and slowest answer of each kind of request (a
registration, a pairing, a result, the standings, the FFG file). Each change reads and writes the whole
tournament (its OpenGotha file) in one transaction, so the figures grow with the tournament's size: this is the
measure of that choice.

    python bench/tournament_api.py --players 30 100 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from fastapi.testclient import TestClient

from keima.server import create_app


def ffg(names: str, rating: int, licence: str) -> str:
    return f"{names:<38}{rating:>5} L {licence} 69Ly FR"


def run(players: int, rounds: int, seed: int) -> dict[str, list[float]]:
    rng = random.Random(seed)
    times: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(f"sqlite:///{Path(folder) / 'bench.db'}")) as c:

        def timed(kind: str, method: str, url: str, **kw: object) -> dict[str, object]:
            t0 = time.perf_counter()
            r = c.request(method, url, **kw)  # type: ignore[arg-type]
            times[kind].append(time.perf_counter() - t0)
            assert r.status_code < 300, r.text
            return r.json() if r.headers.get("content-type") == "application/json" else {}

        assert c.post("/api/players", json={"name": "director", "password": "correct horse"}).status_code == 201
        tid = c.post("/api/tournaments", json={"name": "Bench", "rounds": rounds}).json()["id"]
        base = f"/api/tournaments/{tid}"
        for i in range(players):
            body = ({"ffg_line": ffg(f"LIST{i:03d} Membre", rng.randint(-2500, 600), f"07{i:05d}")} if i % 3 == 0
                    else {"name": f"Player{i:03d}", "rank": f"{rng.randint(1, 25)}k"})
            timed("register", "POST", f"{base}/players", json=body)
        for rn in range(1, rounds + 1):
            t = timed("pair", "POST", f"{base}/rounds/{rn}/pairing", json={})
            games = t["round_list"][rn - 1]["games"]  # type: ignore[index]
            for g in games:
                timed("result", "PUT", f"{base}/rounds/{rn}/tables/{g['table']}/result",
                      json={"result": rng.choice(["black", "white"])})
            timed("standings", "GET", f"{base}/standings")
        timed("export .tou", "GET", f"{base}/export/tou")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[30, 100])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    print(f"{'players':>8} {'request':<12} {'count':>6} {'median ms':>10} {'max ms':>8}")
    for n in args.players:
        for kind, values in run(n, args.rounds, args.seed).items():
            ms = [v * 1000 for v in values]
            print(f"{n:>8} {kind:<12} {len(ms):>6} {statistics.median(ms):>10.1f} {max(ms):>8.1f}")


if __name__ == "__main__":
    main()

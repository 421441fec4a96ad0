"""Fan-out benchmark of demo boards (issue 45 item 6): one presenter and ``--watchers`` watchers on one board, with
``--boards`` boards live in the same server process.

Starts ``keima serve`` in a child process on a free loopback port with a fresh SQLite database, registers one
presenter, opens ``--boards`` boards, and connects ``--watchers`` sockets (no player: spectators) to the first board
and ``--others`` sockets to each other board. The presenter of the first board sends ``--ops`` ops over its socket,
``--rate`` a second (a mix a lesson makes: moves, marks, comments, selects); each other board gets one op a second
from its own presenter socket, so that the process holds every board live at once. Every watcher of the first board
times the arrival of each delta; an op's latency is the arrival at a watcher minus the moment the presenter sent
it. Reports latency p50 / p99 / max over every (op, watcher) pair, the bytes of a delta (its JSON text, and on the
wire with the WebSocket frame's header), ops refused, and the machine's load average (a shared machine's other jobs
are part of what the figures mean). The clients run in this one process on the same machine as the server.

    python bench/boards_fanout.py                      # 200 watchers, 50 boards, 150 ops at 5 a second
    python bench/boards_fanout.py --watchers 50 --boards 10 --ops 50

Goals (docs/teaching.md): p99 <= 100 ms and <= 200 bytes an op, 50 boards at once, on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from server_load import start_server  # noqa: E402  (the server benches start keima serve one way)

LETTERS = "ABCDEFGHJKLMNOPQRST"


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ops_of_a_lesson(n: int, size: int, seed: int) -> list[dict[str, Any]]:
    """``n`` ops as a lesson makes them (their parents and nodes filled in as the acks come): 60% moves, 20%
    marks, 10% short comments, 10% selects."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for _ in range(n):
        r = rng.random()
        v = f"{LETTERS[rng.randrange(size)]}{rng.randrange(size) + 1}"
        if r < 0.6:
            out.append({"type": "node", "move": {"vertex": v}})
        elif r < 0.8:
            out.append({"type": "mark", "point": v, "kind": rng.choice(["triangle", "square", "circle", "letter"])})
        elif r < 0.9:
            out.append({"type": "comment", "text": "Look at this shape: the cut works now."})
        else:
            out.append({"type": "select"})
    return out


class Presenter:
    """A presenter's socket: sends ops against the current version and keeps when each version was sent."""

    def __init__(self, ws: ClientConnection, version: int, cursor: int) -> None:
        self.ws = ws
        self.version = version
        self.cursor = cursor
        self.color = "B"
        self.sent: dict[int, float] = {}  # version -> when its op was sent
        self.refused = 0

    async def send(self, op: dict[str, Any]) -> None:
        """Send one op and wait for its ack or error (deltas read meanwhile)."""
        op = dict(op)
        if op["type"] == "node":
            op["parent"] = self.cursor
            op["move"] = {"color": self.color, **op["move"]}
        elif op["type"] in ("mark", "comment"):
            op["node"] = self.cursor
        elif op["type"] == "select":
            op["node"] = max(0, self.cursor - 1)
        at = time.perf_counter()
        await self.ws.send(json.dumps({"type": "op", "id": "p", "version": self.version, "op": op}))
        while True:
            msg = json.loads(await self.ws.recv())
            if msg["type"] == "delta":
                self.version = msg["to"]
                d = msg["op"]
                if d["type"] == "node":
                    self.cursor = d["id"]
                    self.color = "W" if d["move"]["color"] == "B" else "B"
                elif d["type"] == "select":
                    self.cursor = d["node"]
            elif msg["type"] == "ack":
                self.sent[msg["version"]] = at
                return
            elif msg["type"] == "error":
                self.refused += 1
                self.version = msg.get("version", self.version)
                return


async def watch(url: str, bid: str, arrivals: dict[int, list[float]], sizes: list[int], stop: asyncio.Event,
                record: bool) -> None:
    """One watcher: records when each delta arrives and its size."""
    async with connect(url.replace("http", "ws") + f"/api/boards/{bid}/ws", max_size=None) as ws:
        await ws.recv()
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue
            if record and isinstance(text, str) and text.startswith('{"type":"delta"'):
                now = time.perf_counter()
                arrivals.setdefault(json.loads(text)["to"], []).append(now)
                sizes.append(len(text.encode("utf-8")))


async def run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Open the boards and sockets, play the lesson, and measure."""
    boards: list[str] = []
    cookies: list[str] = []
    per_player = 20  # the most boards a player keeps (keima.server.boards.service.BOARDS_PER_PLAYER)
    for first in range(0, args.boards, per_player):  # registering is limited too: as few presenters as can be
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            r = await http.post("/api/players", json={"name": f"presenter{first}", "password": "a long secret"})
            r.raise_for_status()
            for i in range(first, min(args.boards, first + per_player)):
                r = await http.post("/api/boards", json={"title": f"Lesson {i}", "size": 19})
                r.raise_for_status()
                boards.append(r.json()["id"])
                cookies.append("; ".join(f"{k}={v}" for k, v in http.cookies.items()))
    stop = asyncio.Event()
    arrivals: dict[int, list[float]] = {}
    sizes: list[int] = []
    watchers = [asyncio.create_task(watch(url, boards[0], arrivals, sizes, stop, True)) for _ in range(args.watchers)]
    for bid in boards[1:]:
        watchers += [asyncio.create_task(watch(url, bid, {}, [], stop, False)) for _ in range(args.others)]
    await asyncio.sleep(2.0 + args.watchers / 100)  # every socket open and sent its first state
    ws_url = url.replace("http", "ws")
    presenters = []
    for bid, cookie in zip(boards, cookies, strict=True):
        ws = await connect(f"{ws_url}/api/boards/{bid}/ws", additional_headers={"Cookie": cookie}, max_size=None)
        first = json.loads(await ws.recv())
        presenters.append(Presenter(ws, first["board"]["version"], first["board"]["cursor"]))

    async def background(p: Presenter, seed: int) -> None:
        for op in ops_of_a_lesson(10_000, 19, seed):
            if stop.is_set():
                return
            await p.send(op)
            await asyncio.sleep(1.0)

    others = [asyncio.create_task(background(p, i)) for i, p in enumerate(presenters[1:], 1)]
    main = presenters[0]
    started = time.perf_counter()
    for i, op in enumerate(ops_of_a_lesson(args.ops, 19, 0)):
        await asyncio.sleep(max(0.0, started + i / args.rate - time.perf_counter()))
        await main.send(op)
    await asyncio.sleep(1.0)  # the last deltas arrive
    stop.set()
    for t in others:
        t.cancel()
    await asyncio.gather(*watchers, *others, return_exceptions=True)
    for p in presenters:
        await p.ws.close()
    latencies = [(at - main.sent[v]) * 1000 for v, ats in arrivals.items() if v in main.sent for at in ats]
    missing = sum(args.watchers - len(arrivals.get(v, [])) for v in main.sent)
    return {"ops": len(main.sent), "refused": main.refused, "pairs": len(latencies), "missing": missing,
            "p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99), "max": max(latencies or [0]),
            "bytes": sum(sizes) / max(1, len(sizes)), "bytes_max": max(sizes or [0])}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--watchers", type=int, default=200)
    ap.add_argument("--boards", type=int, default=50)
    ap.add_argument("--others", type=int, default=3, help="watchers of each other board")
    ap.add_argument("--ops", type=int, default=150)
    ap.add_argument("--rate", type=float, default=5.0, help="ops a second of the measured presenter")
    args = ap.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(f"sqlite:///{os.path.join(tmp, 'bench.db')}")
        try:
            out = asyncio.run(run(url, args))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    wire = out["bytes"] + 2 if out["bytes"] <= 125 else out["bytes"] + 4  # server frames: unmasked header
    print(f"boards {args.boards}, watchers of the measured board {args.watchers}, of each other board {args.others}")
    print(f"ops {out['ops']} (refused {out['refused']}), deliveries {out['pairs']} (missing {out['missing']})")
    print(f"latency ms: p50 {out['p50']:.1f}  p99 {out['p99']:.1f}  max {out['max']:.1f}   (goal p99 <= 100)")
    print(f"bytes a delta: mean {out['bytes']:.0f} (on the wire {wire:.0f}), max {out['bytes_max']}   (goal <= 200)")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

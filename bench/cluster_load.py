"""Load benchmark of a keima cluster: 1 and 2 web processes side by side, then bot games on workers.

Starts its own Redis (Debian's ``redis-server``, free loopback port) and ``keima serve --redis`` processes on the
PostgreSQL database ``--db`` (a throw-away one: the benchmark fills it with games). Simulated clients play local
games (both seats, one token) over WebSockets, connected round-robin to the web processes; each game sends a
move, waits for its ``ack`` (stored in PostgreSQL, published through Redis), thinks ``--think`` seconds (0: at
once, a closed loop that measures throughput) and plays the next one.

Runs, in order, in one invocation (``--phases``):
0. ``wire`` (with ``--full-states``): the bytes a watcher receives per move and the web process's CPU per move,
   with the deltas of protocol 2 and with the whole state after each move (protocol 1, the server's
   ``KEIMA_WS_FULL_STATES=1``), in one run: ``--wire-games`` 19x19 games of 250 moves, each watched by one
   spectator;
1. ``--games`` games on 1 web process, then the same on 2 processes: moves/s, p50/p99 of the move round trip,
   and the ratio of the two throughputs;
2. 2 web processes and 2 workers: ``--bots`` bot games (each human reply sent as soon as the bot moved) while
   ``--games`` human games play with ``--bot-think`` seconds of thought: the humans' p99, and the bot moves made.

    python bench/cluster_load.py --db postgresql+psycopg://keima@127.0.0.1:5432/keima_bench
    python bench/cluster_load.py --db URL --games 2000 --think 2 --seconds 30 --phases scale

The client runs in this one process: on a small machine it competes with the servers for the cores, so its
figures are an upper bound on the servers' latency. Every loop is bounded; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` (all its threads) so far; 0.0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def postgres_pids() -> list[int]:
    """The pids of every ``postgres`` process on this machine (the database's share of the work)."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if (d / "comm").read_text().strip() == "postgres":
                    out.append(int(d.name))
            except OSError:
                continue
    return out


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    v = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = v[3] + v[4]
    return (sum(v) - idle) / TICK, sum(v) / TICK


class CpuMeter:
    """CPU seconds spent by each part (web processes, workers, Redis, PostgreSQL, this client) between
    ``start`` and ``stop``: what a move costs each of them, measured rather than guessed."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.before: dict[str, float] = {}
        self.used: dict[str, float] = {}

    def _sample(self) -> dict[str, float]:
        self_cpu = os.times()
        parts = {
            "web": sum(cpu_seconds(p.pid) for p in self.svc.webs),
            "workers": sum(cpu_seconds(p.pid) for p in self.svc.workers),
            "redis": sum(cpu_seconds(p.pid) for p in self.svc.redis_procs),
            "postgres": sum(cpu_seconds(pid) for pid in postgres_pids()),
            "client": self_cpu.user + self_cpu.system,
        }
        busy, total = machine_busy()
        parts["machine"] = busy
        parts["_total"] = total
        return parts

    def start(self) -> None:
        self.before = self._sample()

    def stop(self) -> None:
        after = self._sample()
        self.used = {k: after[k] - self.before[k] for k in after}

    def line(self, moves: int, seconds: float) -> str:
        """CPU milliseconds per move of each part, and how busy the machine's cores were."""
        if not moves or not self.used:
            return ""
        cores = os.cpu_count() or 1
        parts = "  ".join(f"{k} {self.used[k] * 1000 / moves:.2f}" for k in
                          ("web", "workers", "redis", "postgres", "client") if self.used[k] > 0)
        share = self.used["machine"] / max(1e-9, self.used["_total"]) * 100
        return f"{'':<34} CPU ms/move: {parts}  (machine {share:.0f}% busy over {cores} cores)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Services:
    """Redis, web processes and workers started by the benchmark (stopped by ``stop``)."""

    def __init__(self, db: str, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.procs: list[subprocess.Popen[bytes]] = []
        self.webs: list[subprocess.Popen[bytes]] = []
        self.workers: list[subprocess.Popen[bytes]] = []
        self.redis_procs: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.redis = ""

    def start_redis(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        port = free_port()
        self.procs.append(subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                            "--appendonly", "no", "--dir", str(self.folder)],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        self.redis_procs.append(self.procs[-1])
        self.redis = f"redis://127.0.0.1:{port}/0"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def _spawn(self, args: list[str], name: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        log = (self.folder / name).open("wb")
        self.procs.append(subprocess.Popen([sys.executable, "-m", "keima", *args], stdout=log,
                                           stderr=subprocess.STDOUT, env=dict(os.environ, **(env or {}))))
        return self.procs[-1]

    def start_webs(self, n: int, env: dict[str, str] | None = None) -> None:
        for i in range(n):
            port = free_port()
            self.webs.append(self._spawn(["serve", "--no-open", "--port", str(port), "--db", self.db, "--redis", self.redis],
                        f"web{len(self.ports)}.log", env))
            self.ports.append(port)
            if i == 0:
                self._wait(port)  # the first one migrates the database
        for port in self.ports:
            self._wait(port)

    def start_workers(self, n: int) -> None:
        for i in range(n):
            self.workers.append(self._spawn(["worker", "--db", self.db, "--redis", self.redis], f"worker{i}.log"))
        import redis

        r = redis.Redis.from_url(self.redis)
        deadline = time.monotonic() + 300
        while len(list(r.scan_iter(match="keima:worker:*"))) < n:
            if time.monotonic() > deadline:
                raise RuntimeError("the workers did not start")
            time.sleep(0.2)
        r.close()

    @staticmethod
    def _wait(port: int) -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/info", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"keima serve on port {port} did not start")

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs, self.webs, self.workers, self.redis_procs = [], [], [], []
        self.ports = []


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    errors: int = 0
    bot_moves: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    opened: int = 0

    def error(self, code: str) -> None:
        self.errors += 1
        self.codes[code] = self.codes.get(code, 0) + 1

    def pct(self, q: float) -> float:
        s = sorted(self.rtts)
        return s[min(len(s) - 1, int(q * len(s)))] * 1000 if s else float("nan")


OPENING: asyncio.Semaphore  # made by run_humans in its own event loop
POINTS = [f"{c}{n}" for c in "ABCDEFGHJKLMNOPQRST" for n in range(1, 20)]


async def create_games(ports: list[int], n: int, **body: Any) -> list[tuple[int, str, str]]:
    """Create ``n`` games round-robin over the processes; returns (port, id, token) for each."""
    out: list[tuple[int, str, str]] = []
    sem = asyncio.Semaphore(50)
    async with httpx.AsyncClient(timeout=60) as c:
        async def one(i: int) -> None:
            port = ports[i % len(ports)]
            async with sem:
                r = await c.post(f"http://127.0.0.1:{port}/api/games", json=body)
            r.raise_for_status()
            d = r.json()
            out.append((port, d["game"]["id"], d["seat"]["token"]))

        await asyncio.gather(*(one(i) for i in range(n)))
    return out


async def human_game(port: int, gid: str, token: str, stats: Stats, stop: asyncio.Event, think: float,
                     rnd: random.Random, ready: asyncio.Event | None = None) -> None:
    """Play moves in game ``gid`` until ``stop``; after 150 moves a new game is created on the same process."""
    while not stop.is_set():
        await _play_one(port, gid, token, stats, stop, think, rnd, ready)
        ready = None
        if not stop.is_set():
            ((_p, gid, token),) = await create_games([port], 1, opponent="local", size=19)


async def _play_one(port: int, gid: str, token: str, stats: Stats, stop: asyncio.Event, think: float,
                    rnd: random.Random, ready: asyncio.Event | None) -> None:
    points = POINTS[:]
    rnd.shuffle(points)
    url = f"ws://127.0.0.1:{port}/api/games/{gid}/ws"
    async with OPENING:  # a bounded storm of handshakes: the measured run starts once every socket is open
        ws = await connect(url, additional_headers={"x-keima-seat": token}, max_size=2**22, open_timeout=120)
        await ws.recv()
    async with ws:
        if ready is not None:
            stats.opened += 1
            await ready.wait()
        n = 0
        while not stop.is_set() and n < 150:
            if think:
                await asyncio.sleep(rnd.uniform(0.5 * think, 1.5 * think))
                if stop.is_set():
                    break
            mid = str(n)
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "id": mid, "action": {"type": "play", "move": points[n]}}))
            n += 1
            while True:
                raw = await ws.recv()
                if isinstance(raw, bytes):
                    raw = raw.decode()
                if raw.startswith('{"type":"ack"'):
                    if not stop.is_set():
                        stats.rtts.append(time.perf_counter() - t0)
                    break
                if raw.startswith('{"type":"error"'):
                    stats.error(str(json.loads(raw).get("error", {}).get("code", "?")))
                    break


async def bot_game(port: int, gid: str, token: str, stats: Stats, stop: asyncio.Event) -> None:
    url = f"ws://127.0.0.1:{port}/api/games/{gid}/ws"
    async with connect(url, additional_headers={"x-keima-seat": token}, max_size=2**22) as ws:
        state = json.loads(await ws.recv())["game"]
        tried: set[str] = set()
        while not stop.is_set() and state["phase"] == "play":
            if state["to_move"] == "B":
                played = {m["vertex"] for m in state["moves"]}
                move = next((p for p in POINTS if p[0] in "ABCDEFGHJ" and int(p[1:]) <= 9
                             and p not in played and p not in tried), None)
                action = {"type": "pass"} if move is None else {"type": "play", "move": move}
                tried.add(move or "")
                await ws.send(json.dumps({"type": "action", "id": "h", "action": action}))
            while True:
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    if stop.is_set():
                        return
                    continue
                if msg["type"] in ("state", "delta"):
                    new = msg["game"] if msg["type"] == "state" else followed(state, msg)
                    if new is None:  # a gap: the whole state comes next
                        await ws.send(json.dumps({"type": "resync", "from": state["version"]}))
                        continue
                    if len(new["moves"]) > len(state["moves"]) and new["moves"][-1]["color"] == "W":
                        stats.bot_moves += 1
                    state = new
                    if state["to_move"] == "B" or state["phase"] != "play":
                        break
                elif msg["type"] == "error":
                    break


def followed(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any] | None:
    """``state`` with ``delta`` applied (the fields this client reads), or None when it does not follow."""
    if delta["from"] != state["version"]:
        return None
    new = dict(state, version=delta["to"])
    for key in ("phase", "to_move", "result"):
        if key in delta:
            new[key] = delta[key]
    event = delta["event"]
    if event["type"] in ("moved", "passed"):
        new["moves"] = state["moves"] + [event["move"]]
    elif event["type"] == "undone":
        new["moves"] = state["moves"][: len(state["moves"]) - event["moves"]]
    return new


async def wire_game(port: int, gid: str, token: str, moves: int, rnd: random.Random) -> tuple[int, int]:
    """Play ``moves`` moves of game ``gid`` (both seats, one socket) while a spectator watches; returns (bytes the
    spectator received for the last move, bytes it received in all after its first state)."""
    base = f"ws://127.0.0.1:{port}/api/games/{gid}/ws"
    points = POINTS[:]
    rnd.shuffle(points)
    async with connect(base, additional_headers={"x-keima-seat": token}, max_size=2**22) as player, \
            connect(base, max_size=2**22) as spectator:
        await player.recv()
        await spectator.recv()
        total = last = 0
        played = 0
        for point in points:
            if played >= moves:
                break
            await player.send(json.dumps({"type": "action", "id": "m", "action": {"type": "play", "move": point}}))
            ok = True
            while True:
                raw = await player.recv()
                if '"type":"ack"' in raw[:20]:
                    break
                if '"type":"error"' in raw[:20]:
                    ok = False  # a point that is not legal now (suicide, ko): the next one
                    break
            if not ok:
                continue
            played += 1
            raw = await spectator.recv()
            size = len(raw.encode() if isinstance(raw, str) else raw)
            total += size
            last = size
        return last, total


async def run_wire(port: int, games: int, moves: int) -> tuple[list[int], list[int]]:
    created = await create_games([port], games, opponent="local", size=19)
    rnd = random.Random(250)
    results = await asyncio.gather(*(wire_game(p, g, t, moves, random.Random(rnd.random())) for p, g, t in created))
    return [r[0] for r in results], [r[1] for r in results]


async def run_humans(ports: list[int], games: int, seconds: float, think: float, seed: int = 1,
                     bots: int = 0, meter: CpuMeter | None = None) -> tuple[Stats, Stats, float]:
    """Play ``games`` human games (and ``bots`` bot games) for ``seconds``; returns (humans, bots, elapsed).
    ``meter``: measures the CPU each part spends during the measured ``seconds``."""
    global OPENING
    OPENING = asyncio.Semaphore(64)
    created = await create_games(ports, games, opponent="local", size=19)
    bot_created = await create_games(ports, bots, opponent="bot", size=9, color="B", bot_level="beginner")
    stats, bstats = Stats(), Stats()
    stop, ready = asyncio.Event(), asyncio.Event()
    rnd = random.Random(seed)
    tasks = [asyncio.create_task(human_game(p, g, t, stats, stop, think, random.Random(rnd.random()), ready))
             for p, g, t in created]
    deadline = time.monotonic() + 300
    while stats.opened < games and time.monotonic() < deadline:  # the sockets open
        await asyncio.sleep(0.1)
    tasks += [asyncio.create_task(bot_game(p, g, t, bstats, stop)) for p, g, t in bot_created]
    ready.set()
    t0 = time.perf_counter()
    if meter is not None:
        meter.start()
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - t0
    if meter is not None:
        meter.stop()
    done, pending = await asyncio.wait(tasks, timeout=15)
    for t in pending:
        t.cancel()
    for t in done:
        if t.exception() is not None:
            stats.error(type(t.exception()).__name__)
    return stats, bstats, elapsed


def server_line(ports: list[int]) -> str:
    """What the web processes say of themselves (``GET /api/stats``): the p99 of an action from its game's lock
    to its stored change, and the garbage collector's passes by generation (how many, the longest; the full one
    at start-up, ``tune_gc``, included), per process."""
    parts = []
    for port in ports:
        try:
            d = httpx.get(f"http://127.0.0.1:{port}/api/stats", timeout=30).json()
        except (httpx.HTTPError, ValueError) as exc:
            parts.append(f"{port}: {type(exc).__name__}")
            continue
        gc = d["gc"]
        parts.append(f"p99 {d['p99_ms']} ms, GC passes {gc['collections']} longest {gc['longest_ms']} ms")
    return f"{'':<34} server side since start (/api/stats): " + "; ".join(parts)


def line(label: str, s: Stats, elapsed: float) -> str:
    return (f"{label:<34} moves {len(s.rtts):>7}  moves/s {len(s.rtts) / elapsed:>8.1f}  "
            f"p50 {s.pct(0.5):7.1f} ms  p99 {s.pct(0.99):7.1f} ms  errors {s.errors}"
            + (f" {s.codes}" if s.codes else ""))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default=os.environ.get("KEIMA_BENCH_DB") or os.environ.get("KEIMA_TEST_PG_URL"),
                    help="a throw-away PostgreSQL URL (postgresql+psycopg://...)")
    ap.add_argument("--games", type=int, default=200, help="human games (default 200)")
    ap.add_argument("--seconds", type=float, default=15.0, help="seconds per measured run (default 15)")
    ap.add_argument("--think", type=float, default=0.0, help="mean thinking time per move in the scaling runs "
                    "(default 0: closed loop, throughput)")
    ap.add_argument("--bots", type=int, default=20, help="bot games in the worker run (default 20)")
    ap.add_argument("--bot-think", type=float, default=1.0, help="humans' mean thinking time in the worker run")
    ap.add_argument("--phases", default="scale,bots", help="which runs: wire, scale, bots (comma-separated)")
    ap.add_argument("--full-states", action="store_true", help="add the wire run: deltas against whole states")
    ap.add_argument("--wire-games", type=int, default=20, help="games in the wire run (default 20)")
    ap.add_argument("--wire-moves", type=int, default=250, help="moves per game in the wire run (default 250)")
    args = ap.parse_args()
    if not args.db or not args.db.startswith("postgresql"):
        ap.error("--db: a PostgreSQL URL is needed (several processes share the games)")
    phases = set(args.phases.split(","))
    folder = Path(tempfile.mkdtemp(prefix="keima-cluster-bench-"))
    print(f"# cluster_load: {args.games} human games, {args.seconds:.0f} s per run, think {args.think} s; "
          f"{os.cpu_count()} cores; logs in {folder}", flush=True)
    results: dict[int, tuple[Stats, float]] = {}
    if args.full_states or "wire" in phases:
        measured: dict[str, tuple[float, float, float]] = {}
        for label, env in (("deltas (protocol 2)", {}), ("full states (protocol 1)", {"KEIMA_WS_FULL_STATES": "1"})):
            svc = Services(args.db, folder)
            try:
                svc.start_redis()
                svc.start_webs(1, env)
                meter = CpuMeter(svc)
                meter.start()
                t0 = time.perf_counter()
                lasts, totals = asyncio.run(run_wire(svc.ports[0], args.wire_games, args.wire_moves))
                elapsed = time.perf_counter() - t0
                meter.stop()
            finally:
                svc.stop()
            n = args.wire_games * args.wire_moves
            web_ms = meter.used.get("web", 0.0) * 1000 / n
            measured[label] = (sum(lasts) / len(lasts), sum(totals) / len(totals), web_ms)
            print(f"{label:<34} bytes to a watcher: move {args.wire_moves} {measured[label][0]:8.0f}  "
                  f"whole game {measured[label][1] / 1024:9.1f} KiB  web CPU {web_ms:.2f} ms/move "
                  f"({elapsed:.1f} s)", flush=True)
            print(meter.line(n, elapsed), flush=True)
        d, f = measured["deltas (protocol 2)"], measured["full states (protocol 1)"]
        print(f"{'deltas / full states':<34} move {args.wire_moves}: {d[0] / f[0]:.3f}x bytes  whole game: "
              f"{d[1] / f[1]:.3f}x bytes  web CPU: {d[2] / f[2]:.2f}x", flush=True)
    if "scale" in phases:
        for n in (1, 2):
            svc = Services(args.db, folder)
            try:
                svc.start_redis()
                svc.start_webs(n)
                meter = CpuMeter(svc)
                stats, _b, elapsed = asyncio.run(run_humans(svc.ports, args.games, args.seconds, args.think,
                                                            meter=meter))
                inside = server_line(svc.ports)
            finally:
                svc.stop()
            results[n] = (stats, elapsed)
            print(line(f"{n} web process{'es' if n > 1 else ''}", stats, elapsed), flush=True)
            print(meter.line(len(stats.rtts), elapsed), flush=True)
            print(inside, flush=True)
        r1 = len(results[1][0].rtts) / results[1][1]
        r2 = len(results[2][0].rtts) / results[2][1]
        print(f"{'2 processes / 1 process':<34} {r2 / r1 if r1 else float('nan'):.2f}x moves/s", flush=True)
    if "bots" in phases:
        svc = Services(args.db, folder)
        try:
            svc.start_redis()
            svc.start_webs(2)
            svc.start_workers(2)
            meter = CpuMeter(svc)
            alone, _b, e0 = asyncio.run(run_humans(svc.ports, args.games, args.seconds, args.bot_think, seed=2,
                                                   meter=meter))
            print(line("2 web, 2 workers, no bot game", alone, e0), flush=True)
            print(meter.line(len(alone.rtts), e0), flush=True)
            meter = CpuMeter(svc)
            stats, bstats, elapsed = asyncio.run(run_humans(svc.ports, args.games, args.seconds, args.bot_think,
                                                            seed=3, bots=args.bots, meter=meter))
            inside = server_line(svc.ports)
        finally:
            svc.stop()
        print(line(f"2 web, 2 workers, {args.bots} bot games", stats, elapsed), flush=True)
        print(meter.line(len(stats.rtts), elapsed), flush=True)
        print(inside, flush=True)
        print(f"{'bot moves made meanwhile':<34} {bstats.bot_moves} ({bstats.bot_moves / elapsed:.1f}/s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

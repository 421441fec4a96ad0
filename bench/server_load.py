"""Load benchmark of ``keima serve``: N concurrent games played by simulated clients over WebSockets.

Starts ``keima serve`` in a child process on a free loopback port with a fresh SQLite database (or uses
``--url`` of a running server on loopback), creates N invitation games, joins each from a second client, opens
one WebSocket per player (2N sockets) and lets every game play: the player to move thinks ``--think`` seconds
(random, uniform around the mean), sends a move over its socket and times the round trip until the server's
``ack`` (the move is then checked by the referee and stored in the database). Each game plays ``--moves`` moves
at most; the run stops after ``--duration`` seconds whatever happens. Every loop is bounded; nothing leaves the
machine.

Prints the machine's load average beside the figures (before, after the loaded run, at the end: on a shared
machine the other jobs' load is part of what the figures mean), and the goals of issue 30 item 11 with their
verdicts: p99 under 50 ms and max under 100 ms, memory back within 20% of its pre-load level (after the warm-up)
a minute after the load ends (``--settle 60``, the default). Also prints: games, sockets, moves acknowledged, moves/s, round-trip p50 / p99 / max, refusals and errors, and the
same figures for a single game played alone in the same run (the peer: the load's cost is the ratio); the
server's garbage-collector passes (count, longest, total by generation); and the server's resident memory
(``VmRSS`` of ``/proc/PID/status``) at start, at its peak (``VmHWM``), when the games end and every few seconds
for ``--settle`` seconds after (idle games leave the server's memory: docs/server.md). Before measuring, one
small game is played to its count: the first dead-stone estimate compiles the bot's numba code (about 150 MB
resident for the process's life, and seconds of CPU), which is the process's cost, not the games'.

    python bench/server_load.py                      # 1000 games, 19x19, think 2 s, 60 s
    python bench/server_load.py --games 100 --duration 20

Target (docs/server.md): 1,000 concurrent games with p99 < 50 ms on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from keima.cli.allocator import CHOICES as ALLOCATORS


@dataclass
class Stats:
    rtts: list[float] = field(default_factory=list)
    sent_at: list[float] = field(default_factory=list)
    refused: int = 0
    errors: int = 0
    finished_games: int = 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


async def _create(http: httpx.AsyncClient, size: int, sem: asyncio.Semaphore) -> tuple[str, str, str]:
    for attempt in range(3):
        try:
            return await _create_once(http, size, sem)
        except httpx.TransportError:  # a kept-alive connection closed by the server under us: try again
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _create_once(http: httpx.AsyncClient, size: int, sem: asyncio.Semaphore) -> tuple[str, str, str]:
    async with sem:
        r = await http.post("/api/games", json={"size": size, "opponent": "invite", "color": "B"})
        r.raise_for_status()
        g = r.json()
        gid = g["game"]["id"]
        r = await http.post(f"/api/games/{gid}/join", json={"code": g["invite"]["code"]},
                            headers={"X-Keima-Seat": "bench-nobody"}, cookies={})
        r.raise_for_status()
        return gid, g["seat"]["token"], r.json()["seat"]["token"]


class Player:
    """One simulated player: its socket, its colour, and the latest state the server sent."""

    def __init__(self, ws: ClientConnection, color: str) -> None:
        self.ws = ws
        self.color = color
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()
        self.acks: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def reader(self, parse_states: bool) -> None:
        async for raw in self.ws:
            if not parse_states and isinstance(raw, str) and raw.startswith('{"type":"state"'):
                continue  # one player per game follows the board; the other only needs its acks
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "state":
                if self.state is None or msg["game"]["version"] > self.state["version"]:
                    msg["game"]["board"] = bytes(msg["game"]["board"])
                    self.state = msg["game"]
                    self.changed.set()
            elif kind == "delta" and parse_states:
                self._apply(msg)
            elif kind in ("ack", "error"):
                fut = self.acks.pop(msg["id"], None)
                if fut is not None and not fut.done():
                    fut.set_result(msg)


    def _apply(self, delta: dict[str, Any]) -> None:
        # Protocol 2 (docs/web-api.md): a change comes as a delta from the version before; a gap asks for the
        # whole state again. Only what the simulated player reads is kept: the board, the phase, who moves.
        st = self.state
        if st is None or delta["to"] <= st["version"]:
            return
        if delta["from"] != st["version"]:
            asyncio.get_running_loop().create_task(
                self.ws.send(json.dumps({"type": "resync", "from": st["version"]})))
            return
        st = dict(st)  # a new object: the game loop compares the state it read with the newest
        # bytes, not a list: the collector does not track them, so the crowd's copies give its collector no work
        # (ClientPauses counts its passes: none in a 1,000-game run)
        board = st["board"] = bytearray(st["board"])
        for point, color in delta.get("placed") or ():
            board[point] = 1 if color == "B" else 2
        for point in delta.get("removed") or ():
            board[point] = 0
        for key in ("to_move", "phase"):
            if key in delta:
                st[key] = delta[key]
        st["version"] = delta["to"]
        self.state = st
        self.changed.set()


class ClientPauses:
    """The simulated crowd's own pauses, measured during the loaded run: its event loop's lateness (a task that
    sleeps 5 ms and notes how late it wakes) and its garbage collector's passes. A round trip is timed by this
    process, so its pauses count in the server's figures; they are printed beside them."""

    def __init__(self) -> None:
        self.lag_ms: list[float] = []
        self.gc_ms: list[float] = []
        self._t = 0.0

    def _gc(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.gc_ms.append((time.perf_counter() - self._t) * 1000)

    async def watch(self, until: float) -> None:
        gc.callbacks.append(self._gc)
        try:
            while time.monotonic() < until:
                t = time.perf_counter()
                await asyncio.sleep(0.005)
                self.lag_ms.append(max(0.0, (time.perf_counter() - t - 0.005) * 1000))
        finally:
            gc.callbacks.remove(self._gc)

    def summary(self) -> str:
        lag = self.lag_ms or [float("nan")]
        return (f"the simulated clients' own pauses in the loaded run: event-loop lateness p99 "
                f"{percentile(lag, 0.99):.1f} ms, max {max(lag):.1f} ms; collector passes {len(self.gc_ms)}, "
                f"longest {max(self.gc_ms, default=0.0):.1f} ms")


@dataclass
class Phase:
    """Shared by the game tasks: how many are connected, the start signal, and the end of the measured run."""

    connected: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    deadline: float = 0.0


async def play_game(url: str, gid: str, tokens: dict[str, str], moves: int, think: float, phase: Phase,
                    stats: Stats, rng: random.Random) -> None:
    ws_url = url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    players: dict[str, Player] = {}
    readers: list[asyncio.Task[None]] = []
    try:
        for color in ("B", "W"):
            ws = await connect(ws_url, additional_headers={"X-Keima-Seat": tokens[color]}, max_size=2**22,
                               open_timeout=60, ping_interval=None, compression=None)
            p = Player(ws, color)
            players[color] = p
            readers.append(asyncio.create_task(p.reader(color == "B")))
        phase.connected += 1
        await phase.go.wait()  # the measured run starts once every socket is open
        deadline = phase.deadline
        # Spread the games' first moves over one think time so that the load is steady from the start.
        await asyncio.sleep(rng.uniform(0, think))
        seq = 0
        played = 0
        while played < moves and time.monotonic() < deadline:
            p = players["B"]
            while p.state is None:
                p.changed.clear()
                await asyncio.wait_for(p.changed.wait(), timeout=30)
            st = p.state
            if st["phase"] != "play":
                break
            mover = players[st["to_move"]]
            empties = [i for i, c in enumerate(st["board"]) if c == 0]
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            if time.monotonic() >= deadline:
                break
            move: Any = rng.choice(empties) if empties and rng.random() > 0.02 else "pass"
            seq += 1
            mid = f"{gid}-{seq}"
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            mover.acks[mid] = fut
            action = {"type": "pass"} if move == "pass" else {"type": "play", "move": move}
            t0 = time.perf_counter()
            await mover.ws.send(json.dumps({"type": "action", "id": mid, "action": action}))
            reply = await asyncio.wait_for(fut, timeout=30)
            rtt = time.perf_counter() - t0
            stats.rtts.append(rtt)
            stats.sent_at.append(t0)
            if reply["type"] == "ack":
                played += 1
                # The next mover is read from Black's socket: wait until it shows this move.
                while p.state is not None and p.state["version"] <= st["version"]:
                    p.changed.clear()
                    await asyncio.wait_for(p.changed.wait(), timeout=30)
            elif reply["error"]["code"] == "illegal-move":
                stats.refused += 1
            else:
                stats.errors += 1
                break
        stats.finished_games += 1
    except (TimeoutError, OSError, Exception) as exc:  # counted, reported; the run goes on
        stats.errors += 1
        if stats.errors <= 3:
            print(f"  game {gid}: {type(exc).__name__}: {exc}", file=sys.stderr)
    finally:
        for p in players.values():
            await p.ws.close()
        for t in readers:
            t.cancel()


async def run_load(url: str, games: int, size: int, moves: int, think: float, duration: float,
                   seed: int, proc: subprocess.Popen[str] | None,
                   pauses: ClientPauses | None = None) -> tuple[Stats, float, int, float | None]:
    """Create the games, open every socket, then play for ``duration`` seconds.

    Returns the stats, the measured run's length, the number of games and the server's CPU seconds in it."""
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as http:
        sem = asyncio.Semaphore(32)
        created = await asyncio.gather(*(_create(http, size, sem) for _ in range(games)))
    stats = Stats()
    phase = Phase()
    tasks = []
    for gid, black, white in created:
        tasks.append(asyncio.create_task(play_game(url, gid, {"B": black, "W": white}, moves, think, phase,
                                                   stats, random.Random(rng.random()))))
        await asyncio.sleep(0.001)  # a browser crowd does not connect in the same millisecond
    for _ in range(1200):  # at most 120 s to open every socket
        if phase.connected + stats.errors >= len(created):
            break
        await asyncio.sleep(0.1)
    cpu0 = cpu_seconds(proc)
    start = time.monotonic()
    phase.deadline = start + duration
    phase.go.set()
    probe = asyncio.create_task(pauses.watch(phase.deadline)) if pauses is not None else None
    await asyncio.wait(tasks, timeout=duration + 90)
    if probe is not None:
        await probe
    elapsed = time.monotonic() - start
    cpu1 = cpu_seconds(proc)
    for t in tasks:
        t.cancel()
    cpu = None if cpu0 is None or cpu1 is None else cpu1 - cpu0
    return stats, elapsed, len(created), cpu


def start_server(db: str, allocator: str | None = None) -> tuple[subprocess.Popen[str], str]:
    """``keima serve`` on a free loopback port (``allocator``: its ``--allocator``; None: the default); returns the
    process and its address once it answers (the other server benches start theirs with it)."""
    extra = [] if allocator is None else ["--allocator", allocator]
    proc = subprocess.Popen(
        [sys.executable, "-m", "keima", "serve", "--no-open", "--host", "127.0.0.1", "--port", "0", "--db", db,
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    m = re.search(r"http://[^/:]+:(\d+)/", line)
    if not m:
        proc.kill()
        raise SystemExit(f"keima serve did not start: {line!r}")
    url = f"http://127.0.0.1:{m.group(1)}"
    for _ in range(600):  # at most 30 s
        try:
            if httpx.get(url + "/api/info", timeout=2).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("keima serve did not answer within 30 s")


def cpu_seconds(proc: subprocess.Popen[str] | None) -> float | None:
    """User + system CPU seconds used so far by the server process (Linux ``/proc``; None elsewhere)."""
    if proc is None:
        return None
    try:
        with open(f"/proc/{proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def warm_up(url: str) -> None:
    """Play one 9x9 game to the dead-stone proposal, so that the estimator's code is compiled before the
    measured runs (a random 2% of the load's moves are passes: a few games reach the count)."""
    with httpx.Client(base_url=url, timeout=120) as http:
        g = http.post("/api/games", json={"size": 9, "opponent": "local"}).json()
        gid, head = g["game"]["id"], {"X-Keima-Seat": g["seat"]["token"]}
        for action in ({"type": "play", "move": 40}, {"type": "pass"}, {"type": "pass"}):
            http.post(f"/api/games/{gid}/actions", json=action, headers=head).raise_for_status()
        for _ in range(1200):  # at most 120 s (a cold numba cache on a busy machine)
            if http.get(f"/api/games/{gid}").json()["proposal"] is not None:
                return
            time.sleep(0.1)
    print("  warning: no dead-stone proposal within 120 s", file=sys.stderr)


def memory_kib(proc: subprocess.Popen[str] | None) -> dict[str, int]:
    """The server's ``VmRSS`` (resident now) and ``VmHWM`` (resident at its peak) in KiB, from Linux ``/proc``
    (an empty dict elsewhere)."""
    if proc is None:
        return {}
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    return out


def load_average(when: str) -> str:
    """The machine's load average (1, 5, 15 minutes) in words, ``when`` said."""
    one, five, fifteen = os.getloadavg()
    return f"load average {when}: {one:.2f}, {five:.2f}, {fifteen:.2f} (1, 5, 15 min)"


def _mb(kib: int | None) -> str:
    return "?" if kib is None else f"{kib / 1024:.0f} MB"


def settle(url: str, proc: subprocess.Popen[str] | None, seconds: float) -> list[tuple[float, int | None, int]]:
    """Sample the server's RSS and games in memory every 5 s for ``seconds`` after the games ended; returns
    (seconds after the end, RSS KiB, games in memory) samples."""
    samples = []
    start = time.monotonic()
    while True:
        t = time.monotonic() - start
        try:
            in_memory = int(httpx.get(url + "/api/stats", timeout=10).json()["games_in_memory"])
        except (httpx.HTTPError, ValueError, KeyError):
            in_memory = -1
        samples.append((t, memory_kib(proc).get("VmRSS"), in_memory))
        if t >= seconds:
            return samples
        time.sleep(min(5.0, max(0.0, seconds - t)))


def report(label: str, stats: Stats, elapsed: float, games: int) -> dict[str, float]:
    ms = [r * 1000 for r in stats.rtts]
    fig = {
        "moves": len(ms),
        "moves_per_s": len(ms) / elapsed if elapsed > 0 else 0.0,
        "p50_ms": percentile(ms, 0.50),
        "p99_ms": percentile(ms, 0.99),
        "max_ms": max(ms) if ms else float("nan"),
        "mean_ms": statistics.fmean(ms) if ms else float("nan"),
    }
    print(f"{label}: {games} games, {2 * games} sockets, {fig['moves']} moves in {elapsed:.1f} s = "
          f"{fig['moves_per_s']:.0f} moves/s; round trip p50 {fig['p50_ms']:.1f} ms, p99 {fig['p99_ms']:.1f} ms, "
          f"max {fig['max_ms']:.1f} ms; refused {stats.refused}, errors {stats.errors}")
    return fig


def _run(coro: Any) -> Any:
    """Run a coroutine on uvloop when installed (uvicorn[standard] brings it; the server uses it too)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="concurrent games (default 1000)")
    ap.add_argument("--size", type=int, default=19, help="board size (default 19)")
    ap.add_argument("--moves", type=int, default=200, help="moves per game at most (default 200)")
    ap.add_argument("--think", type=float, default=2.0, help="mean thinking time per move, seconds (default 2)")
    ap.add_argument("--duration", type=float, default=60.0, help="length of the loaded run, seconds (default 60)")
    ap.add_argument("--url", help="a running server on loopback (default: start keima serve here)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--settle", type=float, default=60.0,
                    help="seconds to watch the server's memory after the games end (default 60)")
    ap.add_argument("--allocator", default="auto", choices=ALLOCATORS,
                    help="the started server's --allocator (default auto: jemalloc where installed)")
    args = ap.parse_args(argv)
    if not 1 <= args.games <= 5000 or not 0 < args.duration <= 3600 or args.think < 0:
        ap.error("--games 1..5000, --duration 0..3600, --think >= 0")
    if not 0 <= args.settle <= 3600:
        ap.error("--settle 0..3600")
    if args.url and not re.match(r"http://(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$", args.url):
        ap.error("--url must be a loopback address (http://127.0.0.1:PORT)")
    # The simulated crowd holds thousands of parsed states: without this its own garbage collector paused it
    # for half a second at times, which showed up as server round trips.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 1_000_000)
    proc = None
    tmp = tempfile.TemporaryDirectory(prefix="keima-bench-")
    try:
        if args.url:
            url = args.url
        else:
            proc, url = start_server(f"sqlite:///{tmp.name}/bench.db", args.allocator)
        print(f"server {url}; board {args.size}x{args.size}; think {args.think} s; up to {args.moves} moves a game")
        print(f"machine: {os.cpu_count()} cores; {load_average('before the run')}")
        launched = memory_kib(proc)
        warm_up(url)
        mem0 = memory_kib(proc)
        # The peer: one game alone, same server, same pace (shorter run).
        solo, solo_t, n1, _cpu = _run(
            run_load(url, 1, args.size, 40, min(args.think, 0.2), 10, args.seed, proc))
        f1 = report("alone ", solo, solo_t, n1)
        gc0 = httpx.get(url + "/api/stats", timeout=10).json()["gc"]
        client0 = time.process_time()
        pauses = ClientPauses()
        load, load_t, n, cpu = _run(
            run_load(url, args.games, args.size, args.moves, args.think, args.duration, args.seed + 1, proc,
                     pauses))
        fn = report("loaded", load, load_t, n)
        print(pauses.summary())
        print(load_average("after the loaded run"))
        client_cpu = time.process_time() - client0
        if cpu is not None and load.rtts:
            per_move = cpu / len(load.rtts) * 1000
            print(f"server CPU during the loaded run: {cpu:.1f} s = {per_move:.2f} ms per move "
                  f"(one core sustains about {1000 / per_move:.0f} moves/s); the simulated clients: "
                  f"{client_cpu:.1f} s = {client_cpu / len(load.rtts) * 1000:.2f} ms per move (game creation included)")
        mem1 = memory_kib(proc)
        srv = httpx.get(url + "/api/stats", timeout=10).json()
        gcs = srv["gc"]
        print(f"server side (apply + store, both runs): {srv['actions']} actions, p50 {srv['p50_ms']} ms, "
              f"p99 {srv['p99_ms']} ms, max {srv['max_ms']} ms")
        passes = [a - b for a, b in zip(gcs["collections"], gc0["collections"], strict=True)]
        print(f"server garbage collector in the loaded run: passes by generation {passes}, total "
              f"{(gcs['total_s'] - gc0['total_s']) * 1000:.0f} ms; longest pass by generation since the server "
              f"started {gcs['longest_ms']} ms")
        samples = settle(url, proc, args.settle) if proc is not None else []
        if proc is not None:
            after = " ".join(f"{t:.0f}s:{_mb(k)}/{g}" for t, k, g in samples)
            peak = memory_kib(proc).get("VmHWM")
            print(f"server memory ({srv['allocator']}): at launch {_mb(launched.get('VmRSS'))}, estimator compiled (the start) "
                  f"{_mb(mem0.get('VmRSS'))}, peak {_mb(peak)}, when the games ended "
                  f"{_mb(mem1.get('VmRSS'))} ({srv['games_in_memory']} games in memory); after the end "
                  f"(seconds: RSS/games in memory) {after}")
        print(f"ratio loaded/alone: p50 x{fn['p50_ms'] / f1['p50_ms']:.2f}, p99 x{fn['p99_ms'] / f1['p99_ms']:.2f}, "
              f"max x{fn['max_ms'] / f1['max_ms']:.2f}")
        print(load_average("at the end"))
        verdict = "met" if fn["p99_ms"] < 50 and load.errors == 0 else "NOT met"
        print(f"goal p99 < 50 ms with {args.games} concurrent games: {verdict} ({fn['p99_ms']:.1f} ms)")
        verdict = "met" if fn["max_ms"] < 100 else "NOT met"
        print(f"goal max < 100 ms: {verdict} ({fn['max_ms']:.1f} ms)")
        before, last = mem0.get("VmRSS"), samples[-1][1] if samples else None
        if before and last:
            ratio = last / before
            verdict = "met" if ratio <= 1.2 else "NOT met"
            print(f"goal memory within 20% of its pre-load level {samples[-1][0]:.0f} s after the load: {verdict} "
                  f"({_mb(last)} / {_mb(before)} = x{ratio:.2f})")
        return 0 if load.errors == 0 else 1
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        tmp.cleanup()


if __name__ == "__main__":
    sys.exit(main())

"""Games leave the server's memory when nobody uses them, and come back from the database exactly as they were.

A game nobody touched for ``Hub.idle_seconds`` leaves memory, a finished game nobody watches leaves at once;
a watched game, a game whose clock runs, or one whose bot or estimator works never leaves.
"""

from __future__ import annotations

import asyncio
import gc
import random
import time
import weakref
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.server import create_app
from keima.server.app import make_hub
from keima.server.games import cache as cache_module
from keima.server.games import newgame
from keima.server.games.hub import Hub
from keima.server.games.schemas import NewGame
from keima.server.games.seats import token_hash
from keima.server.housekeeping import release_memory
from keima.server.live.pubsub import LocalPubSub
from keima.server.storage.store import Store, make_engine, migrate
from server.helpers import act, new_game, state, two_players, wait_for
from server.live import run_async

# What a player sees of a game, without what differs between two games by construction.
SEEN = ("version", "phase", "to_move", "result", "end_reason", "board", "moves", "prisoners", "pass_count",
        "consecutive_passes", "dead", "accepted", "proposal", "score", "undo_request", "players", "invite_open",
        "clock", "you")


@contextmanager
def quick_hub(url: str, idle: float) -> Iterator[tuple[TestClient, Hub]]:
    """A running application whose hub drops games idle for ``idle`` seconds, sweeping every 20 ms."""
    with TestClient(create_app(url)) as c:
        hub: Hub = c.app.state.hub  # type: ignore[attr-defined]
        hub.cache.idle_seconds = idle
        hub.cache.sweep_seconds = 0.02
        yield c, hub


@asynccontextmanager
async def hub_on(path: Path, idle: float, sweep: float) -> AsyncIterator[Hub]:
    """A hub of its own on a fresh SQLite file ``path``: games idle for ``idle`` s may leave memory, and the cache
    sweeps every ``sweep`` s."""
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    store = Store(engine)
    store.start()
    hub = make_hub(store, LocalPubSub(), idle_seconds=idle)
    hub.cache.sweep_seconds = sweep
    try:
        yield hub
    finally:
        await hub.close()
        store.stop()
        engine.dispose()


def seen(s: dict[str, Any]) -> dict[str, Any]:
    # The clock as read, without the moment of the reading (``at``), which differs from one request to the next.
    out = {k: s[k] for k in SEEN}
    if out.get("clock"):
        out["clock"] = {k: v for k, v in out["clock"].items() if k != "at"}
    return out


def test_an_evicted_game_behaves_exactly_as_one_kept_in_memory(sqlite_url: str) -> None:
    # The same game twice: the first one watched by a spectator (so it never leaves memory), the second one
    # unwatched, dropped from memory at each step below and reloaded by the next request.
    with quick_hub(sqlite_url, idle=0.1) as (c, hub):
        kept = two_players(c)
        gone = two_players(c)
        script: list[tuple[int, dict[str, Any]]] = [
            (1, {"type": "play", "move": 40}),
            (2, {"type": "play", "move": 41}),
            (1, {"type": "undo_request"}),       # pending while the game is out of memory
            (2, {"type": "undo_answer", "accept": True}),
            (1, {"type": "play", "move": 30}),
            (2, {"type": "play", "move": 50}),
            (1, {"type": "play", "move": 50}),   # refused (occupied): nothing stored
            (1, {"type": "pass"}),
            (2, {"type": "pass"}),               # scoring: the estimator proposes a marking
        ]
        with c.websocket_connect(f"/api/games/{kept[0]}/ws") as spectator:
            spectator.receive_json()
            for who, action in script:
                wait_for(lambda: gone[0] not in hub.cache.sessions, timeout=10)
                results = []
                for gid, *tokens in (kept, gone):
                    r = c.post(f"/api/games/{gid}/actions", json=action, headers={"X-Keima-Seat": tokens[who - 1]})
                    results.append((r.status_code, r.json().get("error")))
                assert results[0] == results[1], action
                assert kept[0] in hub.cache.sessions
            for gid, black, _white in (kept, gone):
                wait_for(lambda gid=gid, black=black: state(c, gid, black)["proposal"] is not None)
            wait_for(lambda: gone[0] not in hub.cache.sessions, timeout=10)
            a, b = state(c, kept[0], kept[1]), state(c, gone[0], gone[1])
            assert a["phase"] == "scoring" and seen(a) == seen(b)
            for who in (1, 2):
                wait_for(lambda: gone[0] not in hub.cache.sessions, timeout=10)
                for gid, *tokens in (kept, gone):
                    act(c, gid, tokens[who - 1], {"type": "accept"})
            a, b = state(c, kept[0], kept[1]), state(c, gone[0], gone[1])
            assert a["phase"] == "finished" and seen(a) == seen(b)
            assert kept[0] in hub.cache.sessions  # finished, but watched
        # The spectator left: the finished game goes at the next sweep.
        wait_for(lambda: kept[0] not in hub.cache.sessions, timeout=10)
        assert seen(state(c, kept[0], kept[1])) == seen(a)


def test_a_finished_game_nobody_watches_leaves_memory_at_once(sqlite_url: str) -> None:
    with quick_hub(sqlite_url, idle=3600) as (c, hub):
        g = new_game(c, size=9, opponent="local")
        gid, tok = g["game"]["id"], g["seat"]["token"]
        act(c, gid, tok, {"type": "play", "move": 40})
        time.sleep(0.2)
        assert gid in hub.cache.sessions  # in play and recently used: it stays
        s = act(c, gid, tok, {"type": "resign"})["game"]
        assert s["result"] == "B+R"
        wait_for(lambda: gid not in hub.cache.sessions, timeout=2)
        again = state(c, gid, tok)
        assert again["result"] == "B+R" and [m["point"] for m in again["moves"]] == [40]


def test_watched_and_timed_games_never_leave_memory(sqlite_url: str) -> None:
    with quick_hub(sqlite_url, idle=0.05) as (c, hub):
        timed = new_game(c, size=9, opponent="local", clock={"type": "absolute", "main": 600})
        watched = new_game(c, size=9, opponent="local")
        # An invitation not taken yet: its clock does not run yet, so it may leave.
        waiting = new_game(c, size=9, opponent="invite", color="B",
                           clock={"type": "byoyomi", "main": 60, "period": 10, "periods": 3})
        before = state(c, waiting["game"]["id"], waiting["seat"]["token"])
        # A move first, so that the watched game has a history to keep.
        act(c, watched["game"]["id"], watched["seat"]["token"], {"type": "play", "move": 40})
        with c.websocket_connect(f"/api/games/{watched['game']['id']}/ws") as ws:
            ws.receive_json()
            wait_for(lambda: waiting["game"]["id"] not in hub.cache.sessions, timeout=10)
            time.sleep(0.3)  # many sweeps
            assert timed["game"]["id"] in hub.cache.sessions and watched["game"]["id"] in hub.cache.sessions
        after = state(c, waiting["game"]["id"], waiting["seat"]["token"])
        assert seen(after) == seen(before) and after["clock"]["B"]["main"] == 60
        wait_for(lambda: watched["game"]["id"] not in hub.cache.sessions, timeout=10)
        assert timed["game"]["id"] in hub.cache.sessions


def test_intents_racing_with_evictions_are_each_stored_once(tmp_path: Path) -> None:
    """Games leave memory between (and while waiting for) each other's intents: every intent is applied to
    the one live copy of its game, so each accepted one is stored exactly once and the log replays."""

    async def scenario() -> None:
        async with hub_on(tmp_path / "k.db", idle=0.0, sweep=0.0) as hub:
            store = hub.store
            games = []
            for _ in range(8):
                s, tok, _code = await newgame.create(hub.service, NewGame(size=5, opponent="local").model_dump())
                games.append((s.id, token_hash(tok)))
            rng = random.Random(11)
            accepted: dict[str, int] = {gid: 0 for gid, _ in games}
            evictions = 0

            async def player(gid: str, th: str) -> None:
                for _ in range(12):
                    try:
                        await hub.service.act(gid, {"type": "play", "move": rng.randrange(25)}, th)
                        accepted[gid] += 1
                    except Exception as exc:  # only the referee's refusals (Refused 409), no failed write
                        assert getattr(exc, "status", None) == 409, repr(exc)
                    await asyncio.sleep(rng.choice((0, 0, 0.001, 0.015)))

            async def sweeper() -> None:
                nonlocal evictions
                for _ in range(300):
                    evictions += hub.cache.sweep()
                    await asyncio.sleep(0.002)

            await asyncio.gather(sweeper(), *(player(gid, th) for gid, th in games for _ in range(3)))
            assert evictions > 20
            # A second hub on the same database (a restarted server) rebuilds each game from its stored log.
            fresh = make_hub(store, LocalPubSub())
            try:
                for gid, _th in games:
                    s = await hub.cache.get(gid)
                    assert s.version == accepted[gid] == len(s.game.events)
                    stored = await asyncio.get_running_loop().run_in_executor(None, store.load, gid)
                    assert stored is not None and len(stored.entries) == accepted[gid]
                    again = await fresh.cache.get(gid)
                    assert again is not s and again.version == s.version
                    assert again.game.board.colors == s.game.board.colors and again.game.moves == s.game.moves
            finally:
                await fresh.close()

    run_async(scenario(), 120)  # in a thread of its own: Playwright's sync API may hold the main loop


def test_a_game_in_memory_keeps_the_base_of_its_next_delta_out_of_the_collectors_walks(sqlite_url: str) -> None:
    # Each move replaces the board a game keeps as the base of its next delta. As a list (361 items on 19x19),
    # the thousand games of a loaded server made most of the collector's work, and each pass stopped the server
    # for tens of milliseconds (bench/server_load.py): the base is bytes, which the collector never walks.
    import gc

    with quick_hub(sqlite_url, idle=3600) as (c, hub):
        g = new_game(c, size=19, opponent="local")
        gid, tok = g["game"]["id"], g["seat"]["token"]
        for move in (60, 300, 61):
            act(c, gid, tok, {"type": "play", "move": move})
        s = hub.cache.sessions[gid]
        assert list(s.view.board) == list(s.game.board.colors)
        assert [p for p, color in enumerate(s.view.board) if color] == [60, 61, 300]
        assert not gc.is_tracked(s.view.board)


@pytest.mark.parametrize(("games", "kept", "collected"), [(80, 0, [True]), (100, 30, [False])])
def test_a_full_collection_follows_the_games_leaving_down_to_a_quarter(sqlite_url: str, monkeypatch: Any,
                                                                       games: int, kept: int,
                                                                       collected: list[bool]) -> None:
    # After a load, the cycles that reached the old generation (closed connections) keep the allocator's pages:
    # a full collection frees them, and it is short once few games are left. With many games still held it would
    # be a long pause, and it waits for the collector's own turn.
    calls: list[bool] = []
    monkeypatch.setattr(cache_module, "release_memory", lambda collect=False: calls.append(collect))
    with quick_hub(sqlite_url, idle=3600) as (c, hub):
        ids = [new_game(c, size=9, opponent="local")["game"]["id"] for _ in range(games)]
        held = set(ids[:kept])
        hub.cache.pins.append(lambda gid: gid in held)
        hub.cache.idle_seconds = 0.05
        wait_for(lambda: len(hub.cache.sessions) == kept, timeout=20)
        wait_for(lambda: bool(calls), timeout=5)
        assert calls == collected


def test_release_memory_collects_the_cycles_when_asked() -> None:
    class Node:
        other: Any = None

    was_enabled = gc.isenabled()
    gc.disable()  # nothing but release_memory collects in between
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        del a, b
        release_memory(collect=False)
        assert alive() is not None  # a cycle: reference counting alone never frees it
        release_memory(collect=True)
        assert alive() is None
    finally:
        if was_enabled:
            gc.enable()


def test_a_sweep_lets_many_games_go_a_few_at_a_time(tmp_path: Path) -> None:
    # Hundreds of games ending together (a tournament round, a load's games reaching their last move) left
    # memory in one sweep, and freeing them all held the event loop for over 100 ms: the players' moves wait
    # for no more than EVICT_PER_TURN games at a time.
    per_turn = cache_module.EVICT_PER_TURN

    async def scenario() -> None:
        async with hub_on(tmp_path / "k.db", idle=3600, sweep=3600) as hub:
            for _ in range(2 * per_turn + 10):
                await newgame.create(hub.service, NewGame(size=5, opponent="local").model_dump())
            total = len(hub.cache.sessions)
            hub.cache.idle_seconds = 0.0
            assert hub.cache.sweep() == per_turn
            between: list[int] = []
            asyncio.get_running_loop().call_soon(lambda: between.append(len(hub.cache.sessions)))
            for _ in range(100):
                if not hub.cache.sessions:
                    break
                await asyncio.sleep(0.01)
            assert between == [total - per_turn]  # other callbacks ran before the next games left
            assert not hub.cache.sessions  # the rest left on the next turns, without waiting for the next sweep

    run_async(scenario(), 60)

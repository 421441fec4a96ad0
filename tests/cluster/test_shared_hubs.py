"""Two hubs in cluster mode on one PostgreSQL database and one Redis, in one event loop: the database serializes
their changes (a stale copy is reloaded, a lost race for a sequence number is retried), and Redis carries the
states from one to the other's subscribers."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from tests.cluster.conftest import run_async

from keima.server.app import make_hub
from keima.server.errors import Refused
from keima.server.games import newgame
from keima.server.games.hub import Hub
from keima.server.games.rows import from_row
from keima.server.games.session import GameSession
from keima.server.games.view import move_out
from keima.server.live.redis_pubsub import RedisPubSub
from keima.server.storage.store import Store, make_engine, migrate

pytestmark = pytest.mark.postgres


class Node:
    """One process's hub, with its Redis pub/sub (no job queue: these games have no bot)."""

    def __init__(self, db: str, redis: str) -> None:
        self.engine = make_engine(db)
        self.store = Store(self.engine)
        self.pubsub = RedisPubSub(redis, advertise_s=0.1)
        self.hub = make_hub(self.store, self.pubsub, shared=True)

    async def start(self) -> None:
        self.store.start()
        await self.pubsub.start()
        self.pubsub.on_remote = self.hub.on_remote
        self.pubsub.rebuildable = self.hub.rebuildable
        self.pubsub.on_subscribed = lambda ch: self.hub.spawn(self.hub.refresh(ch))
        await asyncio.wait_for(self.pubsub.connected.wait(), 5)

    async def stop(self) -> None:
        await self.hub.close()
        await self.pubsub.close()
        self.store.stop()
        self.engine.dispose()


Body = Callable[[tuple[Node, Node]], Coroutine[Any, Any, None]]


@pytest.fixture
def with_nodes(pg_url: str, redis_url: str) -> Callable[[Body], None]:
    """Run a test body on two started nodes, in a fresh event loop."""
    engine = make_engine(pg_url)
    migrate(engine)
    engine.dispose()

    def run(fn: Body) -> None:
        async def main() -> None:
            a, b = Node(pg_url, redis_url), Node(pg_url, redis_url)
            await a.start()
            await b.start()
            try:
                await fn((a, b))
            finally:
                await a.stop()
                await b.stop()

        run_async(main())

    return run


def vertices(s: GameSession) -> list[str | None]:
    """The vertices of the game's moves (None for a pass)."""
    return [move_out(m, s.game.size).vertex for m in s.game.moves]


def body(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"size": 9, "rules": "ffg", "komi": None, "handicap": 0, "placement": None,
                            "opponent": "local", "color": "B", "bot_level": None, "clock": {"type": "none"}}
    return base | kw


def test_a_stale_copy_is_reloaded_before_a_change(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_stale_copy_is_reloaded_before_a_change)


async def _test_a_stale_copy_is_reloaded_before_a_change(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    s, token, _ = await newgame.create(a.hub.service, body())
    th = s.seats.black
    await b.hub.cache.get(s.id)  # b caches version 0
    await a.hub.service.act(s.id, {"type": "play", "move": "E5"}, th)
    # b's copy says Black to move; the stored game says White: b must reload, not refuse or fork the log.
    s2 = await b.hub.service.act(s.id, {"type": "play", "move": "C3"}, th)
    assert s2.version == 2 and vertices(s2) == ["E5", "C3"]
    s3 = await a.hub.service.act(s.id, {"type": "play", "move": "G7"}, th)
    assert vertices(s3) == ["E5", "C3", "G7"]
    stored = a.store.load(s.id)
    assert stored is not None and len(stored.entries) == 3


def test_fifty_conflicting_actions_leave_one_consistent_game(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_fifty_conflicting_actions_leave_one_consistent_game)


async def _test_fifty_conflicting_actions_leave_one_consistent_game(nodes: tuple[Node, Node]) -> None:
    """Both players send moves, some for the wrong turn, and one resigns in the middle, through both hubs at
    once: every acknowledged action is stored exactly once, no colour plays twice in a row, nothing follows the
    resignation."""
    a, b = nodes
    s, token, invite = await newgame.create(a.hub.service, body(opponent="invite"))
    assert invite is not None
    black = s.seats.black
    _s, white_token = await b.hub.service.join(s.id, invite, None)
    assert white_token is not None
    from keima.server.games.seats import token_hash

    white = token_hash(white_token)
    rnd = random.Random(11)
    points = [f"{c}{r}" for c in "ABCDEFGHJ" for r in range(1, 10)]
    rnd.shuffle(points)
    actions: list[tuple[Hub, dict[str, Any], str | None]] = []
    for i in range(50):
        hub = (a.hub, b.hub)[i % 2]
        seat = black if rnd.random() < 0.5 else white
        action: dict[str, Any] = {"type": "play", "move": points[i]}
        if i == 37:
            action = {"type": "resign"}
        actions.append((hub, action, seat))

    async def one(hub: Hub, action: dict[str, Any], seat: str | None) -> tuple[str, Any]:
        try:
            await hub.service.act(s.id, action, seat)
            return "ok", action
        except Refused as exc:
            return exc.code, None

    results = await asyncio.gather(*(one(*x) for x in actions))
    oks = [r[1] for r in results if r[0] == "ok"]
    assert all(r[0] in ("ok", "illegal-move", "wrong-phase") for r in results), results
    stored = a.store.load(s.id)
    assert stored is not None
    replayed = from_row(stored.row, stored.entries)
    moves = replayed.game.moves
    # One entry per acknowledged action, plus the join; the log replays into alternating colours.
    assert len(stored.entries) == len(oks) + 1
    colors = [m.color for m in moves]
    assert all(x != y for x, y in zip(colors, colors[1:], strict=False))
    played = sorted(v for v in vertices(replayed) if v)
    assert played == sorted(x["move"] for x in oks if x["type"] == "play")
    if any(x["type"] == "resign" for x in oks):
        assert replayed.game.phase == "finished"
        assert replayed.game.events[-1].kind == "resign"


def test_a_change_on_one_hub_reaches_a_subscriber_of_the_other(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_change_on_one_hub_reaches_a_subscriber_of_the_other)


async def _test_a_change_on_one_hub_reaches_a_subscriber_of_the_other(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    s, _token, _ = await newgame.create(a.hub.service, body())
    th = s.seats.black
    await b.hub.cache.get(s.id)
    sub = b.pubsub.subscribe(s.id)
    try:
        await asyncio.sleep(0.2)  # the subscription reaches Redis
        await a.hub.service.act(s.id, {"type": "play", "move": "E5"}, th)
        it = sub.__aiter__()
        # (The subscription first offers b's state of the game as it holds it: version 0.)
        text = await _state_at(it, 1)
        # The delta crosses Redis as it is: b's watchers get it without b reading the game.
        assert json.loads(text)["event"]["move"]["vertex"] == "E5"
        # b's copy follows the stored game (reloaded in the background on the remote message).
        for _ in range(50):
            if b.hub.cache.sessions.get(s.id) is not None and b.hub.cache.sessions[s.id].version == 1:
                break
            await asyncio.sleep(0.02)
        assert b.hub.cache.sessions[s.id].version == 1
    finally:
        sub.close()


def test_a_state_nobody_else_watches_goes_out_bare(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_state_nobody_else_watches_goes_out_bare)


async def _lonely_game_that_b_watches(a: Node, b: Node) -> tuple[GameSession, str | None, Any, Any]:
    """A game on ``a`` that nobody else watched when its first move went out (so sent bare), then watched from
    ``b``: returns (game, Black's seat, b's subscription, its iterator)."""
    s, _token, _ = await newgame.create(a.hub.service, body())
    th = s.seats.black
    await a.hub.service.act(s.id, {"type": "play", "move": "E5"}, th)
    await asyncio.sleep(0.2)  # the move's delta went out (a creation publishes nothing) and reached nobody
    assert a.pubsub.bare_sent == 0
    await b.hub.cache.get(s.id)
    sub = b.pubsub.subscribe(s.id)
    await asyncio.sleep(0.3)  # the subscription reaches Redis
    return s, th, sub, sub.__aiter__()


async def _state_at(it: Any, version: int) -> str:
    """The first state of ``version`` or later from a subscription's iterator (2 s each at most)."""
    got, text = await asyncio.wait_for(it.__anext__(), 2.0)
    while got < version:
        got, text = await asyncio.wait_for(it.__anext__(), 2.0)
    assert got == version
    return str(text)


async def _test_a_state_nobody_else_watches_goes_out_bare(nodes: tuple[Node, Node]) -> None:
    """A game watched from one process only sends Redis bare version notices, not its deltas; a process that
    starts watching still gets every change: the first as a whole state rebuilt from the database, the next ones
    as the deltas carried in the messages again."""
    a, b = nodes
    s, th, sub, it = await _lonely_game_that_b_watches(a, b)
    try:
        await a.hub.service.act(s.id, {"type": "play", "move": "C3"}, th)  # still bare: b's interest is not known yet
        text = await _state_at(it, 2)
        assert [m["vertex"] for m in json.loads(text)["moves"]] == ["E5", "C3"]
        assert a.pubsub.bare_sent == 1
        await a.hub.service.act(s.id, {"type": "play", "move": "D4"}, th)  # Redis said b listens: the text goes along
        text = await _state_at(it, 3)
        assert json.loads(text)["event"]["move"]["vertex"] == "D4"  # the delta itself
        assert a.pubsub.bare_sent == 1
    finally:
        sub.close()


def test_a_bare_notice_reaches_watchers_whose_copy_was_dropped(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_bare_notice_reaches_watchers_whose_copy_was_dropped)


async def _test_a_bare_notice_reaches_watchers_whose_copy_was_dropped(nodes: tuple[Node, Node]) -> None:
    """A bare notice carries no state: a process whose copy of the game just left memory (a failed write drops
    it) reads the game again for its watchers instead of waiting for the next change."""
    a, b = nodes
    s, th, sub, it = await _lonely_game_that_b_watches(a, b)
    try:
        b.hub.cache.drop(b.hub.cache.sessions[s.id])
        await a.hub.service.act(s.id, {"type": "play", "move": "C3"}, th)  # bare
        text = await _state_at(it, 2)
        assert [m["vertex"] for m in json.loads(text)["moves"]] == ["E5", "C3"]
        assert a.pubsub.bare_sent == 1
    finally:
        sub.close()


def test_watchers_are_counted_over_both_processes(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_watchers_are_counted_over_both_processes)


async def _test_watchers_are_counted_over_both_processes(nodes: tuple[Node, Node]) -> None:
    """The lobby's spectator count of a game adds up the distinct viewers of every process: each advertises its
    own counts in Redis every ``advertise_s`` seconds (0.1 s here), and a process that stops takes its count with
    it. A player's subscription (no viewer) is not counted, nor a viewer's second one in the same process."""
    a, b = nodes
    s, _token, _ = await newgame.create(a.hub.service, body())
    await b.hub.cache.get(s.id)
    subs = [a.pubsub.subscribe(s.id), a.pubsub.subscribe(s.id, "ann"), b.pubsub.subscribe(s.id, "bob"),
            b.pubsub.subscribe(s.id, "bob"), b.pubsub.subscribe(s.id, "cid")]
    try:
        await asyncio.sleep(0.6)  # both advertised (the advertiser sleeps its first period too)
        assert await a.pubsub.watchers([s.id, "no-such-game"]) == {s.id: 3, "no-such-game": 0}
        assert await b.pubsub.watchers([s.id]) == {s.id: 3}
        subs.pop(2).close()  # one of bob's two: bob still watches
        await asyncio.sleep(0.6)
        assert await a.pubsub.watchers([s.id]) == {s.id: 3}
        subs.pop().close()
        await asyncio.sleep(0.6)
        assert await a.pubsub.watchers([s.id]) == {s.id: 2}
        await b.pubsub.close()  # b's hash goes with it
        assert await a.pubsub.watchers([s.id]) == {s.id: 1}
    finally:
        for sub in subs:
            sub.close()


def test_a_time_loss_is_stored_once(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_time_loss_is_stored_once)


async def _test_a_time_loss_is_stored_once(nodes: tuple[Node, Node]) -> None:
    """Both hubs hold the game with Black's clock running out: each timer fires, one stores the loss, the other
    reads it back."""
    a, b = nodes
    s, _token, _ = await newgame.create(a.hub.service, body(clock={"type": "absolute", "main": 0.3}))
    await b.hub.cache.get(s.id)
    await asyncio.sleep(1.2)
    stored = a.store.load(s.id)
    assert stored is not None
    assert len(stored.entries) == 1, stored.entries
    for hub in (a.hub, b.hub):
        g = await hub.cache.get(s.id, fresh=True)
        assert g.game.phase == "finished" and g.game.result is not None and "T" in g.game.result


def test_a_watching_copy_catches_up_in_place(with_nodes: Callable[[Body], None]) -> None:
    with_nodes(_test_a_watching_copy_catches_up_in_place)


async def _test_a_watching_copy_catches_up_in_place(nodes: tuple[Node, Node]) -> None:
    """Moves, an undo (two moves taken back) and a pass made on hub a: hub b, watching, folds each new entry into
    the copy it holds (the same object, not a reload), and ends with exactly the state of the game read afresh."""
    a, b = nodes
    s, _token, _ = await newgame.create(a.hub.service, body())
    th = s.seats.black
    held = await b.hub.cache.get(s.id)
    sub = b.pubsub.subscribe(s.id)
    try:
        await asyncio.sleep(0.3)
        actions: list[dict[str, Any]] = [
            {"type": "play", "move": "E5"}, {"type": "play", "move": "E6"}, {"type": "play", "move": "D6"},
            {"type": "play", "move": "C3"}, {"type": "play", "move": "F6"},
            {"type": "undo_request", "color": "W"}, {"type": "play", "move": "G3"},
            {"type": "play", "move": "E7"}, {"type": "pass"},
        ]
        for action in actions:
            await a.hub.service.act(s.id, action, th)
        final = a.hub.cache.sessions[s.id]
        for _ in range(100):
            if held.version == final.version:
                break
            await asyncio.sleep(0.02)
        assert b.hub.cache.sessions[s.id] is held and not held.broken
        fresh = from_row(a.store.load(s.id).row, a.store.load(s.id).entries)  # type: ignore[union-attr]
        assert held.state_json(0.0) == fresh.state_json(0.0)
        assert vertices(held) == vertices(fresh)
        assert held.event_dicts == fresh.event_dicts
    finally:
        sub.close()

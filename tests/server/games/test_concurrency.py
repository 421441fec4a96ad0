"""Many intents at the same moment: one game's changes are applied one at a time, each stored once, in order."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from keima.server.app import make_hub
from keima.server.errors import Refused
from keima.server.games import newgame
from keima.server.games.rows import from_row
from keima.server.games.schemas import NewGame
from keima.server.games.seats import token_hash
from keima.server.live.pubsub import LocalPubSub
from keima.server.storage.store import Store, make_engine, migrate
from server.live import run_async


def test_concurrent_intents_on_many_games(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = make_engine(f"sqlite:///{tmp_path / 'k.db'}")
        migrate(engine)
        store = Store(engine)
        store.start()
        hub = make_hub(store, LocalPubSub())
        try:
            games = []
            for _ in range(20):
                s, tok, _code = await newgame.create(hub.service, NewGame(size=5, opponent="local").model_dump())
                games.append((s.id, token_hash(tok)))
            rng = random.Random(7)
            outcomes: dict[str, list[bool]] = {gid: [] for gid, _ in games}

            async def player(gid: str, th: str) -> None:
                # Fires intents without waiting for the previous one's effect: many are refused. (Plays only:
                # two passes would start the estimator, whose entry would arrive at its own time.)
                for _ in range(15):
                    action = {"type": "play", "move": rng.randrange(25)}
                    try:
                        await hub.service.act(gid, action, th)
                        outcomes[gid].append(True)
                    except Refused as exc:
                        assert exc.status == 409, exc.message
                        outcomes[gid].append(False)

            await asyncio.gather(*(player(gid, th) for gid, th in games for _ in range(3)))
            for gid, _th in games:
                s = hub.cache.sessions[gid]
                applied = sum(outcomes[gid])
                assert s.version == applied == len(s.game.events)
                stored = await asyncio.get_running_loop().run_in_executor(None, store.load, gid)
                assert stored is not None and len(stored.entries) == applied
                again = from_row(stored.row, stored.entries)
                assert again.game.board.colors == s.game.board.colors and again.game.moves == s.game.moves
                s.game.check_consistency()
        finally:
            await hub.close()
            store.stop()
            engine.dispose()

    run_async(scenario(), 300)  # in a thread of its own: Playwright's sync API may hold the main loop

"""The chat's limits per game and per address in cluster mode (issue 30, item 8): two processes' ``ChatFlood``
count in Redis together, so that a flood spread over the web processes is limited once."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.cluster.conftest import REDIS_BIN, RedisServer, run_async

from keima.server.accounts.limits import CHAT_ADDRESS_LIMIT, ChatFlood, Limits, RedisLimit
from keima.server.errors import Refused


def test_two_processes_share_the_chat_limits_in_redis(tmp_path: Path) -> None:
    if REDIS_BIN is None:
        pytest.skip("needs Debian's redis-server (scripts/test.sh installs it)")
    server = RedisServer(tmp_path)
    server.start()
    try:
        async def main() -> list[int | None]:
            one, two = Limits(server.url), Limits(server.url)  # as two web processes would have
            a, b = ChatFlood(one), ChatFlood(two)
            assert isinstance(a.per_game, RedisLimit) and isinstance(a.per_address, RedisLimit)
            outcomes: list[int | None] = []
            try:
                for i in range(CHAT_ADDRESS_LIMIT + 2):
                    try:
                        await (a if i % 2 else b).check(f"game{i}", "10.0.0.7")
                        outcomes.append(None)
                    except Refused as exc:
                        outcomes.append(exc.status)
                await a.check("game0", "10.0.0.8")  # another address is not limited by the first
            finally:
                await one.close()
                await two.close()
            return outcomes

        outcomes = run_async(main())
        assert outcomes == [None] * CHAT_ADDRESS_LIMIT + [429, 429]
    finally:
        server.stop()

"""A socket that only tells: the lobby's and a tournament's. The page sends nothing but pings; the server's tasks
listen to the pub/sub and write to the page until it leaves."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from keima.server.live.pubsub import Subscription


async def serve_notices(websocket: WebSocket, subs: Sequence[Subscription],
                        listen: Callable[[Any], Coroutine[Any, Any, None]],
                        pump: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``listen(sub)`` for each of ``subs`` and ``pump()`` while the page stays, answering its pings with a pong;
    returns when the page is gone, after closing the subscriptions and stopping the tasks. Never raises for a page
    that left (a closed socket is how every such page ends)."""
    loop = asyncio.get_running_loop()
    tasks: list[asyncio.Task[None]] = [loop.create_task(listen(sub)) for sub in subs] + [loop.create_task(pump())]
    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if frame.get("text") and '"ping"' in frame["text"]:
                await websocket.send_text('{"type":"pong"}')
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for sub in subs:
            sub.close()
        for task in tasks:
            task.cancel()

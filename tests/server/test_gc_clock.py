"""The young garbage-collector passes that ``keima serve`` runs by the clock (``collect_young_by_clock``): they
collect a young cycle that the allocation counts would not have, and stop when told."""

from __future__ import annotations

import asyncio
import gc
import weakref
from typing import Any

from keima.server.housekeeping import collect_young_by_clock
from server.live import run_async


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def test_young_passes_run_by_the_clock_and_stop() -> None:
    passes: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 1:  # the clock's passes (a full one elsewhere is not)
            passes.append(info["generation"])

    async def scenario() -> tuple[bool, int, int]:
        a, b = Node(), Node()
        a.other, b.other = b, a  # a cycle: only the collector frees it
        gone = weakref.ref(a)
        del a, b
        stop = collect_young_by_clock(0.02)
        await asyncio.sleep(0.2)
        stop()
        ran = len(passes)
        await asyncio.sleep(0.1)
        return gone() is None, ran, len(passes)

    was_enabled = gc.isenabled()
    gc.disable()  # no pass by the counts: what runs is the clock's
    gc.callbacks.append(seen)
    try:
        collected, ran, after_stop = run_async(scenario(), 30)
    finally:
        gc.callbacks.remove(seen)
        if was_enabled:
            gc.enable()
    assert collected
    assert ran >= 3  # about 10 in 0.2 s; a slow machine runs fewer
    assert after_stop == ran

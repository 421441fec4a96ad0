"""Process housekeeping: the background loops of a process (``Background``), the garbage collector's pauses (for
``/api/stats``) and handing freed memory back to the operating system after many games left memory."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import time
from collections.abc import Awaitable, Callable
from typing import Any


class GcPauses:
    """Durations of the garbage collector's passes (a ``gc.callbacks`` entry), for ``/api/stats``."""

    def __init__(self) -> None:
        self._start = 0.0
        self.count = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]
        self.total = 0.0

    def observe(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        gen = info.get("generation", 0)
        took = time.perf_counter() - self._start
        self.count[gen] += 1
        self.longest[gen] = max(self.longest[gen], took)
        self.total += took

    def summary(self) -> dict[str, Any]:
        return {"collections": self.count, "longest_ms": [round(t * 1000, 3) for t in self.longest],
                "total_s": round(self.total, 3)}


_libc: Any = None


def release_memory() -> None:
    """Hand freed memory back to the operating system after many games left memory.

    Python returns its emptied object arenas (and large blocks) to the C allocator, but glibc keeps freed
    blocks in its heap for reuse; ``malloc_trim(0)`` gives the unused pages back. What stays is Python's own
    fragmentation: arenas with a few live objects left, reused by the next games (docs/server.md has the
    figures). A no-op where glibc is not the C library."""
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
            _libc = lib if lib is not None and hasattr(lib, "malloc_trim") else False
        except OSError:
            _libc = False
    if _libc:
        _libc.malloc_trim(0)


class Background:
    """One background task of the process (the scheduler's polling, the outbox's delivery): started once from the
    event loop, cancelled and awaited by ``close``."""

    def __init__(self, run: Callable[[], Awaitable[None]]) -> None:
        self._run = run
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the task (idempotent)."""
        if self._task is None:

            async def main() -> None:
                await self._run()

            self._task = asyncio.get_running_loop().create_task(main())

    async def close(self) -> None:
        """Cancel the task and wait for it to end."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

"""Process housekeeping: the background loops of a process (``Background``), the garbage collector's pauses (for
``/api/stats``) and handing freed memory back to the operating system after many games left memory."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal


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


_heap: tuple[str, Any] | None = None


def _c_heap() -> tuple[str, Any]:
    """The C allocator under this process and a handle to it: ``("jemalloc", lib)`` when jemalloc is loaded
    (``keima serve`` preloads it, ``keima.cli.allocator``), ``("glibc", libc)``, or ``("", None)``."""
    global _heap
    if _heap is None:
        _heap = ("", None)
        with contextlib.suppress(OSError):
            here = ctypes.CDLL(None)
            if hasattr(here, "mallctl"):
                _heap = ("jemalloc", here)
            else:
                name = ctypes.util.find_library("c")
                lib = ctypes.CDLL(name) if name else None
                if lib is not None and hasattr(lib, "malloc_trim"):
                    _heap = ("glibc", lib)
    return _heap


# Whether Python hands its objects to the C allocator (PYTHONMALLOC=malloc at the start). keima.cli.allocator
# sets it in the process it started again, whose environment no longer says so (its children must not inherit it).
python_on_c_malloc = os.environ.get("PYTHONMALLOC", "").startswith("malloc")


Allocator = Literal["jemalloc", "malloc", "pymalloc"]


def python_allocator() -> Allocator:
    """What holds this process's Python objects: ``"jemalloc"`` (``keima serve``'s choice where it is installed,
    ``keima.cli.allocator``), ``"malloc"`` (the C library's, ``PYTHONMALLOC=malloc`` without jemalloc) or
    ``"pymalloc"`` (Python's own, the default of a Python process)."""
    if python_on_c_malloc:
        return "jemalloc" if _c_heap()[0] == "jemalloc" else "malloc"
    return "pymalloc"


def release_memory(collect: bool = False) -> None:
    """Hand freed memory back to the operating system after many games left memory.

    ``collect`` runs a full garbage collection first: it frees the cycles that reached the old generation, which
    only the full pass every few minutes would otherwise collect (``keima.cli.serve.tune_gc``); the caller asks
    for it when few games are left, so that the pass is short. Then the C allocator gives its unused pages back:
    jemalloc purges them at once (it also does by itself within a second), glibc's ``malloc_trim(0)`` trims its
    heap. Under Python's own allocator what stays is its fragmentation: 1 MiB arenas kept by a few live objects
    each (docs/server.md has the figures). Returns nothing; a no-op on other C libraries."""
    if collect:
        gc.collect()
    kind, lib = _c_heap()
    if kind == "jemalloc":
        # "arena.<MALLCTL_ARENAS_ALL>.purge": every arena's unused dirty pages, now.
        lib.mallctl(b"arena.4096.purge", None, None, None, ctypes.c_size_t(0))
    elif kind == "glibc":
        lib.malloc_trim(0)


def collect_young_by_clock(every: float) -> Callable[[], None]:
    """Run a pass of the young generations (0 and 1) every ``every`` seconds on the running event loop, whatever
    the allocation counts say; returns a function that stops it.

    Python starts its young passes by counting: when allocations of tracked objects outnumber deallocations by
    the threshold. In a server under a steady load the old objects freed (a move's socket reads that waited a few
    seconds) cancel out the new ones, so the count stays low while the young generations grow: a middle pass then
    walked 45,000 objects at once (40-50 ms, every move in flight waiting). By the clock, each pass walks only
    what was allocated since the last one and is still alive, and an object that lives on is walked in the one
    pass that moves it to the old generation. Raises ``RuntimeError`` without a running event loop."""
    loop = asyncio.get_running_loop()
    handle: list[asyncio.TimerHandle] = []

    def young() -> None:
        gc.collect(1)
        handle[0] = loop.call_later(every, young)

    handle.append(loop.call_later(every, young))

    def stop() -> None:
        handle[0].cancel()

    return stop


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


class Warnings:
    """Log lines that would otherwise repeat for every request or message (a Redis or an SMTP server away): at
    most one line per ``every`` seconds for each kind, on ``logger``, saying how many were left out since."""

    def __init__(self, every: float, logger: logging.Logger) -> None:
        self.every = every
        self.logger = logger
        self._last: dict[str, float] = {}
        self._left_out: dict[str, int] = {}

    def warn(self, kind: str, text: str) -> bool:
        """Log ``text`` unless a line of ``kind`` was logged less than ``every`` seconds ago; returns whether it
        was logged."""
        now = time.monotonic()
        if now - self._last.get(kind, -1e9) < self.every:
            self._left_out[kind] = self._left_out.get(kind, 0) + 1
            return False
        more = self._left_out.pop(kind, 0)
        self.logger.warning("%s%s", text, f" ({more} more like it since the last such line)" if more else "")
        self._last[kind] = now
        return True

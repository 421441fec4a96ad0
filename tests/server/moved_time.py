"""A time source the tests move forward (``keima.server.timesource``): days pass in a moment."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from keima.server import timesource


class MovedTime:
    """The system's time plus ``offset`` seconds, which ``move`` adds to (it never goes back)."""

    def __init__(self, start: float | None = None) -> None:
        self.offset = 0.0 if start is None else start - time.time()

    def time(self) -> float:
        return time.time() + self.offset

    def move(self, seconds: float) -> None:
        assert seconds >= 0
        self.offset += seconds


@contextmanager
def moved_time(start: float | None = None) -> Iterator[MovedTime]:
    """Install a ``MovedTime`` (starting at Unix time ``start``, default now) for the block."""
    source = MovedTime(start)
    old = timesource.install(source)
    try:
        yield source
    finally:
        timesource.install(old)

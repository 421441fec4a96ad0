"""The server's one reading of the time: every game clock, timer, scheduled job and stored date reads it here.

Game clocks count in Unix seconds (``now``), because a correspondence clock spans days, restarts and processes,
and pauses on the players' weekends (a local calendar, so wall time). ``install`` swaps the source: the tests
install one they can move forward (days in a moment); nothing in the server or its command line does, so in
production the time is the system's.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class TimeSource(Protocol):
    """Something that says the time, in Unix seconds."""

    def time(self) -> float: ...


class SystemTime:
    """The system's wall clock (NTP keeps the processes of a cluster in step)."""

    def time(self) -> float:
        return time.time()


_source: TimeSource = SystemTime()


def now() -> float:
    """The current time, Unix seconds."""
    return _source.time()


def now_utc() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.fromtimestamp(_source.time(), UTC)


def install(source: TimeSource) -> TimeSource:
    """Read the time from ``source`` from now on; returns the source it replaces (to put back)."""
    global _source
    old, _source = _source, source
    return old

"""The server's one reading of the time: every game clock, timer, scheduled job and stored date reads it here.

Game clocks count in Unix seconds (``now``), because a correspondence clock spans days, restarts and processes,
and pauses on the players' weekends (a local calendar, so wall time). ``install`` swaps the source: the tests
install one they can move forward (days in a moment). A server started with ``KEIMA_TIME_START`` in its
environment (``install_from_environment``, read by ``keima serve`` and ``keima worker``) runs its clock from that
moment on: the browser tests start their server on a fixed weekday, so that no weekend pause or digest hour
depends on the day the suite runs. Without it (production) the time is the system's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Protocol


class TimeSource(Protocol):
    """Something that says the time, in Unix seconds."""

    def time(self) -> float: ...


class SystemTime:
    """The system's wall clock (NTP keeps the processes of a cluster in step)."""

    def time(self) -> float:
        return time.time()


class ShiftedTime:
    """The system's clock shifted to read ``start`` (Unix seconds) when it is made; it runs on from there."""

    def __init__(self, start: float) -> None:
        self.offset = start - time.time()

    def time(self) -> float:
        return time.time() + self.offset


#: The environment variable that starts a server's clock at a given moment (ISO 8601 with its offset, or Unix
#: seconds): for tests and demonstrations, never needed in production.
START_ENV = "KEIMA_TIME_START"

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



def parse_start(text: str) -> float:
    """Unix seconds of ``text``: a number of seconds, or an ISO 8601 date and time with its UTC offset
    (``2026-12-02T10:00:00+00:00``); raises ``ValueError`` naming what was wrong."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{START_ENV}: {text[:64]!r} is neither Unix seconds nor an ISO 8601 date and time") from None
    if moment.tzinfo is None:
        raise ValueError(f"{START_ENV}: {text[:64]!r} has no UTC offset (add +00:00 or Z)")
    return moment.timestamp()


def install_from_environment(environ: Mapping[str, str] = os.environ) -> float | None:
    """When ``KEIMA_TIME_START`` is set in ``environ``, install a ``ShiftedTime`` starting then and return its start
    (Unix seconds); else change nothing and return None. Raises ``ValueError`` for a value ``parse_start``
    refuses."""
    text = environ.get(START_ENV, "").strip()
    if not text:
        return None
    start = parse_start(text)
    install(ShiftedTime(start))
    return start

"""When a correspondence clock does not run: the player's weekend and their vacation (docs/correspondence.md).

Pure arithmetic on Unix seconds. A side's clock is paused from Saturday 00:00 to Monday 00:00 in the player's own
time zone (an IANA name; the local midnights are found by ``zoneinfo``, so a weekend across a change of daylight
saving time lasts 47 or 49 hours) when the game has weekend pauses, and during the player's vacation (one interval,
``away``). ``counted`` says how much of a stretch of time a clock is charged, ``run_out_at`` when a clock with
some time left runs out, ``paused`` why a clock is not running at an instant.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from functools import lru_cache
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

Why = Literal["weekend", "vacation"]
SATURDAY = 5


@lru_cache(maxsize=512)
def zone(name: str | None) -> ZoneInfo:
    """The time zone ``name`` (UTC for None); raises ``ValueError`` for a name zoneinfo does not know."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {name!r}") from exc


def valid_zone(name: str) -> bool:
    """True when ``name`` is an IANA time zone name known here (``Europe/Paris``; not a path or an abbreviation)."""
    if not name or len(name) > 64 or name.startswith("/") or ".." in name:
        return False
    if name in available_timezones():
        return True
    try:
        zone(name)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Pause:
    """What pauses one side's clock: ``weekend`` in time zone ``tz``, and the vacation ``away`` = (start, end)."""

    weekend: bool = False
    tz: str | None = None
    away: tuple[float, float] | None = None

    @property
    def never(self) -> bool:
        """True when nothing ever pauses this clock."""
        return not self.weekend and self.away is None


def weekends(tz: str | None, start: float) -> Iterator[tuple[float, float]]:
    """The weekends in ``tz`` as (Saturday 00:00, Monday 00:00) Unix seconds, from the one that ends after
    ``start`` on, forever."""
    z = zone(tz)
    day = datetime.fromtimestamp(start, z).date()
    saturday = day - timedelta(days=(day.weekday() - SATURDAY) % 7)
    while True:
        a = datetime.combine(saturday, time(0), tzinfo=z).timestamp()
        b = datetime.combine(saturday + timedelta(days=2), time(0), tzinfo=z).timestamp()
        if b > start:
            yield a, b
        saturday += timedelta(days=7)


def intervals(p: Pause, start: float) -> Iterator[tuple[float, float, Why]]:
    """The pauses of ``p`` that end after ``start``, in order, overlapping ones merged (a merged stretch is a
    vacation when a vacation is part of it)."""
    parts: list[Iterator[tuple[float, float, Why]]] = []
    if p.weekend:
        parts.append((a, b, "weekend") for a, b in weekends(p.tz, start))
    if p.away is not None and p.away[1] > start and p.away[1] > p.away[0]:
        parts.append(iter([(p.away[0], p.away[1], "vacation")]))
    cur: tuple[float, float, Why] | None = None
    for a, b, why in heapq.merge(*parts):
        if cur is not None and a <= cur[1]:
            cur = (cur[0], max(cur[1], b), "vacation" if "vacation" in (why, cur[2]) else "weekend")
            continue
        if cur is not None:
            yield cur
        cur = (a, b, why)
    if cur is not None:
        yield cur


def counted(p: Pause, t0: float, t1: float) -> float:
    """The seconds of ``[t0, t1)`` during which the clock runs (0 when ``t1 <= t0``)."""
    if t1 <= t0:
        return 0.0
    if p.never:
        return t1 - t0
    total = t1 - t0
    for a, b, _why in intervals(p, t0):
        if a >= t1:
            break
        total -= min(b, t1) - max(a, t0)
    return max(0.0, total)


def run_out_at(p: Pause, t0: float, left: float) -> float:
    """The instant at which a clock running from ``t0`` with ``left`` seconds runs out."""
    if p.never:
        return t0 + left
    t = t0
    for a, b, _why in intervals(p, t0):
        if a > t:
            if a - t >= left:
                break
            left -= a - t
        t = max(t, b)
    return t + left


def paused(p: Pause, t: float) -> Why | None:
    """Why the clock does not run at ``t`` (None: it runs)."""
    if p.never:
        return None
    for a, b, why in intervals(p, t):
        return why if a <= t < b else None
    return None


def resumes_at(p: Pause, t: float) -> float | None:
    """When a clock paused at ``t`` runs again (None: it is not paused at ``t``)."""
    if p.never:
        return None
    for a, b, _why in intervals(p, t):
        return b if a <= t < b else None
    return None


def next_pause(p: Pause, t: float) -> float | None:
    """When a clock running at ``t`` stops next (None: never)."""
    if p.never:
        return None
    for a, _b, _why in intervals(p, t):
        if a > t:
            return a
    return None

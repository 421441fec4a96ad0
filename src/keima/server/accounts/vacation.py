"""A player's vacation days: how many they have, spending them, and when a vacation ends by itself.

Pure arithmetic on Unix seconds (docs/correspondence.md): a player starts with 7 days, earns 1 day for each 7
days they are not away, never holds more than 30, and spends their days while away, second by second; a vacation
ends by itself when the days are gone. The balance is stored as ``left`` seconds as of the instant ``at``, and
``since`` is the start of the vacation under way (None: not away).
"""

from __future__ import annotations

from dataclasses import dataclass

DAY = 86400.0
START_S = 7 * DAY
CAP_S = 30 * DAY
EARN_EVERY = 7  # one day earned for each this many days
MIN_START_S = 3600.0  # a vacation starts only with at least an hour of it held


@dataclass(frozen=True)
class Vacation:
    """The balance ``left`` (seconds) as of ``at``, and ``since``: when the vacation under way started."""

    left: float = START_S
    at: float = 0.0
    since: float | None = None

    def ends_at(self) -> float | None:
        """When the vacation under way ends by itself (its days spent); None when not away."""
        return None if self.since is None else self.since + self.left

    def away(self, now: float) -> bool:
        """True while on vacation at ``now``."""
        end = self.ends_at()
        return end is not None and now < end

    def left_at(self, now: float) -> float:
        """The seconds of vacation held at ``now``: spent while away, earned while not, within 0..30 days."""
        end = self.ends_at()
        if self.since is not None and end is not None:
            if now < end:
                return max(0.0, self.left - max(0.0, now - self.since))
            return min(CAP_S, max(0.0, now - end) / EARN_EVERY)  # it ended by itself at 0, and earning resumed
        return min(CAP_S, self.left + max(0.0, now - self.at) / EARN_EVERY)

    def start(self, now: float) -> Vacation:
        """Go away at ``now``; raises ``ValueError`` when less than ``MIN_START_S`` is left (or already away)."""
        if self.away(now):
            raise ValueError("already on vacation")
        left = self.left_at(now)
        if left < MIN_START_S:
            raise ValueError("no vacation left (less than an hour)")
        return Vacation(left=left, at=now, since=now)

    def stop(self, now: float) -> Vacation:
        """Come back at ``now`` (nothing changes when not away)."""
        return Vacation(left=self.left_at(now), at=now, since=None)

    def interval(self) -> tuple[float, float] | None:
        """The vacation under way as (start, end by itself), what a game's clock pauses for; None when not away."""
        end = self.ends_at()
        return None if self.since is None or end is None else (self.since, end)

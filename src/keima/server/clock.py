"""Game clocks kept by the server: absolute, byo-yomi, Canadian and Fischer timing.

The clock is pure arithmetic on seconds: the caller passes the current time (``time.monotonic()`` in the server,
any number in tests), so nothing here sleeps or reads a clock. One side runs at a time; ``stop`` charges the
elapsed time to the running side and says whether it ran out. The server schedules a timer for
``time_left(color)`` seconds after the start of a turn, so a side that never moves still loses on time.

The state of both sides is a plain dict (``snapshot`` / ``restore``) that the server stores with every log entry;
a restarted server resumes each clock from the last stored snapshot (the time the server was down is charged to
nobody).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

ClockType = Literal["none", "absolute", "byoyomi", "canadian", "fischer"]
CLOCK_TYPES: tuple[ClockType, ...] = ("none", "absolute", "byoyomi", "canadian", "fischer")


@dataclass(frozen=True)
class ClockSpec:
    """The time control of a game; seconds everywhere.

    ``main``: main time; ``period`` and ``periods``: byo-yomi; ``period`` and ``stones``: Canadian overtime;
    ``increment`` and ``max``: Fischer (``max`` None = no cap). Fields a type does not use are ignored.
    """

    type: ClockType = "none"
    main: float = 0.0
    period: float = 0.0
    periods: int = 0
    stones: int = 0
    increment: float = 0.0
    max: float | None = None

    def __post_init__(self) -> None:
        if self.type not in CLOCK_TYPES:
            raise ValueError(f"unknown clock type {self.type!r}")
        if self.main < 0 or self.period < 0 or self.increment < 0:
            raise ValueError("clock times must not be negative")
        if self.type == "byoyomi" and (self.periods < 1 or self.period <= 0):
            raise ValueError("byo-yomi needs period > 0 and periods >= 1")
        if self.type == "canadian" and (self.stones < 1 or self.period <= 0):
            raise ValueError("Canadian overtime needs period > 0 and stones >= 1")
        if self.type in ("absolute", "fischer") and self.main <= 0:
            raise ValueError(f"{self.type} timing needs main > 0")

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the API (only the fields the type uses)."""
        keys = {
            "none": (),
            "absolute": ("main",),
            "byoyomi": ("main", "period", "periods"),
            "canadian": ("main", "period", "stones"),
            "fischer": ("main", "increment", "max"),
        }[self.type]
        out: dict[str, Any] = {"type": self.type}
        for k in keys:
            out[k] = getattr(self, k)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClockSpec:
        """Build a spec from its JSON form; raises ``ValueError`` (or ``TypeError``) for a bad one."""
        return cls(**d)


@dataclass
class SideClock:
    """One side's time: ``main`` left, byo-yomi ``periods`` left, ``period`` left in the current period
    (byo-yomi and Canadian), Canadian ``stones`` still to play in this period, ``expired`` once flagged."""

    main: float
    periods: int = 0
    period: float = 0.0
    stones: int = 0
    expired: bool = False


@dataclass
class GameClock:
    """Both sides' clocks for one game. Colours are 1 (Black) and 2 (White), as in ``keima.rules``."""

    spec: ClockSpec
    sides: dict[int, SideClock] = field(default_factory=dict)
    running: int | None = None
    started_at: float = 0.0

    def __post_init__(self) -> None:
        if not self.sides:
            s = self.spec
            for color in (1, 2):
                self.sides[color] = SideClock(main=s.main, periods=s.periods, period=s.period, stones=s.stones)

    @property
    def enabled(self) -> bool:
        """False for a game without clock (type "none")."""
        return self.spec.type != "none"

    def start(self, color: int, now: float) -> None:
        """Start ``color``'s clock at time ``now`` (a running clock is stopped first, uncharged: call ``stop``)."""
        if not self.enabled:
            return
        self.running = color
        self.started_at = now

    def stop(self, now: float, *, moved: bool = True) -> bool:
        """Stop the running clock at ``now`` and charge its side; returns True when that side ran out of time.

        ``moved``: the side completed a move (byo-yomi period reset, Canadian stone count, Fischer increment);
        False when the clock stops for another reason (scoring phase, resignation).
        """
        color = self.running
        if color is None or not self.enabled:
            self.running = None
            return False
        self.running = None
        return self.charge(color, max(0.0, now - self.started_at), moved=moved)

    def charge(self, color: int, elapsed: float, *, moved: bool = True) -> bool:
        """Charge ``elapsed`` seconds to ``color``; returns True when it ran out (``expired`` is then set)."""
        side = self.sides[color]
        spec = self.spec
        if not self.enabled or side.expired:
            return side.expired
        used_main = min(side.main, elapsed)
        side.main -= used_main
        over = elapsed - used_main
        if spec.type in ("absolute", "fischer"):
            if over > 0:
                side.main = 0.0
                side.expired = True
            elif spec.type == "fischer" and moved:
                side.main += spec.increment
                if spec.max is not None:
                    side.main = min(side.main, spec.max)
        elif spec.type == "byoyomi":
            if over > 0:
                # A move made within the current period keeps it (and resets it); overrunning it uses it up,
                # and the overrun goes on into the next periods.
                if over < side.period:
                    side.period = spec.period if moved else side.period - over
                else:
                    rest = over - side.period
                    extra = int(rest // spec.period)
                    side.periods -= 1 + extra
                    if side.periods <= 0:
                        side.periods = 0
                        side.period = 0.0
                        side.expired = True
                    else:
                        side.period = spec.period if moved else spec.period - (rest - extra * spec.period)
            elif moved and side.main <= 0:
                side.period = spec.period
        elif spec.type == "canadian" and (over > 0 or side.main <= 0):
            side.period -= over
            if side.period < 0:
                side.period = 0.0
                side.expired = True
            elif moved:
                side.stones -= 1
                if side.stones <= 0:
                    side.stones = spec.stones
                    side.period = spec.period
        return side.expired

    def time_left(self, color: int, now: float | None = None) -> float:
        """Seconds ``color`` may still use before losing on time (as of ``now`` when it is running)."""
        side = self.sides[color]
        if not self.enabled:
            return float("inf")
        if side.expired:
            return 0.0
        spec = self.spec
        total = side.main
        if spec.type == "byoyomi":
            total += side.period + (side.periods - 1) * spec.period
        elif spec.type == "canadian":
            total += side.period
        if self.running == color and now is not None:
            total -= now - self.started_at
        return max(0.0, total)

    def sides_at(self, now: float) -> dict[int, SideClock]:
        """Return both sides as of ``now``: the running side charged provisionally (a copy; the clock itself is
        unchanged), the other one as it is. The API's view of the clock is built from these."""
        out = dict(self.sides)
        color = self.running
        if color is not None and self.enabled:
            side = _copy(self.sides[color])
            probe = GameClock(self.spec, {color: side, 3 - color: SideClock(0.0)})
            probe.charge(color, max(0.0, now - self.started_at), moved=False)
            out[color] = side
        return out

    def snapshot(self) -> dict[str, Any]:
        """Return both sides' stored state (not the running side or start time, which do not survive a restart)."""
        return {_name(c): _side_dict(s) for c, s in self.sides.items()}

    def restore(self, snap: dict[str, Any]) -> None:
        """Load a ``snapshot``; raises ``KeyError``/``TypeError`` for a malformed one."""
        self.sides = {1: SideClock(**snap["B"]), 2: SideClock(**snap["W"])}
        self.running = None


def _side_dict(s: SideClock) -> dict[str, Any]:
    # By hand: dataclasses.asdict deep-copies, which showed in the server's profile.
    return {"main": s.main, "periods": s.periods, "period": s.period, "stones": s.stones, "expired": s.expired}


def _copy(s: SideClock) -> SideClock:
    return SideClock(s.main, s.periods, s.period, s.stones, s.expired)


def _name(color: int) -> str:
    return "B" if color == 1 else "W"


def clock_words(spec: dict[str, Any]) -> str | None:
    """The time control in words, as SGF ``OT`` and the lobby show it: ``"5x30 byo-yomi"``, ``"10/300
    Canadian"``, ``"10 s Fischer"``, ``"absolute"``; None for no clock."""
    kind = spec.get("type", "none")
    if kind == "byoyomi":
        return f"{spec['periods']}x{spec['period']:g} byo-yomi"
    if kind == "canadian":
        return f"{spec['stones']}/{spec['period']:g} Canadian"
    if kind == "fischer":
        cap = f", max {spec['max']:g} s" if spec.get("max") else ""
        return f"{spec['increment']:g} s Fischer{cap}"
    if kind == "absolute":
        return "absolute"
    return None

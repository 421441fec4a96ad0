"""Game clocks kept by the server: absolute, byo-yomi, Canadian, Fischer and simple (N seconds a move) timing.

The clock is pure arithmetic on seconds: the caller passes the current time (Unix seconds from
``keima.server.timesource`` in the server, any number in tests), so nothing here sleeps or reads a clock. A
correspondence clock may pause (the player's weekend, their vacation: ``keima.server.games.pauses``): a running side is
charged only the time it ran, and ``runs_out_at`` says when it runs out, pauses included. One side runs at a time; ``stop`` charges the
elapsed time to the running side and says whether it ran out. The server schedules a timer for
``time_left(color)`` seconds after the start of a turn, so a side that never moves still loses on time.

The state of both sides is a plain dict (``snapshot`` / ``restore``) that the server stores with every log entry;
a restarted server resumes each clock from the last stored snapshot (the time the server was down is charged to
nobody).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from keima.server.games import pauses
from keima.server.games.pauses import Pause

ClockType = Literal["none", "absolute", "byoyomi", "canadian", "fischer", "simple"]
CLOCK_TYPES: tuple[ClockType, ...] = ("none", "absolute", "byoyomi", "canadian", "fischer", "simple")
#: A game is a correspondence game when its clock gives at least this many seconds a move (``per_move``).
CORRESPONDENCE_S = 3600.0
#: Main time spread over this many moves in ``per_move`` (a player's share of a long game).
MOVES_PER_GAME = 120
DAY = 86400.0
#: The correspondence time controls offered by name (the new-game form, and automatch's "correspondence" speed):
#: the one list of them. Each is a clock object of the API (docs/web-api.md), weekend pauses on.
CORRESPONDENCE_PRESETS: dict[str, dict[str, Any]] = {
    "fischer-3d": {"type": "fischer", "main": 3 * DAY, "increment": DAY, "max": 7 * DAY, "weekend_pause": True},
    "simple-1d": {"type": "simple", "per_move": DAY, "weekend_pause": True},
    "simple-2d": {"type": "simple", "per_move": 2 * DAY, "weekend_pause": True},
    "byoyomi-7d": {"type": "byoyomi", "main": 7 * DAY, "period": DAY, "periods": 5, "weekend_pause": True},
    "absolute-28d": {"type": "absolute", "main": 28 * DAY, "weekend_pause": True},
}


@dataclass(frozen=True)
class ClockSpec:
    """The time control of a game; seconds everywhere.

    ``main``: main time; ``period`` and ``periods``: byo-yomi; ``period`` and ``stones``: Canadian overtime;
    ``increment`` and ``max``: Fischer (``max`` None = no cap); ``per_move``: simple (each move in at most that).
    Fields a type does not use are ignored. ``weekend_pause``: each player's clock stops on their weekend;
    ``vacation`` False: the players' vacations do not pause this game (a tournament's).
    """

    type: ClockType = "none"
    main: float = 0.0
    period: float = 0.0
    periods: int = 0
    stones: int = 0
    increment: float = 0.0
    max: float | None = None
    per_move: float = 0.0
    weekend_pause: bool = False
    vacation: bool = True

    def __post_init__(self) -> None:
        if self.type not in CLOCK_TYPES:
            raise ValueError(f"unknown clock type {self.type!r}")
        if self.main < 0 or self.period < 0 or self.increment < 0 or self.per_move < 0:
            raise ValueError("clock times must not be negative")
        if self.type == "byoyomi" and (self.periods < 1 or self.period <= 0):
            raise ValueError("byo-yomi needs period > 0 and periods >= 1")
        if self.type == "canadian" and (self.stones < 1 or self.period <= 0):
            raise ValueError("Canadian overtime needs period > 0 and stones >= 1")
        if self.type in ("absolute", "fischer") and self.main <= 0:
            raise ValueError(f"{self.type} timing needs main > 0")
        if self.type == "simple" and self.per_move <= 0:
            raise ValueError("simple timing needs per_move > 0")

    def as_dict(self) -> dict[str, Any]:
        """Return the JSON form used by the API (only the fields the type uses)."""
        keys = {
            "none": (),
            "absolute": ("main",),
            "byoyomi": ("main", "period", "periods"),
            "canadian": ("main", "period", "stones"),
            "fischer": ("main", "increment", "max"),
            "simple": ("per_move",),
        }[self.type]
        out: dict[str, Any] = {"type": self.type}
        for k in keys:
            out[k] = getattr(self, k)
        if self.type != "none":
            out["weekend_pause"] = self.weekend_pause
            out["vacation"] = self.vacation
        return out

    @property
    def per_move_s(self) -> float:
        """The time a move gets, on which "correspondence" is decided (docs/correspondence.md): main time / 120
        plus the increment (Fischer), the period (byo-yomi), the period over its stones (Canadian), nothing
        (absolute); the time per move (simple); infinite without clock."""
        share = self.main / MOVES_PER_GAME
        if self.type == "none":
            return float("inf")
        if self.type == "simple":
            return self.per_move
        if self.type == "fischer":
            return share + self.increment
        if self.type == "byoyomi":
            return share + self.period
        if self.type == "canadian":
            return share + self.period / max(1, self.stones)
        return share

    @property
    def correspondence(self) -> bool:
        """True for a correspondence clock: at least an hour a move (``per_move_s``); never without clock."""
        return self.type != "none" and self.per_move_s >= CORRESPONDENCE_S

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ClockSpec:
        """Build a spec from its JSON form (a request's: ``weekend_pause`` None or absent means on for a
        correspondence clock, off otherwise; ``vacation`` None means True); raises ``ValueError`` (or
        ``TypeError``) for a bad one."""
        d = dict(d)
        if d.get("vacation") is None:
            d.pop("vacation", None)
        weekend = d.pop("weekend_pause", None)
        spec = cls(**d)
        if weekend is None:
            weekend = spec.correspondence
        return dataclasses.replace(spec, weekend_pause=bool(weekend))


@dataclass
class SideClock:
    """One side's time: ``main`` left, byo-yomi ``periods`` left, ``period`` left in the current period
    (byo-yomi and Canadian), Canadian ``stones`` still to play in this period, ``expired`` once flagged."""

    main: float
    periods: int = 0
    period: float = 0.0
    stones: int = 0
    expired: bool = False
    #: The player's IANA time zone (their weekend) and vacation (start, end), Unix seconds: correspondence only.
    tz: str | None = None
    away: tuple[float, float] | None = None


@dataclass
class GameClock:
    """Both sides' clocks for one game. Colours are 1 (Black) and 2 (White), as in ``keima.rules``."""

    spec: ClockSpec
    sides: dict[int, SideClock] = field(default_factory=dict)
    running: int | None = None
    started_at: float = 0.0
    #: From the last snapshot restored: when the side then running had started (a correspondence clock's turn
    #: outlives the entries that do not move the clock: a chat message, a vacation; ``keima.server.games.cache``).
    restored_since: float | None = None

    def __post_init__(self) -> None:
        if not self.sides:
            s = self.spec
            main = s.per_move if s.type == "simple" else s.main
            for color in (1, 2):
                self.sides[color] = SideClock(main=main, periods=s.periods, period=s.period, stones=s.stones)

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
        return self.charge(color, self.counted(color, self.started_at, now), moved=moved)

    def pause_of(self, color: int) -> Pause:
        """What pauses ``color``'s clock (its weekends when the game has them, its vacation when it counts)."""
        side = self.sides[color]
        away = side.away if self.spec.vacation and self.spec.correspondence else None
        return Pause(weekend=self.spec.weekend_pause, tz=side.tz, away=away)

    def counted(self, color: int, t0: float, t1: float) -> float:
        """The seconds of ``[t0, t1)`` charged to ``color`` (pauses left out)."""
        return pauses.counted(self.pause_of(color), t0, t1)

    def runs_out_at(self, color: int, now: float) -> float:
        """When ``color``'s clock, running since ``started_at`` (or from ``now`` when stopped), runs out."""
        return pauses.run_out_at(self.pause_of(color), now, self.time_left(color, now))

    def paused(self, color: int, now: float) -> pauses.Why | None:
        """Why ``color``'s clock would not count at ``now`` (None: it would)."""
        return None if not self.enabled else pauses.paused(self.pause_of(color), now)

    def charge(self, color: int, elapsed: float, *, moved: bool = True) -> bool:
        """Charge ``elapsed`` seconds to ``color``; returns True when it ran out (``expired`` is then set)."""
        side = self.sides[color]
        spec = self.spec
        if not self.enabled or side.expired:
            return side.expired
        used_main = min(side.main, elapsed)
        side.main -= used_main
        over = elapsed - used_main
        if spec.type in ("absolute", "fischer", "simple"):
            if over > 0:
                side.main = 0.0
                side.expired = True
            elif spec.type == "simple" and moved:
                side.main = spec.per_move
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
            total -= self.counted(color, self.started_at, now)
        return max(0.0, total)

    def sides_at(self, now: float) -> dict[int, SideClock]:
        """Return both sides as of ``now``: the running side charged provisionally (a copy; the clock itself is
        unchanged), the other one as it is. The API's view of the clock is built from these."""
        out = dict(self.sides)
        color = self.running
        if color is not None and self.enabled:
            side = _copy(self.sides[color])
            probe = GameClock(self.spec, {color: side, 3 - color: SideClock(0.0)})
            probe.charge(color, self.counted(color, self.started_at, now), moved=False)
            out[color] = side
        return out

    def snapshot(self) -> dict[str, Any]:
        """Return both sides' stored state: not the running side (the game says whose turn it is), nor its start
        time but in a correspondence game (``since``: its turn started then, whatever came after)."""
        out: dict[str, Any] = {_name(c): _side_dict(s) for c, s in self.sides.items()}
        if self.running is not None and self.spec.correspondence:
            out["since"] = self.started_at
        return out

    def restore(self, snap: dict[str, Any]) -> None:
        """Load a ``snapshot``; raises ``KeyError``/``TypeError`` for a malformed one."""
        self.sides = {1: _side(snap["B"]), 2: _side(snap["W"])}
        self.running = None
        self.restored_since = snap.get("since")


def _side_dict(s: SideClock) -> dict[str, Any]:
    # By hand: dataclasses.asdict deep-copies, which showed in the server's profile. A side without pauses stores
    # what it always stored.
    out: dict[str, Any] = {"main": s.main, "periods": s.periods, "period": s.period, "stones": s.stones,
                           "expired": s.expired}
    if s.tz is not None:
        out["tz"] = s.tz
    if s.away is not None:
        out["away"] = list(s.away)
    return out


def _side(d: dict[str, Any]) -> SideClock:
    away = d.get("away")
    return SideClock(main=d["main"], periods=d["periods"], period=d["period"], stones=d["stones"],
                     expired=d["expired"], tz=d.get("tz"), away=None if away is None else (away[0], away[1]))


def _copy(s: SideClock) -> SideClock:
    return SideClock(s.main, s.periods, s.period, s.stones, s.expired, s.tz, s.away)


def _name(color: int) -> str:
    return "B" if color == 1 else "W"


def clock_words(spec: dict[str, Any]) -> str | None:
    """The time control in words, as SGF ``OT`` and the lobby show it: ``"5x30 byo-yomi"``, ``"10/300
    Canadian"``, ``"10 s Fischer"``, ``"1 d Fischer, max 7 d"``, ``"absolute"``; None for no clock."""
    kind = spec.get("type", "none")
    if kind == "byoyomi":
        return f"{spec['periods']}x{spec['period']:g} byo-yomi"
    if kind == "canadian":
        return f"{spec['stones']}/{spec['period']:g} Canadian"
    if kind == "fischer":
        cap = f", max {duration_words(spec['max'])}" if spec.get("max") else ""
        return f"{duration_words(spec['increment'])} Fischer{cap}"
    if kind == "simple":
        return f"{duration_words(spec['per_move'])} a move"
    if kind == "absolute":
        return "absolute"
    return None


def duration_words(seconds: float) -> str:
    """A duration the way the lobby shows a correspondence time: ``"2 d 5 h"``, ``"3 d"``, ``"5 h 30 min"``,
    ``"45 min"``, ``"30 s"`` (the two largest units, rounded down)."""
    s = int(max(0.0, seconds))
    d, rest = divmod(s, 86400)
    h, rest = divmod(rest, 3600)
    m, sec = divmod(rest, 60)
    parts = [(d, "d"), (h, "h"), (m, "min"), (sec, "s")]
    first = next((i for i, (v, _u) in enumerate(parts) if v), len(parts) - 1)
    shown = [f"{v} {u}" for v, u in parts[first:first + 2] if v]
    return " ".join(shown) or "0 s"

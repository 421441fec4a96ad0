"""Time control for a computer player: the clock it plays under, and how many seconds its next move may take.

One module for every front end: the GTP engine fills a :class:`TimeBudget` from the controller's commands, the
web server from its own game clock's reading (:meth:`TimeBudget.remaining`), and the seat
(``keima.seat.Seat.think_time``) turns either into seconds. It imports nothing of keima.

GTP ``time_settings M B S`` is Canadian overtime (main time M, then S stones in each period of B seconds;
B > 0 with S == 0 means no time limit). KGS adds ``kgs-time_settings none|absolute|byoyomi|canadian``.
``time_left COLOR T S`` reports what a player has left: S == 0 means main time (or absolute time), S > 0
means overtime with S stones (Canadian) or S periods (Japanese byo-yomi) left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Kind = Literal["none", "absolute", "canadian", "byoyomi"]

#: Bounds of what a clock holds (seconds; stones per period or periods): within them the budget's arithmetic
#: stays in floating point range. A year and a thousand stones are beyond any real time control.
MAX_CLOCK_SECONDS = 365 * 24 * 3600.0
MAX_CLOCK_STONES = 1000


def _check(main: float, period: float, stones: int) -> None:
    if not (0 <= main <= MAX_CLOCK_SECONDS and 0 <= period <= MAX_CLOCK_SECONDS and 0 <= stones <= MAX_CLOCK_STONES):
        raise ValueError(f"time settings out of range: main {main!r}, period {period!r}, stones {stones!r}")


@dataclass
class TimeBudget:
    """The time control of one game and what each colour has left, as last told by the controller."""

    kind: Kind = "none"
    main: float = 0.0
    period: float = 0.0
    stones: int = 0
    """Stones per overtime period (Canadian) or number of periods (byo-yomi)."""
    left: dict[int, tuple[float, int]] = field(default_factory=dict)
    """colour -> (seconds, stones or periods) from the last ``time_left``."""

    @classmethod
    def remaining(cls, color: int, seconds: float) -> TimeBudget:
        """A budget that knows only that ``color`` has ``seconds`` left (a game clock's reading, whatever its
        kind), spent as absolute time; a reading beyond ``0..MAX_CLOCK_SECONDS`` is clamped to it."""
        budget = cls(kind="absolute")
        budget.left[color] = (min(max(0.0, seconds), MAX_CLOCK_SECONDS), 0)
        return budget

    def set_canadian(self, main: float, period: float, stones: int) -> None:
        """Apply GTP ``time_settings``; a period with no stones means no time limit (GTP 2 section 6.3).
        Raises ``ValueError`` for a value outside ``0..MAX_CLOCK_SECONDS`` / ``0..MAX_CLOCK_STONES``."""
        _check(main, period, stones)
        if period > 0 and stones == 0:
            self.kind = "none"
        elif period == 0 and stones == 0:
            self.kind = "absolute"
        else:
            self.kind = "canadian"
        self.main, self.period, self.stones = main, period, stones
        self.left.clear()

    def set_kgs(self, kind: Kind, main: float = 0.0, period: float = 0.0, stones: int = 0) -> None:
        """Apply ``kgs-time_settings``. Raises ``ValueError`` for a value out of range (see ``set_canadian``)."""
        _check(main, period, stones)
        self.kind, self.main, self.period, self.stones = kind, main, period, stones
        self.left.clear()

    def budget(self, color: int, empty_points: int, default: float, cap: float) -> float:
        """Return the seconds to spend on the next move of ``color``.

        ``default`` is used when there is no time limit; the result never exceeds ``cap`` and leaves a
        safety margin for the controller's own overhead.
        """
        if self.kind == "none":
            return min(default, cap)
        seconds, count = self.left.get(color, (self.main, 0))
        moves_to_go = max(empty_points // 2, 12)
        if self.kind == "canadian":
            per_stone = self.period / max(self.stones, 1)
            if count > 0:
                budget = seconds / count
            elif seconds <= 0:
                budget = per_stone
            else:
                budget = max(seconds / moves_to_go, per_stone / 2)
        elif self.kind == "byoyomi":
            if count > 0:
                # KGS reports the seconds left in the current period and the periods left.
                budget = seconds if seconds > 0 else self.period
            elif seconds <= 0:
                budget = self.period
            else:
                budget = max(seconds / moves_to_go, self.period / 2)
        else:
            budget = seconds / moves_to_go
        # 0.8 and 0.1 s: a margin for the controller's and the pipe's own delays.
        return max(0.05, min(cap, budget * 0.8 - 0.1))

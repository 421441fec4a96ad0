"""The server's record of its last actions' durations (``GET /api/stats``): a fixed ring, newest over oldest."""

from __future__ import annotations

import pytest

from keima.server.games.service import Timings


@pytest.mark.parametrize(("size", "appended", "kept"), [
    (4, [], []),
    (4, [1.0, 2.0], [1.0, 2.0]),
    (4, [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]),
    (4, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [3.0, 4.0, 5.0, 6.0]),
    (3, [float(x) for x in range(10)], [7.0, 8.0, 9.0]),
])
def test_the_ring_keeps_the_newest_durations_oldest_first(size: int, appended: list[float],
                                                            kept: list[float]) -> None:
    t = Timings(size)
    for x in appended:
        t.append(x)
    assert len(t) == len(kept)
    assert list(t) == kept


"""The date-sensitive server tests pass whatever day and hour the machine says: they are run again here with the
machine's wall clock moved (``datefudge``: the wall clock only, the monotonic one untouched) to a Saturday, a Sunday
evening in Paris and a Monday at 00:30 UTC. Each of those tests fixes its own time (``conftest.fixed_day`` or
``moved_time``): nothing of the machine's date may leak into a weekend pause, a vacation, a digest at 18:00, a
scoring deadline or a clock-low warning (a test that passed on a Wednesday failed on a Saturday, when the weekend
pause held its clock)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
DATEFUDGE = shutil.which("datefudge")

#: The server tests whose outcome turns on a date or an hour.
DATE_SENSITIVE = [
    "games/test_correspondence_clock.py",
    "games/test_correspondence_timeout.py",
    "games/test_scoring_deadline.py",
    "notifications/test_notifications.py",
    "notifications/test_bell_live.py",
    "notifications/test_notification_words.py",
    "players/test_vacation.py",
    "players/test_player_games.py",
]

#: (the machine's local time zone, the moment its wall clock shows at the start).
MOMENTS = {
    "saturday-afternoon-utc": ("UTC", datetime(2026, 12, 5, 14, 0)),
    "sunday-evening-paris": ("Europe/Paris", datetime(2026, 12, 6, 21, 30)),
    "monday-0030-utc": ("UTC", datetime(2026, 12, 7, 0, 30)),
}


@pytest.mark.slow
@pytest.mark.skipif(DATEFUDGE is None, reason="datefudge is missing: apt-get install datefudge (scripts/test.sh does)")
@pytest.mark.skipif("datefudge" in os.environ.get("LD_PRELOAD", ""),
                    reason="the suite runs under datefudge already: a datefudge inside it counts from the moved clock")
@pytest.mark.parametrize("moment", list(MOMENTS))
def test_the_date_sensitive_tests_pass_on_any_day(moment: str, tmp_path: Path) -> None:
    zone, local = MOMENTS[moment]
    assert DATEFUDGE is not None
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "KEIMA_TEST_PG"))}
    env |= {"TZ": zone, "KEIMA_ALLOCATOR": "pymalloc", "PYTHONPATH": os.pathsep.join(sys.path)}
    fudge = [DATEFUDGE, local.strftime("%Y-%m-%d %H:%M:%S")]
    # The run sees the moved clock (checked first, so that a datefudge that changed nothing cannot pass).
    seen = subprocess.run([*fudge, sys.executable, "-c", "import time; print(time.time())"], env=env,
                          capture_output=True, text=True, timeout=60, check=True)
    expected = local.replace(tzinfo=ZoneInfo(zone)).timestamp()
    assert abs(float(seen.stdout) - expected) < 120, (seen.stdout, expected)
    run = subprocess.run(
        [*fudge, sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "--basetemp", str(tmp_path / "t"), *(str(HERE / f) for f in DATE_SENSITIVE)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    tail = "\n".join(run.stdout.splitlines()[-25:])
    assert run.returncode == 0, f"under {moment}:\n{tail}\n{run.stderr[-2000:]}"
    assert re.search(r"\b\d+ passed\b", tail) and " failed" not in tail, tail

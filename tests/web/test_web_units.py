"""The web client's own unit tests (``web/test/*.test.js``: the game reducer against the protocol-2 messages,
the reconnecting socket client), run by node's test runner so that CI runs them with the Python suite.

Skipped where node is not installed; each JavaScript test is reported by name when one fails.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("suite", sorted(p.name for p in (WEB / "test").glob("*.test.js")))
def test_node_suite_passes(suite: str) -> None:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "--test", f"test/{suite}"], cwd=WEB, capture_output=True, text=True, timeout=120, check=False
    )
    failed = [line for line in done.stdout.splitlines() if line.startswith("not ok")]
    assert done.returncode == 0, f"{suite}: {failed or done.stderr[-2000:]}\n{done.stdout[-4000:]}"
    # A suite that ran nothing (a renamed file, a syntax error caught as zero tests) must not pass silently.
    assert "# pass 0" not in done.stdout, done.stdout


def test_the_suites_exist() -> None:
    assert {"reducer.test.js", "socket.test.js"} <= {p.name for p in (WEB / "test").glob("*.test.js")}

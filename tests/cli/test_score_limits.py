"""``keima score`` on records built to exhaust it: a size limit with ``--max-bytes`` to raise it, and an early
clean error (exit 2) where a ``MemoryError`` traceback used to come after a minute."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from keima.cli import main

CORPUS = Path(__file__).resolve().parent.parent / "data" / "sgf"
COUNTED = CORPUS / "keima_9x9_counted.sgf"


def test_a_record_over_the_default_limit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.sgf"
    text = COUNTED.read_text()
    big.write_text(text.replace("(;", "(;C[" + "x" * (1 << 20) + "]", 1))
    assert main(["score", str(big)]) == 2
    err = capsys.readouterr().err
    assert "more than the limit of 1048576 bytes" in err and "--max-bytes" in err
    assert main(["score", str(big), "--max-bytes", "2000000", "--json"]) == 0
    assert '"result": "B+1.5"' in capsys.readouterr().out
    assert main(["score", str(COUNTED), "--max-bytes", "100"]) == 2
    assert "more than the limit of 100 bytes" in capsys.readouterr().err


@pytest.mark.parametrize("bad", ["0", "-5", "lots", "1e9"])
def test_max_bytes_must_be_a_positive_integer(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["score", str(COUNTED), "--max-bytes", bad])
    assert info.value.code == 2
    assert "--max-bytes" in capsys.readouterr().err


def test_the_rectangle_flood_fails_at_once_without_a_traceback(tmp_path: Path) -> None:
    # 5 MB of AB[aa:ss]: 57 s and 4.5 GB before the error, or a MemoryError traceback under a memory limit.
    path = tmp_path / "rectangles.sgf"
    path.write_bytes(b"(;GM[1]FF[4]SZ[19]AB" + b"[aa:ss]" * 750_000 + b")")
    start = time.perf_counter()
    # A child under a 1 GB address-space limit, as on a small server.
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "from keima.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "score", str(path), "--max-bytes", "6000000"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2, done.stderr[-500:]
    assert "A19 is listed twice" in done.stderr and "Traceback" not in done.stderr
    assert time.perf_counter() - start < 30

"""``keima serve --redis`` at start (issue 23, item 24): without the cluster extra, or with Redis or the database
out of reach, one line names what is missing (the URL, its password hidden) and the exit code is 2; never a
traceback. Run as real processes, as a user would."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(tmp_path: Path, *args: str, block: str = "") -> subprocess.CompletedProcess[str]:
    """``keima serve`` in a process of its own; ``block``: a module made unimportable first (as if not
    installed)."""
    code = (f"import sys; sys.modules[{block!r}] = None; " if block else "import sys; ") + \
        "from keima.cli import main; sys.exit(main(sys.argv[1:]))"
    argv = [sys.executable, "-c", code, "serve", "--no-open", "--port", "0", *args]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)


@pytest.mark.parametrize("module", ["arq", "redis"])
def test_cluster_mode_without_the_extra_says_what_to_install(tmp_path: Path, module: str) -> None:
    r = serve(tmp_path, "--db", f"sqlite:///{tmp_path}/k.db", "--redis", "redis://127.0.0.1:6379/0", block=module)
    assert r.returncode == 2, r.stderr
    assert "cluster mode needs `pip install 'keima[cluster]'`" in r.stderr and module in r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def test_unreachable_redis_names_its_url(tmp_path: Path) -> None:
    url = f"redis://:hunter2@127.0.0.1:{closed_port()}/0"
    r = serve(tmp_path, "--db", f"sqlite:///{tmp_path}/k.db", "--redis", url)
    assert r.returncode == 2, r.stderr
    assert f"cannot reach Redis at redis://:***@127.0.0.1:{url.rsplit(':', 1)[1]}" in r.stderr
    assert "hunter2" not in r.stderr and "Traceback" not in r.stderr + r.stdout


def test_unreachable_postgres_names_its_url(tmp_path: Path) -> None:
    url = f"postgresql://keima:pw@127.0.0.1:{closed_port()}/keima"
    r = serve(tmp_path, "--db", url, "--redis", f"redis://127.0.0.1:{closed_port()}/0")
    assert r.returncode == 2, r.stderr
    assert "cannot open the database postgresql+psycopg://keima:***@127.0.0.1:" in r.stderr
    assert "Traceback" not in r.stderr + r.stdout

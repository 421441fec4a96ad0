"""The moderation tests' people: marie, a moderator named from the command line, and two players."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.cli import main

from ..accounts.test_players import Browser, registered


@pytest.fixture
def people(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> Any:
    from keima.server import create_app

    with TestClient(create_app(sqlite_url)) as c:
        mod, a, b = Browser(c), Browser(c), Browser(c)
        registered(mod, "marie")
        registered(a, "alice")
        registered(b, "bobby")
        assert main(["admin", "moderator", "add", "Marie", "--db", sqlite_url]) == 0
        assert capsys.readouterr().out == "marie is a moderator\n"
        yield mod, a, b

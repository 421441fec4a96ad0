"""Shared fixtures for the GTP tests: a deterministic engine and the fake-engine command lines."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable

import pytest

from keima.ai.standin import PolicyPlayer
from keima.gtp_engine import GtpEngine

FAKE = os.path.join(os.path.dirname(__file__), "fake_engine.py")


def fake_argv(mode: str, *args: str) -> list[str]:
    """The command line of the fake engine in ``mode`` (see fake_engine.py)."""
    return [sys.executable, FAKE, mode, *args]


def gnugo_path() -> str | None:
    """GNU Go's binary: on PATH, or where Debian puts it (/usr/games is not always on PATH)."""
    found = shutil.which("gnugo")
    if found:
        return found
    return "/usr/games/gnugo" if os.access("/usr/games/gnugo", os.X_OK) else None


@pytest.fixture
def make_engine() -> Callable[..., GtpEngine]:
    """Build an engine that plays the seeded policy and calls every stone alive unless told otherwise."""

    def build(**kw: object) -> GtpEngine:
        kw.setdefault("dead_estimator", lambda game: frozenset())
        player = kw.pop("player", PolicyPlayer(7))
        return GtpEngine(player, **kw)  # type: ignore[arg-type]

    return build


@pytest.fixture
def engine(make_engine: Callable[..., GtpEngine]) -> GtpEngine:
    """A 9x9 French engine."""
    return make_engine(size=9)

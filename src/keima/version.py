"""keima's version, read once from the installed package's metadata (``pyproject.toml`` is the only place it is
written). A module of its own, not ``keima/__init__.py``, so that ``record``, ``gtp`` and ``server`` can read it
without importing the package front, which imports them."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION: str = version("keima")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    VERSION = "0+unknown"

__all__ = ["VERSION"]

"""keima's version, read from the installed package's metadata (``pyproject.toml`` is the only place it is
written). A module of its own, not ``keima/__init__.py``, so that ``record``, ``gtp`` and ``server`` can read it
without importing the package front, which imports them."""

from __future__ import annotations

from functools import cache


@cache
def package_version() -> str:
    """Return the installed keima's version (``"0.1.0"``), or ``"0+unknown"`` for a source tree that was never
    installed. Read on first use and kept: finding a package's metadata scans every entry of ``sys.path``,
    which would cost each ``import keima`` tens of milliseconds (importing ``importlib.metadata`` as many)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("keima")
    except PackageNotFoundError:
        return "0+unknown"


__all__ = ["package_version"]

"""What the commands that work on a server's database share (``keima admin``, ``keima ratings``): the ``--db``
option and the way the database is opened, brought up to date and closed, with one line on failure."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from keima.cli import UsageError, error_line

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--db URL`` (default: the environment's ``KEIMA_DB``)."""
    parser.add_argument("--db", default=os.environ.get("KEIMA_DB"), metavar="URL",
                        help="the server's database URL (sqlite:///PATH or postgresql://...; env KEIMA_DB)")


def on_database(command: str, url: str | None, work: Callable[[Engine], int]) -> int:
    """Open the database at ``url`` (migrated to the running version), run ``work`` on it and close it; returns
    ``work``'s exit status, or 1 after printing ``keima COMMAND: <what went wrong>`` when anything fails. Raises
    ``UsageError`` without a URL."""
    if not url:
        raise UsageError("--db URL is required (the server's database)")
    from keima.cli.serve import normalise_url
    from keima.server.storage import make_engine, migrate

    try:
        engine = make_engine(normalise_url(url))
        try:
            migrate(engine)
            return work(engine)
        finally:
            engine.dispose()
    except Exception as exc:
        print(f"keima {command}: {error_line(exc)}", file=sys.stderr)
        return 1

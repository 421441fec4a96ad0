"""``keima ratings``: the players' ratings kept by a keima server's database.

``keima ratings recompute --db URL``
    Rate every stored finished game again from the start, in the order the games finished, and print how many
    games were rated. The numbers are those the running servers computed game by game (the same delivery rates
    them); use it after correcting a result. A server running meanwhile keeps serving; its pages may show ratings
    part way until the command ends.
"""

from __future__ import annotations

import argparse
import os
import sys

from keima.cli import Subparsers, UsageError, add_command, error_line


def register(subparsers: Subparsers) -> None:
    """Add the ``ratings`` sub-command and its own sub-commands."""
    p = add_command(subparsers, "ratings", "rebuild the players' ratings of a server's database (docs/ratings.md)",
                    "Work on the ratings of a keima server's database.", _missing_action)
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    r = sub.add_parser("recompute", help="rate every stored game again, in order",
                       description="Rate every stored finished game again, in the order they finished.")
    r.add_argument("--db", default=os.environ.get("KEIMA_DB"), metavar="URL",
                   help="the server's database URL (sqlite:///PATH or postgresql://...; env KEIMA_DB)")
    r.set_defaults(func=_recompute)


def _missing_action(_args: argparse.Namespace) -> int:
    raise UsageError("name an action: recompute")


def _recompute(args: argparse.Namespace) -> int:
    if not args.db:
        raise UsageError("--db URL is required (the server's database)")
    from keima.cli.serve import normalise_url
    from keima.server.ratings.subscriber import recompute
    from keima.server.storage.database import make_engine, migrate

    try:
        engine = make_engine(normalise_url(args.db))
        try:
            migrate(engine)
            n = recompute(engine)
        finally:
            engine.dispose()
    except Exception as exc:
        print(f"keima ratings: {error_line(exc)}", file=sys.stderr)
        return 1
    print(f"rated {n} games")
    return 0

"""``keima ratings``: the players' ratings kept by a keima server's database.

``keima ratings recompute --db URL``
    Rate every stored finished game again from the start, in the order the games finished, and print how many
    games were rated. The numbers are those the running servers computed game by game (the same delivery rates
    them); use it after correcting a result. A server running meanwhile keeps serving; its pages may show ratings
    part way until the command ends.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from keima.cli import Subparsers, UsageError, add_command
from keima.cli.database import add_db_option, on_database

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def register(subparsers: Subparsers) -> None:
    """Add the ``ratings`` sub-command and its own sub-commands."""
    p = add_command(subparsers, "ratings", "rebuild the players' ratings of a server's database (docs/ratings.md)",
                    "Work on the ratings of a keima server's database.", _missing_action)
    sub = p.add_subparsers(dest="action", metavar="ACTION")
    r = sub.add_parser("recompute", help="rate every stored game again, in order",
                       description="Rate every stored finished game again, in the order they finished.")
    add_db_option(r)
    r.set_defaults(func=_recompute)


def _missing_action(_args: argparse.Namespace) -> int:
    raise UsageError("name an action: recompute")


def _recompute(args: argparse.Namespace) -> int:
    from keima.server.ratings.subscriber import recompute

    def work(engine: Engine) -> int:
        print(f"rated {recompute(engine)} games")
        return 0

    return on_database("ratings", args.db, work)

"""``keima admin``: what an administrator does on a keima server's database (docs/moderation.md).

``keima admin moderator add NAME --db URL``
    Make the player NAME a moderator (they see the moderation page and its actions).
``keima admin moderator list --db URL``
    Print the moderators, one a line: name, then since when (UTC).
``keima admin moderator remove NAME --db URL``
    NAME is no longer a moderator.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from keima.cli import Subparsers, UsageError, add_command
from keima.cli.database import add_db_option, on_database

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine


def register(subparsers: Subparsers) -> None:
    """Add the ``admin`` sub-command and its own sub-commands."""
    p = add_command(subparsers, "admin", "administer a server's database: its moderators (docs/moderation.md)",
                    "Administer a keima server's database.", _missing_what)
    sub = p.add_subparsers(dest="what", metavar="WHAT")
    m = sub.add_parser("moderator", help="name, list or remove the moderators",
                       description="Name, list or remove the server's moderators.")
    m.set_defaults(func=_missing_action)
    actions = m.add_subparsers(dest="action", metavar="ACTION")
    for action, summary in (("add", "make a player a moderator"), ("remove", "a player is no longer a moderator"),
                            ("list", "print the moderators")):
        a = actions.add_parser(action, help=summary, description=summary[0].upper() + summary[1:] + ".")
        if action != "list":
            a.add_argument("name", metavar="NAME", help="the player's name")
        add_db_option(a)
        a.set_defaults(func=_moderator)


def _missing_what(_args: argparse.Namespace) -> int:
    raise UsageError("name what to administer: moderator")


def _missing_action(_args: argparse.Namespace) -> int:
    raise UsageError("name an action: add, list or remove")


def _moderator(args: argparse.Namespace) -> int:
    return on_database("admin", args.db, lambda engine: _moderator_on(engine, args))


def _moderator_on(engine: Engine, args: argparse.Namespace) -> int:
    from keima.server.accounts import name_key
    from keima.server.moderation import store

    if args.action == "list":
        for _pid, name, since in store.moderator_list(engine):
            print(f"{name}\t{since:%Y-%m-%d %H:%M}")
        return 0
    found = store.player_named(engine, name_key(args.name))
    if found is None:
        print(f"keima admin: no player named {args.name!r}", file=sys.stderr)
        return 1
    pid, name = found
    if args.action == "add":
        done = store.add_moderator(engine, pid)
        print(f"{name} is a moderator" + ("" if done else " already"))
    else:
        done = store.remove_moderator(engine, pid)
        print(f"{name} is no longer a moderator" if done else f"{name} was not a moderator")
    return 0

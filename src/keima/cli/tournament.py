"""``keima tournament``: standings, pairing and results files of an OpenGotha tournament file.

``keima tournament standings FILE.xml [--round N] [--json]``
    The standings after round N (default: the last round played). ``--json`` prints a list, one object per player
    in standings order: ``place``, ``name``, ``first_name``, ``rank`` (``"3D"``, ``"12K"``) and one key per
    placement criterion of the tournament (``"MMS"``, ``"SOSM"``...), its value in points (``36``, ``128.5``; CAT
    is the category from 1).

``keima tournament pair FILE.xml --round N [--seed S] [--json] [-o OUT.xml]``
    Pairs round N from the results of the rounds before it (games the file has in round N or later, and byes
    after round N, are set aside; a bye already set for round N is the director's choice and is kept). ``--json`` prints ``{"round": N, "tables": [...], "bye": null or {"name", "first_name"}}``, one
    object per table: ``table``, ``white`` and ``black`` (each ``{"name", "first_name"}``), ``handicap``.
    ``-o`` writes the tournament with the new round to OUT.xml (OpenGotha's format).

``keima tournament export FILE.xml --format tou|h9|xml [-o OUT]``
    The FFG results file (``.tou``, ISO-8859-15), the EGD results file (``.h9``, ISO-8859-15) or the OpenGotha XML
    file; to standard output without ``-o``.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from keima.cli import Subparsers, UsageError, add_command
from keima.tournament import egd_h9, ffg_tou, opengotha_xml
from keima.tournament.criteria import CRITERIA
from keima.tournament.model import Player, Tournament, TournamentError, rank_text
from keima.tournament.pairing import pair_round
from keima.tournament.results_table import score_text
from keima.tournament.standings import standings


def register(subparsers: Subparsers) -> None:
    """Add the ``tournament`` sub-command and its own sub-commands."""
    p = add_command(
        subparsers,
        "tournament",
        "standings, McMahon/Swiss pairing and FFG/EGD files of an OpenGotha tournament file",
        "Work on an OpenGotha XML tournament file: print the standings, pair a round as OpenGotha does, or export "
        "the FFG .tou and EGD .h9 results files.",
        _missing_action,
    )
    sub = p.add_subparsers(dest="action", metavar="ACTION")

    s = sub.add_parser("standings", help="the standings after a round", description="Print the standings.")
    s.add_argument("file", metavar="FILE.xml")
    s.add_argument(
        "--round", type=int, default=None, help="after this round (default: the last round played)"
    )
    s.add_argument("--json", action="store_true", help="print JSON, one object per player")
    s.set_defaults(func=_standings)

    q = sub.add_parser("pair", help="pair a round", description="Pair a round from the results before it.")
    q.add_argument("file", metavar="FILE.xml")
    q.add_argument("--round", type=int, required=True, help="the round to pair, from 1")
    q.add_argument(
        "--seed", type=int, default=None, help="random seeding from this seed (default: OpenGotha's)"
    )
    q.add_argument("--json", action="store_true", help="print JSON, one object per table")
    q.add_argument("-o", "--output", default=None, metavar="OUT.xml", help="write the paired tournament here")
    q.set_defaults(func=_pair)

    e = sub.add_parser(
        "export", help="write a results file", description="Export a results or tournament file."
    )
    e.add_argument("file", metavar="FILE.xml")
    e.add_argument("--format", required=True, choices=("tou", "h9", "xml"))
    e.add_argument(
        "-o", "--output", default=None, metavar="OUT", help="write here instead of standard output"
    )
    e.set_defaults(func=_export)


def _missing_action(args: argparse.Namespace) -> int:
    raise UsageError("name an action: standings, pair or export")


def _load(path: str) -> Tournament:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return opengotha_xml.read(data)
    except TournamentError as exc:
        raise UsageError(f"{path}: {exc}") from None


def _points(value: int, criterion: str) -> int | float:
    coef = CRITERIA[criterion]
    if coef == -1:
        return -value + 1
    return value // coef if value % coef == 0 else value / coef


def _who(p: Player) -> dict[str, str]:
    return {"name": p.name, "first_name": p.first_name}


def _standings(args: argparse.Namespace) -> int:
    t = _load(args.file)
    if args.round is not None and not 0 <= args.round <= t.general.number_of_rounds:
        raise UsageError(f"--round must be from 0 to {t.general.number_of_rounds}")
    try:
        lines = standings(t, args.round)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        out: list[dict[str, Any]] = []
        for s in lines:
            item: dict[str, Any] = {"place": s.place, **_who(s.player), "rank": rank_text(s.player.rank)}
            item.update({c: _points(v, c) for c, v in s.values})
            out.append(item)
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    crits = [c for c, _ in lines[0].values] if lines else []
    print(f"{'Pl':>4}  {'Name':<30} {'Rk':>3}" + "".join(f" {c:>7}" for c in crits))
    for s in lines:
        name = f"{s.player.name} {s.player.first_name}"[:30]
        row = f"{s.place:>4}  {name:<30} {rank_text(s.player.rank):>3}"
        row += "".join(f" {score_text(v, c):>7}" for c, v in s.values)
        print(row)
    return 0


def _pair(args: argparse.Namespace) -> int:
    t = _load(args.file)
    n = args.round
    if not 1 <= n <= t.general.number_of_rounds:
        raise UsageError(f"--round must be from 1 to {t.general.number_of_rounds}")
    before = replace(
        t,
        games=tuple(g for g in t.games if g.round < n),
        # A bye already set for round N is the director's choice, kept; later ones go with their rounds.
        byes={r: k for r, k in t.byes.items() if r <= n},
    )
    try:
        pairing = pair_round(before, n, seed=args.seed)
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    bye = before.player(pairing.bye) if pairing.bye else None
    if args.output:
        Path(args.output).write_text(
            opengotha_xml.write(before.with_games(pairing.games, pairing.bye, n)), "utf-8"
        )
    if args.json:
        tables = [
            {
                "table": g.table,
                "white": _who(before.player(g.white)),
                "black": _who(before.player(g.black)),
                "handicap": g.handicap,
            }
            for g in pairing.games
        ]
        print(
            json.dumps(
                {"round": n, "tables": tables, "bye": _who(bye) if bye else None},
                ensure_ascii=False,
                indent=1,
            )
        )
        return 0
    print(f"Round {n}")
    for g in pairing.games:
        w, b = before.player(g.white), before.player(g.black)
        print(
            f"{g.table:>4}  {w.name} {w.first_name} ({rank_text(w.rank)})  -  "
            f"{b.name} {b.first_name} ({rank_text(b.rank)})"
            + (f"  handicap {g.handicap}" if g.handicap else "")
        )
    if bye:
        print(f"bye: {bye.name} {bye.first_name}")
    return 0


def _export(args: argparse.Namespace) -> int:
    t = _load(args.file)
    try:
        if args.format == "tou":
            data = ffg_tou.encode(t)
        elif args.format == "h9":
            data = egd_h9.encode(t)
        else:
            data = opengotha_xml.write(t).encode("utf-8")
    except TournamentError as exc:
        raise UsageError(str(exc)) from None
    if args.output:
        Path(args.output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    return 0

"""``keima score``: count the final position of an SGF record under every counting method."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from keima.cli import Subparsers, UsageError, add_command, number_text
from keima.rules.board import BLACK, WHITE, color_name
from keima.rules.coords import CoordinateError, from_gtp, to_gtp
from keima.rules.game import Game, GameError
from keima.rules.ruleset import RulesError, get_ruleset
from keima.rules.scoring import Breakdown, Score

#: Events that rebuild a position; marks, acceptances and endings are left out when the rules change.
_POSITION_EVENTS = ("move", "handicap", "setup", "resume")

_FIELDS = (
    "stones",
    "territory",
    "captures",
    "dead",
    "pass_stones",
    "extra_pass_stone",
    "komi",
    "handicap_bonus",
    "filled",
    "overflow",
)


def register(subparsers: Subparsers) -> None:
    """Add the ``score`` sub-command."""
    p = add_command(
        subparsers,
        "score",
        "count the final position of an SGF record under every counting method",
        "Count the last position of FILE's main line under every counting method (area, territory with "
        "pass stones, FFG quick count, Japanese), with each side's breakdown. Dead stones come from "
        "--dead, else from the record (TB/TW, or MA marks on the last node), else from keima's estimator, "
        "else every stone is alive; the output says which.",
        run,
    )
    p.add_argument("file", metavar="FILE.sgf", help="the SGF record")
    p.add_argument("--rules", default=None, help="count under this ruleset instead of the record's RU")
    p.add_argument("--komi", type=float, default=None, help="komi instead of the record's KM")
    p.add_argument(
        "--dead",
        nargs="+",
        default=None,
        metavar="D4,E5",
        help="dead stones, GTP vertices separated by commas or spaces (one stone marks its whole chain)",
    )
    p.add_argument("--all-alive", action="store_true", help="count every stone on the board as alive")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    p.add_argument(
        "--max-bytes",
        type=_positive_int,
        default=None,
        metavar="N",
        help="refuse a record larger than N bytes (default: 1048576, keima.record.DEFAULT_MAX_BYTES)",
    )


def _positive_int(text: str) -> int:
    """argparse type of --max-bytes: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:30]!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _rebuild(game: Game, rules: str | None, komi: float | None) -> Game:
    """Replay the record's position under other rules or komi. Raises UsageError when it does not replay."""

    try:
        ruleset = get_ruleset(rules) if rules is not None else game.rules
    except RulesError as exc:
        raise UsageError(f"--rules: {exc}") from None
    if komi is not None and not math.isfinite(komi):
        raise UsageError(f"--komi must be a finite number, not {komi}")
    events = [e for e in game.events if e.kind in _POSITION_EVENTS]
    if game.handicap_stones and ruleset.handicap_placement != "either":
        ruleset = ruleset.replace(handicap_placement="either")
    try:
        return Game.replay(
            events,
            size=game.size,
            rules=ruleset,
            komi=game.komi if komi is None else komi,
            handicap=game.handicap,
            placement=game.placement,
        )
    except (GameError, RulesError) as exc:
        raise UsageError(f"the record does not replay under the {ruleset.name} rules: {exc}") from None


def _parse_dead(game: Game, items: Iterable[str]) -> frozenset[int]:
    """Points of the chains named on the command line. Raises UsageError naming a bad vertex."""
    dead: set[int] = set()
    for item in items:
        for vertex in item.replace(",", " ").split():
            try:
                p = from_gtp(vertex, game.size)
            except CoordinateError as exc:
                raise UsageError(f"--dead: {exc}") from None
            if p is None or game.board.get(p) == 0:
                raise UsageError(f"--dead: there is no stone at {vertex} to count as dead")
            dead |= set(game.board.chain(p).stones)
    return frozenset(dead)


def choose_dead(
    game: Game, record_dead: frozenset[int] | None, record_source: str | None, args: argparse.Namespace
) -> tuple[frozenset[int], str]:
    """Return (dead stones, where they come from) following the order: --dead, --all-alive, the ruleset
    (Tromp-Taylor: all alive), the record, keima's estimator, all alive."""
    if args.dead:
        return _parse_dead(game, args.dead), "given with --dead"
    if args.all_alive:
        return frozenset(), "every stone alive (--all-alive)"
    if game.rules.dead_stones == "none":
        return frozenset(), f"every stone alive (the {game.rules.name} rules remove no dead stones)"
    if record_dead is not None:
        return frozenset(p for p in record_dead if game.board.get(p) != 0), f"the record's {record_source}"
    from keima.ai import estimate_dead  # numba loads only when the estimator is needed

    return frozenset(estimate_dead(game)), "keima's dead-stone estimator"


def _breakdown_text(b: Breakdown) -> str:
    parts = [f"{name.replace('_', ' ')} {number_text(getattr(b, name))}" for name in _FIELDS if getattr(b, name)]
    return ", ".join(parts) if parts else "nothing"


def _vertices(points: Iterable[int], size: int) -> list[str]:
    return [to_gtp(p, size) for p in sorted(points)]


def report(
    game: Game,
    score: Score,
    dead_source: str,
    path: str,
    info: dict[str, str],
    recorded: str | None,
) -> dict[str, Any]:
    """Return the JSON object ``keima score --json`` prints."""
    out: dict[str, Any] = {
        "file": path,
        "size": game.size,
        "rules": game.rules.name,
        "komi": game.komi,
        "handicap": len(game.handicap_stones),
        "result": score.result,
        "black": score.black,
        "white": score.white,
        "method": score.method,
        "recorded_result": recorded,
        "phase": game.phase,
        "moves": game.move_number,
        "dead": _vertices(score.dead, game.size),
        "dead_source": dead_source,
        "methods": {},
        "players": {k: v for k, v in info.items() if k in ("PB", "PW", "BR", "WR")},
    }
    for name, method in score.methods.items():
        entry: dict[str, Any] = {
            "result": method.result,
            "black": method.black,
            "white": method.white,
            "margin": method.margin,
            "neutral": method.neutral,
        }
        for color in (BLACK, WHITE):
            entry[color_name(color)] = method.breakdown[color].as_dict()
        out["methods"][name] = entry
    return out


def render(data: dict[str, Any]) -> str:
    """Return the human-readable report of ``keima score``."""
    lines = [
        f"{data['file']}: {data['size']}x{data['size']}, {data['rules']} rules, komi {number_text(data['komi'])}"
        + (f", handicap {data['handicap']}" if data["handicap"] else ""),
    ]
    players = data["players"]
    if "PB" in players or "PW" in players:
        black = " ".join(x for x in (players.get("PB"), players.get("BR")) if x)
        white = " ".join(x for x in (players.get("PW"), players.get("WR")) if x)
        lines.append(f"Black: {black or '?'}    White: {white or '?'}")
    if data["phase"] in ("play", "handicap"):
        lines.append(
            f"Note: the record stops after move {data['moves']} without the passes that end play; "
            "this counts the position as it stands."
        )
    dead = data["dead"]
    lines.append(f"Dead stones ({data['dead_source']}): {' '.join(dead) if dead else 'none'}")
    lines.append(
        f"Result under the {data['rules']} rules ({data['method']} counting): {data['result']}"
        f"  (Black {number_text(data['black'])}, White {number_text(data['white'])})"
    )
    if data["recorded_result"] is not None:
        lines.append(f"Result in the record: {data['recorded_result']}")
    lines.append("")
    lines.append(f"{'method':<12} {'result':>8} {'black':>7} {'white':>7}")
    for name, m in data["methods"].items():
        lines.append(f"{name:<12} {m['result']:>8} {number_text(m['black']):>7} {number_text(m['white']):>7}")
        for color in ("B", "W"):
            word = "Black" if color == "B" else "White"
            lines.append(f"    {word}: {_breakdown_text(Breakdown(**m[color]))}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Score the record; returns 0, or raises UsageError (exit code 2) for bad input."""
    from keima.record import DEFAULT_MAX_BYTES, SgfError, load_record

    limit = args.max_bytes if getattr(args, "max_bytes", None) is not None else DEFAULT_MAX_BYTES
    try:
        record = load_record(Path(args.file), max_bytes=limit)
    except SgfError as exc:
        raise UsageError(str(exc)) from None
    if args.dead and args.all_alive:
        raise UsageError("--dead and --all-alive contradict each other")
    for warning in record.warnings:
        print(f"keima score: warning: {args.file}: {warning}", file=sys.stderr)
    game: Game = record.game
    record_dead = record.dead
    if args.rules is not None or args.komi is not None:
        game = _rebuild(game, args.rules, args.komi)
    elif record_dead is None and game.phase == "finished" and game.dead:
        record_dead = game.dead
    dead, source = choose_dead(game, record_dead, record.dead_source, args)
    score = game.score(dead)
    data = report(game, score, source, args.file, record.info, record.result_text)
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=False))
    else:
        print(render(data))
    return 0

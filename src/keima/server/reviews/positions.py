"""The count of any position, and the count of a game, step by step (docs/web-api.md, *Positions*).

``POST /api/positions/count`` counts a position a referee sets up on a table (not a game played here): the board,
the prisoners and pass stones each side holds, the dead stones (given, or asked of keima's estimator). The answer
is the ``score`` object a finished game has (``Score.as_dict()``, the totals ``keima score`` prints), with
``steps``: each method's count step by step (``keima.rules.count_steps``).

``POST /api/positions/sgf`` reads an SGF record and returns the position after a chosen move, in the shape the
count takes, so that a referee can start from a record.

``GET /api/games/{id}/count`` returns the same object for a game being counted or finished by counting.

Nothing here is stored: these endpoints read their input and answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from keima.rules.board import BLACK, EMPTY, WHITE, Board, color_name
from keima.rules.coords import CoordinateError, from_gtp, to_gtp
from keima.rules.count_steps import count_steps, game_count_steps, steps_as_dict
from keima.rules.game import Game
from keima.rules.ruleset import RulesError, Ruleset, get_ruleset
from keima.rules.scoring import Score, score_position
from keima.server.errors import Refused, quote

router = APIRouter()

# The estimator is CPU-bound (numba playouts): at most this many requests run it at once, each in a worker
# thread, so the event loop keeps serving games.
ESTIMATES_AT_ONCE = 2
MAX_POINTS = 25 * 25
Count = Annotated[int, Field(ge=0, le=10000)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Held(_Strict):
    """Stones each side holds: ``B`` what Black holds, ``W`` what White holds."""

    B: Count = 0
    W: Count = 0


class PositionIn(_Strict):
    """``POST /api/positions/count``."""

    size: Annotated[int, Field(ge=2, le=25)]
    rules: Annotated[str, Field(min_length=1, max_length=40)] = "french"
    # Komi in half points, as every rule text gives it (and so the running totals add up exactly).
    komi: Annotated[float, Field(ge=-1000, le=1000, multiple_of=0.5)] | None = None
    handicap: Annotated[int, Field(ge=0, le=9)] = 0
    # One value per point, row by row from the top-left corner: 0 empty, 1 black, 2 white (as in GameState).
    board: Annotated[list[Annotated[StrictInt, Field(ge=0, le=2)]], Field(max_length=MAX_POINTS)]
    dead: Annotated[list[Annotated[str, Field(min_length=2, max_length=4)]], Field(max_length=MAX_POINTS)] = []
    prisoners: Held = Field(default_factory=Held)
    pass_stones: Held = Field(default_factory=Held)
    last_mover: Literal["B", "W"] | None = None
    estimate_dead: StrictBool = False


class SgfIn(_Strict):
    """``POST /api/positions/sgf``: ``move`` is the number of moves to keep (None: the whole main line)."""

    sgf: Annotated[str, Field(min_length=2, max_length=15000)]
    move: Annotated[int, Field(ge=0, le=10000)] | None = None


class CountOut(_Strict):
    """The answer: ``score`` is a finished game's score object plus ``steps`` (method -> list of steps)."""

    score: dict[str, Any]


class PositionOut(_Strict):
    """A position read from a record, in the shape ``PositionIn`` takes, with the record's length."""

    size: int
    rules: str
    komi: float
    handicap: int
    board: list[int]
    dead: list[str]
    prisoners: dict[str, int]
    pass_stones: dict[str, int]
    last_mover: Literal["B", "W"] | None
    move: int
    moves: int


def _bad(field: str, message: str) -> Refused:
    return Refused("invalid-request", f"{field}: {message}", field=field)


def _score_json(score: Score, steps: dict[str, Any]) -> dict[str, Any]:
    out = score.as_dict()
    out["steps"] = steps
    return out


def _board(body: PositionIn) -> Board:
    n = body.size * body.size
    if len(body.board) != n:
        raise _bad("board", f"a {body.size}x{body.size} board has {n} points, not {len(body.board)}")
    board = Board(body.size)
    board.set_stones((p, c) for p, c in enumerate(body.board) if c != EMPTY)
    for ch in board.chains():
        if not ch.libs:
            where = to_gtp(min(ch.stones), body.size)
            raise _bad("board", f"the chain at {where} has no liberty: no game reaches this position")
    return board


def _dead(body: PositionIn, board: Board) -> frozenset[int]:
    """The listed dead stones, each extended to its whole chain (a chain lives or dies as one)."""
    out: set[int] = set()
    for i, text in enumerate(body.dead):
        try:
            p = from_gtp(text, body.size)
        except CoordinateError:
            raise _bad(f"dead.{i}", f"{quote(text)} is not a GTP vertex of a {body.size}x{body.size} board") from None
        if p is None or board.colors[p] == EMPTY:
            raise _bad(f"dead.{i}", f"no stone at {quote(text)} to count as dead")
        out.update(board.chain(p).stones)
    return frozenset(out)


def _estimate_slots(request: Request) -> asyncio.Semaphore:
    """The application's semaphore for estimates (one per application: a semaphore belongs to one event loop)."""
    slots: asyncio.Semaphore | None = getattr(request.app.state, "count_estimates", None)
    if slots is None:
        slots = asyncio.Semaphore(ESTIMATES_AT_ONCE)
        request.app.state.count_estimates = slots
    return slots


async def _estimate(request: Request, board: Board, body: PositionIn, rules: Ruleset, komi: float) -> frozenset[int]:
    from keima import ai  # numba loads only when the estimator is needed

    game = Game(size=body.size, rules=rules, komi=komi)
    black = [p for p, c in enumerate(board.colors) if c == BLACK]
    white = [p for p, c in enumerate(board.colors) if c == WHITE]
    if black or white:
        game.setup(black=black, white=white)
    async with _estimate_slots(request):
        dead = await asyncio.to_thread(ai.estimate_dead, game, None, 1)
    return frozenset(dead)


def _komi(rules: Ruleset, body: PositionIn) -> float:
    if body.komi is not None:
        return body.komi
    if body.handicap >= 1 and rules.handicap_komi is not None:
        return float(rules.handicap_komi)
    return float(rules.default_komi)


@router.post("/api/positions/count", responses={200: {"model": CountOut}})
async def count_position(body: PositionIn, request: Request) -> dict[str, Any]:
    """Count a position under every method, step by step. 422 names the field that is wrong."""
    try:
        rules = get_ruleset(body.rules)
    except RulesError as exc:
        raise _bad("rules", str(exc)) from None
    board = _board(body)
    if body.estimate_dead and body.dead:
        raise _bad("dead", "give the dead stones or ask for estimate_dead, not both")
    komi = _komi(rules, body)
    dead = await _estimate(request, board, body, rules, komi) if body.estimate_dead else _dead(body, board)
    args: dict[str, Any] = dict(
        komi=komi,
        handicap_stones=body.handicap,
        dead=dead,
        prisoners={BLACK: body.prisoners.B, WHITE: body.prisoners.W},
        # A pass hands one stone to the opponent: the stones Black holds are White's passes, and so on.
        pass_count={BLACK: body.pass_stones.W, WHITE: body.pass_stones.B},
        last_mover={"B": BLACK, "W": WHITE, None: None}[body.last_mover],
    )
    score = score_position(board, rules, **args)
    steps = count_steps(board, rules, score, handicap_stones=body.handicap)
    return {"score": _score_json(score, steps_as_dict(steps))}


def position_of(game: Game, dead: Iterable[int] | None = None) -> dict[str, Any]:
    """Return ``game``'s current position in the shape ``POST /api/positions/count`` takes (size, rules, komi,
    handicap, board, dead stones as GTP vertices, prisoners, the stones each side holds from the other's passes,
    the last mover). ``dead``: the dead stones to give (default: the game's own marking)."""
    last = game.last_move
    return {
        "size": game.size,
        "rules": game.rules.name,
        "komi": game.komi,
        "handicap": len(game.handicap_stones),
        "board": list(game.board.colors),
        "dead": [to_gtp(p, game.size) for p in sorted(game.dead if dead is None else dead)],
        "prisoners": {color_name(c): n for c, n in game.prisoners.items()},
        # Stones each side holds from the other's passes.
        "pass_stones": {"B": game.pass_count[WHITE], "W": game.pass_count[BLACK]},
        "last_mover": None if last is None else color_name(last.color),
    }


@router.post("/api/positions/sgf", responses={200: {"model": PositionOut}})
async def position_from_sgf(body: SgfIn) -> dict[str, Any]:
    """Read an SGF record's main line and return the position after ``move`` moves. 422 for a record that cannot
    be read (the message says where) or a move number past its end."""
    from keima.record import SgfError, load_sgf

    try:
        # Bytes: the text is always read as a record, never taken for a file name.
        game = await asyncio.to_thread(load_sgf, body.sgf.encode("utf-8"))
    except SgfError as exc:
        raise _bad("sgf", str(exc)) from None
    total = game.move_number
    if body.move is not None and body.move > total:
        raise _bad("move", f"the record has {total} moves, not {body.move}")
    if body.move is not None:
        while game.move_number > body.move:
            game.undo()
    return position_of(game) | {"move": game.move_number, "moves": total}


@router.get("/api/games/{game_id}/count", responses={200: {"model": CountOut}})
async def count_game(game_id: str, request: Request) -> dict[str, Any]:
    """The count of a game being counted or finished by counting, step by step (409 for any other game)."""
    hub = request.app.state.hub
    s = await hub.cache.get(game_id)
    async with s.lock:
        g = s.game
        if not (g.phase == "scoring" or (g.phase == "finished" and g.end_reason == "score")):
            raise Refused("wrong-phase", "this game is not being counted and did not end by counting",
                           reason="wrong-phase")
        score = g.score()
        steps = game_count_steps(g, score)
    return {"score": _score_json(score, steps_as_dict(steps))}

"""Reviewing a record, the estimate at any node, and the referee's verdict on one move (docs/web-api.md, *Review*).

``POST /api/review`` reads an SGF record (at most ``keima.record.DEFAULT_MAX_BYTES`` characters) and returns its
whole move tree, variations included, every node replayed through the referee: an illegal move anywhere in the
tree is a 422 naming it. ``GET /api/games/{id}/review`` does the same for a game of this server (its SGF).

``POST /api/review/estimate`` replays a start position and a list of moves through the referee and returns
keima's ownership estimate of the position reached (playouts bounded, at most ``ESTIMATES_AT_ONCE`` at a time,
shared with the count's estimates).

``POST /api/positions/play`` sets up a small position, replays the moves given, and asks the referee about one
more move: legal (with the board after it) or refused with the rule's reason code and sentence. The rules
lessons of the web UI play through it, so that the refusal a learner reads is the referee's own.

Nothing here is stored: these endpoints read their input and answer.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, Request

from keima.record import DEFAULT_MAX_BYTES, SgfError, SgfRecord, load_record
from keima.rules import Game
from keima.rules.board import BLACK, WHITE, color_name, opponent
from keima.rules.coords import CoordinateError, from_gtp, from_sgf, to_gtp
from keima.rules.game import GameError, IllegalMove
from keima.rules.ruleset import RulesError, get_ruleset
from keima.server.errors import Refused, quote
from keima.server.games import game_sgf
from keima.server.reviews.positions import _estimate_slots, position_of
from keima.server.reviews.record_schemas import (
    MAX_NODES,
    AddIn,
    EstimateIn,
    EstimateOut,
    PlayIn,
    PlayOut,
    PositionSetup,
    ReviewIn,
    ReviewOut,
    StartOut,
)

router = APIRouter()

#: The request body of ``POST /api/review``: the record's text (at most ``DEFAULT_MAX_BYTES`` characters) inside
#: JSON, where escapes (``\n``, ``\"``) may double it. Every other request keeps the application's 16 KiB.
REVIEW_MAX_BODY = 2 * DEFAULT_MAX_BYTES + 1024

Color = Literal["B", "W"]


def _bad(field: str, message: str) -> Refused:
    return Refused("invalid-request", f"{field}: {message}", field=field)


def _board_text(game: Game) -> str:
    return "".join(str(c) for c in game.board.colors)


def _prisoners(game: Game) -> dict[str, int]:
    return {color_name(c): n for c, n in game.prisoners.items()}


def _sgf_points(node: Any, ident: str, size: int) -> list[int]:
    if not node.has_property(ident):
        return []
    return sorted((size - 1 - row) * size + col for row, col in node.get(ident))


def _comment(node: Any) -> str | None:
    if not node.has_property("C"):
        return None
    try:
        value = node.get("C")
    except ValueError:
        return None
    return str(value)


class _TreeError(Exception):
    pass


def _apply(game: Game, node: Any, size: int, number: int) -> tuple[Color | None, str | None, int]:
    """Apply a variation node's setup and move to ``game``. Returns (colour, vertex, move number)."""
    black, white, empty = (_sgf_points(node, ident, size) for ident in ("AB", "AW", "AE"))
    pl = node.get_raw("PL").decode("ascii", "replace").strip().upper()[:1] if node.has_property("PL") else ""
    if black or white or empty or pl in ("B", "W"):
        if game.phase == "scoring":
            game.resume(game.to_move)
        try:
            game.setup(black, white, empty, pl if pl in ("B", "W") else None)
        except GameError as exc:
            raise _TreeError(f"a setup node after move {number}: {exc}") from None
    has_b, has_w = node.has_property("B"), node.has_property("W")
    if not (has_b or has_w):
        return None, None, number
    if has_b and has_w:
        raise _TreeError(f"the node after move {number} holds both a B and a W move")
    ident: Color = "B" if has_b else "W"
    color = BLACK if has_b else WHITE
    number += 1
    word = "Black" if color == BLACK else "White"
    value = node.get_raw(ident).decode("ascii", "replace").strip()
    try:
        p = from_sgf(value, size)
    except CoordinateError as exc:
        raise _TreeError(f"move {number} ({word}) of a variation: {exc}") from None
    where = to_gtp(p, size)
    try:
        if game.phase == "scoring":
            game.resume(opponent(color))  # the mover's opponent asked to resume: the mover plays first
        game.play(p, color, allow_out_of_turn=True)
    except GameError as exc:
        raise _TreeError(f"move {number} ({word} {where}) of a variation is illegal: {exc}") from None
    return ident, where, number


def review_json(record: SgfRecord) -> dict[str, Any]:
    """The record's tree as ``ReviewOut`` describes it, every node replayed through the referee.

    Raises ``Refused`` (422) for an illegal move or setup in a variation, or a tree of more than ``MAX_NODES``
    nodes (the main line was checked when the record was read)."""
    tree = record.tree
    game = record.game.copy()
    end = _end_position(record)
    while len(game.events) > record.start_events:
        game.undo()
    size = game.size
    start = StartOut(
        black=[to_gtp(p, size) for p, c in enumerate(game.board.colors) if c == BLACK],
        white=[to_gtp(p, size) for p, c in enumerate(game.board.colors) if c == WHITE],
        to_move=color_name(game.to_move),  # type: ignore[arg-type]
    )
    nodes: list[dict[str, Any]] = []
    main_line: list[int] = []
    # Depth-first, without recursion: ("enter", node, parent id, depth, number, on main line) applies the node;
    # ("leave", events before) takes it back, so that one game serves the whole tree.
    stack: list[tuple[Any, ...]] = [("enter", tree.get_root(), None, 0, 0, True)]
    while stack:
        item = stack.pop()
        if item[0] == "leave":
            while len(game.events) > item[1]:
                game.undo()
            continue
        _, node, parent, depth, number, main = item
        if len(nodes) >= MAX_NODES:
            raise Refused("invalid-request", f"sgf: the record has more than {MAX_NODES} nodes: too many to review",
                          field="sgf", reason="too-many-nodes")
        before = len(game.events)
        color: Color | None = None
        vertex: str | None = None
        if main and depth <= record.start_depth:
            pass  # already in the start position
        else:
            try:
                color, vertex, number = _apply(game, node, size, number)
            except _TreeError as exc:
                raise Refused("invalid-request", f"sgf: {exc}", field="sgf", reason="illegal-move") from None
        nid = len(nodes)
        nodes.append(
            dict(id=nid, parent=parent, children=[], color=color, move=vertex, number=number,
                 comment=_comment(node), board=_board_text(game), prisoners=_prisoners(game))
        )
        if parent is not None:
            nodes[parent]["children"].append(nid)
        if main:
            main_line.append(nid)
        stack.append(("leave", before))
        children = list(node)
        for i in range(len(children) - 1, -1, -1):  # the first child is taken first: ids follow the lines
            stack.append(("enter", children[i], nid, depth + 1, number, main and i == 0))
    # Children were appended when entered; entering order is the children's order.
    return dict(
        size=size,
        rules=record.game.rules.name,
        komi=record.game.komi,
        handicap=len(record.game.handicap_stones),
        info=dict(record.info),
        result=record.result_text,
        warnings=list(record.warnings),
        start=start.model_dump(),
        nodes=nodes,
        main_line=main_line,
        end=end,
        sgf=record.text,
    )


def _end_position(record: SgfRecord) -> dict[str, Any] | None:
    if not record.moves:
        return None
    return position_of(record.game, record.dead)


def sgf_fault(exc: SgfError) -> str:
    """What is wrong with a record, as a word a page can say in its reader's language: ``cut-short`` (the text
    ends inside the tree), ``not-sgf`` (no game tree at all), ``not-go`` (GM is not Go), ``board-size`` (a board
    keima does not play), ``illegal-move`` (a move the referee refuses, or off the board), else ``malformed``."""
    text = exc.message
    if exc.rule is not None or exc.move_number is not None:
        return "illegal-move"
    if "ends before" in text or "never closed" in text:
        return "cut-short"
    if text.startswith("no SGF game found"):
        return "not-sgf"
    if "not a game of Go" in text:
        return "not-go"
    if text.startswith("SZ["):
        return "board-size"
    return "malformed"


def _preorder(root: Any) -> list[Any]:
    """The tree's nodes in the order ``review_json`` numbers them (depth first, first child first)."""
    out: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(list(node)))
    return out


def with_variation(record: SgfRecord, add: AddIn) -> tuple[bytes, int]:
    """The record's SGF with ``add`` as a child of node ``add.at`` (its last child: the lines already there keep
    their order), and the id the new node has in its review; the id of the child already holding that move when
    there is one (the text is then the record's own). Raises ``Refused`` (422, ``field`` ``add``) for a node the
    tree does not have or a point off the board. The move's legality is the review's to check."""
    nodes = _preorder(record.tree.get_root())
    if add.at >= len(nodes):
        raise _bad("add.at", f"the record has no node {add.at}")
    size = record.game.size
    try:
        p = from_gtp(add.vertex, size)
    except CoordinateError:
        raise _bad("add.vertex", f"{quote(add.vertex)} is not a point of a {size}x{size} board") from None
    move = None if p is None else (size - 1 - p // size, p % size)
    parent = nodes[add.at]
    colour = add.color.lower()
    for child in parent:
        if child.get_move() == (colour, move):
            return record.text.encode("utf-8"), nodes.index(child)
    child = parent.new_child()
    child.set_move(colour, move)
    return record.tree.serialise(), _preorder(record.tree.get_root()).index(child)


def _load(text: str | bytes) -> SgfRecord:
    try:
        return load_record(text)
    except SgfError as exc:
        raise Refused("invalid-request", f"sgf: {exc}", field="sgf", reason=sgf_fault(exc),
                      line=exc.line) from None


async def _review(text: str | bytes, add: AddIn | None = None) -> dict[str, Any]:
    def work() -> dict[str, Any]:
        record = _load(text)
        if add is None:
            return review_json(record)
        changed, added = with_variation(record, add)
        out = review_json(_load(changed))
        out["added"] = added
        return out

    return await asyncio.to_thread(work)


@router.post("/api/review", responses={200: {"model": ReviewOut}})
async def review_record(body: ReviewIn) -> dict[str, Any]:
    """The record's move tree (see ``ReviewOut``), with ``add`` played as a new variation when given. 422 for a
    record that cannot be read or holds an illegal move (the added one included), the message naming where and
    ``reason`` saying what (``sgf_fault``)."""
    # Bytes: the text is always read as a record, never taken for a file name.
    return await _review(body.sgf.encode("utf-8"), body.add)


@router.get("/api/games/{game_id}/review", responses={200: {"model": ReviewOut}})
async def review_game(game_id: str, request: Request) -> dict[str, Any]:
    """The move tree of a game of this server, read from its SGF record (players, and the chat as comments on
    the move after which each message was sent); 404 for an unknown game."""
    s = await request.app.state.hub.cache.get(game_id)
    async with s.lock:
        text = game_sgf(s)
    return await _review(text.encode("utf-8"))


def _setup_game(body: PositionSetup) -> Game:
    """The game ``body`` describes, its moves replayed through the referee. Raises Refused (422)."""
    try:
        rules = get_ruleset(body.rules)
    except RulesError as exc:
        raise _bad("rules", str(exc)) from None
    komi = body.komi if body.komi is not None else float(rules.default_komi)
    game = Game(size=body.size, rules=rules, komi=komi)
    points: dict[str, list[int]] = {}
    for field in ("black", "white"):
        out: list[int] = []
        for i, text in enumerate(getattr(body, field)):
            try:
                p = from_gtp(text, body.size)
            except CoordinateError:
                raise _bad(f"{field}.{i}", f"{quote(text)} is not a point of a {body.size}x{body.size} board") from None
            if p is None:
                raise _bad(f"{field}.{i}", "a setup stone cannot be a pass")
            out.append(p)
        points[field] = out
    try:
        game.setup(points["black"], points["white"], (), body.to_move)
    except GameError as exc:
        raise _bad("black", f"impossible setup: {exc}") from None
    for i, move in enumerate(body.moves):
        try:
            game.play(move.vertex, move.color, allow_out_of_turn=True)
        except GameError as exc:
            raise _bad(f"moves.{i}", f"{move.color} {move.vertex}: {exc}") from None
    return game


@router.post("/api/review/estimate", responses={200: {"model": EstimateOut}})
async def estimate(body: EstimateIn, request: Request) -> dict[str, Any]:
    """Ownership estimate of the position reached by ``moves`` from the setup (422 for an illegal move)."""
    from keima import ai  # numba loads only when the estimator is needed

    game = _setup_game(body)
    async with _estimate_slots(request):
        own = await asyncio.to_thread(ai.estimate_ownership, game, body.playouts, 1)
    return {"size": game.size, "ownership": [round(x, 3) for x in own]}


@router.post("/api/positions/play", responses={200: {"model": PlayOut}})
async def play(body: PlayIn) -> dict[str, Any]:
    """The referee's verdict on ``attempt`` after the setup and moves (422 when those are themselves wrong)."""
    game = _setup_game(body)
    before = list(game.board.colors)
    try:
        game.play(body.attempt.vertex, body.attempt.color, allow_out_of_turn=True)
    except IllegalMove as exc:
        return dict(legal=False, reason=exc.reason, message=str(exc), board=before, captured=[],
                    prisoners=_prisoners(game), to_move=color_name(game.to_move))
    except GameError as exc:
        raise _bad("attempt", str(exc)) from None
    after = list(game.board.colors)
    captured = [to_gtp(p, game.size) for p, (a, b) in enumerate(zip(before, after, strict=True)) if a and not b]
    return dict(legal=True, reason=None, message=None, board=after, captured=captured,
                prisoners=_prisoners(game), to_move=color_name(game.to_move))

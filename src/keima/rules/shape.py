"""Local shape read off the referee's board: true eyes, and what a play would do to the chains around it.

These are the tactical facts that the bot (``keima.ai``) and the stand-in policy (``keima.ai.standin``) need
besides the rules themselves. They are computed here once, from the board's own incrementally kept chains and
liberties (``keima.rules.board``), so that no other module runs a flood fill of its own or keeps a second idea of
what an eye is. The compiled playout board (``keima.ai.fastboard.is_true_eye``) keeps a twin of ``is_true_eye``
for speed; a differential test holds the two to the same answers.

Nothing here changes a board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from keima.rules.board import BLACK, EMPTY, WHITE, Board, Chain
from keima.rules.coords import check_size, to_gtp

__all__ = ["PlayEffect", "diagonals_table", "is_true_eye", "play_effect"]


@cache
def diagonals_table(size: int) -> tuple[tuple[int, ...], ...]:
    """Return, for every point of a ``size`` board, the tuple of its diagonal neighbours on the board (four in the
    centre, two on the edge, one in the corner). Raises ``CoordinateError`` (a ``ValueError``) for a size the board
    does not support."""
    check_size(size)
    out = []
    for p in range(size * size):
        r, c = divmod(p, size)
        out.append(
            tuple(
                rr * size + cc
                for rr, cc in ((r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1))
                if 0 <= rr < size and 0 <= cc < size
            )
        )
    return tuple(out)


def _check_color(color: int) -> None:
    if color != BLACK and color != WHITE:
        raise ValueError(f"{color!r} is not a player colour (expected BLACK=1 or WHITE=2)")


def is_true_eye(board: Board, p: int, color: int) -> bool:
    """Return True when the empty point ``p`` is a true eye of ``color``: a point that ``color`` only harms itself
    by filling.

    The test is local, the one Monte-Carlo Go programs use to keep playouts from filling their own eyes: every
    orthogonal neighbour of ``p`` is a stone of ``color``, and the opponent holds none of ``p``'s diagonal points
    when ``p`` is on the edge or in the corner, at most one of the four in the centre. Otherwise the opponent can
    cut through a diagonal and the point is a false eye. Being local, it calls false some eyes that a larger
    shape makes real (two false eyes in a loop, the "two-headed dragon"); it never calls true a point that is not
    surrounded. It says nothing of life: the eyes of a group in seki, or of a dead group, are true eyes here.

    Returns False when ``p`` holds a stone. Raises ``ValueError`` when ``color`` is not ``BLACK`` or ``WHITE``, and
    ``IndexError`` when ``p`` is not a point of the board.
    """
    _check_color(color)
    colors = board.colors
    if colors[p] != EMPTY:
        return False
    for q in board.nbrs[p]:
        if colors[q] != color:
            return False
    other = 3 - color
    diagonals = diagonals_table(board.size)[p]
    held = 0
    for q in diagonals:
        if colors[q] == other:
            held += 1
    # One opposing diagonal in the centre is safe: the three others keep the surrounding stones connected.
    return held == 0 if len(diagonals) < 4 else held <= 1


@dataclass(frozen=True, slots=True)
class PlayEffect:
    """What ``color`` playing at an empty point would do to the chains around it (see ``play_effect``)."""

    point: int
    captured: int
    """Opposing stones the play removes."""
    chain_size: int
    """Stones in the played chain after the play."""
    liberties: int
    """Liberties of the played chain after the play, the points of the captured stones included."""
    saved: int
    """Stones of the mover's chains in atari that the play joins, when the joined chain keeps two liberties or
    more (0 otherwise)."""
    ataris: int
    """Opposing stones the play puts in atari (chains that had two liberties, one of them the played point),
    counted only when the played chain keeps two liberties or more: an atari from a self-atari threatens
    nothing."""
    own_eye: bool
    """The point is a true eye of the mover (``is_true_eye``)."""


def play_effect(board: Board, p: int, color: int) -> PlayEffect:
    """Return the ``PlayEffect`` of ``color`` playing at the empty point ``p`` of ``board``, read from the board's
    chains and liberties without playing. Legality (ko, suicide rules) is not checked: a suicide shows as
    ``liberties == 0`` and ``captured == 0``.

    Raises ``ValueError`` when ``p`` holds a stone or ``color`` is not ``BLACK`` or ``WHITE``; ``IndexError`` when
    ``p`` is not a point of the board. The board is not changed.
    """
    _check_color(color)
    colors = board.colors
    if colors[p] != EMPTY:
        raise ValueError(f"{to_gtp(p, board.size)} is occupied")
    chain_at = board.chain_at
    own: list[Chain] = []
    opposing: list[Chain] = []
    libs: set[int] = set()
    for q in board.nbrs[p]:
        k = colors[q]
        if k == EMPTY:
            libs.add(q)
            continue
        ch = chain_at[q]
        assert ch is not None  # the board keeps a chain for every stone
        group = own if k == color else opposing
        # Chains are told apart by identity: two distinct chains never share a stone.
        if not any(ch is g for g in group):
            group.append(ch)
    captured: list[int] = []
    ataris = 0
    for ch in opposing:
        # ``p`` is a liberty of every adjacent chain, so one liberty means it is the last.
        if len(ch.libs) == 1:
            captured.extend(ch.stones)
        elif len(ch.libs) == 2:
            ataris += len(ch.stones)
    chain_size = 1
    for ch in own:
        chain_size += len(ch.stones)
        libs |= ch.libs
    libs.discard(p)
    if captured:
        # A captured stone becomes a liberty of the played chain only where it touches that chain; other own
        # chains may touch the captured stones too.
        stones = {p}
        for ch in own:
            stones.update(ch.stones)
        nbrs = board.nbrs
        for s in captured:
            if any(q in stones for q in nbrs[s]):
                libs.add(s)
    saved = 0
    if len(libs) >= 2:
        for ch in own:
            if len(ch.libs) == 1:
                saved += len(ch.stones)
    return PlayEffect(
        point=p,
        captured=len(captured),
        chain_size=chain_size,
        liberties=len(libs),
        saved=saved,
        ataris=ataris if len(libs) >= 2 else 0,
        own_eye=is_true_eye(board, p, color),
    )

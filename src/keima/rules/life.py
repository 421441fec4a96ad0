"""Life and death that follows from the board alone: Benson's unconditional life, and seki detection.

``unconditionally_alive`` implements Benson's algorithm (1976): a set of chains of one colour that the opponent
cannot capture even if the owner always passes. ``seki_stones`` finds chains in seki at the end of a game, once the
dead stones are off the board; Japanese-style counting gives no territory to the eyes of such chains.

Seki test (a choice, documented in docs/rules.md): on a scratch copy of the finished board (dead stones removed),
every empty point touching both colours that one side can fill safely (capturing nothing and keeping at least two
liberties) is filled, repeatedly; the points left are those neither side can fill without self-atari: *seki
points*. Chains touching a seki point are in seki. Ordinary dame are filled away; the extra shared liberties of a
seki are filled until only the fatal ones remain.
"""

from __future__ import annotations

from keima.rules.board import BLACK, EMPTY, WHITE, Board, Chain


def unconditionally_alive(board: Board, color: int) -> frozenset[int]:
    """Return the stones of ``color`` that are alive whatever the opponent plays (Benson's algorithm)."""
    chains = [ch for ch in board.chains() if ch.color == color]
    if not chains:
        return frozenset()
    # The regions of points not of ``color`` (empty or the opponent's), each with its empty points.
    regions = [(pts, {p for p in pts if board.colors[p] == EMPTY}) for pts, _ in board.regions((EMPTY, 3 - color))]
    index = {id(ch): i for i, ch in enumerate(chains)}
    # For each region: the chains bordering it, and the chains to which it is vital.
    borders: list[set[int]] = []
    vital_to: list[set[int]] = []
    for pts, empties in regions:
        b: set[int] = set()
        for p in pts:
            for q in board.nbrs[p]:
                if board.colors[q] == color:
                    ch = board.chain_at[q]
                    assert ch is not None
                    b.add(index[id(ch)])
        borders.append(b)
        vital_to.append({i for i in b if empties <= chains[i].libs})
    alive = set(range(len(chains)))
    live_regions = set(range(len(regions)))
    while True:
        changed = False
        for i in list(alive):
            vital = sum(1 for r in live_regions if i in vital_to[r])
            if vital < 2:
                alive.discard(i)
                changed = True
        for r in list(live_regions):
            if not borders[r] <= alive:
                live_regions.discard(r)
                changed = True
        if not changed:
            break
    return frozenset(s for i in alive for s in chains[i].stones)


def seki_stones(board: Board) -> frozenset[int]:
    """Return the stones of chains in seki (see the module docstring for the test used). ``board`` is unchanged."""
    scratch = _filled(board)
    colors = scratch.colors
    out: set[int] = set()
    original = board.colors
    for p in range(scratch.npoints):
        if colors[p] != EMPTY:
            continue
        adjacent = _adjacent_chains(scratch, p)
        if adjacent[BLACK] and adjacent[WHITE]:
            for chs in adjacent.values():
                for ch in chs:
                    out.update(s for s in ch.stones if original[s] != EMPTY)
    return frozenset(out)


def seki_points(board: Board) -> frozenset[int]:
    """Return the seki points of ``board`` (see the module docstring): the empty points touching both colours that
    neither side can fill without self-atari, once every point one side can fill safely is filled. A move there
    loses or gains nothing; ``board`` is unchanged."""
    scratch = _filled(board)
    return frozenset(p for p in range(scratch.npoints) if scratch.colors[p] == EMPTY and board.colors[p] == EMPTY
                     and all(_adjacent_chains(scratch, p).values()))


def _filled(board: Board) -> Board:
    """A scratch copy of ``board`` with every shared point that one side can fill safely filled."""
    scratch = board.copy()
    colors = scratch.colors
    # Fill, on a scratch board, every shared point that one side can fill safely (ordinary dame, and the extra
    # shared liberties of a seki); what is left are the points neither side can fill: the seki points.
    changed = True
    while changed:
        changed = False
        for p in range(scratch.npoints):
            if colors[p] != EMPTY:
                continue
            adjacent = _adjacent_chains(scratch, p)
            if not adjacent[BLACK] or not adjacent[WHITE]:
                continue
            for c in (BLACK, WHITE):
                if not _filling_is_self_atari(scratch, p, c, adjacent[c]):
                    scratch.play(p, c)
                    changed = True
                    break
    return scratch


def _adjacent_chains(board: Board, p: int) -> dict[int, list[Chain]]:
    adjacent: dict[int, list[Chain]] = {BLACK: [], WHITE: []}
    for q in board.nbrs[p]:
        k = board.colors[q]
        if k != EMPTY:
            ch = board.chain_at[q]
            assert ch is not None
            if ch not in adjacent[k]:
                adjacent[k].append(ch)
    return adjacent


def _filling_is_self_atari(board: Board, p: int, color: int, own: list[Chain]) -> bool:
    an = board.analyse(p, color)
    if an.captures:
        return False
    libs: set[int] = {q for q in board.nbrs[p] if board.colors[q] == EMPTY}
    for ch in own:
        libs |= ch.libs
    libs.discard(p)
    return len(libs) <= 1

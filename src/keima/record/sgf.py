"""SGF (FF[4]) game records in and out of keima games, built on sgfmill.

Reading (:func:`load_record`, :func:`load_sgf`) refuses an input over ``max_bytes``, decodes it (``CA`` or a
guess, see ``encoding``), parses it as a stream (``parse``: sgfmill's grammar, in linear time and memory), maps
the root properties (SZ, KM, HA with AB, AB/AW/AE, PL, RU, RE) to a game and replays each node of the main line
through the referee as soon as it is parsed, so an illegal move in a record is reported like an illegal move in
play (move number, colour, point and the rule broken, plus its line and column in the file) without reading
further. :func:`load_record` keeps the record's text next to the game in an :class:`SgfRecord` (its sgfmill
tree is built again on demand), so writing that record back (``dump_sgf(record)``) keeps variations, comments
and every property keima does not interpret, and only rewrites what the game determines. A game is plain
referee data: nothing of the record is stored on it.

What keima owns in a record it writes: SZ, KM, HA and the handicap AB, RU, RE, the moves of the main line, and
TB/TW (the counted territory, dead stones included) on the last node of a game finished by counting.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from sgfmill import sgf, sgf_grammar, sgf_properties

from keima.record.locate import line_col
from keima.record.parse import (
    DEFAULT_MAX_BYTES,
    MainNode,
    ParseError,
    PointError,
    TreeParser,
    more_games,
    parse_tree,
    point_rows,
    position,
    read_source,
    row_points,
)
from keima.record.rulenames import parse_ru, ru_value
from keima.rules.board import BLACK, EMPTY, WHITE, color_name, color_word, opponent
from keima.rules.coords import CoordinateError, from_sgf, to_gtp, to_sgf
from keima.rules.game import Game, GameError, IllegalMove
from keima.rules.ruleset import PRESETS, RulesError, Ruleset
from keima.version import package_version

__all__ = ["DEFAULT_MAX_BYTES", "SgfError", "SgfRecord", "dump_sgf", "load_record", "load_sgf"]

#: Game-information properties kept as text in ``SgfRecord.info`` (and written from ``dump_sgf(info=...)``).
INFO_PROPERTIES = (
    "PB",
    "PW",
    "BR",
    "WR",
    "BT",
    "WT",
    "DT",
    "EV",
    "RO",
    "PC",
    "GN",
    "GC",
    "SO",
    "US",
    "AN",
    "ON",
    "OT",
    "TM",
)

_RESULT_RE = re.compile(
    r"^(?P<winner>[BW])\+(?P<how>R|Resign|T|Time|F|Forfeit|(?P<margin>\d+(?:\.\d+)?))?$", re.IGNORECASE
)

Source = str | bytes | os.PathLike[str]


class SgfError(ValueError):
    """A record keima cannot read, or a record with an illegal move.

    Attributes (None when they do not apply): ``source`` (file name or ``<string>``), ``line``, ``column``
    (1-based, in the decoded text), ``node`` (the node's index in document order), and for an illegal move
    ``move_number`` (1-based count of B/W nodes on the main line), ``color`` (``BLACK``/``WHITE``), ``point``
    (GTP vertex, or ``"pass"``) and ``rule`` (the ``IllegalMove.reason``: ``"ko"``, ``"suicide"``...).
    ``message`` is the bare explanation; ``str(e)`` adds the position in front.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        node: int | None = None,
        move_number: int | None = None,
        color: int | None = None,
        point: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        self.node = node
        self.move_number = move_number
        self.color = color
        self.point = point
        self.rule = rule
        super().__init__(self._render())

    def _render(self) -> str:
        where = self.source or "<sgf>"
        if self.line is not None:
            where += f":{self.line}:{self.column}"
        return f"{where}: {self.message}"

    def __str__(self) -> str:
        return self._render()


@dataclass
class SgfRecord:
    """A game read from SGF, with what the game object itself does not hold.

    ``game``: the replayed game. ``tree``: the sgfmill game as read (UTF-8 internally), parsed again from
    ``text`` (the decoded record) the first time it is asked for, so that reading holds no tree. ``encoding``:
    the codec the file was read with. ``info``: game-information text (PB, PW, BR, WR, DT, ...).
    ``rules_text``: the RU value as written, ``rules``: the ruleset it was read as. ``result_text``: RE as
    written. ``dead``: dead stones given by the record (TB/TW on the last counted node, or MA marks there),
    None when it gives none; ``dead_source`` says which. ``warnings``: things read with a guess.
    ``moves``: (colour, point) of each game move read; ``move_depths``: the depth of its node on the main
    line (root = 0); ``move_events``: ``len(game.events)`` just after it; ``start_depth``/``start_events``: the
    same just before the first move (where moves added after loading would go when all are taken back).
    """

    game: Game
    text: str
    encoding: str
    source: str
    info: dict[str, str] = field(default_factory=dict)
    rules_text: str | None = None
    rules: Ruleset | None = None
    result_text: str | None = None
    dead: frozenset[int] | None = None
    dead_source: str | None = None
    warnings: list[str] = field(default_factory=list)
    moves: list[tuple[int, int | None]] = field(default_factory=list)
    move_depths: list[int] = field(default_factory=list)
    move_events: list[int] = field(default_factory=list)
    start_depth: int = 0
    start_events: int = 0
    _tree: sgf.Sgf_game | None = field(default=None, repr=False, compare=False)

    @property
    def tree(self) -> sgf.Sgf_game:
        """The sgfmill game of ``text`` (built on first use; the same object afterwards)."""
        if self._tree is None:
            self._tree = sgf.Sgf_game.from_coarse_game_tree(parse_tree(self.text), override_encoding="UTF-8")
        return self._tree


# ---------------------------------------------------------------------------------------------------- reading


#: The setup nodes of a record's main line may list this many boards' worth of points, plus one point per
#: ``SETUP_CHARS`` characters of the record: a problem's or a handicap's setup is a board at most, and only
#: floods of setup nodes (rectangles repeated, or thousands of one-stone nodes) go beyond.
SETUP_BOARDS = 16
SETUP_CHARS = 8

_AT = "_keima_at"  # attribute of a main-line node: (index in document order, offset of its ';')


class _Reader:
    """One read of one source: keeps the text and where each main-line node starts, for error messages."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.root_offset: int | None = None
        # Points the setup nodes may still change (see _changes); set once the board size is known.
        self.setup_budget = self.setup_left = 0

    def error(self, message: str, node: sgf.Node | None = None, **extra: object) -> SgfError:
        line = column = None
        idx = None
        if node is not None:
            found: tuple[int, int] | None = getattr(node, _AT, None)
            if found is not None:
                idx = found[0]
                line, column = line_col(self.text, found[1])
        return SgfError(message, source=self.source, line=line, column=column, node=idx, **extra)  # type: ignore[arg-type]

    def parse_error(self, exc: ParseError) -> SgfError:
        line, column = position(self.text, exc.offset)
        return SgfError(exc.message, source=self.source, line=line, column=column)

    def root_error(self, message: str) -> SgfError:
        """An error about the root node."""
        line, column = position(self.text, self.root_offset)
        return SgfError(message, source=self.source, line=line, column=column, node=0)


def _raw(node: sgf.Tree_node, ident: str) -> str | None:
    """The first raw value of ``ident`` decoded but not unescaped, or None when absent."""
    if not node.has_property(ident):
        return None
    values = node.get_raw_list(ident)
    return bytes(values[0]).decode("utf-8", "replace")


def _text(node: sgf.Tree_node, ident: str) -> str | None:
    try:
        value = node.get(ident)
    except (KeyError, ValueError):
        return _raw(node, ident)
    return value if isinstance(value, str) else str(value)


def _points(reader: _Reader, node: sgf.Node, ident: str, size: int) -> list[int]:
    """Points of a point-list property (compressed ``aa:cc`` rectangles included), in board order.

    A setup list (AB, AW, AE) naming a point twice is an error, found at the value that repeats it; other
    lists (TB, TW, MA) merge repeats. Never expands a value beyond the board (see ``parse.point_rows``).
    """
    if not node.has_property(ident):
        return []
    try:
        rows = point_rows(node.get_raw_list(ident), size, ident, unique=ident in ("AB", "AW", "AE"))
    except PointError as exc:
        raise reader.error(str(exc), node) from None
    return row_points(rows, size)


def _number(reader: _Reader, node: sgf.Tree_node, ident: str, integer: bool) -> float | None:
    raw = _raw(node, ident)
    if raw is None:
        return None
    value = raw.strip()
    try:
        number = int(value) if integer else float(value)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise reader.error(f"{ident}[{raw}] is not {kind}", node) from None
    if not math.isfinite(number):
        raise reader.error(f"{ident}[{raw}] is not a finite number", node)
    return number


def _game_from_root(
    reader: _Reader, root: sgf.Tree_node, size: int, record_warnings: list[str]
) -> tuple[Game, Ruleset | None, str | None, bool]:
    """Build the game from the root properties. Returns (game, ruleset read, RU text, root setup used)."""
    ru_text = _text(root, "RU")
    ruleset: Ruleset | None = None
    if ru_text is not None and ru_text.strip():
        try:
            ruleset = parse_ru(ru_text)
        except RulesError as exc:
            record_warnings.append(f"{exc}; playing under the French rules")
    rules: Ruleset = ruleset or PRESETS["french"]
    km = _number(reader, root, "KM", integer=False)
    ha_value = _number(reader, root, "HA", integer=True)
    handicap = int(ha_value) if ha_value is not None else 0
    if not 0 <= handicap <= 9:
        raise reader.error(f"HA[{handicap}]: a handicap is 0 to 9 stones", root)
    black = _points(reader, root, "AB", size)
    white = _points(reader, root, "AW", size)
    placement: str | None = None
    hstones: list[int] = []
    if handicap >= 2 and black:
        if white or len(black) != handicap:
            raise reader.error(
                f"impossible setup: HA[{handicap}] with {len(black)} AB and {len(white)} AW stones in the root "
                "(handicap stones must be exactly the AB stones)",
                root,
            )
        hstones, black = black, []
        if len(set(hstones)) != len(hstones):
            raise reader.error("impossible setup: the same handicap point appears twice in AB", root)
        placement = "fixed"
        try:
            fixed = Game(size=size, rules=rules, komi=km, handicap=handicap, placement="fixed")
            if set(fixed.handicap_stones) == set(hstones):
                game = fixed
                return game, ruleset, ru_text, False
        except RulesError:
            pass
        placement = "free"
        if rules.handicap_placement == "fixed":
            record_warnings.append(
                f"the handicap stones are not on the fixed points; {rules.name} rules relaxed"
            )
            rules = rules.replace(handicap_placement="either")
    elif handicap >= 2:
        placement = "free"  # the stones come as Black's first moves
        if rules.handicap_placement == "fixed":
            rules = rules.replace(handicap_placement="either")
    try:
        game = Game(size=size, rules=rules, komi=km, handicap=handicap, placement=placement)
        if hstones:
            game.place_handicap(hstones)
    except (RulesError, GameError) as exc:
        raise reader.error(f"cannot set up the game: {exc}", root) from None
    return game, ruleset, ru_text, bool(hstones)


def _setup(reader: _Reader, game: Game, node: sgf.Tree_node, size: int, skip_ab: bool, is_root: bool) -> None:
    black = [] if skip_ab else _points(reader, node, "AB", size)
    white = _points(reader, node, "AW", size)
    empty = _points(reader, node, "AE", size)
    pl = _raw(node, "PL")
    to_move: int | None = None
    if pl is not None:
        letter = pl.strip().upper()[:1]
        if letter not in ("B", "W"):
            raise reader.error(f"PL[{pl}] must be B or W", node)
        to_move = BLACK if letter == "B" else WHITE
    black, white, empty = _changes(reader, game, node, black, white, empty)
    if not (black or white or empty) and (to_move is None or (is_root and to_move == game.to_move)):
        return  # nothing to change (KGS writes PL[W] beside handicap stones, where White moves anyway)
    if game.phase == "handicap":
        raise reader.error(
            "setup stones (AB/AW/AE/PL) while free handicap stones are still to be placed", node
        )
    if game.phase == "scoring":
        # As for a move after two passes: the dead-stone phase was left and play resumed.
        game.resume(opponent(to_move if to_move is not None else game.to_move))
    if game.phase != "play":
        raise reader.error(f"setup stones (AB/AW/AE/PL) after the end of play ({game.phase} phase)", node)
    try:
        game.setup(black, white, empty, to_move)
    except GameError as exc:
        raise reader.error(f"bad setup: {exc}", node) from None


def _changes(
    reader: _Reader, game: Game, node: sgf.Node, black: list[int], white: list[int], empty: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """The setup points of ``node`` that change the board (AB on a black stone, AW on a white one, AE on an
    empty point change nothing). Every point listed is charged to the record's setup budget (a row at least).

    Raises SgfError for a point listed in two of the lists, and when the setup nodes of the main line list
    more points than the budget allows: rectangles let a few bytes name the whole board, and each node costs
    the referee work and history in proportion to its points, so a record of nothing but
    ``;AB[aa:sr];AE[aa:sr]`` or ``;AE[aa:ss]`` would cost hundreds of times its size in memory or minutes.
    """
    seen = set(black)
    for p in (*white, *empty):
        if p in seen:
            raise reader.error(f"bad setup: {to_gtp(p, game.size)} is listed twice in the setup", node)
        seen.add(p)
    if seen:
        # A node costs the referee a pass over the board whatever it lists: charged a row at least.
        reader.setup_left -= max(len(seen), game.size)
    if reader.setup_left < 0:
        raise reader.error(
            "the setup nodes (AB/AW/AE) of this record list more points than a record of its size may "
            f"({reader.setup_budget}: {SETUP_BOARDS} boards plus one point per {SETUP_CHARS} characters)",
            node,
        )
    board = game.board
    black = [p for p in black if board.get(p) != BLACK]
    white = [p for p in white if board.get(p) != WHITE]
    empty = [p for p in empty if board.get(p) != EMPTY]
    return black, white, empty


def _dead_from_record(
    game: Game, nodes: list[sgf.Tree_node], reader: _Reader
) -> tuple[frozenset[int] | None, str | None]:
    """Dead stones given by the record: stones inside the opponent's TB/TW, else MA marks on stones."""
    size = game.size
    board = game.board
    for node in reversed(nodes):
        if node.has_property("TB") or node.has_property("TW"):
            dead = {p for p in _points(reader, node, "TB", size) if board.get(p) == WHITE}
            dead |= {p for p in _points(reader, node, "TW", size) if board.get(p) == BLACK}
            return frozenset(dead), "TB/TW"
    last = nodes[-1]
    if last.has_property("MA"):
        marked = {p for p in _points(reader, last, "MA", size) if board.get(p) != EMPTY}
        if marked:
            return frozenset(marked), "MA"
    return None, None


def _apply_result(reader: _Reader, record: SgfRecord, last: sgf.Tree_node) -> None:
    game = record.game
    re_text = record.result_text
    if game.phase == "finished":
        if re_text is not None and game.result is not None and re_text.strip() != game.result:
            record.warnings.append(f"RE[{re_text}] but the game ended {game.result}")
        return
    if re_text is None:
        if game.phase == "scoring" and record.dead is not None:
            # Counted territory without a result: the count was made, so the marking was agreed.
            try:
                if record.dead:
                    game.set_dead(record.dead)
            except GameError as exc:
                raise reader.error(f"dead stones from {record.dead_source}: {exc}", last) from None
            game.accept(BLACK)
            game.accept(WHITE)
        return
    value = re_text.strip()
    match = _RESULT_RE.match(value)
    try:
        if match and match["how"] and not match["margin"]:
            winner = BLACK if match["winner"].upper() == "B" else WHITE
            loser = opponent(winner)
            how = match["how"][0].upper()
            if how == "R":
                game.resign(loser)
            elif how == "T":
                game.timeout(loser)
            else:
                game.forfeit(loser)
            return
        if value.lower() == "void":
            game.declare_no_result("RE[Void] in the record")
            return
    except GameError as exc:
        raise reader.error(f"RE[{value}]: {exc}", last) from None
    counted = value in ("0", "Draw", "Jigo", "draw", "jigo") or bool(match and match["margin"])
    if game.phase == "scoring":
        if record.dead:
            try:
                game.set_dead(record.dead)
            except GameError as exc:
                raise reader.error(f"dead stones from {record.dead_source}: {exc}", last) from None
        if counted or record.dead is not None:
            game.accept(BLACK)
            game.accept(WHITE)
            if game.result != value and not (value.lower() in ("draw", "jigo") and game.result == "0"):
                record.warnings.append(
                    f"RE[{value}] but keima counts {game.result} under {game.rules.name} rules"
                )
    elif counted:
        record.warnings.append(f"RE[{value}] but the record does not end with the passes that end play")
    elif not match:
        record.warnings.append(f"RE[{value}] is not an SGF result; kept as written")


def _board_size(reader: _Reader, root: sgf.Node | dict[str, list[bytes]]) -> int:
    props = root if isinstance(root, dict) else root.get_raw_property_map()
    values = props.get("SZ")
    if not values:
        return 19
    raw = values[0].decode("utf-8", "replace")
    try:
        size = int(raw)
    except ValueError:
        raise reader.root_error(
            f"bad board size: SZ[{raw[:40]}] is not a number (keima plays on square boards of 2 to 25)"
        ) from None
    if not 2 <= size <= 25:
        raise reader.root_error(f"SZ[{raw[:40]}]: keima plays on boards of size 2x2 to 25x25")
    return size


def load_record(source: Source, *, max_bytes: int | None = DEFAULT_MAX_BYTES) -> SgfRecord:
    """Read an SGF record and replay its main line through the referee.

    ``source``: SGF text (a ``str`` is always the record itself, never a file name), the file's bytes, or a
    file named by a ``pathlib.Path`` (any ``os.PathLike``). ``max_bytes``: the largest input read (bytes of
    a file or of ``bytes``, characters of a ``str``; default :data:`DEFAULT_MAX_BYTES`, None for no limit).
    Reading costs time and memory in proportion to the input: moves are replayed as the file is parsed, so
    an illegal move is reported without parsing the rest.

    Returns an :class:`SgfRecord` whose ``game`` is a ``keima.Game``. Raises :class:`SgfError` for anything
    that is not a readable game: an input over ``max_bytes``, an unreadable file, a source of another type,
    malformed or truncated SGF, a property of the wrong type, an impossible setup (a point listed twice
    included), an illegal move (with its number, colour, point and rule). Never raises anything else for bad
    input; ``ValueError`` for a ``max_bytes`` that is not a positive integer or None.
    """
    try:
        src = read_source(source, max_bytes)
    except ParseError as exc:
        name = str(source) if isinstance(source, os.PathLike) else "<sgf>"
        raise SgfError(exc.message, source=name) from None
    text, name, warnings = src.text, src.name, src.warnings
    reader = _Reader(text, name)
    try:
        parser = TreeParser(text, keep=False)  # the tree itself is built only if asked for (SgfRecord.tree)
    except ParseError as exc:
        raise reader.parse_error(exc) from None
    main = _main_nodes(reader, parser)
    first = next(main, None)
    if first is None:  # unreachable: a tree that parses has a root node
        raise SgfError("no SGF game found (a record starts with '(;')", source=name)
    reader.root_offset = first.offset
    size = _board_size(reader, first.properties)
    presenter = sgf_properties.Presenter(size, "UTF-8")
    reader.setup_budget = reader.setup_left = SETUP_BOARDS * size * size + len(text) // SETUP_CHARS

    def node_of(item: MainNode) -> sgf.Node:
        node = sgf.Node(item.properties, presenter)
        setattr(node, _AT, (item.index, item.offset))
        return node

    root = node_of(first)
    # Of the main line only what comes after the replay is kept: the last node and the last one with TB/TW.
    last = marked = root
    depth = 0
    gm = _raw(root, "GM")
    if gm is not None and gm.strip() not in ("", "1"):
        raise reader.error(f"GM[{gm}] is not a game of Go (GM[1])", root)
    game, ruleset, ru_text, used_ab = _game_from_root(reader, root, size, warnings)
    record = SgfRecord(
        game=game,
        text=text,
        encoding=src.encoding,
        source=name,
        rules_text=ru_text,
        rules=game.rules if ruleset is not None else None,
        result_text=_text(root, "RE"),
        warnings=warnings,
    )
    for ident in INFO_PROPERTIES:
        value = _text(root, ident)
        if value is not None:
            record.info[ident] = value
    number = _replay(reader, record, root, 0, size, used_ab, 0)
    for depth, item in enumerate(main, start=1):
        node = node_of(item)
        last = node
        if node.has_property("TB") or node.has_property("TW"):
            marked = node
        number = _replay(reader, record, node, depth, size, used_ab, number)
    try:
        parser.finish()
    except ParseError as exc:
        raise reader.parse_error(exc) from None
    assert parser.end is not None
    if more_games(text, parser.end):
        warnings.append("the file holds more than one game; only the first was read")
    if not record.moves:
        record.start_depth = depth
        record.start_events = len(game.events)
    nodes = [marked, last] if marked is not last else [last]
    record.dead, record.dead_source = _dead_from_record(game, nodes, reader)
    _apply_result(reader, record, last)
    return record


def _main_nodes(reader: _Reader, parser: TreeParser) -> Iterator[MainNode]:
    """The parser's main-line nodes, its errors turned into :class:`SgfError`."""
    stream = parser.main_line()
    while True:
        try:
            item = next(stream)
        except StopIteration:
            return
        except ParseError as exc:
            raise reader.parse_error(exc) from None
        yield item


def _replay(
    reader: _Reader, record: SgfRecord, node: sgf.Node, depth: int, size: int, used_ab: bool, number: int
) -> int:
    """Apply one main-line node (its setup, then its move) to ``record.game``. ``number``: the B/W nodes
    of the main line so far; returns it counting this node."""
    game = record.game
    _setup(reader, game, node, size, skip_ab=(depth == 0 and used_ab), is_root=depth == 0)
    has_b, has_w = node.has_property("B"), node.has_property("W")
    if not (has_b or has_w):
        return number
    if has_b and has_w:
        raise reader.error("a node holds both a B and a W move", node)
    ident = "B" if has_b else "W"
    color = BLACK if has_b else WHITE
    number += 1
    value = (_raw(node, ident) or "").strip()
    try:
        p = from_sgf(value, size)
    except CoordinateError as exc:
        raise reader.error(
            f"move {number} ({color_word(color)}): {exc}",
            node,
            move_number=number,
            color=color,
            point=value,
        ) from None
    where = to_gtp(p, size)
    if game.phase == "finished":
        raise reader.error(
            f"move {number} ({color_word(color)} {where}) comes after the end of the game ({game.result})",
            node,
            move_number=number,
            color=color,
            point=where,
        )
    try:
        if game.phase == "scoring":
            # The record plays on after two passes: the players disagreed about the dead stones.
            game.resume(opponent(color))
        if game.phase == "handicap" and color == WHITE:
            raise reader.error(
                f"move {number} (White {where}) comes before Black placed the {game.handicap} handicap stones",
                node,
                move_number=number,
                color=color,
                point=where,
            )
        before = len(game.moves)
        if not record.moves:
            record.start_depth = depth - 1
            record.start_events = len(game.events)
        game.play(p, color, allow_out_of_turn=True)
    except IllegalMove as exc:
        raise reader.error(
            f"move {number} ({color_word(color)} {where}) is illegal: {exc}",
            node,
            move_number=number,
            color=color,
            point=where,
            rule=exc.reason,
        ) from None
    except GameError as exc:
        raise reader.error(
            f"move {number} ({color_word(color)} {where}): {exc}",
            node,
            move_number=number,
            color=color,
            point=where,
        ) from None
    if len(game.moves) > before:  # a free handicap stone given as a B node is not a game move
        record.moves.append((color, p))
        record.move_depths.append(depth)
        record.move_events.append(len(game.events))
    return number


def load_sgf(source: Source, *, max_bytes: int | None = DEFAULT_MAX_BYTES) -> Game:
    """Read an SGF record and return its main line replayed as a ``keima.Game``.

    ``source``: SGF text (``str``), the file's bytes, or a ``pathlib.Path`` to read; ``max_bytes`` bounds the
    input (see :func:`load_record`). Raises :class:`SgfError` for any record that cannot be read or replayed.
    """
    return load_record(source, max_bytes=max_bytes).game


def format_komi(komi: float) -> str:
    """Return komi as SGF writes it: ``7.5``, ``0.5``, ``6``, ``-3``."""
    if komi == int(komi):
        return str(int(komi))
    return repr(float(komi))


def _set_text(node: sgf.Tree_node, ident: str, value: str) -> None:
    node.set(ident, value)


def _game_moves(game: Game) -> list[tuple[int, int | None]]:
    return [(m.color, m.point) for m in game.moves]


def _territory_props(game: Game) -> tuple[list[int], list[int]] | None:
    """TB/TW of a game finished by counting: each side's territory plus the opposing dead stones in it."""
    if game.end_reason != "score":
        return None
    score = game.score()
    dead_white = {p for p in game.dead if game.board.get(p) == WHITE}
    dead_black = {p for p in game.dead if game.board.get(p) == BLACK}
    # A dead stone is listed in its opponent's set (that is how readers find it dead), and only there.
    tb = (set(score.territory.get(BLACK, frozenset())) | dead_white) - dead_black
    tw = (set(score.territory.get(WHITE, frozenset())) | dead_black) - dead_white
    return sorted(tb), sorted(tw)


def _set_points(node: sgf.Tree_node, ident: str, points: list[int], size: int) -> None:
    if points:
        node.set_raw_list(ident, [to_sgf(p, size).encode("ascii") for p in points])
    elif node.has_property(ident):
        node.unset(ident)


def _write_root(game: Game, root: sgf.Tree_node, keep_ru: str | None) -> None:
    root.set_raw("KM", format_komi(game.komi).encode("ascii"))
    if game.handicap >= 1:
        root.set_raw("HA", str(game.handicap).encode("ascii"))
    elif root.has_property("HA"):
        root.unset("HA")
    _set_text(root, "RU", keep_ru if keep_ru is not None else ru_value(game.rules))


def _write_events(
    game: Game, start: sgf.Tree_node, skip_events: int, root_fresh: bool, first_index: int | None = None
) -> sgf.Tree_node:
    """Write the game's setup events and moves, after its first ``skip_events`` events, below node ``start``
    (the first new node at child index ``first_index``, default last). Returns the last node written."""
    size = game.size
    node = start
    fresh = root_fresh
    pending_resume = False

    def child() -> sgf.Tree_node:
        nonlocal first_index
        if node is start and first_index is not None:
            made = node.new_child(first_index)
            first_index = None
            return made
        return node.new_child()

    for ev in game.events[skip_events:]:
        if ev.kind == "move":
            assert ev.color is not None
            node = child()
            node.set_raw(color_name(ev.color), to_sgf(ev.point, size).encode("ascii"))
            fresh = False
            if pending_resume:
                node.add_comment_text("Play resumed after a disagreement about the dead stones.")
                pending_resume = False
        elif ev.kind == "setup":
            if not (ev.black or ev.white or ev.empty or ev.color is not None):
                continue  # a setup that changes nothing has nothing to write (SGF has no empty setup)
            if not fresh:
                node = child()
            _set_points(node, "AB", list(ev.black), size)
            _set_points(node, "AW", list(ev.white), size)
            _set_points(node, "AE", list(ev.empty), size)
            if ev.color is not None:
                node.set_raw("PL", color_name(ev.color).encode("ascii"))
            fresh = False
        elif ev.kind == "resume":
            pending_resume = True
    return node


def _finish(game: Game, tree: sgf.Sgf_game, last: sgf.Tree_node, keep_result: str | None) -> None:
    root = tree.get_root()
    if game.result is not None:
        _set_text(root, "RE", game.result)
    elif keep_result is not None:
        _set_text(root, "RE", keep_result)
    elif root.has_property("RE"):
        root.unset("RE")
    territory = _territory_props(game)
    if territory is not None:
        _set_points(last, "TB", territory[0], game.size)
        _set_points(last, "TW", territory[1], game.size)


def _serialise(tree: sgf.Sgf_game) -> str:
    return bytes(tree.serialise()).decode("utf-8")


def _dump_fresh(game: Game, info: Mapping[str, str]) -> str:
    tree = sgf.Sgf_game(size=game.size)
    root = tree.get_root()
    root.set_raw("AP", f"keima:{package_version()}".encode("ascii"))
    _write_root(game, root, None)
    for ident, value in info.items():
        _set_text(root, ident, value)
    last = root
    if game.handicap_left > 0:
        # Free placement not finished: the stones placed so far are Black's first moves (IGS style), which
        # reads back as the same unfinished placement (HA with fewer AB stones would be an impossible setup).
        for p in game.handicap_stones:
            last = last.new_child()
            last.set_raw("B", to_sgf(p, game.size).encode("ascii"))
        _finish(game, tree, last, None)
        return _serialise(tree)
    if game.handicap_stones:
        _set_points(root, "AB", list(game.handicap_stones), game.size)
    last = _write_events(game, root, 0, root_fresh=not game.handicap_stones)
    _finish(game, tree, last, None)
    return _serialise(tree)


def _strip_territory(nodes: list[sgf.Tree_node]) -> None:
    for node in nodes:
        for ident in ("TB", "TW"):
            if node.has_property(ident):
                node.unset(ident)


def _dump_record(record: SgfRecord, info: Mapping[str, str]) -> str:
    game = record.game
    tree = sgf.Sgf_game.from_string(_serialise(record.tree))
    root = tree.get_root()
    keep_ru = record.rules_text if record.rules is not None and record.rules == game.rules else None
    _write_root(game, root, keep_ru)
    for ident, value in info.items():
        _set_text(root, ident, value)
    nodes = tree.get_main_sequence()
    played = _game_moves(game)
    common = 0
    while common < min(len(played), len(record.moves)) and played[common] == record.moves[common]:
        common += 1
    unchanged = common == len(played) == len(record.moves)
    if unchanged:
        last = nodes[-1]
        if game.end_reason == "score":
            _strip_territory(nodes)
    else:
        _strip_territory(nodes)
        depth = record.move_depths[common - 1] if common else record.start_depth
        anchor = nodes[max(depth, 0)]
        if common < len(record.moves) and len(played) == common:
            # Moves were taken back: the main line ends here (the record's continuation cannot stay main).
            for child in list(anchor):
                child.delete()
            last = anchor
        else:
            skip = record.move_events[common - 1] if common else record.start_events
            last = _write_events(game, anchor, skip, root_fresh=False, first_index=0)
    _finish(game, tree, last, record.result_text if unchanged else None)
    return _serialise(tree)


def dump_sgf(source: Game | SgfRecord, info: Mapping[str, str] | None = None) -> str:
    """Return a game as SGF (FF[4], UTF-8) text.

    ``source``: a :class:`Game`, written as a new record; or the :class:`SgfRecord` that :func:`load_record`
    returned, whose ``game`` (possibly played on since) is then written over the tree it was read from:
    variations, comments and unknown properties are kept; KM, HA, RU, RE and TB/TW are rewritten from the
    game; moves played after loading become the new main line (the old continuation stays as a variation);
    moves taken back end the main line.
    ``info``: game-information text properties to set (``{"PB": "Alice", "DT": "2026-11-21"}``).
    Raises ``ValueError`` for an ``info`` key that is not an SGF property name.
    """
    extra = dict(info or {})
    for ident in extra:
        if not sgf_grammar.is_valid_property_identifier(ident):
            raise ValueError(f"{ident!r} is not an SGF property name")
    if isinstance(source, SgfRecord):
        return _dump_record(source, extra)
    return _dump_fresh(source, extra)

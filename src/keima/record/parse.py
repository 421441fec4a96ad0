"""The front of the SGF reader: bounded reading of the input and a streaming parse of the game tree.

A record comes from people and programs keima does not control (GTP ``loadsgf``, uploads, ``keima score``),
so reading it must cost time and memory in proportion to its size, whatever it holds:

- :func:`read_source` refuses an input larger than ``max_bytes`` before reading or decoding it
  (:data:`DEFAULT_MAX_BYTES` unless the caller raises it);
- :class:`TreeParser` tokenises the text with linear-time patterns and hands out the nodes of the main line
  one by one as soon as each is complete, so that the reader replays a move before the rest of the file is
  parsed and an illegal move stops the read there; the rest of the tree is parsed afterwards into sgfmill's
  ``Coarse_game_tree`` (the property maps of the nodes, which sgfmill turns into its tree only when asked);
- :func:`point_rows` reads a point list (compressed ``aa:cc`` rectangles included) into one bit mask per
  board row, so that a list never costs more than the board whatever it repeats.

The grammar is sgfmill's (FF[4] with its leniencies: lower-case letters in property names are dropped,
values are raw with their escapes). The main line is the first variation at every branch, which in document
order is every node before the first ``)``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from sgfmill import sgf_grammar

from keima.record.encoding import decode_sgf_bytes
from keima.record.locate import line_col

#: The largest record read unless the caller says otherwise (``max_bytes``): 1 MiB. A long professional
#: game with its comments and variations is well under 100 kB; a teaching review rarely reaches 300 kB.
DEFAULT_MAX_BYTES = 1 << 20

START_RE = re.compile(r"\(\s*;", re.ASCII)
# A value is the unrolled form of "anything but ] or \, or an escaped character", with possessive quantifiers:
# it matches in linear time, without the per-character backtracking stack that "(?:[^\\\]]|\\.)*" costs on a
# long comment, and an unclosed value fails after one pass. X is any other character, so that the token stream
# never stops silently in the middle of the text.
_TOKEN_RE = re.compile(
    r"\s*+(?:\[(?P<V>[^\\\]]*+(?:\\.[^\\\]]*+)*+)\]|(?P<I>[A-Za-z]++)|(?P<D>[;()])|(?P<X>\S))", re.ASCII | re.DOTALL
)
_LOWER = str.maketrans("", "", "abcdefghijklmnopqrstuvwxyz")
_MAX_IDENT = 64  # sgfmill's limit on a property name


class ParseError(ValueError):
    """A record that cannot be read, at character ``offset`` of the text (None: no position)."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass
class Source:
    """The decoded text of an input, its name for messages, the codec used and the decoding warnings."""

    text: str
    name: str
    encoding: str
    warnings: list[str]


def _check_limit(max_bytes: int | None) -> None:
    if max_bytes is not None and (isinstance(max_bytes, bool) or not isinstance(max_bytes, int) or max_bytes < 1):
        raise ValueError(f"max_bytes must be a positive integer or None, not {max_bytes!r}")


def _too_big(size: int | str, max_bytes: int, unit: str = "bytes") -> str:
    return (
        f"the record is {size} {unit}, more than the limit of {max_bytes} bytes "
        "(raise the limit with max_bytes=, or --max-bytes on the command line)"
    )


def read_source(source: object, max_bytes: int | None = DEFAULT_MAX_BYTES) -> Source:
    """Return the decoded text of ``source``: SGF text (``str``), the bytes of a file, or a file named by an
    ``os.PathLike`` (``pathlib.Path``). A ``str`` is always SGF text, never a file name.

    ``max_bytes`` bounds the input: bytes for bytes and files (a file is not read past the limit), characters
    for text; None means no limit. Raises :class:`ParseError` (no offset) for an input over the limit, an
    unreadable file or a source of another type; ``ValueError`` for a ``max_bytes`` that is not a positive int.
    """
    _check_limit(max_bytes)
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if max_bytes is not None and len(data) > max_bytes:
            raise ParseError(_too_big(len(data), max_bytes))
        decoded = decode_sgf_bytes(data)
        return Source(decoded.text, "<bytes>", decoded.encoding, decoded.warnings)
    if isinstance(source, str):
        if max_bytes is not None and len(source) > max_bytes:
            raise ParseError(_too_big(len(source), max_bytes, "characters"))
        return Source(source, "<string>", "utf-8", [])
    if isinstance(source, os.PathLike):
        path = Path(source)
        try:
            with path.open("rb") as fh:
                # Read one byte past the limit: a FIFO or /dev/zero has no size to check beforehand.
                data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
        except (OSError, ValueError) as exc:  # ValueError: a name with a NUL character
            raise ParseError(f"cannot read the file: {getattr(exc, 'strerror', None) or exc}") from None
        if max_bytes is not None and len(data) > max_bytes:
            try:
                size: int | str = path.stat().st_size
            except OSError:
                size = "more than"
            if not isinstance(size, int) or size <= max_bytes:
                size = f"more than {max_bytes}"
            raise ParseError(_too_big(size, max_bytes))
        decoded = decode_sgf_bytes(data)
        return Source(decoded.text, str(path), decoded.encoding, decoded.warnings)
    raise ParseError(
        f"an SGF source is SGF text (str), bytes, or a file as a pathlib.Path, not {type(source).__name__}"
    )


@dataclass
class MainNode:
    """A node of the main line: its property map (identifier -> raw values, shared with the tree), its index
    in document order and the offset of its ``;`` in the text."""

    properties: dict[str, list[bytes]]
    index: int
    offset: int


class TreeParser:
    """A streaming parse of the first game tree of ``text``.

    Iterate :meth:`main_line` for the nodes of the main line as they complete, then call :meth:`finish` to
    parse the rest. Both raise :class:`ParseError` at the first thing that is not SGF, with its offset.
    ``keep``: build the whole tree (sgfmill's ``Coarse_game_tree``, returned by :meth:`finish`); without it
    the parse only checks the text and hands out the main line, holding nothing else (memory is then the
    text and the node being read, whatever the nesting or the number of variations).
    """

    def __init__(self, text: str, keep: bool = True) -> None:
        self.text = text
        start = START_RE.search(text)
        if start is None:
            raise ParseError(_no_game_message(text), 0)
        self.end: int | None = None  # offset just past the tree's closing ')' once parsed
        self._root: sgf_grammar.Coarse_game_tree | None = None
        self._keep = keep
        self._on_main = True
        self._run = self._parse(start.start())

    def main_line(self) -> Iterator[MainNode]:
        """Yield the nodes of the main line, each as soon as the token after it is read."""
        while self._on_main:
            node = next(self._run, None)
            if node is None:
                return
            yield node

    def finish(self) -> sgf_grammar.Coarse_game_tree | None:
        """Parse the rest of the tree; returns it (the root's ``Coarse_game_tree``), or None without ``keep``."""
        for _ in self._run:
            pass
        return self._root

    def _parse(self, start: int) -> Iterator[MainNode]:
        """The parse itself: yields the main-line nodes, then runs to the end of the tree.

        The grammar's state is two numbers: ``depth`` (open parentheses) and ``nodes`` (nodes of the sequence
        being read, or -1 once a variation began or ended in it, where a ``;`` is an error). With ``keep`` the
        sgfmill structures are built beside them.
        """
        text = self.text
        keep = self._keep
        stack: list[sgf_grammar.Coarse_game_tree | None] = []
        tree: sgf_grammar.Coarse_game_tree | None = None
        sequence: list[dict[str, list[bytes]]] = []
        depth = 0
        nodes = -1
        props: dict[str, list[bytes]] | None = None
        props_at = 0
        count = 0
        ident: str | None = None
        ident_at = 0
        values: list[bytes] = []
        for tok in _TOKEN_RE.finditer(text, start):
            kind = tok.lastgroup
            if kind == "V":
                if ident is None:
                    raise _malformed("a property value with no property name before it", tok.start("V") - 1)
                try:
                    values.append(tok.group("V").encode("utf-8"))
                except UnicodeError:
                    raise ParseError(
                        "the text holds characters that have no UTF-8 form (lone surrogates)", tok.start("V")
                    ) from None
                continue
            if ident is not None:
                if not values:
                    if kind == "X" and tok.group("X") == "[":
                        raise _malformed("a property value is never closed with ']'", tok.start("X"))
                    raise _malformed("a property name with no value in brackets", ident_at)
                assert props is not None
                if ident in props:
                    props[ident] += values
                else:
                    props[ident] = values
                ident = None
            if kind == "I":
                raw_ident = tok.group("I")
                ident_at = tok.start("I")
                if len(raw_ident) > _MAX_IDENT:
                    raise _malformed(f"a property name of {len(raw_ident)} letters (at most {_MAX_IDENT})", ident_at)
                ident = raw_ident.translate(_LOWER)
                if not ident:
                    raise _malformed(
                        f"property name {raw_ident!r} has no upper-case letter (lower-case only?)", ident_at
                    )
                if props is None:
                    raise _malformed(f"property {ident} outside a node (a ';' must come first)", ident_at)
                values = []
                continue
            if kind == "X":
                at = tok.start("X")
                if text[at] == "[":
                    raise _malformed("a property value is never closed with ']'", at)
                raise _malformed(f"unexpected character {text[at]!r}", at)
            delim = tok.group("D")
            offset = tok.start("D")
            done = props if self._on_main else None
            done_at, done_index = props_at, count - 1
            if delim == ";":
                if nodes < 0:
                    raise _malformed("a node (';') after a closed variation, where '(' or ')' must come", offset)
                nodes += 1
                props = {}
                if keep:
                    sequence.append(props)
                props_at = offset
                count += 1
            else:
                props = None
                if nodes == 0:
                    raise _malformed("a game tree with no node ('(' must be followed by ';')", offset)
                if nodes > 0 and keep:
                    assert tree is not None
                    tree.sequence = sequence
                nodes = -1
                if delim == "(":
                    depth += 1
                    nodes = 0
                    if keep:
                        stack.append(tree)
                        tree = sgf_grammar.Coarse_game_tree()
                        sequence = []
                else:  # ')': the first one ends the main line
                    self._on_main = False
                    depth -= 1
                    if keep:
                        variation = tree
                        tree = stack.pop()
                        if tree is not None:
                            tree.children.append(variation)
                        else:
                            self._root = variation
                    if depth == 0:
                        self.end = tok.end()
                        if done is not None:
                            yield MainNode(done, done_index, done_at)
                        return
            if done is not None:
                yield MainNode(done, done_index, done_at)
        raise _malformed("the file ends before the game tree is closed (truncated record?)", len(text))


def parse_tree(text: str) -> sgf_grammar.Coarse_game_tree:
    """The whole first game tree of ``text`` (known to parse). Raises :class:`ParseError` otherwise."""
    parser = TreeParser(text)
    tree = parser.finish()
    assert tree is not None
    return tree


def _malformed(message: str, offset: int) -> ParseError:
    return ParseError(f"malformed SGF: {message}", offset)


def _no_game_message(text: str) -> str:
    message = "no SGF game found (a record starts with '(;')"
    if text.strip() and "\n" not in text and len(text) < 1000 and "(" not in text:
        # Text is never taken for a file name: say how to read a file.
        message += f"; {text[:60]!r} is read as SGF text, not as a file name (pass a pathlib.Path for a file)"
    return message


def more_games(text: str, end: int) -> bool:
    """True when another game tree starts after offset ``end``."""
    return START_RE.search(text, end) is not None


def position(text: str, offset: int | None) -> tuple[int | None, int | None]:
    """(line, column) of ``offset`` in ``text``, or (None, None)."""
    if offset is None:
        return None, None
    return line_col(text, offset)


class PointError(ValueError):
    """A point-list value that is not a point or a rectangle of the board, or a point listed twice."""


def point_rows(values: list[bytes], size: int, ident: str, unique: bool) -> list[int]:
    """Read an SGF point list (``[aa]``, ``[aa:cc]`` rectangles) into one bit mask per row of a ``size`` board
    (bit ``c`` of ``rows[r]`` for the point at row ``r``, column ``c``). ``[]`` (an empty list) adds nothing.

    The work is one step per row of each value: a list repeating a rectangle a million times costs a million
    steps and board-sized memory. ``unique``: a point listed twice is an error (setup stones), reported at
    the value that repeats it; otherwise repeats are merged. Raises :class:`PointError` naming the value.
    """
    from keima.rules.coords import CoordinateError, from_sgf, to_gtp

    rows = [0] * size
    for raw in values:
        value = raw.decode("utf-8", "replace").strip()
        try:
            if ":" in value:
                a, b = value.split(":", 1)
                pa, pb = from_sgf(a, size), from_sgf(b, size)
                if pa is None or pb is None:
                    raise CoordinateError(f"{value!r} is not a rectangle of points")
                (r1, c1), (r2, c2) = divmod(pa, size), divmod(pb, size)
                if r1 > r2 or c1 > c2:
                    raise CoordinateError(f"{value!r} is not a rectangle (corners in the wrong order)")
            else:
                p = from_sgf(value, size)
                if p is None:
                    if value == "":
                        continue  # AB[] (an empty list) carries nothing
                    raise CoordinateError(f"{value!r} is not a board point")
                r1, c1 = r2, c2 = divmod(p, size)
        except CoordinateError as exc:
            raise PointError(f"{ident}[{value}]: {exc}") from None
        mask = ((1 << (c2 + 1)) - 1) ^ ((1 << c1) - 1)
        for r in range(r1, r2 + 1):
            twice = rows[r] & mask
            if twice and unique:
                col = (twice & -twice).bit_length() - 1
                raise PointError(f"{ident}[{value}]: {to_gtp(r * size + col, size)} is listed twice")
            rows[r] |= mask
    return rows


def row_points(rows: list[int], size: int) -> list[int]:
    """The points of bit masks from :func:`point_rows`, in board order."""
    out: list[int] = []
    for r, bits in enumerate(rows):
        while bits:
            low = bits & -bits
            out.append(r * size + low.bit_length() - 1)
            bits ^= low
    return out

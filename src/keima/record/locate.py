"""Positions in SGF text: where each node starts, and where a parser gave up.

sgfmill parses without keeping offsets, so errors found later (a bad property value, an illegal move) could
not say where they are. This scanner walks the same token grammar (values in brackets with backslash escapes,
identifiers, ``;``, ``(`` and ``)``) and records the offset of every node in document order, which is the
pre-order of the game tree that sgfmill builds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_START_RE = re.compile(r"\(\s*;")
_TOKEN_RE = re.compile(r"\s*(?:(?P<V>\[(?:[^\\\]]|\\.)*\])|(?P<I>[A-Za-z]+)|(?P<D>[;()]))", re.DOTALL)


@dataclass(frozen=True)
class Scan:
    """``nodes``: offset of each node's ``;`` in document order; ``stop``: where scanning ended (the offset
    of the first character that is not part of a token, or the end of the first game tree); ``closed``: True
    when the first game tree's parentheses balance."""

    nodes: tuple[int, ...]
    stop: int
    closed: bool
    start: int | None
    bare_ident: int | None = None


def scan(text: str) -> Scan:
    """Scan the first game tree of ``text``. Never raises."""
    m = _START_RE.search(text)
    if m is None:
        return Scan((), 0, False, None, None)
    i = m.start()
    depth = 0
    nodes: list[int] = []
    bare: int | None = None
    pending: int | None = None
    while True:
        tok = _TOKEN_RE.match(text, i)
        if tok is None:
            # Skip the whitespace the failed match would have eaten, to point at the culprit.
            while i < len(text) and text[i].isspace():
                i += 1
            return Scan(tuple(nodes), i, False, m.start(), bare if bare is not None else pending)
        kind = tok.lastgroup
        if kind != "V" and pending is not None and bare is None:
            bare = pending
        pending = tok.start("I") if kind == "I" else None
        if kind == "D":
            ch = tok.group("D")
            if ch == ";":
                nodes.append(tok.end() - 1)
            elif ch == "(":
                depth += 1
            else:
                depth -= 1
                if depth == 0:
                    return Scan(tuple(nodes), tok.end(), True, m.start(), bare)
        i = tok.end()


def line_col(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col

"""Positions in SGF text: the line and column of a character offset, for error messages.

The parser (``keima.record.parse``) keeps the offset of every node of the main line and of every syntax
error, so that an error found while replaying a move can say where the move is written.
"""

from __future__ import annotations


def line_col(text: str, offset: int) -> tuple[int, int]:
    """Return the 1-based (line, column) of character ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col

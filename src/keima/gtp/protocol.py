"""GTP version 2 framing: line preprocessing, command parsing and reply formatting.

This module knows nothing of Go. It turns one raw input line into a :class:`Command` (or nothing, for a
blank or comment-only line) and formats replies, following the GTP 2 draft specification:

* control characters other than HT and LF are deleted, everything after ``#`` is a comment, HT becomes a
  space, and a line left empty is ignored (no reply at all);
* a command is ``[id] command_name [arguments]``, where the optional id is an unsigned decimal integer;
* a reply is ``=[id] text`` or ``?[id] message``, terminated by one blank line; its text may span several
  lines but never contains an empty line (that would end the reply early), so :func:`format_reply`
  removes empty lines from multi-line text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ID_RE = re.compile(r"[0-9]+")


class GtpError(Exception):
    """A command failed; the engine answers ``? <message>`` and keeps running."""


class GtpSyntaxError(GtpError):
    """A command's arguments could not be read (wrong count, not a number, bad colour or vertex)."""


@dataclass(frozen=True)
class Command:
    """One parsed GTP command: ``id`` (None when the line had none), lower-case ``name`` and ``args``."""

    id: int | None
    name: str
    args: tuple[str, ...]


def preprocess(line: str) -> str:
    """Return ``line`` cleaned as GTP 2 section 3.1 says (comments, control characters, tabs removed).

    Returns the empty string when nothing is left; never raises.
    """
    kept = []
    for ch in line:
        code = ord(ch)
        if ch == "\t":
            kept.append(" ")
        elif code < 32 or code == 127:
            # Every other control character (CR included) is deleted; LF only ends the line.
            continue
        else:
            kept.append(ch)
    text = "".join(kept)
    hash_at = text.find("#")
    if hash_at >= 0:
        text = text[:hash_at]
    return text.strip()


def parse_line(line: str) -> Command | None:
    """Parse one input line into a :class:`Command`.

    Returns None for a line that is empty after preprocessing (GTP ignores those).
    A line holding only an id (``"7"``) gives a command with an empty name, which the engine reports as a
    missing command; parsing itself never raises.
    """
    text = preprocess(line)
    if not text:
        return None
    tokens = text.split()
    cmd_id: int | None = None
    if tokens[0].isascii() and tokens[0].isdigit():
        cmd_id = int(tokens[0])
        tokens = tokens[1:]
    if not tokens:
        return Command(cmd_id, "", ())
    return Command(cmd_id, tokens[0].lower(), tuple(tokens[1:]))


def _clean_text(text: str) -> str:
    # An empty line inside a reply would end it for the controller, so empty lines are dropped.
    lines = [ln.rstrip() for ln in text.replace("\r", "").split("\n")]
    kept = [ln for ln in lines if ln.strip()]
    if text.startswith("\n") and kept:
        # Multi-line replies such as showboard conventionally start on the line after "= ".
        return "\n" + "\n".join(kept)
    return "\n".join(kept)


def format_reply(cmd_id: int | None, ok: bool, text: str = "") -> str:
    """Return the full reply for a command: ``=`` or ``?``, the id if any, the text, and the blank line.

    Error messages are folded onto one line; success text keeps its lines (minus empty ones).
    """
    mark = "=" if ok else "?"
    head = mark if cmd_id is None else f"{mark}{cmd_id}"
    body = _clean_text(text) if ok else " ".join(text.split())
    if not body:
        return f"{head}\n\n"
    if body.startswith("\n"):
        return f"{head}{body}\n\n"
    return f"{head} {body}\n\n"


@dataclass(frozen=True)
class Response:
    """A reply read back from an engine: ``ok`` (``=`` or ``?``), the id echoed, and the text."""

    ok: bool
    id: int | None
    text: str


def parse_response(lines: list[str]) -> Response:
    """Parse the lines of one reply (the blank terminator excluded) into a :class:`Response`.

    Raises :class:`GtpError` when the first line does not start with ``=`` or ``?``.
    """
    if not lines:
        raise GtpError("empty response")
    first = lines[0]
    if not first or first[0] not in "=?":
        raise GtpError(f"malformed response line {first[:80]!r}")
    ok = first[0] == "="
    match = _ID_RE.match(first, 1)
    digits = match.group(0) if match else ""
    resp_id = int(digits) if digits else None
    head = first[1 + len(digits):].strip()
    text_lines = ([head] if head else []) + [ln.rstrip() for ln in lines[1:]]
    return Response(ok, resp_id, "\n".join(text_lines).strip("\n"))

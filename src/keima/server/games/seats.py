"""The seats of a game: which seat token (by its hash) holds each colour, how a token is stored, and colours as the API
names them (``"B"``, ``"W"``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from keima.rules.board import BLACK, WHITE, color_name
from keima.server.errors import Refused, quote

#: What a revoked seat holds instead of a token's hash: no token hashes to it (a hash is 64 hex digits).
REVOKED = "revoked"


def token_hash(token: str) -> str:
    """Return the stored form of a seat token or invitation code (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def cname(color: int) -> str:
    """``"B"`` or ``"W"``."""
    return color_name(color)


def parse_cname(text: str) -> int:
    """Return the colour for ``"B"``/``"W"``; raises ``Refused`` (400) otherwise."""
    if text == "B":
        return BLACK
    if text == "W":
        return WHITE
    raise Refused("bad-request", f"color must be 'B' or 'W', not {quote(text)}", field="color")


@dataclass
class Seats:
    """Which token (by hash) holds each seat; None = free (or the bot's)."""

    black: str | None = None
    white: str | None = None

    def held_by(self, thash: str | None) -> frozenset[int]:
        """Return the colours that the token with hash ``thash`` holds."""
        if thash is None:
            return frozenset()
        out = set()
        if self.black == thash:
            out.add(BLACK)
        if self.white == thash:
            out.add(WHITE)
        return frozenset(out)

    def get(self, color: int) -> str | None:
        return self.black if color == BLACK else self.white

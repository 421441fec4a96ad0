"""A game's board as a PNG picture for the emails: mail programs show neither SVG nor the page's canvas, and an
email should show the position it talks about (docs/correspondence.md, *Email*).

The picture is ``SIDE`` pixels square whatever the board's size: the grid on a wooden ground, the star points,
the stones, the last move marked by a ring of the other colour, and the GTP coordinates (letters below, numbers
on the left), so that "alice played D4" can be found on it. It is drawn three times larger and scaled down, for
round stones (Pillow draws without anti-aliasing), then kept to a fixed palette of its colours and their blends: a
19x19 position weighs about 10 KB.
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence

from PIL import Image, ImageDraw, ImageFont

from keima.rules.board import BLACK, WHITE
from keima.rules.coords import GTP_LETTERS, hoshi

SIDE = 360  #: the picture's width and height in pixels (a mail program's column is about 600 wide)
_SCALE = 3  # drawn this much larger, then scaled down
_LABEL = 16  # the room of the coordinates, on the left and below, in pixels of the final picture
_ROOM = 0.8  # the room beyond the edge lines, in lines: an edge stone whole, and a little wood
_WOOD = (220, 179, 92)
_LINE = (60, 40, 20)
_BLACK = (20, 20, 20)
_WHITE = (245, 245, 240)
_MARK_ON_BLACK = _WHITE  # the palette holds these colours and their blends alone
_MARK_ON_WHITE = _BLACK


def geometry(size: int) -> tuple[float, float, float]:
    """Where the lines of a ``size`` board lie on the picture: ``(left, top, step)`` in pixels of the final
    picture, column ``c`` at ``left + c * step`` and row ``r`` (from the top) at ``top + r * step``. The
    coordinates take ``_LABEL`` pixels on the left and below; the edge stones get half a line's room more."""
    step = min((SIDE - _LABEL) / (size - 1 + 2 * _ROOM), 48.0)  # a 5x5 board's stones stay stones
    grid = step * (size - 1)
    left = _LABEL + (SIDE - _LABEL - grid) / 2
    top = (SIDE - _LABEL - grid) / 2
    return left, top, step


def point_center(p: int, size: int) -> tuple[float, float]:
    """The centre of point ``p`` (row 0 at the top) on the final picture, in pixels: ``(x, y)``."""
    left, top, step = geometry(size)
    row, col = divmod(p, size)
    return left + col * step, top + row * step


def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=px)
    except (ImportError, OSError):  # Pillow built without FreeType: its small bitmap font
        return ImageFont.load_default()


def board_png(colors: Sequence[int], size: int, last: int | None = None,
              dead: Collection[int] = ()) -> bytes:
    """The PNG of a ``size`` board whose points hold ``colors`` (``BLACK``, ``WHITE`` or empty, row 0 at the top;
    see the module docstring), ``last`` marked (None: no mark, a pass), ``dead`` stones drawn faded (a counted
    game's)."""
    k = _SCALE
    img = Image.new("RGB", (SIDE * k, SIDE * k), _WOOD)
    draw = ImageDraw.Draw(img)
    left, top, step = geometry(size)
    x0, y0 = left * k, top * k
    x1, y1 = x0 + step * (size - 1) * k, y0 + step * (size - 1) * k
    width = max(1, round(k * (1.5 if size <= 9 else 1.0)))
    for i in range(size):
        draw.line([(x0, y0 + i * step * k), (x1, y0 + i * step * k)], fill=_LINE, width=width)
        draw.line([(x0 + i * step * k, y0), (x0 + i * step * k, y1)], fill=_LINE, width=width)
    # The edge a little heavier, as printed boards have it.
    draw.rectangle([x0, y0, x1, y1], outline=_LINE, width=width * 2)
    star = max(2.0, step * 0.1) * k
    for p in hoshi(size):
        x, y = point_center(p, size)
        draw.ellipse([x * k - star, y * k - star, x * k + star, y * k + star], fill=_LINE)
    font = _font(max(9, min(13, round(step * 0.55))) * k)
    for i in range(size):
        draw.text((x0 + i * step * k, (SIDE - _LABEL / 2) * k), GTP_LETTERS[i], fill=_LINE, font=font, anchor="mm")
        draw.text((_LABEL / 2 * k, y0 + i * step * k), str(size - i), fill=_LINE, font=font, anchor="mm")
    radius = step * k * 0.48
    for p, c in enumerate(colors):
        if c not in (BLACK, WHITE):
            continue
        x, y = (v * k for v in point_center(p, size))
        fill, edge = (_BLACK, _BLACK) if c == BLACK else (_WHITE, _LINE)
        if p in dead:  # a dead stone: smaller and paler, so that the counted position reads at a glance
            r = radius * 0.55
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=edge, width=k)
            continue
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=fill, outline=edge, width=k)
    if last is not None and 0 <= last < len(colors) and colors[last] in (BLACK, WHITE):
        x, y = (v * k for v in point_center(last, size))
        r = radius * 0.5
        ring = _MARK_ON_BLACK if colors[last] == BLACK else _MARK_ON_WHITE
        draw.ellipse([x - r, y - r, x + r, y + r], outline=ring, width=max(2 * k, round(step * k * 0.08)))
    small = img.resize((SIDE, SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    small.quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _palette() -> Image.Image:
    """The picture's palette: its colours and the blends between two of them (the edges scaled down), fixed, so
    that a lone white stone keeps its white (a palette made from the picture gave it to the ground's shades)."""
    pure = [_WOOD, _LINE, _BLACK, _WHITE]
    flat = [v for c in pure for v in c]
    for i, a in enumerate(pure):
        for b in pure[i + 1:]:
            flat += [round(x + (y - x) * t / 16) for t in range(1, 16) for x, y in zip(a, b, strict=True)]
    colors = len(flat) // 3
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + flat[:3] * (256 - colors))
    return pal

"""What happened in a game: ``Event`` (every change, JSON-safe, from which ``Game.replay`` rebuilds a game) and
``MoveRecord`` (what one move did: its number, point, the stones it captured or lost by suicide)."""

from __future__ import annotations

from typing import Any, NamedTuple

from keima.rules.errors import GameError


class Event(NamedTuple):
    """One change of a game, JSON-safe through ``to_dict``/``from_dict``.

    kinds: ``move`` (point None = pass), ``handicap`` (points), ``setup`` (black/white/empty, color = player to
    move or None), ``resign``, ``timeout``, ``forfeit`` and ``no-result`` (text = reason), ``toggle`` (point),
    ``mark`` (points), ``accept``, ``resume``.
    """

    kind: str
    color: int | None = None
    point: int | None = None
    points: tuple[int, ...] = ()
    black: tuple[int, ...] = ()
    white: tuple[int, ...] = ()
    empty: tuple[int, ...] = ()
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-safe dict holding the non-default fields."""
        out: dict[str, Any] = {"kind": self.kind}
        defaults = self._field_defaults
        for name in self._fields[1:]:
            value = getattr(self, name)
            if value != defaults[name]:
                out[name] = list(value) if isinstance(value, tuple) else value
        if self.kind == "move" and self.point is None:
            out["point"] = None
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """Rebuild an event from ``to_dict`` output; raise ``GameError`` if it is malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise GameError(f"malformed event {data!r}: needs a 'kind' string")
        unknown = set(data) - set(cls._fields)
        if unknown:
            raise GameError(f"malformed event: unknown field(s) {', '.join(sorted(unknown))}")
        kw: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("points", "black", "white", "empty"):
                if not isinstance(value, list | tuple) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in value
                ):
                    raise GameError(f"malformed event: {key} must be a list of points")
                kw[key] = tuple(value)
            elif key in ("color", "point"):
                if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                    raise GameError(f"malformed event: {key} must be an integer or null")
                kw[key] = value
            elif key == "text":
                if not isinstance(value, str):
                    raise GameError("malformed event: text must be a string")
                kw[key] = value
            else:
                kw[key] = value
        return cls(**kw)


class MoveRecord(NamedTuple):
    """A move made in play: ``point`` None is a pass. ``captures`` counts opposing stones taken,
    ``suicided`` own stones removed by a multi-stone suicide."""

    number: int
    color: int
    point: int | None
    captures: int = 0
    suicided: int = 0

    @property
    def is_pass(self) -> bool:
        """True for a pass."""
        return self.point is None

"""Request and answer bodies of the players', lobby and "my games" endpoints (keima.server.players.routes); the
game-level bodies are in ``keima.server.games.schemas``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from keima.server.notifications import NotifyKind, NotifyPref


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MeOut(_Strict):
    """``GET /api/me``: the caller's player (``rank`` short, ``"15k"``; ``rank_text`` in words, ``"15 kyu"``);
    for a caller without a player, every field null and ``guest`` true. ``rank`` is the rank shown beside the
    player's name (``keima.server.ratings.shown``): earned from their rated games once they have played one
    (``rank_earned``; ``provisional`` while uncertain: pages write ``"3k?"``), else the rank they typed."""

    id: str | None
    name: str | None
    rank: str | None
    rank_text: str | None
    guest: bool
    provisional: bool = False
    rank_earned: bool = False
    time_zone: str | None = None
    """The player's IANA time zone (their weekends in correspondence games); null: UTC until they set one."""
    vacation: VacationOut | None = None
    email: str | None = None
    email_verified: bool = False
    email_bounced: bool = False
    """Mail to ``email`` bounced: nothing more is sent to it until the player gives another address."""
    lang: str | None = None
    notify: dict[str, str] | None = None
    """Per kind of notification, how it is emailed: ``off``, ``now`` or ``digest``."""


class VacationOut(_Strict):
    """A player's vacation (docs/correspondence.md): ``on`` while away, ``days_left`` (spent while away, earned
    while not), ``until`` the server's Unix time it ends by itself (null when not away)."""

    on: bool
    days_left: float
    until: float | None


class MePatch(_Strict):
    """``PATCH /api/me``: a new name and/or rank (``""`` or null clears the rank), a time zone (an IANA name), an
    email address (``""`` removes it), the language of the emails, and per kind of notification ``off``, ``now``
    or ``digest`` (docs/correspondence.md)."""

    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    rank: Annotated[str, Field(max_length=10)] | None = None
    time_zone: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    email: Annotated[str, Field(max_length=254, pattern=r"^$|^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")] | None = None
    lang: Literal["en", "fr"] | None = None
    notify: dict[NotifyKind, NotifyPref] | None = None


class Credentials(_Strict):
    """``POST /api/players`` (register) and ``POST /api/session`` (log in)."""

    name: Annotated[str, Field(min_length=1, max_length=40)]
    password: Annotated[str, Field(min_length=1, max_length=200)]


class PasswordChange(_Strict):
    """``POST /api/me/password``."""

    old: Annotated[str, Field(min_length=1, max_length=200)]
    new: Annotated[str, Field(min_length=1, max_length=200)]



"""The wire of moderation (docs/web-api.md, *Moderation*): blocks, reports, a player's standing, the moderators'
queue, actions and audit log."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Reason = Literal["harassment", "cheating", "escaping", "stalling", "sandbagging", "name", "spam", "other"]
Action = Literal["warn", "mute", "suspend", "ban", "lift", "rename", "annul", "dismiss"]
#: The longest mute or suspension a moderator may give, in hours (a year; longer is a ban).
MAX_HOURS = 24 * 365


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BlockedOut(_Strict):
    """A player the caller blocked: their name today and when (ISO time, UTC)."""

    name: str
    at: str


class BlocksOut(_Strict):
    """``GET /api/me/blocks``: the players the caller blocked, oldest first."""

    blocks: list[BlockedOut]


class ReportIn(_Strict):
    """``POST /api/reports``: what is reported (``kind``): a ``player`` (``name``), a ``game`` (``game``; the
    player reported is ``name``, else the reporter's opponent), or a chat ``message`` of game ``game`` (its
    ``sender`` handle and ``at`` time, as the game's state shows them); ``reason`` from the list and ``text`` (needed
    for ``other``)."""

    kind: Literal["player", "game", "chat"]
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    game: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    sender: Annotated[str, Field(min_length=3, max_length=64)] | None = None
    at: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    reason: Reason
    text: Annotated[str, Field(max_length=1000)] = ""


class ReportedOut(_Strict):
    """``POST /api/reports`` (201): the report's id."""

    id: int


class StandingOut(_Strict):
    """``GET /api/me/standing``: what a moderator holds against the caller now: muted in every chat until,
    suspended until (ISO times, null: not), banned, and the reason they gave; ``moderator``: whether the caller is
    one (the page then links to the moderation page)."""

    muted_until: str | None
    suspended_until: str | None
    banned: bool
    reason: str
    moderator: bool


class LogOut(_Strict):
    """A line of the audit log: when, which moderator, which player (names of the day), the action, why, until
    when (mute, suspension), the game (annul) and the report it answered."""

    id: int
    at: str
    moderator: str
    player: str | None
    action: str
    reason: str
    until: str | None
    game: str | None
    report: int | None


class ReportOut(_Strict):
    """A report in the moderators' queue: who reported (``reporter``), whom (``player``), the ``game``, the chat
    message ``quote``d as it was, ``reason`` and ``text``, when, whether handled; ``reports``: how many reports
    name the player in all; ``history``: the audit log about the player, newest first."""

    id: int
    kind: str
    reporter: str | None
    player: str | None
    game: str | None
    quote: str | None
    reason: str
    text: str
    at: str
    handled: bool
    reports: int
    history: list[LogOut]


class QueueOut(_Strict):
    """``GET /api/moderation/reports``."""

    reports: list[ReportOut]


class LogListOut(_Strict):
    """``GET /api/moderation/log``: newest first."""

    log: list[LogOut]


class ActionIn(_Strict):
    """``POST /api/moderation/actions``: ``action`` on the player ``name`` (not for ``annul`` nor ``dismiss``),
    ``reason`` (shown to the player, kept in the log), ``hours`` (``mute``, ``suspend``), ``new_name``
    (``rename``), ``game`` (``annul``), ``report`` (the report it answers: marked handled, its reporter told;
    needed for ``dismiss``)."""

    action: Action
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    reason: Annotated[str, Field(min_length=1, max_length=500)]
    hours: Annotated[int, Field(ge=1, le=MAX_HOURS)] | None = None
    new_name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    game: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    report: Annotated[int, Field(ge=1, le=2**31 - 1)] | None = None  # a report's id: larger is no id (422, not 5xx)


class ActedOut(_Strict):
    """``POST /api/moderation/actions``: the audit log's new line."""

    log: LogOut


class AbandonedOut(_Strict):
    """``GET /api/games/{id}/abandoned``: the opponent's seconds without a page (``away_s``), the game's limit
    (``claim_after_s``; null: a correspondence game, never), whether a claim may be made now, and whether it may
    annul the game (before move 10)."""

    away_s: float
    claim_after_s: float | None
    can_claim: bool
    may_annul: bool


class ClaimIn(_Strict):
    """``POST /api/games/{id}/abandoned``: ``win`` (the absent player forfeits) or ``annul`` (no result)."""

    outcome: Literal["win", "annul"]


class ConductOut(_Strict):
    """``GET /api/players/{name}/conduct``: live games the player abandoned and games finished; ``shown``: from
    3 abandoned games on, the player page shows the ratio."""

    abandoned: int
    games: int
    shown: bool


class SignalOut(_Strict):
    """A signal for the moderators: ``kind`` (``sandbagging``, ``stalling``, ``abandoning``), the player's name,
    how many games show it (``count``), the rating points lost (``drop``, sandbagging) and the games."""

    kind: str
    player: str
    count: int
    drop: float | None
    games: list[str]


class SignalsOut(_Strict):
    """``GET /api/moderation/signals``: most games first."""

    signals: list[SignalOut]

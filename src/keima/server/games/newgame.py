"""A new game from the settings of ``POST /api/games``: the request checked against the rules, the bot levels and
the engines of this server, the seats and the invitation made."""

from __future__ import annotations

import secrets
from typing import Any

from keima import ai, seat
from keima.rules.board import BLACK, WHITE, opponent
from keima.rules.ruleset import RulesError, get_ruleset
from keima.server import timesource
from keima.server.errors import Refused
from keima.server.games.clock import ClockSpec, GameClock
from keima.server.games.seats import Seats, token_hash
from keima.server.games.service import GameService
from keima.server.games.session import GameSession
from keima.server.storage import now_utc


def new_game_id() -> str:
    """A new random game id."""
    return secrets.token_urlsafe(8)


def build(body: dict[str, Any], engines: dict[str, str], *, game_id: str | None = None, token: str | None = None,
          person: dict[str, Any] | None = None) -> tuple[GameSession, str, str | None]:
    """Build a new game from a validated ``NewGame`` dict; returns (session, seat token, invitation code).

    ``engines``: the GTP engines this server offers (name -> command); ``game_id``: the new game's id
    (default: a new random one); ``token``: the creator's seat token (default: a new random one); ``person``:
    the player creating it (keima.server.accounts.service), who holds the creator's seats. An ``"open"`` game is an
    invitation without a code: anyone takes its free seat (``join`` with ``code=None``).
    Raises ``Refused`` ``invalid-request`` for settings the rules or the bot refuse, and for a rated game on one
    screen (whether the players are registered is the route's to check; a bot level is a rated player of its
    own, ``keima.server.ratings.bot_players``)."""
    try:
        ruleset = get_ruleset(body["rules"])
    except RulesError as exc:
        raise Refused("invalid-request", str(exc), field="rules") from None
    mode = body["opponent"]
    rated = bool(body.get("rated"))
    if rated and mode not in ("invite", "open", "bot"):
        raise Refused("invalid-request", "a game on one screen is not rated: only games between registered "
                       "players, or of a registered player against the bot, are", field="rated")
    color = body["color"]
    human = {"B": BLACK, "W": WHITE}.get(color) or secrets.choice((BLACK, WHITE))
    bot_color = bot_level = None
    placement = body["placement"]
    if mode == "bot":
        engine = body.get("engine")
        if engine is not None:
            if engine not in engines:
                raise Refused("invalid-request", f"no engine named {engine!r} at this server "
                               f"(engines: {', '.join(engines) or 'none'})", field="engine")
            bot_level = seat.ENGINE_PREFIX + engine
        else:
            try:
                # The first level by default, as the page's form preselects it (docs/web-api.md).
                bot_level = ai.level_name(body["bot_level"] or ai.LEVELS[0])
            except ValueError as exc:
                raise Refused("invalid-request", str(exc), field="bot_level") from None
        bot_color = opponent(human)
        if bot_color == BLACK and placement is None and ruleset.handicap_placement == "either":
            placement = "fixed"  # the bot does not choose where free handicap stones go
    params = {
        "size": body["size"],
        "rules": ruleset.name,
        "komi": body["komi"],
        "handicap": body["handicap"],
        "placement": placement,
        "rated": rated,
    }
    try:
        game = GameSession.new_game(params)
    except RulesError as exc:
        raise Refused("invalid-request", str(exc)) from None
    params["komi"] = game.komi
    params["placement"] = game.placement
    try:
        spec = ClockSpec.from_dict(body["clock"])
    except (TypeError, ValueError) as exc:
        raise Refused("invalid-request", str(exc), field="clock") from None
    token = token or secrets.token_urlsafe(32)
    th = token_hash(token)
    seats = Seats()
    invite_code = invite_hash = invite_color = None
    if mode == "local":
        seats = Seats(th, th)
    else:
        if human == BLACK:
            seats.black = th
        else:
            seats.white = th
        if mode in ("invite", "open"):
            invite_code = secrets.token_urlsafe(16)
            invite_hash = token_hash(invite_code)
            invite_color = opponent(human)
    gid = game_id or new_game_id()
    s = GameSession(
        id=gid,
        created_at=now_utc(),
        params=params,
        mode=mode,
        game=game,
        clock=GameClock(spec),
        seats=seats,
        bot_color=bot_color,
        bot_level=bot_level,
        invite_hash=invite_hash,
        invite_color=invite_color,
    )
    if person is not None:
        s.people = {c: dict(person) for c in (BLACK, WHITE) if seats.get(c) == th}
    s.sync_clock(timesource.now())
    return s, token, invite_code


def seat_opponent(s: GameSession, token: str, person: dict[str, Any], now: float) -> None:
    """Give the invited seat of the new game ``s`` (``build``'s, not stored yet) to ``person`` holding ``token``
    at once: the game starts with both seats taken and its clock running (automatch). Raises ``ValueError`` for
    a game without an invited seat."""
    if s.invite_color is None:
        raise ValueError("this game has no seat to give")
    if s.invite_color == BLACK:
        s.seats.black = token_hash(token)
    else:
        s.seats.white = token_hash(token)
    s.people[s.invite_color] = dict(person)
    s.invite_hash = s.invite_color = None
    s.sync_clock(now)


async def create(service: GameService, body: dict[str, Any], *, engines: dict[str, str] | None = None,
                 game_id: str | None = None, token: str | None = None,
                 person: dict[str, Any] | None = None) -> tuple[GameSession, str, str | None]:
    """Create and store a game from a validated ``NewGame`` dict (``engines``: the GTP engines this server offers);
    returns (session, seat token, invitation code). Raises ``Refused`` ``invalid-request`` for settings the rules or
    the bot refuse (see ``build``), ``storage-error`` when it could not be stored."""
    s, token, invite = build(body, engines or {}, game_id=game_id, token=token, person=person)
    await service.create(s)
    return s, token, invite

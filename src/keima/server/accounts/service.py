"""Players: guests and registered accounts, their sessions, passwords, rate limits, and seats held by players.

A browser's first visit (``GET /api/me``) makes a *guest* player with a generated name ("Guest-4821") held by a
session cookie. A guest may register (name and password), which keeps the same player, so their games stay
theirs; a registered player logs in from any browser. Names are 3-20 letters, digits, ``_`` or ``-``, unique
without regard to case (``name_key``). Ranks are written the French way: ``"15k"``, ``"3d"``.

The session cookie ``keima_session`` holds a random session id and its HMAC-SHA256 signature, made with the
server's key (``KEIMA_SECRET``, or a key the server stores in its database on first start, so that cookies
survive restarts and every server process on the same database accepts them). The database keeps only the
SHA-256 of the id: logging out deletes it.

A seat belongs to a player: the seat token of a player's seat in a game is derived from the key, the player and
the game (``seat_token``), so that wherever the player is logged in they hold the seat, with no per-device
cookie. The seat token header (``X-Keima-Seat``) and the seat cookies still work for API clients and bots.

Passwords are hashed with argon2id (argon2-cffi). Login attempts and password changes are counted together,
per name and per client address (``LOGIN_LIMIT`` a minute each); new guests (``GUEST_LIMIT``) and registrations
(``REGISTER_LIMIT``) are limited per client address. The counts are kept in the server process, or in Redis when
the server runs in cluster mode (``keima.server.accounts.limits``), so that several processes allow the limit once between
them. A guest is made only when an action needs a player (creating or joining a game, chatting, renaming,
registering), never by reading ``GET /api/me``.

The session id changes whenever the player behind it gains a right: at login, at registration and at a password
change (which also ends the account's other sessions), so that a cookie someone else knew before is worth
nothing after. What names are acceptable is ``keima.server.accounts.text``'s.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import secrets
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from keima.server.accounts.limits import Limiter, Limits, env_limit
from keima.server.accounts.text import check_name, check_password, check_rank, name_folds, refuse_reserved
from keima.server.errors import Refused
from keima.server.storage import Store, game_players, now_utc, player_sessions, players, server_settings

SESSION_COOKIE = "keima_session"
SESSION_AGE = 365 * 86400
LOGIN_LIMIT = 10
LOGIN_WINDOW = 60.0
# New guest players per client address: a browser makes one, a family or a club behind one address a few; a
# script asking for thousands of rows gets 429.
GUEST_LIMIT = 30
GUEST_WINDOW = 600.0
# Registrations per client address: each one costs an argon2 hash (tens of milliseconds of CPU).
REGISTER_LIMIT = 10
REGISTER_WINDOW = 600.0
# How long a process trusts a session id it has looked up (a logout elsewhere takes effect within this).
SESSION_CACHE_S = 5.0

_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
# A hash of a password nobody has: verified against when the name is unknown, so that a wrong name takes as
# long as a wrong password (the answer must not tell which one was wrong).
_DUMMY_HASH = _HASHER.hash(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class Player:
    """A player as the API shows it (``GET /api/me``)."""

    id: str
    name: str
    rank: str | None
    guest: bool

    def person(self) -> dict[str, Any]:
        """The seat entry a game keeps for this player (``GameSession.people``)."""
        return {"id": self.id, "name": self.name, "rank": self.rank}


def name_key(name: str) -> str:
    """The form of a name that uniqueness compares: NFC, then case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def too_many(wait: float, what: str) -> Refused:
    """The 429 answer for a rate limit, saying how long to wait."""
    return Refused("too-many-requests", f"too many {what}: try again in {max(1, round(wait))} s")


def load_secret(store: Store) -> bytes:
    """Return the server's signing key: ``KEIMA_SECRET`` from the environment, else the key stored in the
    database (made and stored on first use; several processes starting at once agree on the first stored).
    Blocking: call from a thread."""
    env = os.environ.get("KEIMA_SECRET")
    if env:
        return env.encode("utf-8")
    with store.engine.begin() as conn:
        row = conn.execute(sa.select(server_settings.c.value).where(server_settings.c.key == "session_key")).first()
        if row is not None:
            return str(row.value).encode("ascii")
    try:
        with store.engine.begin() as conn:
            conn.execute(server_settings.insert().values(key="session_key", value=secrets.token_urlsafe(48)))
    except IntegrityError:
        pass  # another process stored its key first: use that one
    with store.engine.begin() as conn:
        value = conn.execute(sa.select(server_settings.c.value).where(server_settings.c.key == "session_key")).scalar_one()
    return str(value).encode("ascii")


class Players:
    """Players, sessions and seats of one server process (``app.state.players``)."""

    def __init__(self, store: Store, secret: bytes, limits: Limits | None = None, engines: Iterable[str] = ()) -> None:
        self.store = store
        self.secret = secret
        #: Names of the GTP engines offered (reserved, like the bots' names: ``keima.server.accounts.text``).
        self.engines = tuple(engines)
        limits = limits or Limits()
        self.login_by_name: Limiter = limits.limiter("login-name", LOGIN_LIMIT, LOGIN_WINDOW)
        self.login_by_address: Limiter = limits.limiter("login-address", LOGIN_LIMIT, LOGIN_WINDOW)
        # A club or a school behind one address makes many guests at once: the server's operator may allow more.
        guests = env_limit("KEIMA_GUEST_LIMIT", GUEST_LIMIT)
        registrations = env_limit("KEIMA_REGISTER_LIMIT", REGISTER_LIMIT)
        self.guests_by_address: Limiter = limits.limiter("guest-address", guests, GUEST_WINDOW)
        self.register_by_address: Limiter = limits.limiter("register-address", registrations, REGISTER_WINDOW)
        # session id hash -> (player id, when looked up)
        self._sessions: dict[str, tuple[str, float]] = {}

    # -- signing -------------------------------------------------------------------------------------------
    def _sign(self, purpose: str, text: str) -> str:
        return _b64(hmac.new(self.secret, f"{purpose}|{text}".encode(), hashlib.sha256).digest())

    def sign(self, purpose: str, text: str) -> str:
        """The server's signature of ``text`` for ``purpose`` (links in emails: unsubscribing, verifying)."""
        return self._sign(purpose, text)

    def seat_token(self, player_id: str, game_id: str) -> str:
        """The seat token of ``player_id``'s seat in ``game_id`` (derived: the same on every device)."""
        return "p." + self._sign("seat", f"{player_id}|{game_id}")

    def cookie_value(self, sid: str) -> str:
        """The session cookie's value for session id ``sid``: the id and its signature."""
        return f"{sid}.{self._sign('session', sid)}"

    def session_id(self, cookie: str | None) -> str | None:
        """The session id in a cookie value, or None when it is missing or its signature is wrong."""
        if not cookie or len(cookie) > 200 or "." not in cookie:
            return None
        sid, _, sig = cookie.rpartition(".")
        if not hmac.compare_digest(sig, self._sign("session", sid)):
            return None
        return sid

    # -- reading -------------------------------------------------------------------------------------------
    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    def _read_player(self, player_id: str) -> Player | None:
        with self.store.engine.connect() as conn:
            row = conn.execute(sa.select(players).where(players.c.id == player_id)).first()
        if row is None or row.deleted_at is not None:
            return None
        return Player(row.id, row.name, row.rank, row.password_hash is None)

    def _read_session(self, sid_hash: str) -> str | None:
        with self.store.engine.connect() as conn:
            return conn.execute(
                sa.select(player_sessions.c.player_id).where(player_sessions.c.id == sid_hash)
            ).scalar_one_or_none()

    async def player_id(self, cookies: Any) -> str | None:
        """The id of the player whose session cookie is among ``cookies``, or None (cached a few seconds:
        the hot path of every game request)."""
        sid = self.session_id(cookies.get(SESSION_COOKIE))
        if sid is None:
            return None
        key = hashlib.sha256(sid.encode()).hexdigest()
        hit = self._sessions.get(key)
        now = time.monotonic()
        if hit is not None and now - hit[1] < SESSION_CACHE_S:
            return hit[0]
        pid: str | None = await self._run(self._read_session, key)
        if pid is None:
            self._sessions.pop(key, None)
            return None
        if len(self._sessions) > 100_000:
            self._sessions.clear()
        self._sessions[key] = (pid, now)
        return pid

    async def current(self, cookies: Any) -> Player | None:
        """The player of the session cookie among ``cookies``, or None."""
        pid = await self.player_id(cookies)
        if pid is None:
            return None
        player: Player | None = await self._run(self._read_player, pid)
        return player

    async def get(self, player_id: str) -> Player | None:
        """The player ``player_id`` (None for no such player or a deleted one)."""
        player: Player | None = await self._run(self._read_player, player_id)
        return player

    # -- guests and sessions -------------------------------------------------------------------------------
    async def new_guest(self, lang: str = "en", address: str = "?") -> tuple[Player, str]:
        """Make a guest player and a session for them; returns (player, cookie value). Raises ``Refused`` 429
        past ``GUEST_LIMIT`` new guests in ``GUEST_WINDOW`` seconds from ``address``."""
        wait = await self.guests_by_address.check(address)
        if wait:
            raise too_many(wait, "new players from this address")
        prefix = "Invité" if lang.lower().startswith("fr") else "Guest"
        for _attempt in range(20):
            name = f"{prefix}-{secrets.randbelow(9000) + 1000}"
            if _attempt > 5:
                name = f"{prefix}-{secrets.randbelow(900000) + 100000}"
            player = Player(secrets.token_urlsafe(12), name, None, True)
            try:
                await self.store.write(self._insert_player(player, None))
            except IntegrityError:
                continue  # the name is taken: draw another
            return player, await self.new_session(player.id)
        raise Refused("storage-error", "no free guest name could be drawn; try again")

    @staticmethod
    def _insert_player(player: Player, password_hash: str | None) -> Any:
        def op(conn: Connection) -> None:
            conn.execute(players.insert().values(
                id=player.id, name=player.name, name_key=name_key(player.name), rank=player.rank,
                password_hash=password_hash, created_at=now_utc()))
        return op

    async def new_session(self, player_id: str) -> str:
        """Open a session for ``player_id``; returns the cookie value."""
        sid = secrets.token_urlsafe(24)
        key = hashlib.sha256(sid.encode()).hexdigest()

        def op(conn: Connection) -> None:
            conn.execute(player_sessions.insert().values(id=key, player_id=player_id, created_at=now_utc()))

        await self.store.write(op)
        return self.cookie_value(sid)

    async def end_session(self, cookies: Any) -> None:
        """Log out: forget the session of the cookie among ``cookies`` (nothing when there is none)."""
        sid = self.session_id(cookies.get(SESSION_COOKIE))
        if sid is None:
            return
        key = hashlib.sha256(sid.encode()).hexdigest()
        self._sessions.pop(key, None)

        def op(conn: Connection) -> None:
            conn.execute(player_sessions.delete().where(player_sessions.c.id == key))

        await self.store.write(op)

    async def end_sessions(self, player_id: str) -> None:
        """End every session of ``player_id`` (a ban: keima.server.moderation; other processes of a cluster may
        still accept an ended session for ``SESSION_CACHE_S``)."""
        await self.store.write(lambda conn: conn.execute(player_sessions.delete()
                                                         .where(player_sessions.c.player_id == player_id)))
        self._sessions = {k: v for k, v in self._sessions.items() if v[0] != player_id}

    async def rotate_session(self, player_id: str) -> str:
        """End every session of ``player_id`` and open a new one; returns its cookie value. Done whenever the
        player behind a session gains a right (registration, password change): a session id someone else knew
        before (set in the victim's browser, or stolen) is then worth nothing. Other processes of a cluster may
        still accept an ended session for ``SESSION_CACHE_S``."""
        await self.end_sessions(player_id)
        return await self.new_session(player_id)

    # -- names ---------------------------------------------------------------------------------------------
    def _lookalike(self, name: str, player_id: str | None) -> str | None:
        """The name of another player that ``name`` looks like (``keima.server.accounts.text.name_folds``), or None.
        Guests' generated names are left out (no one may take a name beginning like them)."""
        folds = name_folds(name)
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(players.c.id, players.c.name).where(
                players.c.deleted_at.is_(None), ~players.c.name.like("Guest-%"), ~players.c.name.like("Invité-%")))
            for row in rows:
                if row.id != player_id and folds & name_folds(row.name):
                    return str(row.name)
        return None

    async def check_new_name(self, name: str, player_id: str | None) -> str:
        """Return ``name`` (NFC) when ``player_id`` (None: a new player) may take it. Raises ``Refused`` 422 for
        a name that is not valid (``keima.server.accounts.text.check_name``) or kept (a guest's or deleted account's
        prefix, a bot's or engine's name), 409 ``name-taken`` for one that looks like another player's."""
        name = check_name(name)
        refuse_reserved(name, self.engines)
        other: str | None = await self._run(self._lookalike, name, player_id)
        if other is not None:
            raise Refused("name-taken", f"this name is taken: it looks like the name of the player {other!r}",
                           field="name")
        return name

    # -- changing a player ---------------------------------------------------------------------------------
    async def update(self, player: Player, name: str | None, rank: str | None, set_rank: bool) -> Player:
        """Rename ``player`` and/or set their rank (``set_rank``: ``rank`` given, None clears it); returns the
        player as stored. Raises ``Refused`` 422 for a bad or reserved name or a bad rank, 409 for a name taken
        (or one that looks like another player's)."""
        new_rank = check_rank(rank) if set_rank else player.rank
        # The name sent back unchanged (a form that sends every field) is no rename: a guest keeps its generated
        # name, an older account a name that today's rules would refuse.
        same = name is None or unicodedata.normalize("NFC", name) == player.name
        new_name = player.name if same or name is None else await self.check_new_name(name, player.id)

        def op(conn: Connection) -> None:
            conn.execute(players.update().where(players.c.id == player.id).values(
                name=new_name, name_key=name_key(new_name), rank=new_rank))

        try:
            await self.store.write(op)
        except IntegrityError:
            raise Refused("name-taken", "this name is taken", field="name") from None
        return Player(player.id, new_name, new_rank, player.guest)

    async def register(self, player: Player | None, name: str, password: str, address: str = "?") -> tuple[Player, str]:
        """Turn the guest ``player`` into a registered one named ``name`` (None: make a registered player at once);
        returns (the player, the cookie value of its new session: every session the guest had is ended). Raises
        ``Refused`` 409 when the player is registered already or the name is taken (or looks like another
        player's), 422 for a bad or reserved name or a bad password, 429 past ``REGISTER_LIMIT`` registrations in
        ``REGISTER_WINDOW`` seconds from ``address``."""
        if player is not None and not player.guest:
            raise Refused("already-registered", "you are registered already: log out to register another name")
        check_password(password)
        name = await self.check_new_name(name, None if player is None else player.id)
        wait = await self.register_by_address.check(address)
        if wait:
            raise too_many(wait, "registrations from this address")
        hashed = await self._run(_HASHER.hash, password)
        if player is None:
            player = Player(secrets.token_urlsafe(12), name, None, False)
            try:
                await self.store.write(self._insert_player(player, hashed))
            except IntegrityError:
                raise Refused("name-taken", "this name is taken", field="name") from None
            return player, await self.new_session(player.id)
        pid = player.id

        def op(conn: Connection) -> int:
            res = conn.execute(players.update().where(players.c.id == pid, players.c.password_hash.is_(None))
                               .values(name=name, name_key=name_key(name), password_hash=hashed))
            return int(res.rowcount)

        try:
            changed = await self.store.write(op)
        except IntegrityError:
            raise Refused("name-taken", "this name is taken", field="name") from None
        if not changed:
            raise Refused("already-registered", "you are registered already")
        return Player(player.id, name, player.rank, False), await self.rotate_session(player.id)

    def _read_login(self, key: str) -> Any:
        with self.store.engine.connect() as conn:
            return conn.execute(sa.select(players).where(players.c.name_key == key)).first()

    async def login(self, name: str, password: str, address: str) -> tuple[Player, str]:
        """Check a name and password; returns (player, new session cookie value). Raises ``Refused`` 401 (the
        same message for a wrong name and a wrong password), 429 past ``LOGIN_LIMIT`` attempts a minute for this
        name or this address."""
        key = name_key(name)[:80]
        for limiter, who in ((self.login_by_address, "a:" + address), (self.login_by_name, "n:" + key)):
            wait = await limiter.check(who)
            if wait:
                raise too_many(wait, "login attempts")
        row = await self._run(self._read_login, key)
        stored = row.password_hash if row is not None and row.deleted_at is None else None

        def verify() -> bool:
            try:
                return bool(_HASHER.verify(stored or _DUMMY_HASH, password)) and stored is not None
            except (VerificationError, InvalidHashError):
                return False

        if not await self._run(verify):
            raise Refused("bad-login", "wrong name or password")
        return Player(row.id, row.name, row.rank, False), await self.new_session(row.id)

    async def change_password(self, player: Player, old: str, new: str, address: str = "?") -> str:
        """Set a registered player's password after checking the old one; returns the cookie value of a new
        session (every other session of the account ends). Attempts count with the login attempts of the name
        and of ``address``. Raises ``Refused`` 401 for a wrong old password, 409 for a guest (who registers
        instead), 422 for a bad new one, 429 past ``LOGIN_LIMIT`` attempts a minute."""
        if player.guest:
            raise Refused("not-registered", "a guest has no password: register first")
        check_password(new)
        key = name_key(player.name)[:80]
        for limiter, who in ((self.login_by_address, "a:" + address), (self.login_by_name, "n:" + key)):
            wait = await limiter.check(who)
            if wait:
                raise too_many(wait, "password attempts")
        row = await self._run(self._read_login, name_key(player.name))

        def verify() -> bool:
            try:
                return bool(_HASHER.verify(row.password_hash, old))
            except (VerificationError, InvalidHashError):
                return False

        if row is None or row.id != player.id or not await self._run(verify):
            raise Refused("bad-login", "wrong password")
        hashed = await self._run(_HASHER.hash, new)

        def op(conn: Connection) -> None:
            conn.execute(players.update().where(players.c.id == player.id).values(password_hash=hashed))

        await self.store.write(op)
        return await self.rotate_session(player.id)

    async def delete(self, player: Player) -> str:
        """Delete a registered player's account: their sessions end, their name is freed, their games stay under
        the name ``"deleted-NNNNNN"`` (no longer anyone's). Returns that name. Raises ``Refused`` 409 for a
        guest."""
        if player.guest:
            raise Refused("not-registered", "a guest has no account to delete")
        former = f"deleted-{secrets.randbelow(900000) + 100000}"

        def op(conn: Connection) -> None:
            conn.execute(players.update().where(players.c.id == player.id).values(
                name=former, name_key=None, password_hash=None, deleted_at=now_utc()))
            conn.execute(player_sessions.delete().where(player_sessions.c.player_id == player.id))

        await self.store.write(op)
        self._sessions = {k: v for k, v in self._sessions.items() if v[0] != player.id}
        return former

    # -- seats ---------------------------------------------------------------------------------------------
    async def seat(self, game_id: str, colors: list[int], player_id: str) -> None:
        """Record that ``player_id`` holds the seats ``colors`` of ``game_id`` (for "my games" and names)."""
        if not colors:
            return

        def op(conn: Connection) -> None:
            conn.execute(game_players.insert(), [{"game_id": game_id, "color": c, "player_id": player_id}
                                                 for c in colors])

        await self.store.write(op)

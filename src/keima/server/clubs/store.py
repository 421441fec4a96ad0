"""Storage of clubs: the one module with their SQL (tables in ``keima.server.storage.clubs_tables``).

Every change of a club's members or ladder runs in one transaction that first writes the club's row
(``_lock``: the row on PostgreSQL, the database on SQLite), so that two changes of one club take turns and the
ladder's places stay 1..n without a hole or a double. Open ladder challenges whose time has passed are settled
(lost by their defender) at the start of each such transaction and of each reading of the ladder
(``settle``), so the ladder never shows one past its time, without a timer.

Blocking functions of a SQLAlchemy engine or connection: call them from a thread.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from keima.server.clubs import ladder
from keima.server.errors import Refused
from keima.server.storage import (
    club_challenges,
    club_members,
    clubs,
    players,
)

M, C, CH = club_members.c, clubs.c, club_challenges.c
#: What a member is (a request is not one yet).
MEMBER_ROLES = ("admin", "member")


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _club(row: Any) -> dict[str, Any]:
    return {"id": row.id, "slug": row.slug, "name": row.name, "code": row.code, "city": row.city,
            "description": row.description, "link": row.link, "created_by": row.created_by,
            "created_at": _utc(row.created_at), "invite_code": row.invite_code,
            "settings": {**ladder.DEFAULT_SETTINGS, **(row.settings or {})}}


def names(engine: Engine) -> list[tuple[str, str, str]]:
    """Every club's (id, name, slug): what a new name is compared with."""
    with engine.connect() as conn:
        return [(r.id, r.name, r.slug) for r in conn.execute(sa.select(C.id, C.name, C.slug))]


def created_by(engine: Engine, player_id: str) -> int:
    """How many clubs ``player_id`` created."""
    with engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).where(C.created_by == player_id)).scalar_one())


def create(engine: Engine, club: dict[str, Any], player_id: str, now: datetime) -> None:
    """Store the new ``club`` (the columns of ``clubs``) with ``player_id`` its first admin, first on its ladder.
    Raises ``Refused`` ``code-taken`` (409) when another club has its FFG code."""
    with engine.begin() as conn:
        _code_free(conn, club.get("code"), None)
        conn.execute(clubs.insert().values(**club, created_by=player_id, created_at=now))
        conn.execute(club_members.insert().values(club_id=club["id"], player_id=player_id, role="admin", place=1,
                                                  joined_at=now))


def _code_free(conn: Connection, code: str | None, club_id: str | None) -> None:
    if code is None:
        return
    other = conn.execute(sa.select(C.name).where(sa.func.lower(C.code) == code.lower(), C.id != (club_id or ""))).first()
    if other is not None:
        raise Refused("code-taken", f"the club {other.name!r} has the FFG code {code} already", )


def read(engine: Engine, slug: str) -> dict[str, Any] | None:
    """The club at ``slug`` (its columns, ``settings`` with the defaults filled in), or None."""
    with engine.connect() as conn:
        row = conn.execute(sa.select(clubs).where(C.slug == slug)).first()
    return None if row is None else _club(row)


def update(engine: Engine, club_id: str, values: dict[str, Any]) -> None:
    """Change the club's columns ``values`` (``code-taken`` 409 as ``create``)."""
    with engine.begin() as conn:
        _code_free(conn, values.get("code"), club_id)
        conn.execute(clubs.update().where(C.id == club_id).values(**values))


def listing(engine: Engine, player_id: str | None = None) -> list[dict[str, Any]]:
    """Every club with its number of members, by name; those of ``player_id`` only when given (with their
    ``role`` in each)."""
    count = (sa.select(M.club_id, sa.func.count().label("n")).where(M.role.in_(MEMBER_ROLES))
             .group_by(M.club_id).subquery())
    q = (sa.select(C.slug, C.name, C.code, C.city, sa.func.coalesce(count.c.n, 0).label("n"))
         .select_from(clubs.outerjoin(count, count.c.club_id == C.id)))
    if player_id is not None:
        q = q.add_columns(M.role).join(club_members, sa.and_(M.club_id == C.id, M.player_id == player_id))
    with engine.connect() as conn:
        rows = conn.execute(q.order_by(C.name)).all()
    return [{"slug": r.slug, "name": r.name, "code": r.code, "city": r.city, "members": int(r.n),
             **({"role": r.role} if player_id is not None else {})} for r in rows]


def members(engine: Engine, club_id: str) -> list[dict[str, Any]]:
    """The club's members and requests: player id, name, typed rank, role, ladder place, licence."""
    q = (sa.select(M.player_id, M.role, M.place, M.licence, players.c.name, players.c.rank)
         .select_from(club_members.join(players, players.c.id == M.player_id)).where(M.club_id == club_id))
    with engine.connect() as conn:
        return [{"id": r.player_id, "name": r.name, "rank": r.rank, "role": r.role, "place": r.place,
                 "licence": r.licence} for r in conn.execute(q)]


def role_of(engine: Engine, club_id: str, player_id: str) -> str | None:
    """``player_id``'s role in the club ("admin", "member", "requested"), or None."""
    with engine.connect() as conn:
        return conn.execute(sa.select(M.role).where(M.club_id == club_id, M.player_id == player_id)).scalar()


def _lock(conn: Connection, club_id: str) -> None:
    # A write first: the club's changes take turns (see the module's text).
    conn.execute(clubs.update().where(C.id == club_id).values(slug=C.slug))


def _order(conn: Connection, club_id: str) -> list[str]:
    return list(conn.execute(sa.select(M.player_id).where(M.club_id == club_id, M.place.is_not(None))
                             .order_by(M.place)).scalars())


def _write_order(conn: Connection, club_id: str, before: list[str], after: list[str]) -> None:
    for place, pid in enumerate(after, start=1):
        if place - 1 >= len(before) or before[place - 1] != pid:
            conn.execute(club_members.update().where(M.club_id == club_id, M.player_id == pid).values(place=place))


def _challenges(conn: Connection, club_id: str, statuses: tuple[str, ...] = ("open", "playing")) -> list[ladder.Challenge]:
    rows = conn.execute(sa.select(CH.id, CH.challenger, CH.defender, CH.status, CH.due_at)
                        .where(CH.club_id == club_id, CH.status.in_(statuses))).all()
    return [ladder.Challenge(r.id, r.challenger, r.defender, r.status, _utc(r.due_at)) for r in rows]


def settle(conn: Connection, club_id: str, now: datetime) -> int:
    """Settle the club's open challenges past their time (lost by the defender: the challenger climbs), in
    ``conn``'s transaction; returns how many."""
    late = ladder.expired(_challenges(conn, club_id, ("open",)), now)
    for c in late:
        order = _order(conn, club_id)
        _write_order(conn, club_id, order, ladder.after_result(order, c.challenger, c.defender, True))
        conn.execute(club_challenges.update().where(CH.id == c.id).values(status="expired"))
    return len(late)


def join(engine: Engine, club_id: str, player_id: str, role: str, now: datetime, licence: str | None = None) -> str:
    """Make ``player_id`` a member (``role`` "member" or "admin": at the bottom of the ladder) or a request
    ("requested"); a request accepted, or a member named again, keeps its row. Returns the role they have now.
    Raises ``Refused`` ``already-member`` (409) for a member asking again."""
    with engine.begin() as conn:
        _lock(conn, club_id)
        old = conn.execute(sa.select(M.role).where(M.club_id == club_id, M.player_id == player_id)).scalar()
        if old is not None and (old in MEMBER_ROLES or role == "requested"):
            if old == "requested" and role == "requested":
                return role
            raise Refused("already-member", "this player is in the club already")
        values: dict[str, Any] = {"role": role, "joined_at": now}
        if role in MEMBER_ROLES:
            values["place"] = len(_order(conn, club_id)) + 1
        if licence is not None:
            values["licence"] = licence
        if old is None:
            conn.execute(club_members.insert().values(club_id=club_id, player_id=player_id, **values))
        else:
            conn.execute(club_members.update().where(M.club_id == club_id, M.player_id == player_id).values(**values))
    return role


def set_role(engine: Engine, club_id: str, player_id: str, role: str) -> None:
    """Make the member ``player_id`` an admin or a plain member; the last admin stays one (``last-admin`` 409);
    ``not-found`` 404 for a player who is not a member."""
    with engine.begin() as conn:
        _lock(conn, club_id)
        old = conn.execute(sa.select(M.role).where(M.club_id == club_id, M.player_id == player_id)).scalar()
        if old not in MEMBER_ROLES:
            raise Refused("not-found", "this player is not a member of the club")
        if old == "admin" and role != "admin":
            _keep_an_admin(conn, club_id, player_id)
        conn.execute(club_members.update().where(M.club_id == club_id, M.player_id == player_id).values(role=role))


def _keep_an_admin(conn: Connection, club_id: str, player_id: str) -> None:
    others = conn.execute(sa.select(sa.func.count()).where(M.club_id == club_id, M.role == "admin",
                                                           M.player_id != player_id)).scalar_one()
    if not others:
        raise Refused("last-admin", "a club keeps at least one admin: name another admin first")


def remove(engine: Engine, club_id: str, player_id: str, now: datetime) -> None:
    """Take ``player_id`` out of the club (a member leaving or removed, a request refused): off the ladder, those
    below move up; their challenges in progress are withdrawn. The last admin stays (``last-admin`` 409);
    ``not-found`` 404 for a player who is not in the club."""
    with engine.begin() as conn:
        _lock(conn, club_id)
        settle(conn, club_id, now)
        old = conn.execute(sa.select(M.role).where(M.club_id == club_id, M.player_id == player_id)).scalar()
        if old is None:
            raise Refused("not-found", "this player is not in the club")
        if old == "admin":
            _keep_an_admin(conn, club_id, player_id)
        _take_out(conn, club_id, player_id)


def leave_all(engine: Engine, player_id: str, now: datetime) -> int:
    """A deleted account leaves every club it was in (as ``remove`` does; its requests go too); a club whose last
    admin it was gets the member first on its ladder as admin (a club with no other member is left without
    members). Returns how many clubs it left."""
    with engine.connect() as conn:
        ids = list(conn.execute(sa.select(M.club_id).where(M.player_id == player_id)).scalars())
    for club_id in ids:
        with engine.begin() as conn:
            _lock(conn, club_id)
            settle(conn, club_id, now)
            role = conn.execute(sa.select(M.role).where(M.club_id == club_id, M.player_id == player_id)).scalar()
            admins = conn.execute(sa.select(sa.func.count()).where(
                M.club_id == club_id, M.role == "admin", M.player_id != player_id)).scalar_one()
            if role == "admin" and not admins:
                heir = next((p for p in _order(conn, club_id) if p != player_id), None)
                if heir is not None:
                    conn.execute(club_members.update().where(M.club_id == club_id, M.player_id == heir)
                                 .values(role="admin"))
            _take_out(conn, club_id, player_id)
    return len(ids)


def withdraw_between(engine: Engine, a: str, b: str) -> int:
    """Withdraw the open ladder challenges between players ``a`` and ``b``, in every club (one blocked the other:
    the defender would lose on time a challenge they may no longer accept); returns how many. One accepted already
    is a game under way, which goes on."""
    pair = sa.or_(sa.and_(CH.challenger == a, CH.defender == b), sa.and_(CH.challenger == b, CH.defender == a))
    with engine.begin() as conn:
        return int(conn.execute(club_challenges.update().where(CH.status == "open", pair)
                                .values(status="withdrawn")).rowcount or 0)


def _take_out(conn: Connection, club_id: str, player_id: str) -> None:
    # Off the member list and the ladder (those below move up); their open challenges withdrawn.
    order = _order(conn, club_id)
    conn.execute(club_members.delete().where(M.club_id == club_id, M.player_id == player_id))
    _write_order(conn, club_id, order, ladder.left(order, player_id))
    conn.execute(club_challenges.update().where(
        CH.club_id == club_id, CH.status == "open",
        sa.or_(CH.challenger == player_id, CH.defender == player_id)).values(status="withdrawn"))


# -- the ladder ----------------------------------------------------------------------------------------------------
def ladder_of(engine: Engine, club_id: str, now: datetime) -> tuple[list[str], list[dict[str, Any]]]:
    """The ladder (player ids, the top first) after settling the challenges past their time, and the challenges
    in progress and the 20 last ended, newest first (their columns)."""
    with engine.begin() as conn:
        if ladder.expired(_challenges(conn, club_id, ("open",)), now):
            _lock(conn, club_id)
            settle(conn, club_id, now)
        order = _order(conn, club_id)
        live = conn.execute(sa.select(club_challenges).where(CH.club_id == club_id, CH.status.in_(("open", "playing")))
                            .order_by(CH.id.desc())).all()
        ended = conn.execute(sa.select(club_challenges).where(CH.club_id == club_id,
                                                              CH.status.not_in(("open", "playing")))
                             .order_by(CH.id.desc()).limit(20)).all()
    return order, [dict(r._mapping) | {"due_at": _utc(r.due_at), "created_at": _utc(r.created_at)}
                   for r in [*live, *ended]]


def challenge(engine: Engine, club_id: str, challenger: str, defender: str, now: datetime) -> int:
    """Store ``challenger``'s challenge of ``defender`` by the club's rules (``keima.server.clubs.ladder``);
    returns its id. Raises ``Refused`` with the rules' code (403 ``not-member``, 404 ``not-found``, 409
    ``out-of-reach`` or ``busy``)."""
    with engine.begin() as conn:
        _lock(conn, club_id)
        settle(conn, club_id, now)
        raw = conn.execute(sa.select(C.settings).where(C.id == club_id)).scalar_one()
        rules = {**ladder.DEFAULT_SETTINGS, **(raw or {})}
        try:
            ladder.can_challenge(_order(conn, club_id), challenger, defender, int(rules["reach"]),
                                 _challenges(conn, club_id))
        except ladder.LadderRefusal as exc:
            raise Refused(exc.code, exc.message, field="defender") from None
        key = conn.execute(club_challenges.insert().values(
            club_id=club_id, challenger=challenger, defender=defender, status="open", created_at=now,
            due_at=ladder.due(now, int(rules["days"])))).inserted_primary_key
        assert key is not None
        cid = int(key[0])
    return cid


def answer(engine: Engine, club_id: str, cid: int, player_id: str, accept: bool, game_id: str,
           now: datetime) -> dict[str, Any]:
    """The defender accepts an open challenge (it is bound to ``game_id``, the game the caller makes next) or the
    challenger withdraws it (``accept`` False); returns the challenge's columns. Raises ``Refused``: ``not-found``
    404, ``not-your-seat`` 403 (the wrong player), ``not-open`` 409 (answered, or past its time)."""
    with engine.begin() as conn:
        _lock(conn, club_id)
        settle(conn, club_id, now)
        row = conn.execute(sa.select(club_challenges).where(CH.id == cid, CH.club_id == club_id)).first()
        if row is None:
            raise Refused("not-found", f"no challenge {cid} in this club")
        if player_id != (row.defender if accept else row.challenger):
            raise Refused("not-your-seat", "the defender accepts a challenge; the challenger withdraws it")
        if row.status != "open":
            raise Refused("not-open", f"this challenge is {row.status} already")
        values = {"status": "playing", "game_id": game_id} if accept else {"status": "withdrawn"}
        conn.execute(club_challenges.update().where(CH.id == cid).values(**values))
    return dict(row._mapping) | values


def game_ended(conn: Connection, game_id: str, result: str) -> bool:
    """The ladder game ``game_id`` ended with ``result``: its challenge is won or lost by the challenger (who
    played Black) and the ladder changes by the rules, in ``conn``'s transaction (the outbox's delivery).
    Returns False for a game that is no ladder game in progress."""
    row = conn.execute(sa.select(club_challenges).where(CH.game_id == game_id, CH.status == "playing")).first()
    if row is None:
        return False
    _lock(conn, row.club_id)
    status = ladder.outcome(result, "B")
    order = _order(conn, row.club_id)
    _write_order(conn, row.club_id, order, ladder.after_result(order, row.challenger, row.defender, status == "won"))
    conn.execute(club_challenges.update().where(CH.id == row.id).values(status=status, result=result))
    return True


def player_named(engine: Engine, key: str) -> tuple[str, str] | None:
    """(id, name) of the registered player whose folded name is ``key`` (``keima.server.accounts.name_key``)."""
    with engine.connect() as conn:
        r = conn.execute(sa.select(players.c.id, players.c.name).where(
            players.c.name_key == key, players.c.deleted_at.is_(None), players.c.password_hash.is_not(None))).first()
    return None if r is None else (r.id, r.name)


def names_of(engine: Engine, ids: list[str]) -> dict[str, tuple[str, str | None]]:
    """Player id -> (name, typed rank) of ``ids``."""
    if not ids:
        return {}
    with engine.connect() as conn:
        rows = conn.execute(sa.select(players.c.id, players.c.name, players.c.rank).where(players.c.id.in_(ids)))
        return {r.id: (r.name, r.rank) for r in rows}


def role_at(engine: Engine, slug: str, player_id: str) -> tuple[str, str | None] | None:
    """The club at ``slug``'s name and ``player_id``'s role in it (None: not in it), or None for no such club:
    what other rooms ask (a tournament for the club's members only)."""
    with engine.connect() as conn:
        club = conn.execute(sa.select(C.id, C.name).where(C.slug == slug)).first()
        if club is None:
            return None
        role = conn.execute(sa.select(M.role).where(M.club_id == club.id, M.player_id == player_id)).scalar()
    return club.name, role


def reopen(engine: Engine, club_id: str, cid: int) -> None:
    """An accepted challenge whose game could not be made is open again (its time unchanged)."""
    with engine.begin() as conn:
        conn.execute(club_challenges.update().where(CH.id == cid, CH.club_id == club_id, CH.status == "playing")
                     .values(status="open", game_id=None))
